/**
 * Contract tests of listAllocationConflicts: every maximal over-allocated period of a person, with its totals and
 * the allocations involved (periods hand-computed), clipped, filtered and paged.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { allocationFixture } from '../support/allocations.js';
import { apiPathOf, expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { makeProject, makeResource } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Allocations: conflicts', () => {
  const ctx = contractSuite();
  const alloc = allocationFixture(ctx);

  describe('listAllocationConflicts', () => {
    const brief = (c: any, byId: Record<string, string>) =>
      `${c.startDate}..${c.endDate} ${c.totalPercent} +${c.excessPercent} [${c.allocations
        .map((a: any) => byId[a.allocationId])
        .join(',')}]`;

    it('answers every maximal over-allocated period with totals and the allocations involved', async () => {
      // A 60 % 1–30, B 50 % 5–20, C 30 % 10–25 (another project), D 40 % 26–30 (exactly 100 % with A).
      // 5–9 {A,B} 110; 10–20 {A,B,C} 140; 21–25 {A,C} 90; 26–30 {A,D} 100 → two conflicts.
      const p2 = await makeProject(ctx.api);
      const A = await alloc.allocate({
        startDate: '2026-06-01',
        endDate: '2026-06-30',
        allocationPercent: 60,
      });
      const B = await alloc.allocate({
        startDate: '2026-06-05',
        endDate: '2026-06-20',
        allocationPercent: 50,
      });
      const C = await alloc.allocate({
        startDate: '2026-06-10',
        endDate: '2026-06-25',
        allocationPercent: 30,
        projectId: p2.id,
      });
      const D = await alloc.allocate({
        startDate: '2026-06-26',
        endDate: '2026-06-30',
        allocationPercent: 40,
      });
      const byId = { [A.id]: 'A', [B.id]: 'B', [C.id]: 'C', [D.id]: 'D' };
      const res = await ctx.reader.get('listAllocationConflicts', '/allocations/conflicts');
      expect(res.status).to.equal(200);
      expect(res.body.pagination).to.deep.equal({ limit: 25, offset: 0, total: 2, hasMore: false });
      expect(res.body.data.map((c: any) => brief(c, byId))).to.deep.equal([
        '2026-06-05..2026-06-09 110 +10 [A,B]',
        '2026-06-10..2026-06-20 140 +40 [A,B,C]',
      ]);
      expect(res.body.data[1].resourceId).to.equal(alloc.resource.id);
      expect(res.body.data[1].allocations[2]).to.deep.equal({
        allocationId: C.id,
        projectId: p2.id,
        allocationPercent: 30,
        startDate: '2026-06-10',
        endDate: '2026-06-25',
      });
    });

    it('finds the shared day of two inclusive ranges and nothing for touching ones', async () => {
      const A = await alloc.allocate({
        startDate: '2026-06-01',
        endDate: '2026-06-10',
        allocationPercent: 60,
      });
      const B = await alloc.allocate({
        startDate: '2026-06-11',
        endDate: '2026-06-20',
        allocationPercent: 60,
      });
      expect(
        (await ctx.api.get('listAllocationConflicts', '/allocations/conflicts')).body.data,
      ).to.deep.equal([]);
      await ctx.api.patch('updateAllocation', `/allocations/${B.id}`, { body: { startDate: '2026-06-10' } });
      const res = await ctx.api.get('listAllocationConflicts', '/allocations/conflicts');
      expect(res.body.data.map((c: any) => brief(c, { [A.id]: 'A', [B.id]: 'B' }))).to.deep.equal([
        '2026-06-10..2026-06-10 120 +20 [A,B]',
      ]);
    });

    it('clips to from/to, filters by resource, orders by resourceId then startDate, and paginates', async () => {
      const r2 = await makeResource(ctx.api);
      await alloc.allocate({ startDate: '2026-06-01', endDate: '2026-06-30', allocationPercent: 60 });
      await alloc.allocate({ startDate: '2026-06-05', endDate: '2026-06-20', allocationPercent: 50 });
      await alloc.allocate({
        startDate: '2026-06-01',
        endDate: '2026-06-10',
        allocationPercent: 70,
        resourceId: r2.id,
      });
      await alloc.allocate({
        startDate: '2026-06-08',
        endDate: '2026-06-12',
        allocationPercent: 40,
        resourceId: r2.id,
      });
      await alloc.allocate({
        startDate: '2026-06-20',
        endDate: '2026-06-22',
        allocationPercent: 90,
        resourceId: r2.id,
      });
      await alloc.allocate({
        startDate: '2026-06-22',
        endDate: '2026-06-25',
        allocationPercent: 20,
        resourceId: r2.id,
      });
      const summary = async (query: Record<string, string | number>) => {
        const res = await ctx.api.get('listAllocationConflicts', '/allocations/conflicts', { query });
        expect(res.status).to.equal(200);
        return res.body.data.map(
          (c: any) =>
            `${c.resourceId === alloc.resource.id ? 'R1' : 'R2'} ${c.startDate}..${c.endDate} ${c.totalPercent}`,
        );
      };
      // Conflicts come grouped by resourceId (ascending), each group by startDate.
      const byResource = (rows: [string, string][]) =>
        rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, text]) => text); // stable sort
      expect(await summary({})).to.deep.equal(
        byResource([
          [alloc.resource.id, 'R1 2026-06-05..2026-06-20 110'],
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
          [alloc.resource.id, 'R1 2026-06-09..2026-06-12 110'],
          [r2.id, 'R2 2026-06-09..2026-06-10 110'],
        ]),
      );
      expect(await summary({ from: '2026-06-21', resourceId: alloc.resource.id })).to.deep.equal([]);
      expect(await summary({ from: '2026-06-12', to: '2026-06-11' })).to.deep.equal([]);
      const page1 = await ctx.api.get('listAllocationConflicts', '/allocations/conflicts', {
        query: { limit: 2 },
      });
      expect(page1.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 3, hasMore: true });
      const next = parseLink(page1.headers.get('link')).next as string;
      const page2 = await ctx.api.get('listAllocationConflicts', apiPathOf(next, ctx.server.baseUrl));
      expect(page2.body.pagination).to.deep.equal({ limit: 2, offset: 2, total: 3, hasMore: false });
      expect([...page1.body.data, ...page2.body.data].map((c: any) => `${c.startDate}`)).to.deep.equal(
        (await ctx.api.get('listAllocationConflicts', '/allocations/conflicts')).body.data.map(
          (c: any) => c.startDate,
        ),
      );
    });

    it('shows no conflict at exactly 100 %, and never another tenant’s', async () => {
      await alloc.allocate({ allocationPercent: 60 });
      await alloc.allocate({ allocationPercent: 40 });
      expect(
        (await ctx.api.get('listAllocationConflicts', '/allocations/conflicts')).body.pagination.total,
      ).to.equal(0);
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
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
        (await ctx.api.get('listAllocationConflicts', '/allocations/conflicts')).body.pagination.total,
      ).to.equal(0);
      const theirs = await ctx.api.get('listAllocationConflicts', '/allocations/conflicts', {
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
          await ctx.api.get('listAllocationConflicts', '/allocations/conflicts', { query }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body)).to.include(`query:${field}`);
      }
      expectProblem(
        await ctx.as(null).get('listAllocationConflicts', '/allocations/conflicts'),
        401,
        'unauthenticated',
      );
    });
  });
});
