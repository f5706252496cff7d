/**
 * Contract tests of the Allocations tag, reading and creating: createAllocation (validation, references, scopes),
 * listAllocations (filters, overlap with from/to, paging) and getAllocation.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { listAuditForResource } from '../../server/repositories/audit.js';
import { allocationFixture } from '../support/allocations.js';
import { apiPathOf, expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { makeProject, makeResource } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Allocations', () => {
  const ctx = contractSuite();
  const alloc = allocationFixture(ctx);

  describe('createAllocation', () => {
    it('answers 201 with Location and ETag; getAllocation answers the same record', async () => {
      const body = {
        resourceId: alloc.resource.id,
        projectId: alloc.project.id,
        startDate: '2026-06-01',
        endDate: '2026-06-01',
        allocationPercent: 12.5,
        role: 'Reviewer',
      };
      const res = await ctx.api.post('createAllocation', '/allocations', { body });
      expect(res.status).to.equal(201);
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(res.body).to.include({ ...body, version: 1 });
      expect(res.body.createdAt).to.equal(res.body.updatedAt);
      const location = res.headers.get('location') as string;
      expect(location).to.equal(`/v1/allocations/${res.body.id}`);
      const got = await ctx.reader.get('getAllocation', apiPathOf(location, ctx.server.baseUrl));
      expect(got.status).to.equal(200);
      expect(got.headers.get('etag')).to.equal('"1"');
      expect(got.body).to.deep.equal(res.body);
      const rows = await listAuditForResource(
        ctx.server.db.knex,
        ctx.tenant.tenantId,
        'allocation',
        res.body.id,
      );
      expect(rows.map((r) => r.action)).to.deep.equal(['allocation.created']);
      expect(rows[0]?.changes.allocationPercent).to.deep.equal({ from: null, to: 12.5 });
    });

    it('defaults role to null and accepts the bounds 1 and 100', async () => {
      expect(await alloc.allocate({ allocationPercent: 1 })).to.include({ allocationPercent: 1, role: null });
      expect(await alloc.allocate({ allocationPercent: 100 })).to.include({ allocationPercent: 100 });
    });

    it('answers 422 naming endDate when it is before startDate, writing nothing', async () => {
      const res = await ctx.api.post('createAllocation', '/allocations', {
        body: {
          resourceId: alloc.resource.id,
          projectId: alloc.project.id,
          startDate: '2026-06-10',
          endDate: '2026-06-09',
          allocationPercent: 50,
        },
      });
      expect(fieldErrors(expectProblem(res, 422, 'validation_failed'))).to.deep.equal(['body:/endDate']);
      expect((await ctx.api.get('listAllocations', '/allocations')).body.pagination.total).to.equal(0);
    });

    it('answers 422 for a resource or project unknown in the tenant (including another tenant’s)', async () => {
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
      const theirResource = await makeResource(otherApi);
      const theirProject = await makeProject(otherApi);
      for (const [patch, field] of [
        [{ resourceId: randomUUID() }, '/resourceId'],
        [{ resourceId: theirResource.id }, '/resourceId'],
        [{ projectId: randomUUID() }, '/projectId'],
        [{ projectId: theirProject.id }, '/projectId'],
      ] as [Record<string, string>, string][]) {
        const res = await ctx.api.post('createAllocation', '/allocations', {
          body: {
            resourceId: alloc.resource.id,
            projectId: alloc.project.id,
            startDate: '2026-06-01',
            endDate: '2026-06-30',
            allocationPercent: 50,
            ...patch,
          },
        });
        const body = expectProblem(res, 422, 'validation_failed');
        expect(body.errors[0]).to.include({ location: 'body', path: field });
      }
      expect((await ctx.api.get('listAllocations', '/allocations')).body.pagination.total).to.equal(0);
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
        const res = await ctx.api.post('createAllocation', '/allocations', {
          body: {
            resourceId: alloc.resource.id,
            projectId: alloc.project.id,
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
        await ctx.api.post('createAllocation', '/allocations', { body: {} }),
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
        resourceId: alloc.resource.id,
        projectId: alloc.project.id,
        startDate: '2026-06-01',
        endDate: '2026-06-30',
        allocationPercent: 50,
      };
      expectProblem(
        await ctx.as(null).post('createAllocation', '/allocations', { body }),
        401,
        'unauthenticated',
      );
      const res = await ctx.reader.post('createAllocation', '/allocations', {
        body,
      });
      expect(expectProblem(res, 403, 'forbidden').detail).to.contain('"write"');
    });
  });

  describe('listAllocations', () => {
    it('answers an empty envelope for a tenant without allocations', async () => {
      const res = await ctx.reader.get('listAllocations', '/allocations');
      expect(res.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
    });

    it('filters by resourceId, projectId and the overlap with from/to, alone and combined', async () => {
      const r2 = await makeResource(ctx.api);
      const p2 = await makeProject(ctx.api);
      const a = await alloc.allocate({ startDate: '2026-06-01', endDate: '2026-06-10' });
      const b = await alloc.allocate({ startDate: '2026-06-11', endDate: '2026-06-20', projectId: p2.id });
      const c = await alloc.allocate({ startDate: '2026-06-05', endDate: '2026-06-25', resourceId: r2.id });
      const d = await alloc.allocate({
        startDate: '2026-07-01',
        endDate: '2026-07-31',
        resourceId: r2.id,
        projectId: p2.id,
      });
      const ids = async (query: Record<string, string>) => {
        const res = await ctx.api.get('listAllocations', '/allocations', { query });
        expect(res.status).to.equal(200);
        expect(res.body.pagination.total).to.equal(res.body.data.length);
        return res.body.data.map((x: any) => x.id);
      };
      expect(await ids({})).to.deep.equal([a.id, b.id, c.id, d.id]);
      expect(await ids({ resourceId: alloc.resource.id })).to.deep.equal([a.id, b.id]);
      expect(await ids({ resourceId: r2.id })).to.deep.equal([c.id, d.id]);
      expect(await ids({ projectId: p2.id })).to.deep.equal([b.id, d.id]);
      expect(await ids({ resourceId: r2.id, projectId: p2.id })).to.deep.equal([d.id]);
      // Inclusive overlap: a ends on the 10th, b starts on the 11th.
      expect(await ids({ from: '2026-06-10', to: '2026-06-10' })).to.deep.equal([a.id, c.id]);
      expect(await ids({ from: '2026-06-11', to: '2026-06-11' })).to.deep.equal([b.id, c.id]);
      expect(await ids({ from: '2026-06-26' })).to.deep.equal([d.id]);
      expect(await ids({ to: '2026-06-04' })).to.deep.equal([a.id]);
      expect(await ids({ from: '2026-06-21', to: '2026-06-30' })).to.deep.equal([c.id]);
      expect(
        await ids({ from: '2026-06-21', to: '2026-06-30', resourceId: alloc.resource.id }),
      ).to.deep.equal([]);
      expect(await ids({ from: '2026-06-20', to: '2026-06-01' })).to.deep.equal([]);
    });

    it('paginates with Link headers that keep the filters', async () => {
      const ids: string[] = [];
      for (let i = 1; i <= 5; i++) ids.push((await alloc.allocate({ startDate: `2026-06-0${i}` })).id);
      const p1 = await ctx.api.get('listAllocations', '/allocations', {
        query: { limit: 2, resourceId: alloc.resource.id },
      });
      expect(p1.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 5, hasMore: true });
      expect(p1.body.data.map((x: any) => x.id)).to.deep.equal(ids.slice(0, 2));
      const next = parseLink(p1.headers.get('link')).next as string;
      expect(new URL(next).searchParams.get('resourceId')).to.equal(alloc.resource.id);
      const p2 = await ctx.api.get('listAllocations', apiPathOf(next, ctx.server.baseUrl));
      expect(p2.body.data.map((x: any) => x.id)).to.deep.equal(ids.slice(2, 4));
      expect(Object.keys(parseLink(p2.headers.get('link'))).sort()).to.deep.equal(['next', 'prev']);
    });

    it('never shows another tenant’s allocations', async () => {
      const mine = await alloc.allocate();
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
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
        (await ctx.api.get('listAllocations', '/allocations')).body.data.map((x: any) => x.id),
      ).to.deep.equal([mine.id]);
      const byTheirResource = await ctx.api.get('listAllocations', '/allocations', {
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
          await ctx.api.get('listAllocations', '/allocations', { query }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body)).to.include(`query:${field}`);
      });
    }
  });

  describe('getAllocation', () => {
    it('answers 404 for an unknown id and another tenant’s, 400 for a non-uuid, 401 without a key', async () => {
      expectProblem(await ctx.api.get('getAllocation', `/allocations/${randomUUID()}`), 404, 'not_found');
      const mine = await alloc.allocate();
      const other = await ctx.server.createTenant();
      expectProblem(
        await ctx.as(other.keys.read).get('getAllocation', `/allocations/${mine.id}`),
        404,
        'not_found',
      );
      expect(
        fieldErrors(
          expectProblem(await ctx.api.get('getAllocation', '/allocations/x'), 400, 'validation_failed'),
        ),
      ).to.include('path:id');
      expectProblem(
        await ctx.as(null).get('getAllocation', `/allocations/${mine.id}`),
        401,
        'unauthenticated',
      );
    });
  });
});
