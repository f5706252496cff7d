/**
 * Contract tests of updateRisk: score and severity recomputed (DERIVED) or kept (MANUAL), partial updates and
 * no-ops, If-Match, and what is refused.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { makeProject, makeRisk } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Risks: update', () => {
  const ctx = contractSuite();
  let project: any;
  beforeEach(async () => {
    project = await makeProject(ctx.api);
  });

  describe('updateRisk', () => {
    it('recomputes score and the DERIVED severity when likelihood changes, keeping other fields', async () => {
      const r = await makeRisk(ctx.api, project.id, { likelihood: 2, impact: 4, mitigation: 'plan A' });
      expect(r).to.include({ score: 8, severity: 'MEDIUM' });
      const res = await ctx.api.patch('updateRisk', `/risks/${r.id}`, { body: { likelihood: 5 } });
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
      const got = await ctx.api.get('getRisk', `/risks/${r.id}`);
      expect(got.body).to.deep.equal(res.body);
      expect(got.headers.get('etag')).to.equal('"2"');
      const down = await ctx.api.patch('updateRisk', `/risks/${r.id}`, { body: { impact: 1 } });
      expect(down.body).to.include({ score: 5, severity: 'MEDIUM', version: 3 });
    });

    it('keeps a MANUAL severity when likelihood changes, and severity: null returns to DERIVED', async () => {
      const r = await makeRisk(ctx.api, project.id, { likelihood: 1, impact: 2 });
      const manual = await ctx.api.patch('updateRisk', `/risks/${r.id}`, { body: { severity: 'HIGH' } });
      expect(manual.body).to.include({ severity: 'HIGH', severitySource: 'MANUAL', score: 2, version: 2 });
      const moved = await ctx.api.patch('updateRisk', `/risks/${r.id}`, {
        body: { likelihood: 5, impact: 5 },
      });
      expect(moved.body).to.include({ score: 25, severity: 'HIGH', severitySource: 'MANUAL', version: 3 });
      const derived = await ctx.api.patch('updateRisk', `/risks/${r.id}`, { body: { severity: null } });
      expect(derived.body).to.include({
        score: 25,
        severity: 'CRITICAL',
        severitySource: 'DERIVED',
        version: 4,
      });
      const got = await ctx.api.get('getRisk', `/risks/${r.id}`);
      expect(got.body).to.deep.equal(derived.body);
    });

    it('changes status to MITIGATING and clears nullable fields with null', async () => {
      const r = await makeRisk(ctx.api, project.id, { mitigation: 'plan', dueDate: '2026-05-01' });
      const res = await ctx.api.patch('updateRisk', `/risks/${r.id}`, {
        body: { status: 'MITIGATING', dueDate: null },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'MITIGATING', dueDate: null, mitigation: 'plan', version: 2 });
      const filtered = await ctx.api.get('listRisks', '/risks', { query: { status: 'MITIGATING' } });
      expect(filtered.body.data.map((x: any) => x.id)).to.deep.equal([r.id]);
    });

    it('treats an empty body as a no-op', async () => {
      const r = await makeRisk(ctx.api, project.id);
      const res = await ctx.api.patch('updateRisk', `/risks/${r.id}`, { body: {} });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(r);
      expect(res.headers.get('etag')).to.equal('"1"');
    });

    it('answers 400 when trying to move the risk to another project', async () => {
      const r = await makeRisk(ctx.api, project.id);
      const p2 = await makeProject(ctx.api);
      const res = await ctx.api.patch('updateRisk', `/risks/${r.id}`, { body: { projectId: p2.id } });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/projectId');
      const got = await ctx.api.get('getRisk', `/risks/${r.id}`);
      expect(got.body.projectId).to.equal(project.id);
    });

    it('accepts If-Match with the current ETag and *', async () => {
      const r = await makeRisk(ctx.api, project.id);
      const ok = await ctx.api.patch('updateRisk', `/risks/${r.id}`, {
        body: { title: 'v2' },
        headers: { 'If-Match': '"1"' },
      });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.include({ title: 'v2', version: 2 });
      const star = await ctx.api.patch('updateRisk', `/risks/${r.id}`, {
        body: { title: 'v3' },
        headers: { 'If-Match': '*' },
      });
      expect(star.body).to.include({ title: 'v3', version: 3 });
    });

    it('answers 412 for a stale If-Match and writes nothing', async () => {
      const r = await makeRisk(ctx.api, project.id);
      await ctx.api.patch('updateRisk', `/risks/${r.id}`, { body: { title: 'v2' } });
      const stale = await ctx.api.patch('updateRisk', `/risks/${r.id}`, {
        body: { title: 'lost' },
        headers: { 'If-Match': '"1"' },
      });
      expectProblem(stale, 412, 'precondition_failed');
      const got = await ctx.api.get('getRisk', `/risks/${r.id}`);
      expect(got.body).to.include({ title: 'v2', version: 2 });
    });

    it('answers 404 for an unknown id and for another tenant’s risk (unchanged)', async () => {
      expectProblem(
        await ctx.api.patch('updateRisk', `/risks/${randomUUID()}`, { body: { title: 'x' } }),
        404,
        'not_found',
      );
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
      const theirs = await makeRisk(otherApi, (await makeProject(otherApi)).id);
      const res = await ctx.api.patch('updateRisk', `/risks/${theirs.id}`, { body: { title: 'hijack' } });
      expectProblem(res, 404, 'not_found');
      const got = await otherApi.get('getRisk', `/risks/${theirs.id}`);
      expect(got.body).to.deep.equal(theirs);
    });

    it('answers 403 forbidden for a read-only key (unchanged)', async () => {
      const r = await makeRisk(ctx.api, project.id);
      const res = await ctx.reader.patch('updateRisk', `/risks/${r.id}`, {
        body: { status: 'CLOSED' },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
      const got = await ctx.api.get('getRisk', `/risks/${r.id}`);
      expect(got.body).to.deep.equal(r);
    });

    it('answers 400 for out-of-range likelihood and unknown properties', async () => {
      const r = await makeRisk(ctx.api, project.id);
      for (const [body, field] of [
        [{ likelihood: 6 }, '/likelihood'],
        [{ impact: 0 }, '/impact'],
        [{ severity: 'SEVERE' }, '/severity'],
        [{ score: 3 }, '/score'],
      ] as const) {
        const res = await ctx.api.patch('updateRisk', `/risks/${r.id}`, { body });
        const problem = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(problem)).to.include(`body:${field}`);
      }
      const got = await ctx.api.get('getRisk', `/risks/${r.id}`);
      expect(got.body.version).to.equal(1);
    });
  });
});
