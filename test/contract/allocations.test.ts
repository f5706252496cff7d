/**
 * Contract tests of the Allocations tag: listAllocations, createAllocation, getAllocation, updateAllocation,
 * deleteAllocation, listAllocationConflicts (periods hand-computed).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { listAuditForResource } from '../../server/repositories/audit.js';
import { client } from '../support/client.js';
import { startTestServer, type TestServer, type TestTenant } from '../support/server.js';
import { type Api, apiPathOf, expectProblem, fieldErrors, makeProject, parseLink, uniq } from './helpers.js';

async function makeResource(api: Api, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('createResource', '/resources', { body: { name: uniq('Person'), ...fields } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

describe('Allocations', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  let tenant: TestTenant;
  let api: Api;
  let resource: any;
  let project: any;
  beforeEach(async () => {
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.write);
    resource = await makeResource(api);
    project = await makeProject(api);
  });

  /** Creates an allocation of `resource` to `project` unless overridden (201 asserted). */
  async function allocate(fields: Record<string, unknown> = {}): Promise<any> {
    const res = await api.post('createAllocation', '/allocations', {
      body: {
        resourceId: resource.id,
        projectId: project.id,
        startDate: '2026-06-01',
        endDate: '2026-06-30',
        allocationPercent: 50,
        ...fields,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }

  describe('createAllocation', () => {
    it('answers 201 with Location and ETag; getAllocation answers the same record', async () => {
      const body = {
        resourceId: resource.id,
        projectId: project.id,
        startDate: '2026-06-01',
        endDate: '2026-06-01',
        allocationPercent: 12.5,
        role: 'Reviewer',
      };
      const res = await api.post('createAllocation', '/allocations', { body });
      expect(res.status).to.equal(201);
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(res.body).to.include({ ...body, version: 1 });
      expect(res.body.createdAt).to.equal(res.body.updatedAt);
      const location = res.headers.get('location') as string;
      expect(location).to.equal(`/v1/allocations/${res.body.id}`);
      const got = await client(server.baseUrl, tenant.keys.read).get(
        'getAllocation',
        apiPathOf(location, server.baseUrl),
      );
      expect(got.status).to.equal(200);
      expect(got.headers.get('etag')).to.equal('"1"');
      expect(got.body).to.deep.equal(res.body);
      const rows = await listAuditForResource(server.db.knex, tenant.tenantId, 'allocation', res.body.id);
      expect(rows.map((r) => r.action)).to.deep.equal(['allocation.created']);
      expect(rows[0]?.changes.allocationPercent).to.deep.equal({ from: null, to: 12.5 });
    });

    it('defaults role to null and accepts the bounds 1 and 100', async () => {
      expect(await allocate({ allocationPercent: 1 })).to.include({ allocationPercent: 1, role: null });
      expect(await allocate({ allocationPercent: 100 })).to.include({ allocationPercent: 100 });
    });

    it('answers 422 naming endDate when it is before startDate, writing nothing', async () => {
      const res = await api.post('createAllocation', '/allocations', {
        body: {
          resourceId: resource.id,
          projectId: project.id,
          startDate: '2026-06-10',
          endDate: '2026-06-09',
          allocationPercent: 50,
        },
      });
      expect(fieldErrors(expectProblem(res, 422, 'validation_failed'))).to.deep.equal(['body:/endDate']);
      expect((await api.get('listAllocations', '/allocations')).body.pagination.total).to.equal(0);
    });

    it('answers 422 for a resource or project unknown in the tenant (including another tenant’s)', async () => {
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      const theirResource = await makeResource(otherApi);
      const theirProject = await makeProject(otherApi);
      for (const [patch, field] of [
        [{ resourceId: randomUUID() }, '/resourceId'],
        [{ resourceId: theirResource.id }, '/resourceId'],
        [{ projectId: randomUUID() }, '/projectId'],
        [{ projectId: theirProject.id }, '/projectId'],
      ] as [Record<string, string>, string][]) {
        const res = await api.post('createAllocation', '/allocations', {
          body: {
            resourceId: resource.id,
            projectId: project.id,
            startDate: '2026-06-01',
            endDate: '2026-06-30',
            allocationPercent: 50,
            ...patch,
          },
        });
        const body = expectProblem(res, 422, 'validation_failed');
        expect(body.errors[0]).to.include({ location: 'body', path: field });
      }
      expect((await api.get('listAllocations', '/allocations')).body.pagination.total).to.equal(0);
      expect((await otherApi.get('listAllocations', '/allocations')).body.pagination.total).to.equal(0);
    });

    for (const [name, patch, field] of [
      ['allocationPercent 0', { allocationPercent: 0 }, '/allocationPercent'],
      ['allocationPercent 100.5', { allocationPercent: 100.5 }, '/allocationPercent'],
      ['allocationPercent "50"', { allocationPercent: '50' }, '/allocationPercent'],
      ['startDate 2026-13-01', { startDate: '2026-13-01' }, '/startDate'],
      ['resourceId not a uuid', { resourceId: 'r1' }, '/resourceId'],
      ['an unknown property', { hours: 3 }, '/hours'],
    ] as [string, Record<string, unknown>, string][]) {
      it(`answers 400 for ${name}`, async () => {
        const res = await api.post('createAllocation', '/allocations', {
          body: {
            resourceId: resource.id,
            projectId: project.id,
            startDate: '2026-06-01',
            endDate: '2026-06-30',
            allocationPercent: 50,
            ...patch,
          },
        });
        expect(fieldErrors(expectProblem(res, 400, 'validation_failed'))).to.include(`body:${field}`);
      });
    }

    it('answers 400 listing the missing required fields', async () => {
      const body = expectProblem(
        await api.post('createAllocation', '/allocations', { body: {} }),
        400,
        'validation_failed',
      );
      expect(fieldErrors(body)).to.include.members([
        'body:/resourceId',
        'body:/projectId',
        'body:/startDate',
        'body:/endDate',
        'body:/allocationPercent',
      ]);
    });

    it('answers 401 without a key and 403 for a read-only key', async () => {
      const body = {
        resourceId: resource.id,
        projectId: project.id,
        startDate: '2026-06-01',
        endDate: '2026-06-30',
        allocationPercent: 50,
      };
      expectProblem(
        await client(server.baseUrl, null).post('createAllocation', '/allocations', { body }),
        401,
        'unauthenticated',
      );
      const res = await client(server.baseUrl, tenant.keys.read).post('createAllocation', '/allocations', {
        body,
      });
      expect(expectProblem(res, 403, 'forbidden').detail).to.contain('"write"');
    });
  });

  describe('listAllocations', () => {
    it('answers an empty envelope for a tenant without allocations', async () => {
      const res = await client(server.baseUrl, tenant.keys.read).get('listAllocations', '/allocations');
      expect(res.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
    });

    it('filters by resourceId, projectId and the overlap with from/to, alone and combined', async () => {
      const r2 = await makeResource(api);
      const p2 = await makeProject(api);
      const a = await allocate({ startDate: '2026-06-01', endDate: '2026-06-10' });
      const b = await allocate({ startDate: '2026-06-11', endDate: '2026-06-20', projectId: p2.id });
      const c = await allocate({ startDate: '2026-06-05', endDate: '2026-06-25', resourceId: r2.id });
      const d = await allocate({
        startDate: '2026-07-01',
        endDate: '2026-07-31',
        resourceId: r2.id,
        projectId: p2.id,
      });
      const ids = async (query: Record<string, string>) => {
        const res = await api.get('listAllocations', '/allocations', { query });
        expect(res.status).to.equal(200);
        expect(res.body.pagination.total).to.equal(res.body.data.length);
        return res.body.data.map((x: any) => x.id);
      };
      expect(await ids({})).to.deep.equal([a.id, b.id, c.id, d.id]);
      expect(await ids({ resourceId: resource.id })).to.deep.equal([a.id, b.id]);
      expect(await ids({ resourceId: r2.id })).to.deep.equal([c.id, d.id]);
      expect(await ids({ projectId: p2.id })).to.deep.equal([b.id, d.id]);
      expect(await ids({ resourceId: r2.id, projectId: p2.id })).to.deep.equal([d.id]);
      // Inclusive overlap: a ends on the 10th, b starts on the 11th.
      expect(await ids({ from: '2026-06-10', to: '2026-06-10' })).to.deep.equal([a.id, c.id]);
      expect(await ids({ from: '2026-06-11', to: '2026-06-11' })).to.deep.equal([b.id, c.id]);
      expect(await ids({ from: '2026-06-26' })).to.deep.equal([d.id]);
      expect(await ids({ to: '2026-06-04' })).to.deep.equal([a.id]);
      expect(await ids({ from: '2026-06-21', to: '2026-06-30' })).to.deep.equal([c.id]);
      expect(await ids({ from: '2026-06-21', to: '2026-06-30', resourceId: resource.id })).to.deep.equal([]);
      expect(await ids({ from: '2026-06-20', to: '2026-06-01' })).to.deep.equal([]);
    });

    it('paginates with Link headers that keep the filters', async () => {
      const ids: string[] = [];
      for (let i = 1; i <= 5; i++) ids.push((await allocate({ startDate: `2026-06-0${i}` })).id);
      const p1 = await api.get('listAllocations', '/allocations', {
        query: { limit: 2, resourceId: resource.id },
      });
      expect(p1.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 5, hasMore: true });
      expect(p1.body.data.map((x: any) => x.id)).to.deep.equal(ids.slice(0, 2));
      const next = parseLink(p1.headers.get('link')).next as string;
      expect(new URL(next).searchParams.get('resourceId')).to.equal(resource.id);
      const p2 = await api.get('listAllocations', apiPathOf(next, server.baseUrl));
      expect(p2.body.data.map((x: any) => x.id)).to.deep.equal(ids.slice(2, 4));
      expect(Object.keys(parseLink(p2.headers.get('link'))).sort()).to.deep.equal(['next', 'prev']);
    });

    it('never shows another tenant’s allocations', async () => {
      const mine = await allocate();
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      const theirs = await otherApi.post('createAllocation', '/allocations', {
        body: {
          resourceId: (await makeResource(otherApi)).id,
          projectId: (await makeProject(otherApi)).id,
          startDate: '2026-06-01',
          endDate: '2026-06-30',
          allocationPercent: 50,
        },
      });
      expect(theirs.status).to.equal(201);
      expect(
        (await api.get('listAllocations', '/allocations')).body.data.map((x: any) => x.id),
      ).to.deep.equal([mine.id]);
      const byTheirResource = await api.get('listAllocations', '/allocations', {
        query: { resourceId: theirs.body.resourceId },
      });
      expect(byTheirResource.body.pagination.total).to.equal(0);
    });

    for (const [name, query, field] of [
      ['from not a date', { from: 'June' }, 'from'],
      ['projectId not a uuid', { projectId: 'p' }, 'projectId'],
      ['an unknown parameter', { status: 'OPEN' }, 'status'],
    ] as const) {
      it(`answers 400 naming the query field for ${name}`, async () => {
        const body = expectProblem(
          await api.get('listAllocations', '/allocations', { query }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body)).to.include(`query:${field}`);
      });
    }
  });

  describe('getAllocation', () => {
    it('answers 404 for an unknown id and another tenant’s, 400 for a non-uuid, 401 without a key', async () => {
      expectProblem(await api.get('getAllocation', `/allocations/${randomUUID()}`), 404, 'not_found');
      const mine = await allocate();
      const other = await server.createTenant();
      expectProblem(
        await client(server.baseUrl, other.keys.read).get('getAllocation', `/allocations/${mine.id}`),
        404,
        'not_found',
      );
      expect(
        fieldErrors(
          expectProblem(await api.get('getAllocation', '/allocations/x'), 400, 'validation_failed'),
        ),
      ).to.include('path:id');
      expectProblem(
        await client(server.baseUrl, null).get('getAllocation', `/allocations/${mine.id}`),
        401,
        'unauthenticated',
      );
    });
  });

  describe('updateAllocation', () => {
    it('changes only the fields present, bumps version and ETag, and audits the change', async () => {
      const a = await allocate({ role: 'Lead' });
      const res = await api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { endDate: '2026-07-15', allocationPercent: 80 },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"2"');
      expect(res.body).to.include({
        resourceId: resource.id,
        projectId: project.id,
        startDate: '2026-06-01',
        endDate: '2026-07-15',
        allocationPercent: 80,
        role: 'Lead',
        version: 2,
      });
      const cleared = await api.patch('updateAllocation', `/allocations/${a.id}`, { body: { role: null } });
      expect(cleared.body).to.include({ role: null, version: 3 });
      expect((await api.get('getAllocation', `/allocations/${a.id}`)).body).to.deep.equal(cleared.body);
      const rows = await listAuditForResource(server.db.knex, tenant.tenantId, 'allocation', a.id);
      expect(rows.map((r) => r.action)).to.deep.equal([
        'allocation.created',
        'allocation.updated',
        'allocation.updated',
      ]);
      expect(rows[1]?.changes).to.deep.equal({
        endDate: { from: '2026-06-30', to: '2026-07-15' },
        allocationPercent: { from: 50, to: 80 },
      });
    });

    it('re-checks the dates: 422 when the result ends before it starts, nothing written', async () => {
      const a = await allocate({ startDate: '2026-06-10', endDate: '2026-06-20' });
      const early = await api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { endDate: '2026-06-09' },
      });
      expect(fieldErrors(expectProblem(early, 422, 'validation_failed'))).to.deep.equal(['body:/endDate']);
      const late = await api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { startDate: '2026-06-21' },
      });
      expectProblem(late, 422, 'validation_failed');
      const both = await api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { startDate: '2026-07-01', endDate: '2026-07-02' },
      });
      expect(both.body).to.include({ startDate: '2026-07-01', endDate: '2026-07-02', version: 2 });
    });

    it('refuses to move an allocation to another resource or project (400)', async () => {
      const a = await allocate();
      for (const [body, field] of [
        [{ resourceId: (await makeResource(api)).id }, '/resourceId'],
        [{ projectId: (await makeProject(api)).id }, '/projectId'],
        [{ allocationPercent: 101 }, '/allocationPercent'],
      ] as const) {
        const problem = expectProblem(
          await api.patch('updateAllocation', `/allocations/${a.id}`, { body }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(problem)).to.include(`body:${field}`);
      }
      expect((await api.get('getAllocation', `/allocations/${a.id}`)).body).to.deep.equal(a);
    });

    it('honours If-Match (412 when stale) and treats an empty body as a no-op', async () => {
      const a = await allocate();
      const noop = await api.patch('updateAllocation', `/allocations/${a.id}`, { body: {} });
      expect(noop.body).to.deep.equal(a);
      const ok = await api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { allocationPercent: 60 },
        headers: { 'If-Match': '"1"' },
      });
      expect(ok.body.version).to.equal(2);
      const stale = await api.patch('updateAllocation', `/allocations/${a.id}`, {
        body: { allocationPercent: 70 },
        headers: { 'If-Match': '"1"' },
      });
      expectProblem(stale, 412, 'precondition_failed');
      expect((await api.get('getAllocation', `/allocations/${a.id}`)).body.allocationPercent).to.equal(60);
    });

    it('answers 404 across tenants and 403 for a read-only key', async () => {
      const a = await allocate();
      const other = await server.createTenant();
      expectProblem(
        await client(server.baseUrl, other.keys.write).patch('updateAllocation', `/allocations/${a.id}`, {
          body: { allocationPercent: 10 },
        }),
        404,
        'not_found',
      );
      expectProblem(
        await client(server.baseUrl, tenant.keys.read).patch('updateAllocation', `/allocations/${a.id}`, {
          body: { allocationPercent: 10 },
        }),
        403,
        'forbidden',
      );
      expect((await api.get('getAllocation', `/allocations/${a.id}`)).body).to.deep.equal(a);
    });
  });

  describe('deleteAllocation', () => {
    it('answers 204 without a body, then 404; the audit row keeps the last values', async () => {
      const a = await allocate();
      const res = await api.delete('deleteAllocation', `/allocations/${a.id}`);
      expect(res.status).to.equal(204);
      expect(res.body).to.equal(undefined);
      expectProblem(await api.get('getAllocation', `/allocations/${a.id}`), 404, 'not_found');
      expectProblem(await api.delete('deleteAllocation', `/allocations/${a.id}`), 404, 'not_found');
      const rows = await listAuditForResource(server.db.knex, tenant.tenantId, 'allocation', a.id);
      expect(rows.map((r) => r.action)).to.deep.equal(['allocation.created', 'allocation.deleted']);
      expect(rows[1]?.changes.allocationPercent).to.deep.equal({ from: 50, to: null });
    });

    it('honours If-Match: 412 for a stale ETag (kept), 204 for the current one', async () => {
      const a = await allocate();
      await api.patch('updateAllocation', `/allocations/${a.id}`, { body: { role: 'x' } });
      expectProblem(
        await api.delete('deleteAllocation', `/allocations/${a.id}`, { headers: { 'If-Match': '"1"' } }),
        412,
        'precondition_failed',
      );
      expect((await api.get('getAllocation', `/allocations/${a.id}`)).status).to.equal(200);
      const ok = await api.delete('deleteAllocation', `/allocations/${a.id}`, {
        headers: { 'If-Match': '"2"' },
      });
      expect(ok.status).to.equal(204);
    });

    it('answers 404 across tenants, 403 for a read-only key and 401 without a key (kept)', async () => {
      const a = await allocate();
      const other = await server.createTenant();
      expectProblem(
        await client(server.baseUrl, other.keys.write).delete('deleteAllocation', `/allocations/${a.id}`),
        404,
        'not_found',
      );
      expectProblem(
        await client(server.baseUrl, tenant.keys.read).delete('deleteAllocation', `/allocations/${a.id}`),
        403,
        'forbidden',
      );
      expectProblem(
        await client(server.baseUrl, null).delete('deleteAllocation', `/allocations/${a.id}`),
        401,
        'unauthenticated',
      );
      expect((await api.get('getAllocation', `/allocations/${a.id}`)).body).to.deep.equal(a);
    });
  });

  describe('listAllocationConflicts', () => {
    const brief = (c: any, byId: Record<string, string>) =>
      `${c.startDate}..${c.endDate} ${c.totalPercent} +${c.excessPercent} [${c.allocations
        .map((a: any) => byId[a.allocationId])
        .join(',')}]`;

    it('answers every maximal over-allocated period with totals and the allocations involved', async () => {
      // A 60 % 1–30, B 50 % 5–20, C 30 % 10–25 (another project), D 40 % 26–30 (exactly 100 % with A).
      // 5–9 {A,B} 110; 10–20 {A,B,C} 140; 21–25 {A,C} 90; 26–30 {A,D} 100 → two conflicts.
      const p2 = await makeProject(api);
      const A = await allocate({ startDate: '2026-06-01', endDate: '2026-06-30', allocationPercent: 60 });
      const B = await allocate({ startDate: '2026-06-05', endDate: '2026-06-20', allocationPercent: 50 });
      const C = await allocate({
        startDate: '2026-06-10',
        endDate: '2026-06-25',
        allocationPercent: 30,
        projectId: p2.id,
      });
      const D = await allocate({ startDate: '2026-06-26', endDate: '2026-06-30', allocationPercent: 40 });
      const byId = { [A.id]: 'A', [B.id]: 'B', [C.id]: 'C', [D.id]: 'D' };
      const res = await client(server.baseUrl, tenant.keys.read).get(
        'listAllocationConflicts',
        '/allocations/conflicts',
      );
      expect(res.status).to.equal(200);
      expect(res.body.pagination).to.deep.equal({ limit: 25, offset: 0, total: 2, hasMore: false });
      expect(res.body.data.map((c: any) => brief(c, byId))).to.deep.equal([
        '2026-06-05..2026-06-09 110 +10 [A,B]',
        '2026-06-10..2026-06-20 140 +40 [A,B,C]',
      ]);
      expect(res.body.data[1].resourceId).to.equal(resource.id);
      expect(res.body.data[1].allocations[2]).to.deep.equal({
        allocationId: C.id,
        projectId: p2.id,
        allocationPercent: 30,
        startDate: '2026-06-10',
        endDate: '2026-06-25',
      });
    });

    it('finds the shared day of two inclusive ranges and nothing for touching ones', async () => {
      const A = await allocate({ startDate: '2026-06-01', endDate: '2026-06-10', allocationPercent: 60 });
      const B = await allocate({ startDate: '2026-06-11', endDate: '2026-06-20', allocationPercent: 60 });
      expect((await api.get('listAllocationConflicts', '/allocations/conflicts')).body.data).to.deep.equal(
        [],
      );
      await api.patch('updateAllocation', `/allocations/${B.id}`, { body: { startDate: '2026-06-10' } });
      const res = await api.get('listAllocationConflicts', '/allocations/conflicts');
      expect(res.body.data.map((c: any) => brief(c, { [A.id]: 'A', [B.id]: 'B' }))).to.deep.equal([
        '2026-06-10..2026-06-10 120 +20 [A,B]',
      ]);
    });

    it('clips to from/to, filters by resource, orders by resourceId then startDate, and paginates', async () => {
      const r2 = await makeResource(api);
      await allocate({ startDate: '2026-06-01', endDate: '2026-06-30', allocationPercent: 60 });
      await allocate({ startDate: '2026-06-05', endDate: '2026-06-20', allocationPercent: 50 });
      await allocate({
        startDate: '2026-06-01',
        endDate: '2026-06-10',
        allocationPercent: 70,
        resourceId: r2.id,
      });
      await allocate({
        startDate: '2026-06-08',
        endDate: '2026-06-12',
        allocationPercent: 40,
        resourceId: r2.id,
      });
      await allocate({
        startDate: '2026-06-20',
        endDate: '2026-06-22',
        allocationPercent: 90,
        resourceId: r2.id,
      });
      await allocate({
        startDate: '2026-06-22',
        endDate: '2026-06-25',
        allocationPercent: 20,
        resourceId: r2.id,
      });
      const summary = async (query: Record<string, string | number>) => {
        const res = await api.get('listAllocationConflicts', '/allocations/conflicts', { query });
        expect(res.status).to.equal(200);
        return res.body.data.map(
          (c: any) =>
            `${c.resourceId === resource.id ? 'R1' : 'R2'} ${c.startDate}..${c.endDate} ${c.totalPercent}`,
        );
      };
      // Conflicts come grouped by resourceId (ascending), each group by startDate.
      const byResource = (rows: [string, string][]) =>
        rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, text]) => text); // stable sort
      expect(await summary({})).to.deep.equal(
        byResource([
          [resource.id, 'R1 2026-06-05..2026-06-20 110'],
          [r2.id, 'R2 2026-06-08..2026-06-10 110'],
          [r2.id, 'R2 2026-06-22..2026-06-22 110'],
        ]),
      );
      expect(await summary({ resourceId: r2.id })).to.deep.equal([
        'R2 2026-06-08..2026-06-10 110',
        'R2 2026-06-22..2026-06-22 110',
      ]);
      expect(await summary({ from: '2026-06-09', to: '2026-06-12' })).to.deep.equal(
        byResource([
          [resource.id, 'R1 2026-06-09..2026-06-12 110'],
          [r2.id, 'R2 2026-06-09..2026-06-10 110'],
        ]),
      );
      expect(await summary({ from: '2026-06-21', resourceId: resource.id })).to.deep.equal([]);
      expect(await summary({ from: '2026-06-12', to: '2026-06-11' })).to.deep.equal([]);
      const page1 = await api.get('listAllocationConflicts', '/allocations/conflicts', {
        query: { limit: 2 },
      });
      expect(page1.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 3, hasMore: true });
      const next = parseLink(page1.headers.get('link')).next as string;
      const page2 = await api.get('listAllocationConflicts', apiPathOf(next, server.baseUrl));
      expect(page2.body.pagination).to.deep.equal({ limit: 2, offset: 2, total: 3, hasMore: false });
      expect([...page1.body.data, ...page2.body.data].map((c: any) => `${c.startDate}`)).to.deep.equal(
        (await api.get('listAllocationConflicts', '/allocations/conflicts')).body.data.map(
          (c: any) => c.startDate,
        ),
      );
    });

    it('shows no conflict at exactly 100 %, and never another tenant’s', async () => {
      await allocate({ allocationPercent: 60 });
      await allocate({ allocationPercent: 40 });
      expect(
        (await api.get('listAllocationConflicts', '/allocations/conflicts')).body.pagination.total,
      ).to.equal(0);
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      const r = await makeResource(otherApi);
      const p = await makeProject(otherApi);
      for (const pct of [70, 70]) {
        await otherApi.post('createAllocation', '/allocations', {
          body: {
            resourceId: r.id,
            projectId: p.id,
            startDate: '2026-06-01',
            endDate: '2026-06-02',
            allocationPercent: pct,
          },
        });
      }
      expect(
        (await otherApi.get('listAllocationConflicts', '/allocations/conflicts')).body.pagination.total,
      ).to.equal(1);
      expect(
        (await api.get('listAllocationConflicts', '/allocations/conflicts')).body.pagination.total,
      ).to.equal(0);
      const theirs = await api.get('listAllocationConflicts', '/allocations/conflicts', {
        query: { resourceId: r.id },
      });
      expect(theirs.body.data).to.deep.equal([]);
    });

    it('answers 400 for malformed filters and 401 without a key', async () => {
      for (const [query, field] of [
        [{ from: '2026-6-1' }, 'from'],
        [{ resourceId: 'me' }, 'resourceId'],
        [{ projectId: randomUUID() }, 'projectId'],
      ] as const) {
        const body = expectProblem(
          await api.get('listAllocationConflicts', '/allocations/conflicts', { query }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body)).to.include(`query:${field}`);
      }
      expectProblem(
        await client(server.baseUrl, null).get('listAllocationConflicts', '/allocations/conflicts'),
        401,
        'unauthenticated',
      );
    });
  });
});

