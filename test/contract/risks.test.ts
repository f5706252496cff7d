/**
 * Contract tests of the Risks tag: createRisk, listRisks, getRisk, updateRisk.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { apiPathOf, expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { type Api, client } from '../support/client.js';
import { makeProject, makeRisk, uniq } from '../support/records.js';
import { startTestServer, type TestServer, type TestTenant } from '../support/server.js';

describe('Risks', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  let tenant: TestTenant;
  let api: Api;
  let project: any;
  beforeEach(async () => {
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.write);
    project = await makeProject(api);
  });

  describe('createRisk', () => {
    it('answers 201 with Location, ETag and the defaults', async () => {
      const title = uniq('Lead paint');
      const res = await api.post('createRisk', '/risks', {
        body: { title, projectId: project.id, likelihood: 4, impact: 4 },
      });
      expect(res.status).to.equal(201);
      expect(res.headers.get('etag')).to.equal('"1"');
      const r = res.body;
      expect(r).to.include({
        projectId: project.id,
        title,
        description: null,
        likelihood: 4,
        impact: 4,
        score: 16,
        severity: 'HIGH',
        severitySource: 'DERIVED',
        status: 'OPEN',
        ownerId: null,
        mitigation: null,
        dueDate: null,
        version: 1,
      });
      expect(r.createdAt).to.equal(r.updatedAt);
      const location = res.headers.get('location') as string;
      expect(new URL(location, server.baseUrl).pathname).to.equal(`/v1/risks/${r.id}`);
      const got = await api.get('getRisk', apiPathOf(location, server.baseUrl));
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(r);
    });

    for (const [likelihood, impact, score, severity] of [
      [1, 1, 1, 'LOW'],
      [1, 4, 4, 'LOW'],
      [1, 5, 5, 'MEDIUM'],
      [3, 3, 9, 'MEDIUM'],
      [2, 5, 10, 'HIGH'],
      [4, 4, 16, 'HIGH'],
      [4, 5, 20, 'CRITICAL'],
      [5, 5, 25, 'CRITICAL'],
    ] as const) {
      it(`derives score ${score} and severity ${severity} from (${likelihood}, ${impact})`, async () => {
        const r = await makeRisk(api, project.id, { likelihood, impact });
        expect(r).to.include({ likelihood, impact, score, severity, severitySource: 'DERIVED' });
      });
    }

    it('keeps an explicit severity as MANUAL and round-trips the optional fields', async () => {
      const body = {
        title: uniq('Manual'),
        projectId: project.id,
        likelihood: 1,
        impact: 1,
        severity: 'CRITICAL',
        status: 'MITIGATING',
        description: 'described',
        mitigation: 'a plan',
        dueDate: '2026-07-15',
      };
      const res = await api.post('createRisk', '/risks', { body });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ ...body, score: 1, severitySource: 'MANUAL', ownerId: null });
      const got = await api.get('getRisk', `/risks/${res.body.id}`);
      expect(got.body).to.deep.equal(res.body);
    });

    for (const [name, patch, field] of [
      ['likelihood 0', { likelihood: 0 }, '/likelihood'],
      ['likelihood 6', { likelihood: 6 }, '/likelihood'],
      ['likelihood 2.5', { likelihood: 2.5 }, '/likelihood'],
      ['impact 0', { impact: 0 }, '/impact'],
      ['impact "3"', { impact: '3' }, '/impact'],
      ['severity BOGUS', { severity: 'BOGUS' }, '/severity'],
      ['projectId not a uuid', { projectId: 'p-1' }, '/projectId'],
      ['dueDate 2026-02-30', { dueDate: '2026-02-30' }, '/dueDate'],
    ] as [string, Record<string, unknown>, string][]) {
      it(`answers 400 for ${name}`, async () => {
        const res = await api.post('createRisk', '/risks', {
          body: { title: uniq('Bad'), projectId: project.id, likelihood: 3, impact: 3, ...patch },
        });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`body:${field}`);
      });
    }

    it('answers 400 listing missing title, projectId, likelihood and impact', async () => {
      const res = await api.post('createRisk', '/risks', { body: {} });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include.members([
        'body:/title',
        'body:/projectId',
        'body:/likelihood',
        'body:/impact',
      ]);
      const partial = await api.post('createRisk', '/risks', { body: { likelihood: 2, impact: 2 } });
      const pb = expectProblem(partial, 400, 'validation_failed');
      expect(fieldErrors(pb)).to.have.members(['body:/title', 'body:/projectId']);
      const list = await api.get('listRisks', '/risks');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 400 for an unknown body property', async () => {
      const res = await api.post('createRisk', '/risks', {
        body: { title: uniq('x'), projectId: project.id, likelihood: 2, impact: 2, score: 4 },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/score');
    });

    it('answers 422 with errors path /projectId when the project does not exist', async () => {
      const res = await api.post('createRisk', '/risks', {
        body: { title: uniq('Orphan'), projectId: randomUUID(), likelihood: 2, impact: 2 },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(body.errors[0]).to.include({ location: 'body', path: '/projectId' });
      const list = await api.get('listRisks', '/risks');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 422 when the project belongs to another tenant', async () => {
      const other = await server.createTenant();
      const theirs = await makeProject(client(server.baseUrl, other.keys.write));
      const res = await api.post('createRisk', '/risks', {
        body: { title: uniq('Cross'), projectId: theirs.id, likelihood: 2, impact: 2 },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/projectId');
      const otherList = await client(server.baseUrl, other.keys.read).get('listRisks', '/risks');
      expect(otherList.body.pagination.total).to.equal(0);
    });

    it('answers 422 for an ownerId that names no resource of the tenant', async () => {
      const res = await api.post('createRisk', '/risks', {
        body: {
          title: uniq('Owner'),
          projectId: project.id,
          likelihood: 2,
          impact: 2,
          ownerId: randomUUID(),
        },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/ownerId');
    });

    it('answers 403 forbidden for a read-only key', async () => {
      const res = await client(server.baseUrl, tenant.keys.read).post('createRisk', '/risks', {
        body: { title: uniq('x'), projectId: project.id, likelihood: 2, impact: 2 },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
    });
  });

  describe('listRisks', () => {
    it('answers an empty envelope for a tenant without risks', async () => {
      const res = await api.get('listRisks', '/risks');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
      expect(res.headers.get('link')).to.equal(null);
    });

    it('restricts by projectId, status and severity, each alone and combined with AND (seed rule 1)', async () => {
      const p2 = await makeProject(api);
      // p1: OPEN/LOW, OPEN/HIGH, MITIGATING/HIGH; p2: OPEN/HIGH, CLOSED/CRITICAL, MITIGATING/LOW (manual)
      const a = await makeRisk(api, project.id, { likelihood: 1, impact: 2 });
      const b = await makeRisk(api, project.id, { likelihood: 3, impact: 4 });
      const c = await makeRisk(api, project.id, { likelihood: 4, impact: 4, status: 'MITIGATING' });
      const d = await makeRisk(api, p2.id, { likelihood: 2, impact: 5 });
      const e = await makeRisk(api, p2.id, { likelihood: 5, impact: 5, status: 'CLOSED' });
      const f = await makeRisk(api, p2.id, {
        likelihood: 5,
        impact: 4,
        status: 'MITIGATING',
        severity: 'LOW',
      });
      expect([a, b, c, d, e, f].map((r) => r.severity)).to.deep.equal([
        'LOW',
        'HIGH',
        'HIGH',
        'HIGH',
        'CRITICAL',
        'LOW',
      ]);

      const ids = async (query: Record<string, string>) => {
        const res = await api.get('listRisks', '/risks', { query });
        expect(res.status).to.equal(200);
        expect(res.body.pagination.total).to.equal(res.body.data.length);
        return res.body.data.map((r: any) => r.id);
      };
      expect(await ids({})).to.deep.equal([a, b, c, d, e, f].map((r) => r.id));
      expect(await ids({ projectId: project.id })).to.deep.equal([a.id, b.id, c.id]);
      expect(await ids({ projectId: p2.id })).to.deep.equal([d.id, e.id, f.id]);
      expect(await ids({ status: 'OPEN' })).to.deep.equal([a.id, b.id, d.id]);
      expect(await ids({ status: 'MITIGATING' })).to.deep.equal([c.id, f.id]);
      expect(await ids({ status: 'ACCEPTED' })).to.deep.equal([]);
      expect(await ids({ severity: 'HIGH' })).to.deep.equal([b.id, c.id, d.id]);
      expect(await ids({ severity: 'LOW' })).to.deep.equal([a.id, f.id]);
      expect(await ids({ severity: 'CRITICAL' })).to.deep.equal([e.id]);
      expect(await ids({ projectId: project.id, status: 'OPEN' })).to.deep.equal([a.id, b.id]);
      expect(await ids({ projectId: p2.id, severity: 'HIGH' })).to.deep.equal([d.id]);
      expect(await ids({ status: 'MITIGATING', severity: 'HIGH' })).to.deep.equal([c.id]);
      expect(await ids({ projectId: project.id, status: 'OPEN', severity: 'HIGH' })).to.deep.equal([b.id]);
      expect(await ids({ projectId: p2.id, status: 'OPEN', severity: 'LOW' })).to.deep.equal([]);
      expect(await ids({ projectId: randomUUID() })).to.deep.equal([]);
    });

    it('paginates with the envelope and Link headers', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await makeRisk(api, project.id)).id);
      const p1 = await api.get('listRisks', '/risks', { query: { limit: 2, projectId: project.id } });
      expect(p1.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 5, hasMore: true });
      expect(p1.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(0, 2));
      const next = parseLink(p1.headers.get('link')).next as string;
      expect(new URL(next).searchParams.get('projectId')).to.equal(project.id);
      const p2 = await api.get('listRisks', apiPathOf(next, server.baseUrl));
      expect(p2.body.pagination).to.deep.equal({ limit: 2, offset: 2, total: 5, hasMore: true });
      expect(p2.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(2, 4));
      const links = parseLink(p2.headers.get('link'));
      expect(Object.keys(links).sort()).to.deep.equal(['next', 'prev']);
      const p3 = await api.get('listRisks', apiPathOf(links.next as string, server.baseUrl));
      expect(p3.body.pagination).to.deep.equal({ limit: 2, offset: 4, total: 5, hasMore: false });
      expect(p3.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(4));
      expect(Object.keys(parseLink(p3.headers.get('link')))).to.deep.equal(['prev']);
    });

    it('never shows another tenant’s risks, even when filtering by their project', async () => {
      const mine = await makeRisk(api, project.id);
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      const theirProject = await makeProject(otherApi);
      const theirs = await makeRisk(otherApi, theirProject.id);
      const res = await api.get('listRisks', '/risks');
      expect(res.body.data.map((r: any) => r.id)).to.deep.equal([mine.id]);
      const byTheirProject = await api.get('listRisks', '/risks', { query: { projectId: theirProject.id } });
      expect(byTheirProject.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
      const theirList = await otherApi.get('listRisks', '/risks');
      expect(theirList.body.data.map((r: any) => r.id)).to.deep.equal([theirs.id]);
    });

    for (const [name, query, field] of [
      ['severity BOGUS', { severity: 'BOGUS' }, 'severity'],
      ['status BOGUS', { status: 'BOGUS' }, 'status'],
      ['projectId not a uuid', { projectId: 'nope' }, 'projectId'],
      ['limit 101', { limit: 101 }, 'limit'],
      ['unknown parameter', { priority: 'HIGH' }, 'priority'],
    ] as const) {
      it(`answers 400 naming the query field for ${name}`, async () => {
        const res = await api.get('listRisks', '/risks', { query });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`query:${field}`);
      });
    }
  });

  describe('getRisk', () => {
    it('answers the risk with its ETag', async () => {
      const r = await makeRisk(api, project.id, { likelihood: 3, impact: 5 });
      const res = await client(server.baseUrl, tenant.keys.read).get('getRisk', `/risks/${r.id}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(res.body).to.deep.equal(r);
    });

    it('answers 404 for an unknown id and for another tenant’s risk', async () => {
      expectProblem(await api.get('getRisk', `/risks/${randomUUID()}`), 404, 'not_found');
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      const theirs = await makeRisk(otherApi, (await makeProject(otherApi)).id);
      expectProblem(await api.get('getRisk', `/risks/${theirs.id}`), 404, 'not_found');
    });

    it('answers 400 for a non-uuid id', async () => {
      const body = expectProblem(await api.get('getRisk', '/risks/123'), 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('path:id');
    });
  });

  describe('updateRisk', () => {
    it('recomputes score and the DERIVED severity when likelihood changes, keeping other fields', async () => {
      const r = await makeRisk(api, project.id, { likelihood: 2, impact: 4, mitigation: 'plan A' });
      expect(r).to.include({ score: 8, severity: 'MEDIUM' });
      const res = await api.patch('updateRisk', `/risks/${r.id}`, { body: { likelihood: 5 } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"2"');
      expect(res.body).to.include({ likelihood: 5, impact: 4, score: 20, severity: 'CRITICAL' });
      expect(res.body).to.include({ severitySource: 'DERIVED', version: 2 });
      const strip = ({
        likelihood: _l,
        score: _s,
        severity: _v,
        version: _ve,
        updatedAt: _u,
        ...rest
      }: any) => rest;
      expect(strip(res.body)).to.deep.equal(strip(r));
      const got = await api.get('getRisk', `/risks/${r.id}`);
      expect(got.body).to.deep.equal(res.body);
      expect(got.headers.get('etag')).to.equal('"2"');
      const down = await api.patch('updateRisk', `/risks/${r.id}`, { body: { impact: 1 } });
      expect(down.body).to.include({ score: 5, severity: 'MEDIUM', version: 3 });
    });

    it('keeps a MANUAL severity when likelihood changes, and severity: null returns to DERIVED', async () => {
      const r = await makeRisk(api, project.id, { likelihood: 1, impact: 2 });
      const manual = await api.patch('updateRisk', `/risks/${r.id}`, { body: { severity: 'HIGH' } });
      expect(manual.body).to.include({ severity: 'HIGH', severitySource: 'MANUAL', score: 2, version: 2 });
      const moved = await api.patch('updateRisk', `/risks/${r.id}`, { body: { likelihood: 5, impact: 5 } });
      expect(moved.body).to.include({ score: 25, severity: 'HIGH', severitySource: 'MANUAL', version: 3 });
      const derived = await api.patch('updateRisk', `/risks/${r.id}`, { body: { severity: null } });
      expect(derived.body).to.include({
        score: 25,
        severity: 'CRITICAL',
        severitySource: 'DERIVED',
        version: 4,
      });
      const got = await api.get('getRisk', `/risks/${r.id}`);
      expect(got.body).to.deep.equal(derived.body);
    });

    it('changes status to MITIGATING and clears nullable fields with null', async () => {
      const r = await makeRisk(api, project.id, { mitigation: 'plan', dueDate: '2026-05-01' });
      const res = await api.patch('updateRisk', `/risks/${r.id}`, {
        body: { status: 'MITIGATING', dueDate: null },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'MITIGATING', dueDate: null, mitigation: 'plan', version: 2 });
      const filtered = await api.get('listRisks', '/risks', { query: { status: 'MITIGATING' } });
      expect(filtered.body.data.map((x: any) => x.id)).to.deep.equal([r.id]);
    });

    it('treats an empty body as a no-op', async () => {
      const r = await makeRisk(api, project.id);
      const res = await api.patch('updateRisk', `/risks/${r.id}`, { body: {} });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(r);
      expect(res.headers.get('etag')).to.equal('"1"');
    });

    it('answers 400 when trying to move the risk to another project', async () => {
      const r = await makeRisk(api, project.id);
      const p2 = await makeProject(api);
      const res = await api.patch('updateRisk', `/risks/${r.id}`, { body: { projectId: p2.id } });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/projectId');
      const got = await api.get('getRisk', `/risks/${r.id}`);
      expect(got.body.projectId).to.equal(project.id);
    });

    it('accepts If-Match with the current ETag and *', async () => {
      const r = await makeRisk(api, project.id);
      const ok = await api.patch('updateRisk', `/risks/${r.id}`, {
        body: { title: 'v2' },
        headers: { 'If-Match': '"1"' },
      });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.include({ title: 'v2', version: 2 });
      const star = await api.patch('updateRisk', `/risks/${r.id}`, {
        body: { title: 'v3' },
        headers: { 'If-Match': '*' },
      });
      expect(star.body).to.include({ title: 'v3', version: 3 });
    });

    it('answers 412 for a stale If-Match and writes nothing', async () => {
      const r = await makeRisk(api, project.id);
      await api.patch('updateRisk', `/risks/${r.id}`, { body: { title: 'v2' } });
      const stale = await api.patch('updateRisk', `/risks/${r.id}`, {
        body: { title: 'lost' },
        headers: { 'If-Match': '"1"' },
      });
      expectProblem(stale, 412, 'precondition_failed');
      const got = await api.get('getRisk', `/risks/${r.id}`);
      expect(got.body).to.include({ title: 'v2', version: 2 });
    });

    it('answers 404 for an unknown id and for another tenant’s risk (unchanged)', async () => {
      expectProblem(
        await api.patch('updateRisk', `/risks/${randomUUID()}`, { body: { title: 'x' } }),
        404,
        'not_found',
      );
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      const theirs = await makeRisk(otherApi, (await makeProject(otherApi)).id);
      const res = await api.patch('updateRisk', `/risks/${theirs.id}`, { body: { title: 'hijack' } });
      expectProblem(res, 404, 'not_found');
      const got = await otherApi.get('getRisk', `/risks/${theirs.id}`);
      expect(got.body).to.deep.equal(theirs);
    });

    it('answers 403 forbidden for a read-only key (unchanged)', async () => {
      const r = await makeRisk(api, project.id);
      const res = await client(server.baseUrl, tenant.keys.read).patch('updateRisk', `/risks/${r.id}`, {
        body: { status: 'CLOSED' },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
      const got = await api.get('getRisk', `/risks/${r.id}`);
      expect(got.body).to.deep.equal(r);
    });

    it('answers 400 for out-of-range likelihood and unknown properties', async () => {
      const r = await makeRisk(api, project.id);
      for (const [body, field] of [
        [{ likelihood: 6 }, '/likelihood'],
        [{ impact: 0 }, '/impact'],
        [{ severity: 'SEVERE' }, '/severity'],
        [{ score: 3 }, '/score'],
      ] as const) {
        const res = await api.patch('updateRisk', `/risks/${r.id}`, { body });
        const problem = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(problem)).to.include(`body:${field}`);
      }
      const got = await api.get('getRisk', `/risks/${r.id}`);
      expect(got.body.version).to.equal(1);
    });
  });
});
