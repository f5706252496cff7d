/**
 * The SDK against the real server (test/support/server.ts: the app in-process on 127.0.0.1:0 over a fresh SQLite
 * file, or Postgres with MERIDIAN_TEST_DB=postgres): CRUD, filters, pagination, every error class it can produce,
 * request ids, and agent runs waited for with `waitForExecution` (the server's own job runner runs them).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { createJobRunner } from '../../server/jobs/index.js';
import { startTestServer, type TestServer, type TestTenant } from '../../test/support/server.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  Meridian,
  MeridianError,
  NotFoundError,
  type OperationId,
  operationTable,
  PermissionDeniedError,
  PreconditionFailedError,
  type Project,
  RateLimitError,
  UnprocessableEntityError,
} from '../src/index.js';
import { rejection } from './helpers.js';

describe('sdk-ts against the live server', () => {
  let server: TestServer;
  let tenant: TestTenant;
  let client: Meridian;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());
  beforeEach(async () => {
    tenant = await server.createTenant();
    client = new Meridian({ apiKey: tenant.keys.write, baseUrl: server.baseUrl, maxRetries: 0 });
  });

  const newProject = async (overrides: Partial<Project> = {}) =>
    (
      await client.createProject({
        body: {
          name: `Project ${randomUUID().slice(0, 8)}`,
          startDate: '2025-01-06',
          endDate: '2025-12-19',
          ...overrides,
        },
      })
    ).data;

  describe('projects', () => {
    it('creates, reads, lists and updates a project with typed data, requestId and the raw response', async () => {
      const created = await client.createProject({
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

      const got = await client.getProject({ id: created.data.id });
      expect(got.data.id).to.equal(created.data.id);
      expect(got.data.milestones).to.deep.equal([]);
      expect(got.data.budgetSummary.budget).to.equal(1_000_000);
      const etag = got.response.headers.get('etag');
      expect(etag).to.equal('"1"');

      const updated = await client.updateProject({
        id: created.data.id,
        body: { status: 'AT_RISK', progress: 40 },
        headers: { 'If-Match': etag as string },
      });
      expect(updated.data).to.include({ status: 'AT_RISK', progress: 40, version: 2 });

      const list = await client.listProjects();
      expect(list.data.data.map((p) => p.id)).to.deep.equal([created.data.id]);
      expect(list.data.pagination).to.deep.equal({ limit: 25, offset: 0, total: 1, hasMore: false });
    });

    it('filters projects by status', async () => {
      const atRisk = await newProject({ status: 'AT_RISK' });
      await newProject({ status: 'ON_TRACK' });
      const { data } = await client.listProjects({ status: 'AT_RISK' });
      expect(data.data.map((p) => p.id)).to.deep.equal([atRisk.id]);
    });

    it('paginate() yields all 7 projects in order across pages of 3 (3 requests)', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await newProject({ name: `Paged ${i}` })).id);
      const seen: string[] = [];
      let requests = 0;
      const counting = new Meridian({
        apiKey: tenant.keys.read,
        baseUrl: server.baseUrl,
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
        atRisk.push((await newProject({ status: 'AT_RISK' })).id);
        await newProject({ status: 'ON_HOLD' });
      }
      const all: string[] = [];
      for await (const p of client.paginate('listProjects', { status: 'AT_RISK', limit: 2 })) all.push(p.id);
      expect(all).to.deep.equal(atRisk);
      const later: string[] = [];
      for await (const p of client.paginate('listProjects', { status: 'AT_RISK', limit: 2, offset: 3 }))
        later.push(p.id);
      expect(later).to.deep.equal(atRisk.slice(3));
    });
  });

  describe('sorting and searching (issue 14)', () => {
    it('listProjects and paginate() take q, tag and sort; risks and audit logs sort too', async () => {
      const small = await newProject({
        name: 'Gowanus Canal Flushing Tunnel',
        budget: 2_000_000,
        tags: ['Resilience'],
      });
      const large = await newProject({
        name: 'Newtown Creek tunnel repair',
        budget: 9_000_000,
        tags: ['resilience'],
      });
      await newProject({ name: 'PS 123 Addition', budget: 5_000_000 });
      const { data } = await client.listProjects({ q: 'TUNNEL', sort: '-budget' });
      expect(data.data.map((p) => p.id)).to.deep.equal([large.id, small.id]);
      expect(data.pagination.total).to.equal(2);
      const paged: string[] = [];
      for await (const p of client.paginate('listProjects', { tag: 'RESILIENCE', sort: 'name', limit: 1 }))
        paged.push(p.id);
      expect(paged).to.deep.equal([small.id, large.id]);

      const low = (
        await client.createRisk({ body: { title: 'Low', projectId: small.id, likelihood: 1, impact: 2 } })
      ).data;
      const high = (
        await client.createRisk({ body: { title: 'High', projectId: small.id, likelihood: 5, impact: 4 } })
      ).data;
      const risks: string[] = [];
      for await (const r of client.paginate('listRisks', { sort: '-score' })) risks.push(r.id);
      expect(risks).to.deep.equal([high.id, low.id]);

      const admin = new Meridian({ apiKey: tenant.keys.admin, baseUrl: server.baseUrl, maxRetries: 0 });
      const newest = (await admin.listAuditLogs({ sort: '-occurredAt', limit: 1 })).data.data[0];
      expect(newest?.resourceId).to.equal(high.id);

      const bad = await rejection(client.listProjects({ sort: 'progress' as never }), BadRequestError);
      expect(bad.errors?.map((e) => e.path)).to.include('sort');
    });
  });

  describe('risks', () => {
    it('creates, reads, updates and filters risks by projectId, status and severity', async () => {
      const p1 = await newProject();
      const p2 = await newProject();
      const high = await client.createRisk({
        body: { title: 'Utility conflicts', projectId: p1.id, likelihood: 4, impact: 3 },
      });
      expect(high.response.status).to.equal(201);
      expect(high.data).to.include({ score: 12, severity: 'HIGH', status: 'OPEN', projectId: p1.id });
      const low = await client.createRisk({
        body: { title: 'Permit delay', projectId: p1.id, likelihood: 1, impact: 2 },
      });
      expect(low.data.severity).to.equal('LOW');
      const other = await client.createRisk({
        body: { title: 'Steel prices', projectId: p2.id, likelihood: 5, impact: 5 },
      });
      expect(other.data.severity).to.equal('CRITICAL');

      expect((await client.getRisk({ id: low.data.id })).data.title).to.equal('Permit delay');
      const closed = await client.updateRisk({ id: low.data.id, body: { status: 'CLOSED' } });
      expect(closed.data.status).to.equal('CLOSED');

      const ids = async (params: Parameters<Meridian['listRisks']>[0]) =>
        (await client.listRisks(params)).data.data.map((r) => r.id);
      expect(await ids({ projectId: p1.id })).to.deep.equal([high.data.id, low.data.id]);
      expect(await ids({ severity: 'CRITICAL' })).to.deep.equal([other.data.id]);
      expect(await ids({ status: 'CLOSED' })).to.deep.equal([low.data.id]);
      expect(await ids({ projectId: p1.id, status: 'OPEN', severity: 'HIGH' })).to.deep.equal([high.data.id]);

      const all: string[] = [];
      for await (const risk of client.paginate('listRisks', { limit: 1 })) all.push(risk.id);
      expect(all).to.deep.equal([high.data.id, low.data.id, other.data.id]);
    });
  });

  describe('status reports', () => {
    it('submits reports (the newest moves the project), lists them newest first and pages the portfolio', async () => {
      const project = await newProject({
        budget: 500_000,
        managingAgency: 'DEP',
        borough: 'Brooklyn, Queens',
      });
      const first = await client.createStatusReport({
        id: project.id,
        body: { asOf: '2025-03-03', status: 'ON_TRACK', progress: 10 },
      });
      expect(first.response.status).to.equal(201);
      const second = await client.createStatusReport({
        id: project.id,
        body: { asOf: '2025-06-02', status: 'AT_RISK', forecastEndDate: '2026-01-30', actualCost: 200_000 },
      });
      expect(second.data).to.include({ applied: true, scheduleSlipDays: 42, source: 'api', progress: null });
      const moved = (await client.getProject({ id: project.id })).data;
      expect(moved).to.include({ status: 'AT_RISK', actualCost: 200_000, progress: 10 });
      expect(moved.budgetSummary.percentSpent).to.equal(40);
      const listed = (await client.listProjectStatusReports({ id: project.id })).data.data.map((r) => r.asOf);
      expect(listed).to.deep.equal(['2025-06-02', '2025-03-03']);
      const portfolio: string[] = [];
      for await (const r of client.paginate('listStatusReports', { projectId: project.id, limit: 1 }))
        portfolio.push(r.id);
      expect(portfolio).to.deep.equal([second.data.id, first.data.id]);
      expect((await client.getStatusReport({ id: first.data.id })).data.progress).to.equal(10);
      const queens = (await client.listProjects({ borough: 'queens', managingAgency: 'DEP' })).data.data;
      expect(queens.map((p) => p.id)).to.deep.equal([project.id]);
    });
  });

  describe('identity', () => {
    it('reads /me and /tenant', async () => {
      const me = await client.getMe();
      expect(me.data.tenant.id).to.equal(tenant.tenantId);
      const t = await client.getTenant();
      expect(t.data.rateLimit.requestsPerMinute).to.be.a('number');
    });
  });

  describe('idempotency', () => {
    it('sends a generated Idempotency-Key on POST; a caller-given key replays the first response', async () => {
      const key = randomUUID();
      const body = { name: 'Once', startDate: '2025-01-06', endDate: '2025-02-06' };
      const first = await client.createProject({ body, headers: { 'Idempotency-Key': key } });
      const again = await client.createProject({ body, headers: { 'Idempotency-Key': key } });
      expect(again.data.id).to.equal(first.data.id);
      expect(again.response.headers.get('idempotent-replayed')).to.equal('true');
      const fresh = await client.createProject({ body });
      expect(fresh.data.id).to.not.equal(first.data.id);
    });
  });

  describe('agents', () => {
    it('runs an agent and waits for it: waitForExecution returns the COMPLETED execution with its typed output', async () => {
      // The job runner of the server under test, looping as in `npm start` (test servers start none).
      const runner = createJobRunner({
        services: server.meridian.services,
        clock: systemClock,
        config: loadConfig({
          NODE_ENV: 'test',
          MERIDIAN_WORKER_POLL_MS: '20',
          MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
        }),
      }).start();
      try {
        const late = await newProject({
          forecastEndDate: '2026-03-31',
          budget: 100_000,
          forecastCost: 130_000,
        });
        const { data: accepted, response } = await client.runAgent({
          body: { agentId: 'budget-health', scope: `project:${late.id}`, depth: 'standard' },
        });
        expect(response.status).to.equal(202);
        expect(accepted.status).to.equal('PENDING');
        const done = await client.waitForExecution(accepted.executionId, {
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
        const { data: catalogue } = await client.listAgents();
        expect(catalogue.data.map((a) => a.id)).to.include('status-report');
        const { data: listed } = await client.listAgentExecutions({
          agentId: 'budget-health',
          sort: '-createdAt',
        });
        expect(listed.data[0]?.executionId).to.equal(accepted.executionId);
      } finally {
        await runner.stop();
      }
    });
  });

  describe('errors', () => {
    it('400 BadRequestError for an unknown body field, with code, errors and requestId', async () => {
      const error = await rejection(
        client.createProject({
          // @ts-expect-error -- an unknown field: a compile error, and a 400 at run time
          body: { name: 'X', startDate: '2025-01-06', endDate: '2025-02-06', colour: 'red' },
        }),
        BadRequestError,
      );
      expect(error).to.be.instanceOf(APIError).and.instanceOf(MeridianError);
      expect(error.status).to.equal(400);
      expect(error.code).to.equal('validation_failed');
      expect(error.title).to.be.a('string');
      expect(error.errors?.some((e) => e.location === 'body')).to.equal(true);
      expect(error.requestId).to.equal(error.response?.headers.get('x-request-id'));
      expect(error.problem?.requestId).to.equal(error.requestId);
      expect(error.message).to.match(/^400 validation_failed: /);
    });

    it('401 AuthenticationError for a bad key', async () => {
      const bad = new Meridian({
        apiKey: `mk_live_${'x'.repeat(40)}`,
        baseUrl: server.baseUrl,
        maxRetries: 0,
      });
      const error = await rejection(bad.listProjects(), AuthenticationError);
      expect(error.status).to.equal(401);
      expect(error.code).to.equal('unauthenticated');
      expect(error.response?.headers.get('www-authenticate')).to.match(/^Bearer/);
    });

    it('403 PermissionDeniedError for a read key on POST', async () => {
      const reader = new Meridian({ apiKey: tenant.keys.read, baseUrl: server.baseUrl, maxRetries: 0 });
      const error = await rejection(
        reader.createProject({ body: { name: 'No', startDate: '2025-01-06', endDate: '2025-02-06' } }),
        PermissionDeniedError,
      );
      expect(error.code).to.equal('forbidden');
    });

    it('404 NotFoundError for an unknown id (and for another tenant’s record)', async () => {
      const error = await rejection(client.getProject({ id: randomUUID() }), NotFoundError);
      expect(error.code).to.equal('not_found');
      const mine = await newProject();
      const otherTenant = await server.createTenant();
      const other = new Meridian({ apiKey: otherTenant.keys.read, baseUrl: server.baseUrl });
      await rejection(other.getProject({ id: mine.id }), NotFoundError);
    });

    it('409 ConflictError for an invalid transition and for a duplicate code', async () => {
      const done = await newProject({ status: 'COMPLETED' });
      const transition = await rejection(
        client.updateProject({ id: done.id, body: { status: 'AT_RISK' } }),
        ConflictError,
      );
      expect(transition.code).to.equal('invalid_transition');
      const code = `DUP-${randomUUID().slice(0, 6)}`;
      await newProject({ code });
      const duplicate = await rejection(newProject({ code }), ConflictError);
      expect(duplicate.code).to.equal('conflict');
    });

    it('412 PreconditionFailedError for a stale If-Match', async () => {
      const p = await newProject();
      await client.updateProject({ id: p.id, body: { progress: 10 }, headers: { 'If-Match': '"1"' } });
      const error = await rejection(
        client.updateProject({ id: p.id, body: { progress: 20 }, headers: { 'If-Match': '"1"' } }),
        PreconditionFailedError,
      );
      expect(error.code).to.equal('precondition_failed');
      expect((await client.getProject({ id: p.id })).data.progress).to.equal(10);
    });

    it('422 UnprocessableEntityError for endDate before startDate', async () => {
      const error = await rejection(
        client.createProject({ body: { name: 'Backwards', startDate: '2025-06-01', endDate: '2025-05-01' } }),
        UnprocessableEntityError,
      );
      expect(error.code).to.equal('validation_failed');
      expect(error.errors?.[0]?.path).to.equal('/endDate');
    });

    it('429 RateLimitError for a tenant over its limit (maxRetries 0)', async () => {
      const small = await server.createTenant(undefined, { rateLimitPerMinute: 2 });
      const limited = new Meridian({ apiKey: small.keys.read, baseUrl: server.baseUrl, maxRetries: 0 });
      await limited.getMe();
      await limited.getMe();
      const error = await rejection(limited.getMe(), RateLimitError);
      expect(error.status).to.equal(429);
      expect(error.code).to.equal('rate_limited');
      expect(Number(error.response?.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(error.requestId).to.be.a('string');
    });

    it('501 (an operation the server does not build yet) is an InternalServerError, not retried', async function () {
      // Which operations still answer 501 changes as issues land: take a parameterless GET from the current list.
      const pending = fs
        .readFileSync(new URL('../../test/schemathesis-exclude.txt', import.meta.url), 'utf8')
        .split('\n')
        .map((line) => line.replace(/#.*/, '').trim())
        .filter((id): id is OperationId => id in operationTable)
        .find((id) => operationTable[id].method === 'GET' && operationTable[id].pathParams.length === 0);
      if (!pending) this.skip();
      let requests = 0;
      const counting = new Meridian({
        apiKey: tenant.keys.admin,
        baseUrl: server.baseUrl,
        maxRetries: 2,
        fetch: (input, init) => {
          requests++;
          return fetch(input, init);
        },
      });
      const error = await rejection(counting.request(pending as OperationId), InternalServerError);
      expect(error.status).to.equal(501);
      expect(error.code).to.equal('not_implemented');
      expect(requests).to.equal(1);
    });
  });
});