describe('project team (from allocations)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock: new ManualClock('2026-03-15T12:00:00.000Z') });
  });
  after(async () => server.close());

  it('shows each allocated resource once, with today’s allocation, span and latest role', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const project = (
      await api.post('createProject', '/projects', {
        body: { name: 'Team tower', startDate: '2026-01-01', endDate: '2026-12-31' },
      })
    ).body;
    const zoe = (
      await api.post('createResource', '/resources', { body: { name: 'Zoë Park', role: 'Engineer' } })
    ).body;
    const amal = (await api.post('createResource', '/resources', { body: { name: 'Amal Haddad' } })).body;
    const allocate = (
      resourceId: string,
      startDate: string,
      endDate: string,
      allocationPercent: number,
      role?: string,
    ) =>
      api.post('createAllocation', '/allocations', {
        body: {
          resourceId,
          projectId: project.id,
          startDate,
          endDate,
          allocationPercent,
          ...(role ? { role } : {}),
        },
      });
    await allocate(zoe.id, '2026-01-01', '2026-03-31', 50, 'Designer');
    await allocate(zoe.id, '2026-03-01', '2026-06-30', 30, 'Site lead');
    await allocate(amal.id, '2026-04-01', '2026-05-31', 100);
    const detail = await api.get('getProject', `/projects/${project.id}`);
    expect(detail.status).to.equal(200);
    expect(detail.body.team).to.deep.equal([
      {
        resourceId: amal.id,
        name: 'Amal Haddad',
        role: null,
        allocationPercent: 0,
        startDate: '2026-04-01',
        endDate: '2026-05-31',
      },
      {
        resourceId: zoe.id,
        name: 'Zoë Park',
        role: 'Site lead',
        allocationPercent: 80,
        startDate: '2026-01-01',
        endDate: '2026-06-30',
      },
    ]);
  });
});
