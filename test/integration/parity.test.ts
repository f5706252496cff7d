/**
 * The same requests answered by a server on SQLite and one on Postgres give byte-for-byte the same bodies, once the
 * generated ids are mapped to placeholders (docs/design.md: dates, booleans, JSON and counts are normalised in the
 * repositories). Runs when TEST_DATABASE_URL names a Postgres server.
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';

async function script(server: TestServer): Promise<string[]> {
  const tenant = await server.createTenant('Parity');
  const headers = { authorization: `Bearer ${tenant.keys.admin}`, 'content-type': 'application/json' };
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.baseUrl + path, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, text: await res.text() };
  };
  const out: { status: number; text: string }[] = [];
  const created = await send('POST', '/projects', {
    name: 'Parity viaduct',
    code: 'PAR-1',
    startDate: '2024-02-29',
    endDate: '2026-12-31',
    budget: 1234567.89,
    actualCost: 0.1,
    forecastCost: 1300000.005,
    tags: ['Bridges', 'Queens'],
    progress: 12,
  });
  out.push(created);
  const id = JSON.parse(created.text).id as string;
  out.push(
    await send('PATCH', `/projects/${id}`, {
      status: 'AT_RISK',
      forecastEndDate: '2027-03-01',
      description: 'é ✓ "q"',
    }),
  );
  out.push(
    await send('POST', '/risks', { title: 'Steel price spike', projectId: id, likelihood: 4, impact: 5 }),
  );
  out.push(await send('GET', `/projects/${id}`));
  out.push(await send('GET', '/projects?status=AT_RISK&limit=1'));
  out.push(await send('GET', '/risks?severity=CRITICAL'));
  out.push(await send('GET', '/tenant'));
  // Ids and key prefixes are random: name them by order of appearance.
  const ids = new Map<string, string>();
  return out.map(({ status, text }) => {
    const normalised = text.replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
      (uuid) => {
        if (!ids.has(uuid)) ids.set(uuid, `<id${ids.size}>`);
        return ids.get(uuid) as string;
      },
    );
    return `${status} ${normalised}`;
  });
}

describe('SQLite and Postgres answer alike', function () {
  this.timeout(60_000);
  before(function () {
    if (!process.env.TEST_DATABASE_URL) this.skip();
  });

  it('gives identical bodies for the same requests at the same instants', async () => {
    const answers: string[][] = [];
    for (const db of ['sqlite', 'postgres'] as const) {
      const server = await startTestServer({ db, clock: new ManualClock('2026-03-02T08:00:00.000Z') });
      try {
        expect(server.db.dialect).to.equal(db);
        answers.push(await script(server));
      } finally {
        await server.close();
      }
    }
    expect(answers[0]).to.have.length(7);
    expect(answers[1]).to.deep.equal(answers[0]);
    expect(answers[0]?.[0]).to.match(/^201 .*"budget":1234567.89.*"tags":\["Bridges","Queens"\]/);
  });
});
