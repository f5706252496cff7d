/**
 * Contract tests of the Status Reports tag (docs/resources.md, Status reports): createStatusReport,
 * listProjectStatusReports, listStatusReports, getStatusReport, and what submitting a report does to its project
 * (the newest moves it, with its audit rows and the events a PATCH emits; an older one is history only).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { listEvents } from '../../server/repositories/events.js';
import { apiPathOf, expectProblem, fieldErrors, parseLink } from '../support/assertions.js';
import { client } from '../support/client.js';
import { assertMatchesSchema } from '../support/contract.js';
import { makeProject } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Status Reports', () => {
  // 2026-06-15 10:00 UTC: still 2026-06-15 in New York, the tenant's default time zone.
  const clock = new ManualClock('2026-06-15T10:00:00.000Z');
  const ctx = contractSuite({ clock });
  let project: any;
  beforeEach(async () => {
    project = await makeProject(ctx.api, {
      startDate: '2026-01-05',
      endDate: '2026-12-18',
      budget: 1_000_000,
    });
  });

  const submit = (body: Record<string, unknown>, projectId: string = project.id, headers = {}) =>
    ctx.api.post('createStatusReport', `/projects/${projectId}/status-reports`, { body, headers });
  const events = async (type: string) =>
    (await listEvents(ctx.server.db.knex, ctx.tenant.tenantId, type)).map((e) => JSON.parse(e.payload).data);

  describe('createStatusReport', () => {
    it('answers 201 with Location and the report, its figures against the baseline, and moves the project', async () => {
      const res = await submit({
        asOf: '2026-06-01',
        status: 'AT_RISK',
        phase: 'Construction',
        forecastEndDate: '2027-01-29',
        forecastCost: 1_080_000.5,
        actualCost: 420_000,
        progress: 38,
        summary: 'Steel delivery slipped six weeks.',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.headers.get('location')).to.equal(`/v1/status-reports/${res.body.id}`);
      expect(res.body).to.deep.include({
        projectId: project.id,
        asOf: '2026-06-01',
        status: 'AT_RISK',
        phase: 'Construction',
        forecastEndDate: '2027-01-29',
        forecastCost: 1_080_000.5,
        actualCost: 420_000,
        progress: 38,
        summary: 'Steel delivery slipped six weeks.',
        source: 'api',
        budgetChangeLatest: null,
        budgetChangeTotal: null,
        scheduleChangeLatestDays: null,
        scheduleChangeTotalDays: null,
        baselineEndDate: '2026-12-18',
        baselineBudget: 1_000_000,
        scheduleSlipDays: 42,
        costVariance: -80_000.5,
        applied: true,
        createdAt: '2026-06-15T10:00:00.000Z',
      });
      const moved = (await ctx.api.get('getProject', `/projects/${project.id}`)).body;
      expect(moved).to.include({
        status: 'AT_RISK',
        forecastEndDate: '2027-01-29',
        forecastCost: 1_080_000.5,
        actualCost: 420_000,
        progress: 38,
        version: 2,
      });
      expect(moved.budgetSummary).to.include({ remaining: 580_000, percentSpent: 42 });
      const got = await ctx.api.get('getStatusReport', `/status-reports/${res.body.id}`);
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(res.body);
    });

    it('emits the events a PATCH would and writes the audit rows, in the same transaction', async () => {
      await submit({ asOf: '2026-05-01', status: 'ON_TRACK', forecastCost: 900_000 });
      await submit({
        asOf: '2026-06-01',
        status: 'OFF_TRACK',
        forecastCost: 1_200_000,
        actualCost: 1_100_000,
      });
      const changes = await events('project.status_changed');
      expect(changes.map((e) => [e.previousStatus, e.status])).to.deep.equal([
        ['PLANNED', 'ON_TRACK'],
        ['ON_TRACK', 'OFF_TRACK'],
      ]);
      for (const row of await listEvents(ctx.server.db.knex, ctx.tenant.tenantId, 'project.status_changed'))
        assertMatchesSchema('ProjectStatusChangedEvent', JSON.parse(row.payload));
      const overruns = await events('budget.overrun_detected');
      expect(overruns.map((e) => [e.kind, e.amount, e.budget])).to.deep.equal([
        ['ACTUAL', 1_100_000, 1_000_000],
        ['FORECAST', 1_200_000, 1_000_000],
      ]);
      const admin = ctx.admin;
      const audit = await admin.get('listAuditLogs', '/audit-logs', { query: { limit: 100 } });
      const actions = audit.body.data.map((e: any) => `${e.action} ${e.resourceType}`);
      expect(actions.filter((a: string) => a === 'status_report.created status_report')).to.have.length(2);
      expect(actions.filter((a: string) => a === 'project.updated project')).to.have.length(2);
      const created = audit.body.data.find((e: any) => e.action === 'status_report.created');
      expect(created.changes.asOf).to.deep.equal({ from: null, to: '2026-05-01' });
    });

    it('leaves the project values the report does not give (null is "not reported", never 0)', async () => {
      await submit({ asOf: '2026-05-01', status: 'ON_TRACK', actualCost: 300_000, progress: 30 });
      const res = await submit({ asOf: '2026-06-01', status: 'ON_TRACK', actualCost: null, progress: null });
      expect(res.body).to.include({
        actualCost: null,
        progress: null,
        forecastCost: null,
        costVariance: null,
      });
      expect(res.body.scheduleSlipDays).to.equal(null);
      const after = (await ctx.api.get('getProject', `/projects/${project.id}`)).body;
      expect(after).to.include({ actualCost: 300_000, progress: 30, version: 2 });
    });

    it('keeps an older report as history only, judged against the baseline of its date', async () => {
      await submit({ asOf: '2026-03-01', status: 'ON_TRACK', forecastEndDate: '2026-12-18' });
      await ctx.api.patch('updateProject', `/projects/${project.id}`, {
        body: { endDate: '2027-03-31', budget: 2e6 },
      });
      await submit({ asOf: '2026-06-01', status: 'AT_RISK', forecastEndDate: '2027-04-30' });
      const before = (await ctx.api.get('getProject', `/projects/${project.id}`)).body;
      const late = await submit({
        asOf: '2026-04-01',
        status: 'OFF_TRACK',
        forecastEndDate: '2027-06-30',
        progress: 5,
      });
      expect(late.status).to.equal(201);
      // The baseline as it stood on 2026-04-01 is the one the 2026-03-01 report recorded.
      expect(late.body).to.include({
        applied: false,
        baselineEndDate: '2026-12-18',
        baselineBudget: 1_000_000,
        scheduleSlipDays: 194,
      });
      const after = (await ctx.api.get('getProject', `/projects/${project.id}`)).body;
      expect(after).to.deep.equal(before);
      expect(await events('project.status_changed')).to.have.length(2);
      // A report of the same date as the newest is not older: it applies.
      const same = await submit({ asOf: '2026-06-01', status: 'ON_TRACK' });
      expect(same.body.applied).to.equal(true);
      expect((await ctx.api.get('getProject', `/projects/${project.id}`)).body.status).to.equal('ON_TRACK');
    });

    it('refuses a report dated after today in the tenant time zone (422) and stores nothing', async () => {
      const res = await submit({ asOf: '2026-06-16', status: 'ON_TRACK' });
      const body = expectProblem(res, 422, 'validation_failed');
      expect(fieldErrors(body)).to.deep.equal(['body:/asOf']);
      expect(await submit({ asOf: '2026-06-15', status: 'ON_TRACK' })).to.have.property('status', 201);
      const list = await ctx.api.get('listProjectStatusReports', `/projects/${project.id}/status-reports`);
      expect(list.body.pagination.total).to.equal(1);
    });

    it('answers 409 invalid_transition for a move out of a terminal status, storing nothing', async () => {
      await ctx.api.patch('updateProject', `/projects/${project.id}`, { body: { status: 'CANCELLED' } });
      expectProblem(await submit({ asOf: '2026-06-01', status: 'AT_RISK' }), 409, 'invalid_transition');
      const list = await ctx.api.get('listStatusReports', '/status-reports');
      expect(list.body.data).to.deep.equal([]);
      // The reopen is allowed, and so is a report that keeps the status.
      expect((await submit({ asOf: '2026-06-01', status: 'CANCELLED' })).status).to.equal(201);
      expect((await submit({ asOf: '2026-06-02', status: 'PLANNED' })).status).to.equal(201);
    });

    it('answers 404 for an unknown project or another tenant’s, and 400 for a malformed body', async () => {
      expectProblem(await submit({ asOf: '2026-06-01', status: 'ON_TRACK' }, randomUUID()), 404, 'not_found');
      const other = await makeProject(
        client(ctx.server.baseUrl, (await ctx.server.createTenant()).keys.write),
      );
      expectProblem(await submit({ asOf: '2026-06-01', status: 'ON_TRACK' }, other.id), 404, 'not_found');
      const missing = expectProblem(await submit({ asOf: '2026-06-01' }), 400, 'validation_failed');
      expect(fieldErrors(missing)).to.deep.equal(['body:/status']);
      const bad = expectProblem(
        await submit({ asOf: '2026-02-30', status: 'ON_TRACK', progress: 101, colour: 'red' }),
        400,
        'validation_failed',
      );
      expect(fieldErrors(bad)).to.include.members(['body:/asOf', 'body:/progress']);
    });

    it('needs the write scope; read keys get 403', async () => {
      const reader = ctx.reader;
      const res = await reader.post('createStatusReport', `/projects/${project.id}/status-reports`, {
        body: { asOf: '2026-06-01', status: 'ON_TRACK' },
      });
      expectProblem(res, 403, 'forbidden');
    });

    it('replays a retry with the same Idempotency-Key: one report, one project change', async () => {
      const headers = { 'Idempotency-Key': randomUUID() };
      const body = { asOf: '2026-06-01', status: 'AT_RISK', progress: 12 };
      const first = await submit(body, project.id, headers);
      const again = await submit(body, project.id, headers);
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      const list = await ctx.api.get('listProjectStatusReports', `/projects/${project.id}/status-reports`);
      expect(list.body.pagination.total).to.equal(1);
      expect((await ctx.api.get('getProject', `/projects/${project.id}`)).body.version).to.equal(2);
    });
  });

  describe('listProjectStatusReports', () => {
    it('lists newest first (asOf, then submission), paginated with Link, filtered by since/until', async () => {
      const ids: Record<string, string> = {};
      for (const asOf of ['2026-02-01', '2026-04-01', '2026-03-01', '2026-04-01', '2026-01-01']) {
        clock.advance(1000);
        const res = await submit({ asOf, status: 'ON_TRACK' });
        ids[`${asOf}#${Object.keys(ids).filter((k) => k.startsWith(asOf)).length}`] = res.body.id;
      }
      const all = await ctx.api.get('listProjectStatusReports', `/projects/${project.id}/status-reports`);
      expect(all.status).to.equal(200);
      expect(all.body.data.map((r: any) => r.id)).to.deep.equal([
        ids['2026-04-01#1'],
        ids['2026-04-01#0'],
        ids['2026-03-01#0'],
        ids['2026-02-01#0'],
        ids['2026-01-01#0'],
      ]);
      const page = await ctx.api.get('listProjectStatusReports', `/projects/${project.id}/status-reports`, {
        query: { limit: 2, offset: 2 },
      });
      expect(page.body.data.map((r: any) => r.asOf)).to.deep.equal(['2026-03-01', '2026-02-01']);
      expect(page.body.pagination).to.deep.equal({ limit: 2, offset: 2, total: 5, hasMore: true });
      const links = parseLink(page.headers.get('link'));
      const next = await ctx.api.get(
        'listProjectStatusReports',
        apiPathOf(links.next as string, ctx.server.baseUrl),
      );
      expect(next.body.data.map((r: any) => r.asOf)).to.deep.equal(['2026-01-01']);
      const range = await ctx.api.get('listProjectStatusReports', `/projects/${project.id}/status-reports`, {
        query: { since: '2026-02-01', until: '2026-03-31' },
      });
      expect(range.body.data.map((r: any) => r.asOf)).to.deep.equal(['2026-03-01', '2026-02-01']);
    });

    it('answers 404 for an unknown project and works with a read key', async () => {
      expectProblem(
        await ctx.api.get('listProjectStatusReports', `/projects/${randomUUID()}/status-reports`),
        404,
        'not_found',
      );
      await submit({ asOf: '2026-06-01', status: 'ON_TRACK' });
      const reader = ctx.reader;
      const res = await reader.get('listProjectStatusReports', `/projects/${project.id}/status-reports`);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.length(1);
    });
  });

  describe('listStatusReports and getStatusReport', () => {
    it('lists the portfolio newest first, filtered by projectId, since and until; never another tenant’s', async () => {
      const second = await makeProject(ctx.api);
      await submit({ asOf: '2026-03-01', status: 'ON_TRACK' });
      await submit({ asOf: '2026-05-01', status: 'AT_RISK' }, second.id);
      await submit({ asOf: '2026-04-01', status: 'AT_RISK' });
      const otherApi = client(ctx.server.baseUrl, (await ctx.server.createTenant()).keys.write);
      const theirs = await makeProject(otherApi);
      const foreign = await otherApi.post('createStatusReport', `/projects/${theirs.id}/status-reports`, {
        body: { asOf: '2026-06-01', status: 'ON_TRACK' },
      });
      const asOfs = async (query: Record<string, string> = {}) =>
        (await ctx.api.get('listStatusReports', '/status-reports', { query })).body.data.map(
          (r: any) => `${r.projectId === project.id ? 'a' : 'b'} ${r.asOf}`,
        );
      expect(await asOfs()).to.deep.equal(['b 2026-05-01', 'a 2026-04-01', 'a 2026-03-01']);
      expect(await asOfs({ projectId: project.id })).to.deep.equal(['a 2026-04-01', 'a 2026-03-01']);
      expect(await asOfs({ since: '2026-04-01' })).to.deep.equal(['b 2026-05-01', 'a 2026-04-01']);
      expect(await asOfs({ until: '2026-04-01' })).to.deep.equal(['a 2026-04-01', 'a 2026-03-01']);
      expect(await asOfs({ projectId: theirs.id })).to.deep.equal([]);
      expectProblem(
        await ctx.api.get('getStatusReport', `/status-reports/${foreign.body.id}`),
        404,
        'not_found',
      );
      expectProblem(
        await ctx.api.get('getStatusReport', `/status-reports/${randomUUID()}`),
        404,
        'not_found',
      );
      const bad = await ctx.api.get('listStatusReports', '/status-reports', {
        query: { since: 'yesterday' },
      });
      expect(fieldErrors(expectProblem(bad, 400, 'validation_failed'))).to.deep.equal(['query:since']);
    });

    it('gives the agents the history of a project in asOf order (services.statusReports.history)', async () => {
      for (const asOf of ['2026-05-01', '2026-02-01', '2026-03-01'])
        await submit({ asOf, status: 'ON_TRACK' });
      const history = await ctx.server.meridian.services.statusReports.history(
        ctx.tenant.tenantId,
        project.id,
      );
      expect(history.map((r) => r.asOf)).to.deep.equal(['2026-02-01', '2026-03-01', '2026-05-01']);
      expect(history.map((r) => r.applied)).to.deep.equal([false, false, true]);
      expect(
        await ctx.server.meridian.services.statusReports.history(ctx.tenant.tenantId, randomUUID()),
      ).to.deep.equal([]);
    });
  });
});
