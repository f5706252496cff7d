/**
 * Contract tests of updateProject: partial updates, no-ops, status transitions, If-Match, and what is refused.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectProblem } from '../support/assertions.js';
import { makeProject, uniq } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Projects: update', () => {
  const ctx = contractSuite();

  describe('updateProject', () => {
    const full = () => ({
      code: uniq('UPD'),
      description: 'before',
      status: 'ON_TRACK',
      startDate: '2025-03-03',
      endDate: '2026-11-30',
      forecastEndDate: '2027-01-15',
      budget: 5000,
      forecastCost: 5500,
      actualCost: 1200,
      progress: 40,
      tags: ['a', 'b'],
    });

    it('changes only the fields in the body (seed rule 2)', async () => {
      const p = await makeProject(ctx.api, full());
      const res = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { description: 'after' },
      });
      expect(res.status).to.equal(200);
      expect(res.body.description).to.equal('after');
      expect(res.body.version).to.equal(2);
      expect(res.headers.get('etag')).to.equal('"2"');
      expect(Date.parse(res.body.updatedAt)).to.be.at.least(Date.parse(p.updatedAt));
      const strip = ({ version: _v, updatedAt: _u, description: _d, ...rest }: any) => rest;
      expect(strip(res.body)).to.deep.equal(strip(p));
      const got = await ctx.api.get('getProject', `/projects/${p.id}`);
      const { milestones: _m, team: _t, budgetSummary: _b, ...stored } = got.body;
      expect(stored).to.deep.equal(res.body);
      expect(got.headers.get('etag')).to.equal('"2"');
    });

    it('treats an empty body as a no-op that keeps the version', async () => {
      const p = await makeProject(ctx.api, full());
      const res = await ctx.api.patch('updateProject', `/projects/${p.id}`, { body: {} });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(p);
      expect(res.headers.get('etag')).to.equal('"1"');
    });

    it('keeps the version when the body repeats the current values', async () => {
      const p = await makeProject(ctx.api, full());
      const res = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: p.name, tags: p.tags, budget: p.budget },
      });
      expect(res.body).to.deep.equal(p);
    });

    it('clears a nullable field with null', async () => {
      const p = await makeProject(ctx.api, full());
      const res = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { budget: null, forecastEndDate: null, code: null },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ budget: null, forecastEndDate: null, code: null, version: 2 });
      expect(res.body.description).to.equal('before');
      expect(res.body.forecastCost).to.equal(5500);
      const got = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(got.body).to.include({ budget: null, forecastEndDate: null, code: null });
      expect(got.body.budgetSummary).to.include({ remaining: null, scheduleVarianceDays: null });
    });

    it('replaces tags as a whole', async () => {
      const p = await makeProject(ctx.api, full());
      const res = await ctx.api.patch('updateProject', `/projects/${p.id}`, { body: { tags: ['c'] } });
      expect(res.body.tags).to.deep.equal(['c']);
    });

    it('answers 422 when the result has endDate before startDate, and changes nothing', async () => {
      const p = await makeProject(ctx.api, full());
      const res = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { endDate: '2025-01-01', description: 'should not stick' },
      });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(body.errors[0]).to.include({ location: 'body', path: '/endDate' });
      const moveStart = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { startDate: '2027-01-01' },
      });
      expectProblem(moveStart, 422, 'validation_failed');
      const got = await ctx.api.get('getProject', `/projects/${p.id}`);
      const { milestones: _m, team: _t, budgetSummary: _b, ...stored } = got.body;
      expect(stored).to.deep.equal(p);
    });

    it('answers 409 conflict when changing code to another project’s code', async () => {
      const a = await makeProject(ctx.api, { code: uniq('A') });
      const b = await makeProject(ctx.api, { code: uniq('B') });
      const res = await ctx.api.patch('updateProject', `/projects/${b.id}`, { body: { code: a.code } });
      expectProblem(res, 409, 'conflict');
      const got = await ctx.api.get('getProject', `/projects/${b.id}`);
      expect(got.body.code).to.equal(b.code);
    });

    it('follows the status transitions', async () => {
      const p = await makeProject(ctx.api);
      const move = (status: string) =>
        ctx.api.patch('updateProject', `/projects/${p.id}`, { body: { status } });
      const ok = async (status: string) => {
        const res = await move(status);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.status).to.equal(status);
        return res.body;
      };
      await ok('ON_TRACK');
      await ok('AT_RISK');
      await ok('OFF_TRACK');
      await ok('ON_HOLD');
      await ok('AT_RISK');
      const completed = await ok('COMPLETED');
      for (const to of ['AT_RISK', 'PLANNED', 'CANCELLED']) {
        const bad = await move(to);
        const body = expectProblem(bad, 409, 'invalid_transition');
        expect(body.detail).to.contain('COMPLETED');
      }
      const still = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(still.body.status).to.equal('COMPLETED');
      expect(still.body.version).to.equal(completed.version);
      await ok('ON_TRACK');
      await ok('CANCELLED');
      for (const to of ['ON_TRACK', 'COMPLETED', 'AT_RISK'])
        expectProblem(await move(to), 409, 'invalid_transition');
      const reopened = await ok('PLANNED');
      expect(reopened.version).to.equal(10);
    });

    it('accepts If-Match with the current ETag, a list containing it, or *', async () => {
      const p = await makeProject(ctx.api, full());
      const first = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'v2' },
        headers: { 'If-Match': '"1"' },
      });
      expect(first.status).to.equal(200);
      expect(first.body).to.include({ name: 'v2', version: 2 });
      expect(first.headers.get('etag')).to.equal('"2"');

      const list = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'v3' },
        headers: { 'If-Match': '"7", "2"' },
      });
      expect(list.status).to.equal(200);
      expect(list.body).to.include({ name: 'v3', version: 3 });

      const star = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'v4' },
        headers: { 'If-Match': '*' },
      });
      expect(star.status).to.equal(200);
      expect(star.body).to.include({ name: 'v4', version: 4 });
      expect(star.headers.get('etag')).to.equal('"4"');
    });

    it('answers 412 precondition_failed for a stale If-Match, and writes nothing', async () => {
      const p = await makeProject(ctx.api, full());
      const first = await ctx.api.patch('updateProject', `/projects/${p.id}`, { body: { name: 'v2' } });
      expect(first.headers.get('etag')).to.equal('"2"');
      for (const ifMatch of ['"1"', '"99"', 'W/"2"']) {
        const stale = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
          body: { name: 'lost update' },
          headers: { 'If-Match': ifMatch },
        });
        expectProblem(stale, 412, 'precondition_failed');
      }
      const after = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(after.body).to.include({ name: 'v2', version: 2 });
      expect(after.headers.get('etag')).to.equal('"2"');
    });

    it('names an invalid header as location header', async () => {
      const p = await makeProject(ctx.api);
      const res = await ctx.api.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'x' },
        headers: { 'If-Match': '' },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(body.errors[0].location).to.equal('header');
      expect(body.errors[0].path.toLowerCase()).to.equal('if-match');
    });

    it('answers 404 for an unknown id and for another tenant’s project (unchanged)', async () => {
      expectProblem(
        await ctx.api.patch('updateProject', `/projects/${randomUUID()}`, { body: { name: 'x' } }),
        404,
        'not_found',
      );
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
      const theirs = await makeProject(otherApi);
      const res = await ctx.api.patch('updateProject', `/projects/${theirs.id}`, {
        body: { name: 'hijack' },
      });
      expectProblem(res, 404, 'not_found');
      const got = await otherApi.get('getProject', `/projects/${theirs.id}`);
      expect(got.body.name).to.equal(theirs.name);
      expect(got.body.version).to.equal(1);
    });

    it('answers 403 forbidden for a read-only key (unchanged)', async () => {
      const p = await makeProject(ctx.api);
      const res = await ctx.reader.patch('updateProject', `/projects/${p.id}`, {
        body: { name: 'nope' },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
      const got = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(got.body.name).to.equal(p.name);
    });

    it('answers 400 for an unknown or read-only property and for a bad type', async () => {
      const p = await makeProject(ctx.api);
      for (const body of [{ colour: 'red' }, { version: 5 }, { progress: 'half' }, { status: 'DONE' }]) {
        const res = await ctx.api.patch('updateProject', `/projects/${p.id}`, { body });
        expectProblem(res, 400, 'validation_failed');
      }
      const got = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(got.body.version).to.equal(1);
    });
  });
});
