/**
 * Contract tests of getProject: the detail view (milestones, team, budget summary) and its derived figures, null
 * when what they depend on is unknown; 404 and 400.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { makeProject } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Projects: detail', () => {
  const ctx = contractSuite();

  describe('getProject', () => {
    it('answers the detail view with milestones, team, budgetSummary and ETag', async () => {
      const p = await makeProject(ctx.api, {
        budget: 1000,
        actualCost: 250,
        forecastCost: 1200,
        endDate: '2026-12-21',
        forecastEndDate: '2026-12-31',
      });
      const res = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal('"1"');
      const { milestones, team, budgetSummary, ...fields } = res.body;
      expect(fields).to.deep.equal(p);
      expect(milestones).to.deep.equal([]);
      expect(team).to.deep.equal([]);
      expect(budgetSummary).to.deep.equal({
        budget: 1000,
        actualCost: 250,
        forecastCost: 1200,
        remaining: 750,
        percentSpent: 25,
        costVariance: -200,
        scheduleVarianceDays: 10,
        currency: 'USD',
      });
    });

    it('answers null derived figures without budget or forecasts', async () => {
      const p = await makeProject(ctx.api);
      const res = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(res.body.budgetSummary).to.deep.equal({
        budget: null,
        actualCost: null,
        forecastCost: null,
        remaining: null,
        percentSpent: null,
        costVariance: null,
        scheduleVarianceDays: null,
        currency: 'USD',
      });
    });

    it('answers null for what depends on an unknown actual cost, not the whole budget and 0 %', async () => {
      const p = await makeProject(ctx.api, { budget: 1000, forecastCost: 1200 });
      const res = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(res.body.budgetSummary).to.include({
        budget: 1000,
        actualCost: null,
        remaining: null,
        percentSpent: null,
        costVariance: -200,
      });
      const known = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { actualCost: 250, progress: 20 },
      });
      expect(known.body).to.include({ actualCost: 250, progress: 20 });
      expect((await ctx.api.get('getProject', `/projects/${p.id}`)).body.budgetSummary).to.include({
        remaining: 750,
        percentSpent: 25,
      });
      // null makes them unknown again (PATCH semantics: null clears a nullable field).
      const cleared = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { actualCost: null, progress: null },
      });
      expect(cleared.body).to.include({ actualCost: null, progress: null });
    });

    it('rounds percentSpent to 2 decimals and reports an early forecast as negative days', async () => {
      const p = await makeProject(ctx.api, {
        budget: 3,
        actualCost: 1,
        endDate: '2026-12-31',
        forecastEndDate: '2026-12-26',
      });
      const res = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(res.body.budgetSummary).to.include({
        remaining: 2,
        percentSpent: 33.33,
        costVariance: null,
        scheduleVarianceDays: -5,
      });
    });

    it('answers 404 not_found for an unknown id', async () => {
      const id = randomUUID();
      const res = await ctx.api.get('getProject', `/projects/${id}`);
      const body = expectProblem(res, 404, 'not_found');
      expect(body.instance).to.equal(`/v1/projects/${id}`);
    });

    it('answers 404 (not 403) for another tenant’s project', async () => {
      const other = await ctx.server.createTenant();
      const theirs = await makeProject(ctx.as(other.keys.write));
      const res = await ctx.api.get('getProject', `/projects/${theirs.id}`);
      expectProblem(res, 404, 'not_found');
    });

    it('answers 400 naming the path parameter for a non-uuid id', async () => {
      const res = await ctx.api.get('getProject', '/projects/not-a-uuid');
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('path:id');
    });
  });
});
