/**
 * Contract tests of the Resources tag: listResources, createResource, getResource, updateResource,
 * getResourceAvailability (numbers hand-computed; June 2026 starts on a Monday).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { listAuditForResource } from '../../server/repositories/audit.js';
import { apiPathOf, expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { type Api, client } from '../support/client.js';
import { makeProject, uniq } from '../support/records.js';
import { startTestServer, type TestServer, type TestTenant } from '../support/server.js';

/** Creates a resource (201 asserted) and returns its body. */
async function makeResource(api: Api, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('createResource', '/resources', { body: { name: uniq('Person'), ...fields } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

describe('Resources', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  let tenant: TestTenant;
  let api: Api;
  beforeEach(async () => {
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.write);
  });

  describe('createResource', () => {
    it('answers 201 with Location, ETag and the defaults (40 h, no skills, active)', async () => {
      const name = uniq('Marcus');
      const res = await api.post('createResource', '/resources', { body: { name } });
      expect(res.status).to.equal(201);
      expect(res.headers.get('etag')).to.equal('"1"');
      const r = res.body;
      expect(r).to.include({
        name,
        email: null,
        role: null,
        capacityHoursPerWeek: 40,
        costRatePerHour: null,
        active: true,
        version: 1,
      });
      expect(r.skills).to.deep.equal([]);
      expect(r.createdAt).to.equal(r.updatedAt);
      const location = res.headers.get('location') as string;
      expect(location).to.equal(`/v1/resources/${r.id}`);
      const got = await api.get('getResource', apiPathOf(location, server.baseUrl));
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(r);
    });

    it('round-trips every field, including active: false and a fractional capacity', async () => {
      const body = {
        name: uniq('Ada'),
        email: 'ada@example.com',
        role: 'Structural Engineer',
        skills: ['steel', 'bridge-inspection'],
        capacityHoursPerWeek: 37.5,
        costRatePerHour: 145.25,
        active: false,
      };
      const r = await makeResource(api, body);
      expect(r).to.deep.include(body);
      const got = await client(server.baseUrl, tenant.keys.read).get('getResource', `/resources/${r.id}`);
      expect(got.body).to.deep.equal(r);
      expect(got.body.active).to.equal(false);
    });

    it('writes a resource.created audit row with every field', async () => {
      const r = await makeResource(api, { skills: ['a'] });
      const rows = await listAuditForResource(server.db.knex, tenant.tenantId, 'resource', r.id);
      expect(rows.map((row) => row.action)).to.deep.equal(['resource.created']);
      expect(rows[0]?.changes.skills).to.deep.equal({ from: null, to: ['a'] });
      expect(rows[0]?.changes.active).to.deep.equal({ from: null, to: true });
    });

    for (const [name, patch, field] of [
      ['an empty name', { name: '' }, '/name'],
      ['a bad email', { email: 'not-an-email' }, '/email'],
      ['capacity 169', { capacityHoursPerWeek: 169 }, '/capacityHoursPerWeek'],
      ['capacity -1', { capacityHoursPerWeek: -1 }, '/capacityHoursPerWeek'],
      ['a negative cost rate', { costRatePerHour: -5 }, '/costRatePerHour'],
      ['active "yes"', { active: 'yes' }, '/active'],
      ['an empty skill', { skills: [''] }, '/skills/0'],
      ['an unknown property', { version: 3 }, '/version'],
    ] as [string, Record<string, unknown>, string][]) {
      it(`answers 400 for ${name}`, async () => {
        const res = await api.post('createResource', '/resources', { body: { name: uniq('Bad'), ...patch } });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`body:${field}`);
      });
    }

    it('answers 400 without a name, and 401 without a key, writing nothing', async () => {
      expect(
        fieldErrors(
          expectProblem(
            await api.post('createResource', '/resources', { body: {} }),
            400,
            'validation_failed',
          ),
        ),
      ).to.include('body:/name');
      const anonymous = await client(server.baseUrl, null).post('createResource', '/resources', {
        body: { name: 'x' },
      });
      expectProblem(anonymous, 401, 'unauthenticated');
      expect(anonymous.headers.get('www-authenticate')).to.match(/^Bearer/);
      expect((await api.get('listResources', '/resources')).body.pagination.total).to.equal(0);
    });

    it('answers 403 forbidden for a read-only key', async () => {
      const res = await client(server.baseUrl, tenant.keys.read).post('createResource', '/resources', {
        body: { name: 'x' },
      });
      expect(expectProblem(res, 403, 'forbidden').detail).to.contain('"write"');
    });

    it('makes the resource usable as a project manager (reference check)', async () => {
      const r = await makeResource(api);
      const p = await makeProject(api, { projectManagerId: r.id });
      expect(p.projectManagerId).to.equal(r.id);
    });
  });

  describe('listResources', () => {
    it('answers an empty envelope for a new tenant', async () => {
      const res = await client(server.baseUrl, tenant.keys.read).get('listResources', '/resources');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
      expect(res.headers.get('link')).to.equal(null);
    });

    it('filters by role (exact), skill (exact element of skills) and active, alone and combined', async () => {
      const a = await makeResource(api, { role: 'Engineer', skills: ['steel', 'concrete'] });
      const b = await makeResource(api, { role: 'Engineer', skills: ['stainless-steel'], active: false });
      const c = await makeResource(api, { role: 'engineer', skills: ['Steel'] });
      const d = await makeResource(api, { role: 'Planner', skills: ['steel'], active: false });
      const e = await makeResource(api, { skills: ['50%"quoted",_under_'] });
      const ids = async (query: Record<string, string | boolean>) => {
        const res = await api.get('listResources', '/resources', { query });
        expect(res.status).to.equal(200);
        expect(res.body.pagination.total).to.equal(res.body.data.length);
        return res.body.data.map((r: any) => r.id);
      };
      expect(await ids({})).to.deep.equal([a, b, c, d, e].map((r) => r.id));
      expect(await ids({ role: 'Engineer' })).to.deep.equal([a.id, b.id]);
      expect(await ids({ skill: 'steel' })).to.deep.equal([a.id, d.id]);
      expect(await ids({ skill: 'Steel' })).to.deep.equal([c.id]);
      expect(await ids({ skill: 'stee' })).to.deep.equal([]);
      expect(await ids({ skill: '50%"quoted",_under_' })).to.deep.equal([e.id]);
      expect(await ids({ skill: '%' })).to.deep.equal([]);
      expect(await ids({ active: true })).to.deep.equal([a.id, c.id, e.id]);
      expect(await ids({ active: false })).to.deep.equal([b.id, d.id]);
      expect(await ids({ role: 'Engineer', active: true })).to.deep.equal([a.id]);
      expect(await ids({ skill: 'steel', active: false })).to.deep.equal([d.id]);
      expect(await ids({ role: 'Planner', skill: 'concrete' })).to.deep.equal([]);
      // Form-encoded values: a space travels as `+`, a `+` as `%2B`.
      const f = await makeResource(api, {
        role: 'Structural Engineer',
        skills: ['c++', 'bridge inspection'],
      });
      expect(await ids({ role: 'Structural Engineer' })).to.deep.equal([f.id]);
      expect(await ids({ skill: 'c++' })).to.deep.equal([f.id]);
      expect(await ids({ skill: 'bridge inspection' })).to.deep.equal([f.id]);
      for (const r of (await api.get('listResources', '/resources')).body.data)
        expect(r.active).to.be.a('boolean');
    });

    it('paginates with Link headers that keep the filters', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await makeResource(api, { role: 'Pager' })).id);
      await makeResource(api, { role: 'Other' });
      const p1 = await api.get('listResources', '/resources', { query: { role: 'Pager', limit: 2 } });
      expect(p1.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 5, hasMore: true });
      expect(p1.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(0, 2));
      const next = parseLink(p1.headers.get('link')).next as string;
      expect(new URL(next).searchParams.get('role')).to.equal('Pager');
      const p2 = await api.get('listResources', apiPathOf(next, server.baseUrl));
      expect(p2.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(2, 4));
      const p3 = await api.get('listResources', '/resources', {
        query: { role: 'Pager', limit: 2, offset: 4 },
      });
      expect(p3.body.pagination).to.deep.equal({ limit: 2, offset: 4, total: 5, hasMore: false });
      expect(Object.keys(parseLink(p3.headers.get('link')))).to.deep.equal(['prev']);
    });

    it('never shows another tenant’s resources', async () => {
      const mine = await makeResource(api, { skills: ['x'] });
      const other = await server.createTenant();
      await makeResource(client(server.baseUrl, other.keys.write), { skills: ['x'] });
      const res = await api.get('listResources', '/resources', { query: { skill: 'x' } });
      expect(res.body.data.map((r: any) => r.id)).to.deep.equal([mine.id]);
    });

    for (const [name, query, field] of [
      ['active maybe', { active: 'maybe' }, 'active'],
      ['an empty role', { role: '' }, 'role'],
      ['limit 0', { limit: 0 }, 'limit'],
      ['an unknown parameter', { team: 'x' }, 'team'],
    ] as const) {
      it(`answers 400 naming the query field for ${name}`, async () => {
        const body = expectProblem(
          await api.get('listResources', '/resources', { query }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body)).to.include(`query:${field}`);
      });
    }

    it('answers 401 without a key', async () => {
      expectProblem(
        await client(server.baseUrl, null).get('listResources', '/resources'),
        401,
        'unauthenticated',
      );
    });
  });

  describe('getResource', () => {
    it('answers 404 for an unknown id and for another tenant’s resource; 400 for a non-uuid', async () => {
      expectProblem(await api.get('getResource', `/resources/${randomUUID()}`), 404, 'not_found');
      const other = await server.createTenant();
      const theirs = await makeResource(client(server.baseUrl, other.keys.write));
      expectProblem(await api.get('getResource', `/resources/${theirs.id}`), 404, 'not_found');
      const bad = expectProblem(await api.get('getResource', '/resources/abc'), 400, 'validation_failed');
      expect(fieldErrors(bad)).to.include('path:id');
    });
  });

  describe('updateResource', () => {
    it('changes only the fields present, clears with null, bumps version and ETag, audits the change', async () => {
      const r = await makeResource(api, {
        email: 'a@example.com',
        role: 'Engineer',
        skills: ['a'],
        costRatePerHour: 100,
      });
      const res = await api.patch('updateResource', `/resources/${r.id}`, {
        body: { role: null, skills: ['b', 'c'], active: false },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"2"');
      expect(res.body).to.deep.include({
        name: r.name,
        email: 'a@example.com',
        role: null,
        skills: ['b', 'c'],
        costRatePerHour: 100,
        capacityHoursPerWeek: 40,
        active: false,
        version: 2,
      });
      expect((await api.get('getResource', `/resources/${r.id}`)).body).to.deep.equal(res.body);
      const rows = await listAuditForResource(server.db.knex, tenant.tenantId, 'resource', r.id);
      expect(rows.map((row) => row.action)).to.deep.equal(['resource.created', 'resource.updated']);
      expect(rows[1]?.changes).to.deep.equal({
        role: { from: 'Engineer', to: null },
        skills: { from: ['a'], to: ['b', 'c'] },
        active: { from: true, to: false },
      });
    });

    it('treats an unchanged body as a no-op (same version, no audit row)', async () => {
      const r = await makeResource(api, { role: 'Same' });
      const res = await api.patch('updateResource', `/resources/${r.id}`, { body: { role: 'Same' } });
      expect(res.body).to.deep.equal(r);
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(await listAuditForResource(server.db.knex, tenant.tenantId, 'resource', r.id)).to.have.length(1);
    });

    it('honours If-Match: the current ETag and * pass, a stale one answers 412 and writes nothing', async () => {
      const r = await makeResource(api);
      const ok = await api.patch('updateResource', `/resources/${r.id}`, {
        body: { name: 'v2' },
        headers: { 'If-Match': '"1"' },
      });
      expect(ok.body).to.include({ name: 'v2', version: 2 });
      const star = await api.patch('updateResource', `/resources/${r.id}`, {
        body: { name: 'v3' },
        headers: { 'If-Match': '*' },
      });
      expect(star.body).to.include({ name: 'v3', version: 3 });
      const stale = await api.patch('updateResource', `/resources/${r.id}`, {
        body: { name: 'lost' },
        headers: { 'If-Match': '"2"' },
      });
      expectProblem(stale, 412, 'precondition_failed');
      expect((await api.get('getResource', `/resources/${r.id}`)).body).to.include({
        name: 'v3',
        version: 3,
      });
    });

    it('answers 404 across tenants, 403 for a read key, 400 for bad fields; nothing changes', async () => {
      const r = await makeResource(api);
      const other = await server.createTenant();
      const otherApi = client(server.baseUrl, other.keys.write);
      expectProblem(
        await otherApi.patch('updateResource', `/resources/${r.id}`, { body: { name: 'hijack' } }),
        404,
        'not_found',
      );
      expectProblem(
        await client(server.baseUrl, tenant.keys.read).patch('updateResource', `/resources/${r.id}`, {
          body: { name: 'x' },
        }),
        403,
        'forbidden',
      );
      for (const [body, field] of [
        [{ capacityHoursPerWeek: 200 }, '/capacityHoursPerWeek'],
        [{ name: null }, '/name'],
        [{ id: randomUUID() }, '/id'],
      ] as const) {
        const problem = expectProblem(
          await api.patch('updateResource', `/resources/${r.id}`, { body }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(problem)).to.include(`body:${field}`);
      }
      expect((await api.get('getResource', `/resources/${r.id}`)).body).to.deep.equal(r);
    });
  });

  describe('getResourceAvailability', () => {
    const allocate = async (
      resourceId: string,
      projectId: string,
      startDate: string,
      endDate: string,
      pct: number,
    ) => {
      const res = await api.post('createAllocation', '/allocations', {
        body: { resourceId, projectId, startDate, endDate, allocationPercent: pct },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    };

    it('answers weekly hours with partial weeks and an over-allocation (hand-computed)', async () => {
      // 40 h/week = 8 h/day. A 60 % for June; B 70 % Wed 3rd – Thu 11th. Range Wed 3rd – Tue 16th.
      // Week 3–7: capacity 24 (3 days); A 14.4 + B 16.8 = 31.2. Week 8–14: 40; A 24 + B 22.4 (4 days) = 46.4.
      // 15–16: 16; A 9.6. Totals: 80 capacity, 87.2 allocated, −7.2 available, 109 %.
      const r = await makeResource(api);
      const p = await makeProject(api);
      await allocate(r.id, p.id, '2026-06-01', '2026-06-30', 60);
      await allocate(r.id, p.id, '2026-06-03', '2026-06-11', 70);
      await allocate(r.id, p.id, '2026-07-01', '2026-07-31', 100); // outside the range
      const other = await makeResource(api);
      await allocate(other.id, p.id, '2026-06-01', '2026-06-30', 100); // another resource
      const res = await client(server.baseUrl, tenant.keys.read).get(
        'getResourceAvailability',
        `/resources/${r.id}/availability`,
        { query: { from: '2026-06-03', to: '2026-06-16' } },
      );
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        resourceId: r.id,
        from: '2026-06-03',
        to: '2026-06-16',
        granularity: 'week',
        periods: [
          {
            start: '2026-06-03',
            end: '2026-06-07',
            workingDays: 3,
            capacityHours: 24,
            allocatedHours: 31.2,
            availableHours: -7.2,
            utilisationPercent: 130,
          },
          {
            start: '2026-06-08',
            end: '2026-06-14',
            workingDays: 5,
            capacityHours: 40,
            allocatedHours: 46.4,
            availableHours: -6.4,
            utilisationPercent: 116,
          },
          {
            start: '2026-06-15',
            end: '2026-06-16',
            workingDays: 2,
            capacityHours: 16,
            allocatedHours: 9.6,
            availableHours: 6.4,
            utilisationPercent: 60,
          },
        ],
        totals: { capacityHours: 80, allocatedHours: 87.2, availableHours: -7.2, utilisationPercent: 109 },
      });
    });

    it('answers daily hours for granularity=day, with empty weekends and a 30 h week', async () => {
      // 30 h/week = 6 h/day; 50 % from Fri 5th. Fri 6/3, Sat 0, Sun 0, Mon 6/3.
      const r = await makeResource(api, { capacityHoursPerWeek: 30 });
      const p = await makeProject(api);
      await allocate(r.id, p.id, '2026-06-05', '2026-06-20', 50);
      const res = await api.get('getResourceAvailability', `/resources/${r.id}/availability`, {
        query: { from: '2026-06-05', to: '2026-06-08', granularity: 'day' },
      });
      expect(res.status).to.equal(200);
      expect(res.body.granularity).to.equal('day');
      expect(
        res.body.periods.map((x: any) => [x.start, x.end, x.workingDays, x.capacityHours, x.allocatedHours]),
      ).to.deep.equal([
        ['2026-06-05', '2026-06-05', 1, 6, 3],
        ['2026-06-06', '2026-06-06', 0, 0, 0],
        ['2026-06-07', '2026-06-07', 0, 0, 0],
        ['2026-06-08', '2026-06-08', 1, 6, 3],
      ]);
      expect(res.body.totals).to.deep.equal({
        capacityHours: 12,
        allocatedHours: 6,
        availableHours: 6,
        utilisationPercent: 50,
      });
    });

    it('reflects an allocation change and a deletion at once', async () => {
      const r = await makeResource(api);
      const p = await makeProject(api);
      const created = await api.post('createAllocation', '/allocations', {
        body: {
          resourceId: r.id,
          projectId: p.id,
          startDate: '2026-06-01',
          endDate: '2026-06-07',
          allocationPercent: 25,
        },
      });
      const week = () =>
        api.get('getResourceAvailability', `/resources/${r.id}/availability`, {
          query: { from: '2026-06-01', to: '2026-06-07' },
        });
      expect((await week()).body.totals.allocatedHours).to.equal(10);
      await api.patch('updateAllocation', `/allocations/${created.body.id}`, {
        body: { allocationPercent: 75 },
      });
      expect((await week()).body.totals.allocatedHours).to.equal(30);
      await api.delete('deleteAllocation', `/allocations/${created.body.id}`);
      expect((await week()).body.totals).to.deep.equal({
        capacityHours: 40,
        allocatedHours: 0,
        availableHours: 40,
        utilisationPercent: 0,
      });
    });

    it('accepts 366 days; answers 422 for to < from and for 367 days', async () => {
      const r = await makeResource(api);
      const path = `/resources/${r.id}/availability`;
      const leap = await api.get('getResourceAvailability', path, {
        query: { from: '2028-01-01', to: '2028-12-31' },
      });
      expect(leap.status).to.equal(200);
      expect(leap.body.periods).to.have.length(53);
      expect(leap.body.totals.capacityHours).to.equal(2080);
      const backwards = await api.get('getResourceAvailability', path, {
        query: { from: '2026-06-10', to: '2026-06-09' },
      });
      expect(fieldErrors(expectProblem(backwards, 422, 'validation_failed'))).to.deep.equal(['query:to']);
      const tooLong = await api.get('getResourceAvailability', path, {
        query: { from: '2027-01-01', to: '2028-01-02' },
      });
      expectProblem(tooLong, 422, 'validation_failed');
    });

    it('answers 400 for missing or malformed dates and an unknown granularity', async () => {
      const r = await makeResource(api);
      const path = `/resources/${r.id}/availability`;
      for (const [query, field] of [
        [{ to: '2026-06-01' }, 'from'],
        [{ from: '2026-06-01' }, 'to'],
        [{ from: '2026-02-30', to: '2026-03-01' }, 'from'],
        [{ from: '2026-06-01', to: '2026-06-02', granularity: 'month' }, 'granularity'],
      ] as const) {
        const body = expectProblem(
          await api.get('getResourceAvailability', path, { query }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body)).to.include(`query:${field}`);
      }
    });

    it('answers 404 for an unknown resource and another tenant’s, 401 without a key', async () => {
      const query = { from: '2026-06-01', to: '2026-06-07' };
      expectProblem(
        await api.get('getResourceAvailability', `/resources/${randomUUID()}/availability`, { query }),
        404,
        'not_found',
      );
      const other = await server.createTenant();
      const theirs = await makeResource(client(server.baseUrl, other.keys.write));
      expectProblem(
        await api.get('getResourceAvailability', `/resources/${theirs.id}/availability`, { query }),
        404,
        'not_found',
      );
      expectProblem(
        await client(server.baseUrl, null).get(
          'getResourceAvailability',
          `/resources/${theirs.id}/availability`,
          {
            query,
          },
        ),
        401,
        'unauthenticated',
      );
    });
  });
});
