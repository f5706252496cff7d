/**
 * Contract tests of getResourceAvailability: weekly and daily hours against capacity, from the allocations
 * (numbers hand-computed; June 2026 starts on a Monday).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { makeProject, makeResource } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Resources: availability', () => {
  const ctx = contractSuite();

  describe('getResourceAvailability', () => {
    const allocate = async (
      resourceId: string,
      projectId: string,
      startDate: string,
      endDate: string,
      pct: number,
    ) => {
      const res = await ctx.api.post('createAllocation', '/allocations', {
        body: { resourceId, projectId, startDate, endDate, allocationPercent: pct },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    };

    it('answers weekly hours with partial weeks and an over-allocation (hand-computed)', async () => {
      // 40 h/week = 8 h/day. A 60 % for June; B 70 % Wed 3rd – Thu 11th. Range Wed 3rd – Tue 16th.
      // Week 3–7: capacity 24 (3 days); A 14.4 + B 16.8 = 31.2. Week 8–14: 40; A 24 + B 22.4 (4 days) = 46.4.
      // 15–16: 16; A 9.6. Totals: 80 capacity, 87.2 allocated, −7.2 available, 109 %.
      const r = await makeResource(ctx.api);
      const p = await makeProject(ctx.api);
      await allocate(r.id, p.id, '2026-06-01', '2026-06-30', 60);
      await allocate(r.id, p.id, '2026-06-03', '2026-06-11', 70);
      await allocate(r.id, p.id, '2026-07-01', '2026-07-31', 100); // outside the range
      const other = await makeResource(ctx.api);
      await allocate(other.id, p.id, '2026-06-01', '2026-06-30', 100); // another resource
      const res = await ctx.reader.get('getResourceAvailability', `/resources/${r.id}/availability`, {
        query: { from: '2026-06-03', to: '2026-06-16' },
      });
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
      const r = await makeResource(ctx.api, { capacityHoursPerWeek: 30 });
      const p = await makeProject(ctx.api);
      await allocate(r.id, p.id, '2026-06-05', '2026-06-20', 50);
      const res = await ctx.api.get('getResourceAvailability', `/resources/${r.id}/availability`, {
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
      const r = await makeResource(ctx.api);
      const p = await makeProject(ctx.api);
      const created = await ctx.api.post('createAllocation', '/allocations', {
        body: {
          resourceId: r.id,
          projectId: p.id,
          startDate: '2026-06-01',
          endDate: '2026-06-07',
          allocationPercent: 25,
        },
      });
      const week = () =>
        ctx.api.get('getResourceAvailability', `/resources/${r.id}/availability`, {
          query: { from: '2026-06-01', to: '2026-06-07' },
        });
      expect((await week()).body.totals.allocatedHours).to.equal(10);
      await ctx.api.patch('updateAllocation', `/allocations/${created.body.id}`, {
        body: { allocationPercent: 75 },
      });
      expect((await week()).body.totals.allocatedHours).to.equal(30);
      await ctx.api.delete('deleteAllocation', `/allocations/${created.body.id}`);
      expect((await week()).body.totals).to.deep.equal({
        capacityHours: 40,
        allocatedHours: 0,
        availableHours: 40,
        utilisationPercent: 0,
      });
    });

    it('accepts 366 days; answers 422 for to < from and for 367 days', async () => {
      const r = await makeResource(ctx.api);
      const path = `/resources/${r.id}/availability`;
      const leap = await ctx.api.get('getResourceAvailability', path, {
        query: { from: '2028-01-01', to: '2028-12-31' },
      });
      expect(leap.status).to.equal(200);
      expect(leap.body.periods).to.have.length(53);
      expect(leap.body.totals.capacityHours).to.equal(2080);
      const backwards = await ctx.api.get('getResourceAvailability', path, {
        query: { from: '2026-06-10', to: '2026-06-09' },
      });
      expect(fieldErrors(expectProblem(backwards, 422, 'validation_failed'))).to.deep.equal(['query:to']);
      const tooLong = await ctx.api.get('getResourceAvailability', path, {
        query: { from: '2027-01-01', to: '2028-01-02' },
      });
      expectProblem(tooLong, 422, 'validation_failed');
    });

    it('answers 400 for missing or malformed dates and an unknown granularity', async () => {
      const r = await makeResource(ctx.api);
      const path = `/resources/${r.id}/availability`;
      for (const [query, field] of [
        [{ to: '2026-06-01' }, 'from'],
        [{ from: '2026-06-01' }, 'to'],
        [{ from: '2026-02-30', to: '2026-03-01' }, 'from'],
        [{ from: '2026-06-01', to: '2026-06-02', granularity: 'month' }, 'granularity'],
      ] as const) {
        const body = expectProblem(
          await ctx.api.get('getResourceAvailability', path, { query }),
          400,
          'validation_failed',
        );
        expect(fieldErrors(body)).to.include(`query:${field}`);
      }
    });

    it('answers 404 for an unknown resource and another tenant’s, 401 without a key', async () => {
      const query = { from: '2026-06-01', to: '2026-06-07' };
      expectProblem(
        await ctx.api.get('getResourceAvailability', `/resources/${randomUUID()}/availability`, { query }),
        404,
        'not_found',
      );
      const other = await ctx.server.createTenant();
      const theirs = await makeResource(ctx.as(other.keys.write));
      expectProblem(
        await ctx.api.get('getResourceAvailability', `/resources/${theirs.id}/availability`, { query }),
        404,
        'not_found',
      );
      expectProblem(
        await ctx.as(null).get('getResourceAvailability', `/resources/${theirs.id}/availability`, {
          query,
        }),
        401,
        'unauthenticated',
      );
    });
  });
});
