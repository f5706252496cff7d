/**
 * Contract tests of listRisks: the envelope, the filters alone and combined (seed rule 1), paging, and tenant
 * isolation.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { apiPathOf, expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { makeProject, makeRisk } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Risks: list', () => {
  const ctx = contractSuite();
  let project: any;
  beforeEach(async () => {
    project = await makeProject(ctx.api);
  });

  describe('listRisks', () => {
    it('answers an empty envelope for a tenant without risks', async () => {
      const res = await ctx.api.get('listRisks', '/risks');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
      expect(res.headers.get('link')).to.equal(null);
    });

    it('restricts by projectId, status and severity, each alone and combined with AND (seed rule 1)', async () => {
      const p2 = await makeProject(ctx.api);
      // p1: OPEN/LOW, OPEN/HIGH, MITIGATING/HIGH; p2: OPEN/HIGH, CLOSED/CRITICAL, MITIGATING/LOW (manual)
      const a = await makeRisk(ctx.api, project.id, { likelihood: 1, impact: 2 });
      const b = await makeRisk(ctx.api, project.id, { likelihood: 3, impact: 4 });
      const c = await makeRisk(ctx.api, project.id, { likelihood: 4, impact: 4, status: 'MITIGATING' });
      const d = await makeRisk(ctx.api, p2.id, { likelihood: 2, impact: 5 });
      const e = await makeRisk(ctx.api, p2.id, { likelihood: 5, impact: 5, status: 'CLOSED' });
      const f = await makeRisk(ctx.api, p2.id, {
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
        const res = await ctx.api.get('listRisks', '/risks', { query });
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
      for (let i = 0; i < 5; i++) ids.push((await makeRisk(ctx.api, project.id)).id);
      const p1 = await ctx.api.get('listRisks', '/risks', { query: { limit: 2, projectId: project.id } });
      expect(p1.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 5, hasMore: true });
      expect(p1.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(0, 2));
      const next = parseLink(p1.headers.get('link')).next as string;
      expect(new URL(next).searchParams.get('projectId')).to.equal(project.id);
      const p2 = await ctx.api.get('listRisks', apiPathOf(next, ctx.server.baseUrl));
      expect(p2.body.pagination).to.deep.equal({ limit: 2, offset: 2, total: 5, hasMore: true });
      expect(p2.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(2, 4));
      const links = parseLink(p2.headers.get('link'));
      expect(Object.keys(links).sort()).to.deep.equal(['next', 'prev']);
      const p3 = await ctx.api.get('listRisks', apiPathOf(links.next as string, ctx.server.baseUrl));
      expect(p3.body.pagination).to.deep.equal({ limit: 2, offset: 4, total: 5, hasMore: false });
      expect(p3.body.data.map((r: any) => r.id)).to.deep.equal(ids.slice(4));
      expect(Object.keys(parseLink(p3.headers.get('link')))).to.deep.equal(['prev']);
    });

    it('never shows another tenant’s risks, even when filtering by their project', async () => {
      const mine = await makeRisk(ctx.api, project.id);
      const other = await ctx.server.createTenant();
      const otherApi = ctx.as(other.keys.write);
      const theirProject = await makeProject(otherApi);
      const theirs = await makeRisk(otherApi, theirProject.id);
      const res = await ctx.api.get('listRisks', '/risks');
      expect(res.body.data.map((r: any) => r.id)).to.deep.equal([mine.id]);
      const byTheirProject = await ctx.api.get('listRisks', '/risks', {
        query: { projectId: theirProject.id },
      });
      expect(byTheirProject.body).to.deep.equal({
        data: [],
        pagination: { limit: 25, offset: 0, total: 0, hasMore: false },
      });
      const theirList = await otherApi.get('listRisks', '/risks');
      expect(theirList.body.data.map((r: any) => r.id)).to.deep.equal([theirs.id]);
    });

    for (const [name, query, field] of [
      ['severity BOGUS', { severity: 'BOGUS' }, 'severity.0'],
      ['status BOGUS', { status: 'BOGUS' }, 'status.0'],
      ['projectId not a uuid', { projectId: 'nope' }, 'projectId'],
      ['limit 101', { limit: 101 }, 'limit'],
      ['unknown parameter', { priority: 'HIGH' }, 'priority'],
    ] as const) {
      it(`answers 400 naming the query field for ${name}`, async () => {
        const res = await ctx.api.get('listRisks', '/risks', { query });
        const body = expectProblem(res, 400, 'validation_failed');
        expect(fieldErrors(body)).to.include(`query:${field}`);
      });
    }
  });
});
