/**
 * The SDK against the real server (test/support/server.ts: the app in-process on 127.0.0.1:0 over a fresh SQLite
 * file, or Postgres with MERIDIAN_TEST_DB=postgres): CRUD, filters, pagination, every error class it can produce,
 * request ids from `withResponse()` (agent runs: agents.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer, type TestTenant } from '../../test/support/server.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  Meridian,
  MeridianError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  type Project,
  RateLimitError,
  type RisksListParams,
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
    await client.projects.create({
      name: `Project ${randomUUID().slice(0, 8)}`,
      startDate: '2025-01-06',
      endDate: '2025-12-19',
      ...overrides,
    });

  describe('projects', () => {
    it('creates, reads, lists and updates a project: data by default, withResponse() for requestId and Response', async () => {
      const created = await client.projects
        .create({
          name: 'Bridge rehab',
          code: `BR-${randomUUID().slice(0, 6)}`,
          startDate: '2025-01-06',
          endDate: '2025-12-19',
          budget: 1_000_000,
        })
        .withResponse();
      expect(created.response.status).to.equal(201);
      expect(created.requestId).to.be.a('string').and.not.equal('');
      expect(created.response.headers.get('x-request-id')).to.equal(created.requestId);
      expect(created.data).to.include({
        name: 'Bridge rehab',
        status: 'PLANNED',
        budget: 1_000_000,
        version: 1,
      });

      const got = await client.projects.retrieve(created.data.id);
      expect(got.id).to.equal(created.data.id);
      expect(got.milestones).to.deep.equal([]);
      expect(got.budgetSummary.budget).to.equal(1_000_000);
      const etag = (await client.projects.retrieve(got.id).asResponse()).headers.get('etag');
      expect(etag).to.equal('"1"');

      const updated = await client.projects.update(
        got.id,
        { status: 'AT_RISK', progress: 40 },
        { headers: { 'If-Match': etag as string } },
      );
      expect(updated).to.include({ status: 'AT_RISK', progress: 40, version: 2 });

      const page = await client.projects.list();
      expect(page.data.map((p) => p.id)).to.deep.equal([created.data.id]);
      expect(page.pagination).to.deep.equal({ limit: 25, offset: 0, total: 1, hasMore: false });
      expect(page.hasNextPage()).to.equal(false);
    });

    it('filters projects by one status or several (the parameter repeated: OR)', async () => {
      const atRisk = await newProject({ status: 'AT_RISK' });
      await newProject({ status: 'ON_TRACK' });
      const offTrack = await newProject({ status: 'OFF_TRACK' });
      const page = await client.projects.list({ status: ['AT_RISK'] });
      expect(page.data.map((p) => p.id)).to.deep.equal([atRisk.id]);
      // One value needs no array.
      const one = await client.projects.list({ status: 'AT_RISK' });
      expect(one.data.map((p) => p.id)).to.deep.equal([atRisk.id]);
      const both = await client.projects.list({ status: ['AT_RISK', 'OFF_TRACK'] });
      expect(both.data.map((p) => p.id)).to.deep.equal([atRisk.id, offTrack.id]);
      expect(both.pagination.total).to.equal(2);
    });

    it('retrieves many projects by id in one call, in the list order; unknown ids are absent', async () => {
      const [a, b] = [await newProject(), await newProject()];
      await newProject();
      const page = await client.projects.list({ id: [b.id, randomUUID(), a.id] });
      expect(page.data.map((p) => p.id)).to.deep.equal([a.id, b.id]);
      expect(page.pagination.total).to.equal(2);
    });

    it('for await over list() yields all 7 projects in order across pages of 3 (3 requests)', async () => {
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
      for await (const project of counting.projects.list({ limit: 3 })) seen.push(project.id);
      expect(seen).to.deep.equal(ids);
      expect(requests).to.equal(3);
    });

    it('pages keep the filters, start at an offset, and go page by page with getNextPage()', async () => {
      const atRisk: string[] = [];
      for (let i = 0; i < 5; i++) {
        atRisk.push((await newProject({ status: 'AT_RISK' })).id);
        await newProject({ status: 'ON_HOLD' });
      }
      const all: string[] = [];
      for await (const p of client.projects.list({ status: ['AT_RISK'], limit: 2 })) all.push(p.id);
      expect(all).to.deep.equal(atRisk);
      const later: string[] = [];
      for await (const p of client.projects.list({ status: ['AT_RISK'], limit: 2, offset: 3 }))
        later.push(p.id);
      expect(later).to.deep.equal(atRisk.slice(3));
      let page = await client.projects.list({ status: ['AT_RISK'], limit: 2 });
      const byPage = [page.data.map((p) => p.id)];
      while (page.hasNextPage()) {
        page = await page.getNextPage();
        byPage.push(page.data.map((p) => p.id));
      }
      expect(byPage).to.deep.equal([atRisk.slice(0, 2), atRisk.slice(2, 4), atRisk.slice(4)]);
      expect(() => page.getNextPage()).to.throw(MeridianError, /no next page/);
    });
  });

  describe('sorting and searching', () => {
    it('projects.list takes q, tag and sort; risks and audit logs sort too', async () => {
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
      const found = await client.projects.list({ q: 'TUNNEL', sort: '-budget' });
      expect(found.data.map((p) => p.id)).to.deep.equal([large.id, small.id]);
      expect(found.pagination.total).to.equal(2);
      const paged: string[] = [];
      for await (const p of client.projects.list({ tag: 'RESILIENCE', sort: 'name', limit: 1 }))
        paged.push(p.id);
      expect(paged).to.deep.equal([small.id, large.id]);

      const low = await client.risks.create({ title: 'Low', projectId: small.id, likelihood: 1, impact: 2 });
      const high = await client.risks.create({
        title: 'High',
        projectId: small.id,
        likelihood: 5,
        impact: 4,
      });
      const risks: string[] = [];
      for await (const r of client.risks.list({ sort: '-score' })) risks.push(r.id);
      expect(risks).to.deep.equal([high.id, low.id]);

      const admin = new Meridian({ apiKey: tenant.keys.admin, baseUrl: server.baseUrl, maxRetries: 0 });
      const newest = (await admin.auditLogs.list({ sort: '-occurredAt', limit: 1 })).data[0];
      expect(newest?.resourceId).to.equal(high.id);

      const bad = await rejection(client.projects.list({ sort: 'progress' as never }), BadRequestError);
      expect(bad.errors?.map((e) => e.path)).to.include('sort');
    });
  });

  describe('risks', () => {
    it('creates, reads, updates and filters risks by projectId, status and severity', async () => {
      const p1 = await newProject();
      const p2 = await newProject();
      const high = await client.risks
        .create({ title: 'Utility conflicts', projectId: p1.id, likelihood: 4, impact: 3 })
        .withResponse();
      expect(high.response.status).to.equal(201);
      expect(high.data).to.include({ score: 12, severity: 'HIGH', status: 'OPEN', projectId: p1.id });
      const low = await client.risks.create({
        title: 'Permit delay',
        projectId: p1.id,
        likelihood: 1,
        impact: 2,
      });
      expect(low.severity).to.equal('LOW');
      const other = await client.risks.create({
        title: 'Steel prices',
        projectId: p2.id,
        likelihood: 5,
        impact: 5,
      });
      expect(other.severity).to.equal('CRITICAL');

      expect((await client.risks.retrieve(low.id)).title).to.equal('Permit delay');
      const closed = await client.risks.update(low.id, { status: 'CLOSED' });
      expect(closed.status).to.equal('CLOSED');

      const ids = async (params: RisksListParams) => (await client.risks.list(params)).data.map((r) => r.id);
      expect(await ids({ projectId: p1.id })).to.deep.equal([high.data.id, low.id]);
      expect(await ids({ severity: ['CRITICAL'] })).to.deep.equal([other.id]);
      expect(await ids({ status: ['CLOSED'] })).to.deep.equal([low.id]);
      expect(await ids({ projectId: p1.id, status: ['OPEN'], severity: ['HIGH'] })).to.deep.equal([
        high.data.id,
      ]);

      const all: string[] = [];
      for await (const risk of client.risks.list({ limit: 1 })) all.push(risk.id);
      expect(all).to.deep.equal([high.data.id, low.id, other.id]);
    });
  });

  describe('status reports', () => {
    it('submits reports (the newest moves the project), lists them newest first and pages the portfolio', async () => {
      const project = await newProject({
        budget: 500_000,
        managingAgency: 'DEP',
        borough: 'Brooklyn, Queens',
      });
      const first = await client.projects.statusReports
        .create(project.id, { asOf: '2025-03-03', status: 'ON_TRACK', progress: 10 })
        .withResponse();
      expect(first.response.status).to.equal(201);
      const second = await client.projects.statusReports.create(project.id, {
        asOf: '2025-06-02',
        status: 'AT_RISK',
        forecastEndDate: '2026-01-30',
        actualCost: 200_000,
      });
      expect(second).to.include({ applied: true, scheduleSlipDays: 42, source: 'api', progress: null });
      const moved = await client.projects.retrieve(project.id);
      expect(moved).to.include({ status: 'AT_RISK', actualCost: 200_000, progress: 10 });
      expect(moved.budgetSummary.percentSpent).to.equal(40);
      const listed = (await client.projects.statusReports.list(project.id)).data.map((r) => r.asOf);
      expect(listed).to.deep.equal(['2025-06-02', '2025-03-03']);
      const portfolio: string[] = [];
      for await (const r of client.statusReports.list({ projectId: project.id, limit: 1 }))
        portfolio.push(r.id);
      expect(portfolio).to.deep.equal([second.id, first.data.id]);
      expect((await client.statusReports.retrieve(first.data.id)).progress).to.equal(10);
      const queens = (await client.projects.list({ borough: 'queens', managingAgency: 'DEP' })).data;
      expect(queens.map((p) => p.id)).to.deep.equal([project.id]);
    });
  });

  describe('identity', () => {
    it('reads /me and /tenant', async () => {
      const me = await client.me.retrieve();
      expect(me.tenant.id).to.equal(tenant.tenantId);
      const t = await client.tenant.retrieve();
      expect(t.rateLimit.requestsPerMinute).to.be.a('number');
    });
  });

  describe('idempotency', () => {
    it('sends a generated Idempotency-Key on POST; a caller-given key replays the first response', async () => {
      const key = randomUUID();
      const body = { name: 'Once', startDate: '2025-01-06', endDate: '2025-02-06' };
      const first = await client.projects.create(body, { headers: { 'Idempotency-Key': key } });
      const again = await client.projects
        .create(body, { headers: { 'Idempotency-Key': key } })
        .withResponse();
      expect(again.data.id).to.equal(first.id);
      expect(again.response.headers.get('idempotent-replayed')).to.equal('true');
      const fresh = await client.projects.create(body);
      expect(fresh.id).to.not.equal(first.id);
    });
  });

  describe('errors', () => {
    it('400 BadRequestError for an unknown body field, with code, errors and requestId', async () => {
      const error = await rejection(
        // @ts-expect-error -- an unknown field: a compile error, and a 400 at run time
        client.projects.create({ name: 'X', startDate: '2025-01-06', endDate: '2025-02-06', colour: 'red' }),
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
      const error = await rejection(bad.projects.list(), AuthenticationError);
      expect(error.status).to.equal(401);
      expect(error.code).to.equal('unauthenticated');
      expect(error.response?.headers.get('www-authenticate')).to.match(/^Bearer/);
    });

    it('403 PermissionDeniedError for a read key on POST', async () => {
      const reader = new Meridian({ apiKey: tenant.keys.read, baseUrl: server.baseUrl, maxRetries: 0 });
      const error = await rejection(
        reader.projects.create({ name: 'No', startDate: '2025-01-06', endDate: '2025-02-06' }),
        PermissionDeniedError,
      );
      expect(error.code).to.equal('forbidden');
    });

    it('404 NotFoundError for an unknown id (and for another tenant’s record)', async () => {
      const error = await rejection(client.projects.retrieve(randomUUID()), NotFoundError);
      expect(error.code).to.equal('not_found');
      const mine = await newProject();
      const otherTenant = await server.createTenant();
      const other = new Meridian({ apiKey: otherTenant.keys.read, baseUrl: server.baseUrl });
      await rejection(other.projects.retrieve(mine.id), NotFoundError);
    });

    it('409 ConflictError for an invalid transition and for a duplicate code', async () => {
      const done = await newProject({ status: 'COMPLETED' });
      const transition = await rejection(
        client.projects.update(done.id, { status: 'AT_RISK' }),
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
      await client.projects.update(p.id, { progress: 10 }, { headers: { 'If-Match': '"1"' } });
      const error = await rejection(
        client.projects.update(p.id, { progress: 20 }, { headers: { 'If-Match': '"1"' } }),
        PreconditionFailedError,
      );
      expect(error.code).to.equal('precondition_failed');
      expect((await client.projects.retrieve(p.id)).progress).to.equal(10);
    });

    it('422 UnprocessableEntityError for endDate before startDate', async () => {
      const error = await rejection(
        client.projects.create({ name: 'Backwards', startDate: '2025-06-01', endDate: '2025-05-01' }),
        UnprocessableEntityError,
      );
      expect(error.code).to.equal('validation_failed');
      expect(error.errors?.[0]?.path).to.equal('/endDate');
    });

    it('429 RateLimitError for a tenant over its limit (maxRetries 0)', async () => {
      const small = await server.createTenant(undefined, { rateLimitPerMinute: 2 });
      const limited = new Meridian({ apiKey: small.keys.read, baseUrl: server.baseUrl, maxRetries: 0 });
      await limited.me.retrieve();
      await limited.me.retrieve();
      const error = await rejection(limited.me.retrieve(), RateLimitError);
      expect(error.status).to.equal(429);
      expect(error.code).to.equal('rate_limited');
      expect(Number(error.response?.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(error.requestId).to.be.a('string');
    });
  });
});
