/**
 * Contract tests of the Resources tag's records: createResource, listResources, getResource, updateResource.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { listAuditForResource } from '../../server/repositories/audit.js';
import { apiPathOf, expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { makeProject, makeResource, uniq } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Resources', () => {
  const ctx = contractSuite();

  describe('createResource', () => {
    it('answers 201 with Location, ETag and the defaults (40 h, no skills, active)', async () => {
      const name = uniq('Marcus');
      const res = await ctx.api.post('createResource', '/resources', { body: { name } });
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
      const got = await ctx.api.get('getResource', apiPathOf(location, ctx.server.baseUrl));
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
      const r = await makeResource(ctx.api, body);
      expect(r).to.deep.include(body);
      const got = await ctx.reader.get('getResource', `/resources/${r.id}`);
      expect(got.body).to.deep.equal(r);
      expect(got.body.active).to.equal(false);
    });

    it('writes a resource.created audit row with every field', async () => {
      const r = await makeResource(ctx.api, { skills: ['a'] });
      const rows = await listAuditForResource(ctx.server.db.knex, ctx.tenant.tenantId, 'resource', r.id);
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
        const res = await ctx.api.post('createResource', '/resources', {
          body: { name: uniq('Bad'), ...patch },
        });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`body:${field}`);
      });
    }

    it('answers 400 without a name, and 401 without a key, writing nothing', async () => {
      expect(
        fieldErrors(
          expectProblem(
            await ctx.api.post('createResource', '/resources', { body: {} }),
            400,
            'validation_failed',
          ),
        ),
      ).to.include('body:/name');
      const anonymous = await ctx.as(null).post('createResource', '/resources', {
        body: { name: 'x' },
      });
      expectProblem(anonymous, 401, 'unauthenticated');
      expect(anonymous.headers.get('www-authenticate')).to.match(/^Bearer/);
      expect((await ctx.api.get('listResources', '/resources')).body.pagination.total).to.equal(0);
    });

    it('answers 403 forbidden for a read-only key', async () => {
      const res = await ctx.reader.post('createResource', '/resources', {
        body: { name: 'x' },
      });
      expect(expectProblem(res, 403, 'forbidden').detail).to.contain('"write"');
    });

    it('makes the resource usable as a project manager (reference check)', async () => {
      const r = await makeResource(ctx.api);
      const p = await makeProject(ctx.api, { projectManagerId: r.id });
      expect(p.projectManagerId).to.equal(r.id);
    });
  });

  describe('listResources', () => {
    it('answers an empty envelope for a new tenant', async () => {
      const res = await ctx.reader.get('listResources', '/resources');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
      expect(res.headers.get('link')).to.equal(null);
    });

    it('filters by role (exact), skill (exact element of skills) and active, alone and combined', async () => {
      const a = await makeResource(ctx.api, { role: 'Engineer', skills: ['steel', 'concrete'] });
      const b = await makeResource(ctx.api, { role: 'Engineer', skills: ['stainless-steel'], active: false });
      const c = await makeResource(ctx.api, { role: 'engineer', skills: ['Steel'] });
      const d = await makeResource(ctx.api, { role: 'Planner', skills: ['steel'], active: false });
      const e = await makeResource(ctx.api, { skills: ['50%"quoted",_under_'] });
      const ids = async (query: Record<string, string | boolean>) => {
        const res = await ctx.api.get('listResources', '/resources', { query });
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
      const f = await makeResource(ctx.api, {
        role: 'Structural Engineer',
        skills: ['c++', 'bridge inspection'],
      });
      expect(await ids({ role: 'Structural Engineer' })).to.deep.equal([f.id]);
      expect(await ids({ skill: 'c++' })).to.deep.equal([f.id]);
      expect(await ids({ skill: 'bridge inspection' })).to.deep.equal([f.id]);
      for (const r of (await ctx.api.get('listResources', '/resources')).body.data)
        expect(r.active).to.be.a('boolean');
    });

    it('paginates with Link headers that keep the filters', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await makeResource(ctx.api, { role: 'Pager' })).id);
      await makeResource(ctx.api, { role: 'Other' });
      const p1 = await ctx.api.get('listResources', '/resources', { query: { role: 'Pager', limit: 2 } });
      expect(p1.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 5, hasMore: true });
      expect(p1.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(0, 2));
      const next = parseLink(p1.headers.get('link')).next as string;
      expect(new URL(next).searchParams.get('role')).to.equal('Pager');
      const p2 = await ctx.api.get('listResources', apiPathOf(next, ctx.server.baseUrl));
      expect(p2.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(2, 4));
      const p3 = await ctx.api.get('listResources', '/resources', {
        query: { role: 'Pager', limit: 2, offset: 4 },
      });
      expect(p3.body.pagination).to.deep.equal({ limit: 2, offset: 4, total: 5, hasMore: false });
      expect(Object.keys(parseLink(p3.headers.get('link')))).to.deep.equal(['prev']);
    });

    it('never shows another tenant’s resources', async () => {
      const mine = await makeResource(ctx.api, { skills: ['x'] });
      const other = await ctx.server.createTenant();
      await makeResource(ctx.as(other.keys.write), { skills: ['x'] });
      const res = await ctx.api.get('listResources', '/resources', { query: { skill: 'x' } });
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
          await ctx.api.get('listResources', '/resources', { query }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body)).to.include(`query:${field}`);
      });
    }

    it('answers 401 without a key', async () => {
      expectProblem(await ctx.as(null).get('listResources', '/resources'), 401, 'unauthenticated');
    });
  });

  describe('getResource', () => {
    it('answers 404 for an unknown id and for another tenant’s resource; 400 for a non-uuid', async () => {
      expectProblem(await ctx.api.get('getResource', `/resources/${randomUUID()}`), 404, 'not_found');
      const other = await ctx.server.createTenant();
      const theirs = await makeResource(ctx.as(other.keys.write));
      expectProblem(await ctx.api.get('getResource', `/resources/${theirs.id}`), 404, 'not_found');
      const bad = expectProblem(await ctx.api.get('getResource', '/resources/abc'), 400, 'validation_failed');
      expect(fieldErrors(bad)).to.include('path:id');
    });
  });

  describe('updateResource', () => {
    it('changes only the fields present, clears with null, bumps version and ETag, audits the change', async () => {
      const r = await makeResource(ctx.api, {
        email: 'a@example.com',
        role: 'Engineer',
        skills: ['a'],
        costRatePerHour: 100,
      });
      const res = await ctx.api.patch('updateResource', `/resources/${r.id}`, {
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
      expect((await ctx.api.get('getResource', `/resources/${r.id}`)).body).to.deep.equal(res.body);
      const rows = await listAuditForResource(ctx.server.db.knex, ctx.tenant.tenantId, 'resource', r.id);
      expect(rows.map((row) => row.action)).to.deep.equal(['resource.created', 'resource.updated']);
      expect(rows[1]?.changes).to.deep.equal({
        role: { from: 'Engineer', to: null },
        skills: { from: ['a'], to: ['b', 'c'] },
        active: { from: true, to: false },
      });
    });

    it('treats an unchanged body as a no-op (same version, no audit row)', async () => {
      const r = await makeResource(ctx.api, { role: 'Same' });
      const res = await ctx.api.patch('updateResource', `/resources/${r.id}`, { body: { role: 'Same' } });
      expect(res.body).to.deep.equal(r);
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(
        await listAuditForResource(ctx.server.db.knex, ctx.tenant.tenantId, 'resource', r.id),
      ).to.have.length(1);
    });

    it('honours If-Match: the current ETag and * pass, a stale one answers 412 and writes nothing', async () => {
      const r = await makeResource(ctx.api);
      const ok = await ctx.api.patch('updateResource', `/resources/${r.id}`, {
        body: { name: 'v2' },
        headers: { 'If-Match': '"1"' },
      });
      expect(ok.body).to.include({ name: 'v2', version: 2 });
      const star = await ctx.api.patch('updateResource', `/resources/${r.id}`, {
        body: { name: 'v3' },
        headers: { 'If-Match': '*' },
      });
      expect(star.body).to.include({ name: 'v3', version: 3 });
      const stale = await ctx.api.patch('updateResource', `/resources/${r.id}`, {
        body: { name: 'lost' },
        headers: { 'If-Match': '"2"' },
      });
      expectProblem(stale, 412, 'precondition_failed');
      expect((await ctx.api.get('getResource', `/resources/${r.id}`)).body).to.include({
        name: 'v3',
        version: 3,
      });
    });

    it('answers 404 across tenants, 403 for a read key, 400 for bad fields; nothing changes', async () => {
      const r = await makeResource(ctx.api);
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
      expectProblem(
        await otherApi.patch('updateResource', `/resources/${r.id}`, { body: { name: 'hijack' } }),
        404,
        'not_found',
      );
      expectProblem(
        await ctx.reader.patch('updateResource', `/resources/${r.id}`, {
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
          await ctx.api.patch('updateResource', `/resources/${r.id}`, { body }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(problem)).to.include(`body:${field}`);
      }
      expect((await ctx.api.get('getResource', `/resources/${r.id}`)).body).to.deep.equal(r);
    });
  });
});
