/**
 * The totals kept in `list_counts` (migration 20261125000100; docs/design.md, List totals): GET /projects?status=…
 * and GET /risks?severity=… / ?status=… read their `pagination.total` from counters that triggers keep in step with
 * every write. After creates, status/severity changes, a second tenant's writes and rows written outside the
 * services (the importer's path: plain INSERT/UPDATE/DELETE), each total must equal `count(*)` of the same filter,
 * on both databases.
 */
import { expect } from 'chai';
import { client } from '../support/client.js';
import { makeProject, makeRisk } from '../support/records.js';
import { startTestServer, TEST_DB, type TestServer } from '../support/server.js';

const PROJECT_STATUSES = ['PLANNED', 'ON_TRACK', 'AT_RISK', 'OFF_TRACK', 'ON_HOLD', 'COMPLETED', 'CANCELLED'];
const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
const RISK_STATUSES = ['OPEN', 'MITIGATING', 'CLOSED', 'ACCEPTED'];

describe(`list totals kept in list_counts (${TEST_DB})`, function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  /** Every counted filter's total over HTTP against count(*) of the same filter in the database. */
  async function expectExactTotals(tenantId: string, key: string): Promise<void> {
    const api = client(server.baseUrl, key);
    const knex = server.db.knex;
    const counted = async (table: string, where: Record<string, string>) =>
      Number(
        (
          (await knex(table)
            .where({ tenant_id: tenantId, ...where })
            .count({ n: '*' })) as { n: unknown }[]
        )[0]?.n,
      );
    for (const status of PROJECT_STATUSES) {
      const res = await api.get('listProjects', '/projects', { query: { status, limit: '1' } });
      expect(res.status).to.equal(200);
      expect(res.body.pagination.total, `projects ${status}`).to.equal(await counted('projects', { status }));
    }
    for (const severity of SEVERITIES) {
      const res = await api.get('listRisks', '/risks', { query: { severity, limit: '1' } });
      expect(res.body.pagination.total, `risks severity ${severity}`).to.equal(
        await counted('risks', { severity }),
      );
    }
    for (const status of RISK_STATUSES) {
      const res = await api.get('listRisks', '/risks', { query: { status, limit: '1' } });
      expect(res.body.pagination.total, `risks status ${status}`).to.equal(
        await counted('risks', { status }),
      );
    }
  }

  it('equal count(*) after creates, changes of the counted fields, and plain SQL writes', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const apiA = client(server.baseUrl, a.keys.admin);
    const apiB = client(server.baseUrl, b.keys.admin);
    const projects = [];
    for (const [i, status] of PROJECT_STATUSES.entries()) {
      projects.push(await makeProject(apiA, { status }));
      if (i % 2 === 0)
        await makeRisk(apiB, (await makeProject(apiB, { status })).id, { likelihood: 4, impact: 4 });
    }
    const risks = [];
    for (const [i, project] of projects.slice(0, 4).entries()) {
      risks.push(await makeRisk(apiA, project.id, { likelihood: 1 + i, impact: 1 + i }));
      await makeRisk(apiA, project.id, { likelihood: 5, impact: 5 });
    }
    await expectExactTotals(a.tenantId, a.keys.read);

    // Counted fields change: a project's status, a risk's severity (via its score) and status.
    const p = projects[0];
    const moved = await apiA.patch('updateProject', `/projects/${p.id}`, {
      body: { status: 'AT_RISK' },
      headers: { 'if-match': `"${p.version}"` },
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const r = risks[0];
    const changed = await apiA.patch('updateRisk', `/risks/${r.id}`, {
      body: { likelihood: 5, impact: 5, status: 'MITIGATING' },
      headers: { 'if-match': `"${r.version}"` },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    await expectExactTotals(a.tenantId, a.keys.read);

    // Writes that bypass the services (the importer's and migrations' plain SQL) are counted too.
    await server.db
      .knex('risks')
      .where({ tenant_id: a.tenantId, id: risks[1].id })
      .update({ severity: 'CRITICAL' });
    await server.db.knex('risks').where({ tenant_id: a.tenantId, id: risks[2].id }).delete();
    await server.db
      .knex('projects')
      .where({ tenant_id: a.tenantId, id: projects[6].id })
      .update({ status: 'PLANNED' });
    await expectExactTotals(a.tenantId, a.keys.read);
    await expectExactTotals(b.tenantId, b.keys.read);
  });

  it('does not serve a total from the counters when another filter narrows the list', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.admin);
    await makeProject(api, { status: 'AT_RISK', borough: 'Queens' });
    await makeProject(api, { status: 'AT_RISK', borough: 'Bronx' });
    const res = await api.get('listProjects', '/projects', {
      query: { status: 'AT_RISK', borough: 'Queens' },
    });
    expect(res.body.pagination.total).to.equal(1);
    const project = await makeProject(api);
    await makeRisk(api, project.id, { likelihood: 5, impact: 5 });
    const other = await makeProject(api);
    await makeRisk(api, other.id, { likelihood: 5, impact: 5 });
    const risks = await api.get('listRisks', '/risks', {
      query: { severity: 'CRITICAL', projectId: project.id },
    });
    expect(risks.body.pagination.total).to.equal(1);
  });
});
