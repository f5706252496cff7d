/**
 * On Postgres one process runs each periodic sweep (docs/design.md: an advisory lock): while another session holds the
 * missed-milestone sweep's lock, a sweep skips; once it is released, the sweep runs.
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { client } from '../support/client.js';
import { startTestServer, TEST_DB, type TestServer } from '../support/server.js';

describe('sweep lock (Postgres)', () => {
  let server: TestServer;
  before(async function () {
    if (TEST_DB !== 'postgres') this.skip();
    server = await startTestServer({ clock: new ManualClock('2026-06-10T12:00:00.000Z') });
  });
  after(async () => server?.close());

  it('skips while another process holds the lock, then runs', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const project = (
      await api.post('createProject', '/projects', {
        body: { name: 'Locked', startDate: '2026-01-01', endDate: '2026-12-31' },
      })
    ).body;
    const milestone = (
      await api.post('createMilestone', `/projects/${project.id}/milestones`, {
        body: { name: 'Late', dueDate: '2026-06-01' },
      })
    ).body;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another "process": a session that holds the sweep's advisory lock until released.
    const other = server.db.knex.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['meridian:sweep:missed-milestones']);
      locked();
      await released;
    });
    await holding;
    expect(await server.meridian.services.milestones.sweepMissed()).to.equal(0);
    expect((await api.get('getMilestone', `/milestones/${milestone.id}`)).body.status).to.equal('PENDING');
    release();
    await other;
    expect(await server.meridian.services.milestones.sweepMissed()).to.equal(1);
    expect((await api.get('getMilestone', `/milestones/${milestone.id}`)).body.status).to.equal('MISSED');
  });
});
