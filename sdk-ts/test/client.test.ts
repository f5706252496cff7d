/**
 * The SDK against the real server (sdk-ts/test/live.ts): CRUD, filters, pagination, sorting and searching,
 * idempotency keys, request ids, and agent runs waited for with `waitForExecution` (the server's own job runner runs
 * them).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { createJobRunner } from '../../server/jobs/index.js';
import { BadRequestError, Meridian } from '../src/index.js';
import { rejection } from './helpers.js';
import { liveSuite } from './live.js';

describe('sdk-ts against the live server', () => {
  const ctx = liveSuite();

  describe('projects', () => {
    it('creates, reads, lists and updates a project with typed data, requestId and the raw response', async () => {
      const created = await ctx.client.createProject({
        body: {
          name: 'Bridge rehab',
          code: `BR-${randomUUID().slice(0, 6)}`,
          startDate: '2025-01-06',
          endDate: '2025-12-19',
          budget: 1_000_000,
        },
      });
      expect(created.response.status).to.equal(201);
      expect(created.requestId).to.be.a('string').and.not.equal('');
      expect(created.response.headers.get('x-request-id')).to.equal(created.requestId);
      expect(created.data).to.include({
        name: 'Bridge rehab',
        status: 'PLANNED',
        budget: 1_000_000,
        version: 1,
      });

      const got = await ctx.client.getProject({ id: created.data.id });
      expect(got.data.id).to.equal(created.data.id);
      expect(got.data.milestones).to.deep.equal([]);
      expect(got.data.budgetSummary.budget).to.equal(1_000_000);
      const etag = got.response.headers.get('etag');
      expect(etag).to.equal('"1"');

      const updated = await ctx.client.updateProject({
        id: created.data.id,
        body: { status: 'AT_RISK', progress: 40 },
        headers: { 'If-Match': etag as string },
      });
      expect(updated.data).to.include({ status: 'AT_RISK', progress: 40, version: 2 });

      const list = await ctx.client.listProjects();
      expect(list.data.data.map((p) => p.id)).to.deep.equal([created.data.id]);
      expect(list.data.pagination).to.deep.equal({ limit: 25, offset: 0, total: 1, hasMore: false });
    });

    it('filters projects by status', async () => {
      const atRisk = await ctx.newProject({ status: 'AT_RISK' });
      await ctx.newProject({ status: 'ON_TRACK' });
      const { data } = await ctx.client.listProjects({ status: 'AT_RISK' });
      expect(data.data.map((p) => p.id)).to.deep.equal([atRisk.id]);
    });

    it('paginate() yields all 7 projects in order across pages of 3 (3 requests)', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await ctx.newProject({ name: `Paged ${i}` })).id);
      const seen: string[] = [];
      let requests = 0;
      const counting = new Meridian({
        apiKey: ctx.tenant.keys.read,
        baseUrl: ctx.server.baseUrl,
        fetch: (input, init) => {
          requests++;
          return fetch(input, init);
        },
      });
      for await (const project of counting.paginate('listProjects', { limit: 3 })) seen.push(project.id);
      expect(seen).to.deep.equal(ids);
      expect(requests).to.equal(3);
    });

    it('paginate() keeps filters and can start at an offset', async () => {
      const atRisk: string[] = [];
      for (let i = 0; i < 5; i++) {
        atRisk.push((await ctx.newProject({ status: 'AT_RISK' })).id);
        await ctx.newProject({ status: 'ON_HOLD' });
      }
      const all: string[] = [];
      for await (const p of ctx.client.paginate('listProjects', { status: 'AT_RISK', limit: 2 }))
        all.push(p.id);
      expect(all).to.deep.equal(atRisk);
      const later: string[] = [];
      for await (const p of ctx.client.paginate('listProjects', { status: 'AT_RISK', limit: 2, offset: 3 }))
        later.push(p.id);
      expect(later).to.deep.equal(atRisk.slice(3));
    });
  });

  describe('sorting and searching', () => {
    it('listProjects and paginate() take q, tag and sort; risks and audit logs sort too', async () => {
      const small = await ctx.newProject({
        name: 'Gowanus Canal Flushing Tunnel',
        budget: 2_000_000,
        tags: ['Resilience'],
      });
      const large = await ctx.newProject({
        name: 'Newtown Creek tunnel repair',
        budget: 9_000_000,
        tags: ['resilience'],
      });
      await ctx.newProject({ name: 'PS 123 Addition', budget: 5_000_000 });
      const { data } = await ctx.client.listProjects({ q: 'TUNNEL', sort: '-budget' });
      expect(data.data.map((p) => p.id)).to.deep.equal([large.id, small.id]);
      expect(data.pagination.total).to.equal(2);
      const paged: string[] = [];
      for await (const p of ctx.client.paginate('listProjects', {
        tag: 'RESILIENCE',
        sort: 'name',
        limit: 1,
      }))
        paged.push(p.id);
      expect(paged).to.deep.equal([small.id, large.id]);

      const low = (
        await ctx.client.createRisk({ body: { title: 'Low', projectId: small.id, likelihood: 1, impact: 2 } })
      ).data;
      const high = (
        await ctx.client.createRisk({
          body: { title: 'High', projectId: small.id, likelihood: 5, impact: 4 },
        })
      ).data;
      const risks: string[] = [];
      for await (const r of ctx.client.paginate('listRisks', { sort: '-score' })) risks.push(r.id);
      expect(risks).to.deep.equal([high.id, low.id]);

      const admin = new Meridian({
        apiKey: ctx.tenant.keys.admin,
        baseUrl: ctx.server.baseUrl,
        maxRetries: 0,
      });
      const newest = (await admin.listAuditLogs({ sort: '-occurredAt', limit: 1 })).data.data[0];
      expect(newest?.resourceId).to.equal(high.id);

      const bad = await rejection(ctx.client.listProjects({ sort: 'progress' as never }), BadRequestError);
      expect(bad.errors?.map((e) => e.path)).to.include('sort');
    });
  });

  describe('risks', () => {
    it('creates, reads, updates and filters risks by projectId, status and severity', async () => {
      const p1 = await ctx.newProject();
      const p2 = await ctx.newProject();
      const high = await ctx.client.createRisk({
        body: { title: 'Utility conflicts', projectId: p1.id, likelihood: 4, impact: 3 },
      });
      expect(high.response.status).to.equal(201);
      expect(high.data).to.include({ score: 12, severity: 'HIGH', status: 'OPEN', projectId: p1.id });
      const low = await ctx.client.createRisk({
        body: { title: 'Permit delay', projectId: p1.id, likelihood: 1, impact: 2 },
      });
      expect(low.data.severity).to.equal('LOW');
      const other = await ctx.client.createRisk({
        body: { title: 'Steel prices', projectId: p2.id, likelihood: 5, impact: 5 },
      });
      expect(other.data.severity).to.equal('CRITICAL');

      expect((await ctx.client.getRisk({ id: low.data.id })).data.title).to.equal('Permit delay');
      const closed = await ctx.client.updateRisk({ id: low.data.id, body: { status: 'CLOSED' } });
      expect(closed.data.status).to.equal('CLOSED');

      const ids = async (params: Parameters<Meridian['listRisks']>[0]) =>
        (await ctx.client.listRisks(params)).data.data.map((r) => r.id);
      expect(await ids({ projectId: p1.id })).to.deep.equal([high.data.id, low.data.id]);
      expect(await ids({ severity: 'CRITICAL' })).to.deep.equal([other.data.id]);
      expect(await ids({ status: 'CLOSED' })).to.deep.equal([low.data.id]);
      expect(await ids({ projectId: p1.id, status: 'OPEN', severity: 'HIGH' })).to.deep.equal([high.data.id]);

      const all: string[] = [];
      for await (const risk of ctx.client.paginate('listRisks', { limit: 1 })) all.push(risk.id);
      expect(all).to.deep.equal([high.data.id, low.data.id, other.data.id]);
    });
  });

  describe('status reports', () => {
    it('submits reports (the newest moves the project), lists them newest first and pages the portfolio', async () => {
      const project = await ctx.newProject({
        budget: 500_000,
        managingAgency: 'DEP',
        borough: 'Brooklyn, Queens',
      });
      const first = await ctx.client.createStatusReport({
        id: project.id,
        body: { asOf: '2025-03-03', status: 'ON_TRACK', progress: 10 },
      });
      expect(first.response.status).to.equal(201);
      const second = await ctx.client.createStatusReport({
        id: project.id,
        body: { asOf: '2025-06-02', status: 'AT_RISK', forecastEndDate: '2026-01-30', actualCost: 200_000 },
      });
      expect(second.data).to.include({ applied: true, scheduleSlipDays: 42, source: 'api', progress: null });
      const moved = (await ctx.client.getProject({ id: project.id })).data;
      expect(moved).to.include({ status: 'AT_RISK', actualCost: 200_000, progress: 10 });
      expect(moved.budgetSummary.percentSpent).to.equal(40);
      const listed = (await ctx.client.listProjectStatusReports({ id: project.id })).data.data.map(
        (r) => r.asOf,
      );
      expect(listed).to.deep.equal(['2025-06-02', '2025-03-03']);
      const portfolio: string[] = [];
      for await (const r of ctx.client.paginate('listStatusReports', { projectId: project.id, limit: 1 }))
        portfolio.push(r.id);
      expect(portfolio).to.deep.equal([second.data.id, first.data.id]);
      expect((await ctx.client.getStatusReport({ id: first.data.id })).data.progress).to.equal(10);
      const queens = (await ctx.client.listProjects({ borough: 'queens', managingAgency: 'DEP' })).data.data;
      expect(queens.map((p) => p.id)).to.deep.equal([project.id]);
    });
  });

  describe('identity', () => {
    it('reads /me and /tenant', async () => {
      const me = await ctx.client.getMe();
      expect(me.data.tenant.id).to.equal(ctx.tenant.tenantId);
      const t = await ctx.client.getTenant();
      expect(t.data.rateLimit.requestsPerMinute).to.be.a('number');
    });
  });

  describe('idempotency', () => {
    it('sends a generated Idempotency-Key on POST; a caller-given key replays the first response', async () => {
      const key = randomUUID();
      const body = { name: 'Once', startDate: '2025-01-06', endDate: '2025-02-06' };
      const first = await ctx.client.createProject({ body, headers: { 'Idempotency-Key': key } });
      const again = await ctx.client.createProject({ body, headers: { 'Idempotency-Key': key } });
      expect(again.data.id).to.equal(first.data.id);
      expect(again.response.headers.get('idempotent-replayed')).to.equal('true');
      const fresh = await ctx.client.createProject({ body });
      expect(fresh.data.id).to.not.equal(first.data.id);
    });
  });

  describe('agents', () => {
    it('runs an agent and waits for it: waitForExecution returns the COMPLETED execution with its typed output', async () => {
      // The job runner of the server under test, looping as in `npm start` (test servers start none).
      const runner = createJobRunner({
        services: ctx.server.meridian.services,
        clock: systemClock,
        config: loadConfig({ NODE_ENV: 'test', MERIDIAN_WORKER_POLL_MS: '20' }),
      }).start();
      try {
        const late = await ctx.newProject({
          forecastEndDate: '2026-03-31',
          budget: 100_000,
          forecastCost: 130_000,
        });
        const { data: accepted, response } = await ctx.client.runAgent({
          body: { agentId: 'budget-health', scope: `project:${late.id}`, depth: 'standard' },
        });
        expect(response.status).to.equal(202);
        expect(accepted.status).to.equal('PENDING');
        const done = await ctx.client.waitForExecution(accepted.executionId, {
          intervalMs: 50,
          timeoutMs: 30_000,
        });
        expect(done).to.include({
          executionId: accepted.executionId,
          status: 'COMPLETED',
          attempts: 1,
          error: null,
        });
        const output = done.output;
        if (!output) throw new Error('a COMPLETED execution has an output');
        expect(output.metrics.largestOverrun).to.equal(30_000);
        const finding = output.findings.find((f) => f.title.includes('by amount'));
        expect(finding?.citations[0]).to.include({
          id: late.id,
          field: 'forecastCost',
          url: `/v1/projects/${late.id}`,
        });
        // The catalogue and the list, typed.
        const { data: catalogue } = await ctx.client.listAgents();
        expect(catalogue.data.map((a) => a.id)).to.include('status-report');
        const { data: listed } = await ctx.client.listAgentExecutions({
          agentId: 'budget-health',
          sort: '-createdAt',
        });
        expect(listed.data[0]?.executionId).to.equal(accepted.executionId);
      } finally {
        await runner.stop();
      }
    });
  });
});
