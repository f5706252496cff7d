/**
 * Contract tests of the Agents tag (issue 11), except `askAgent`: the catalogue, runs (202, Location, validation),
 * executions run by the real job runner over a fixture portfolio made through the API, their output (every `[n]`
 * resolves, every citation's url answers the cited record of the tenant), determinism with `asOf`, the list's filters
 * and sort, tenant isolation, and `schedule-health` marking an overdue milestone MISSED once.
 */
import { expect } from 'chai';
import type { OperationId } from '../../generated/operations.js';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { createJobRunner, type JobRunner } from '../../server/jobs/index.js';
import { markersIn } from '../../server/services/agents/citations.js';
import { client } from '../support/client.js';
import { startTestServer, type TestServer, type TestTenant } from '../support/server.js';
import { type Api, expectProblem, fieldErrors, makeProject, makeRisk, parseLink } from './helpers.js';

const AGENT_IDS = [
  'portfolio-health',
  'schedule-health',
  'budget-health',
  'risk-assessment',
  'resource-capacity',
  'status-report',
] as const;

/** The GET operation of each citation url's collection. */
const GET_OF: Record<string, OperationId> = {
  projects: 'getProject',
  risks: 'getRisk',
  issues: 'getIssue',
  milestones: 'getMilestone',
  resources: 'getResource',
  allocations: 'getAllocation',
  'status-reports': 'getStatusReport',
};

describe('Agents', function () {
  this.timeout(60_000);
  let server: TestServer;
  let runner: JobRunner;
  // Today in the tenants' time zone (UTC) is 2026-03-02.
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  let tenant: TestTenant;
  let api: Api;
  const ids: Record<string, string> = {};
  before(async () => {
    server = await startTestServer({ clock });
    runner = createJobRunner({
      services: server.meridian.services,
      clock,
      config: loadConfig({ NODE_ENV: 'test', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true' }),
    });
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.write);
    // A small portfolio with every kind of record and signal.
    const late = await makeProject(api, {
      name: 'Harbour tunnel',
      code: 'HT-1',
      startDate: '2025-01-01',
      endDate: '2026-06-30',
      forecastEndDate: '2027-06-30',
      budget: 1_000_000,
      forecastCost: 1_250_000,
      status: 'OFF_TRACK',
    });
    const fine = await makeProject(api, {
      name: 'Library roof',
      startDate: '2025-01-01',
      endDate: '2026-12-31',
      forecastEndDate: '2026-12-31',
      budget: 500_000,
      forecastCost: 480_000,
      status: 'ON_TRACK',
    });
    // Its history: the finish slipped and the cost grew between two status reports (the newest is the project's state).
    for (const report of [
      { asOf: '2025-12-01', status: 'AT_RISK', forecastEndDate: '2027-01-31', forecastCost: 1_200_000 },
      { asOf: '2026-02-01', status: 'OFF_TRACK', forecastEndDate: '2027-06-30', forecastCost: 1_250_000 },
    ]) {
      const res = await api.post('createStatusReport', `/projects/${late.id}/status-reports`, {
        body: report,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    const bare = await makeProject(api, {
      name: 'Depot study',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    ids.late = late.id;
    ids.fine = fine.id;
    ids.bare = bare.id;
    const milestone = await api.post('createMilestone', `/projects/${late.id}/milestones`, {
      body: { name: 'Foundations poured', dueDate: '2026-02-01' },
    });
    expect(milestone.status).to.equal(201);
    ids.milestone = milestone.body.id;
    ids.risk = (await makeRisk(api, late.id, { title: 'Ground water ingress', likelihood: 5, impact: 4 })).id;
    const issue = await api.post('createIssue', '/issues', {
      body: { projectId: late.id, title: 'Crane down', priority: 'HIGH' },
    });
    expect(issue.status).to.equal(201);
    const person = await api.post('createResource', '/resources', {
      body: { name: 'Ana Ruiz', role: 'Engineer', capacityHoursPerWeek: 40 },
    });
    expect(person.status).to.equal(201);
    ids.person = person.body.id;
    for (const [projectId, pct] of [
      [late.id, 70],
      [fine.id, 50],
    ] as const) {
      const a = await api.post('createAllocation', '/allocations', {
        body: {
          resourceId: person.body.id,
          projectId,
          startDate: '2026-03-01',
          endDate: '2026-04-30',
          allocationPercent: pct,
        },
      });
      expect(a.status).to.equal(201);
    }
  });
  after(async () => server.close());

  const run = (body: Record<string, unknown>, key?: string) =>
    client(server.baseUrl, key ?? tenant.keys.write).post('runAgent', '/agents/run', { body });
  const get = (executionId: string) => api.get('getAgentExecution', `/agents/executions/${executionId}`);

  /** Runs one agent to its end through the job runner and returns the execution. */
  async function runToEnd(body: Record<string, unknown>): Promise<any> {
    const res = await run(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    await runner.drain();
    const done = await get(res.body.executionId);
    expect(done.status).to.equal(200);
    return done.body;
  }

  /** Every `[n]` resolves; every citation's url answers the cited record (same id) to this tenant, 404 to another. */
  async function checkCitations(output: any): Promise<void> {
    const known = new Set(output.citations.map((c: { index: number }) => c.index));
    const texts = [
      output.summary,
      ...output.findings.map((f: { detail: string }) => f.detail),
      ...(output.report?.sections ?? []).flatMap((s: { sentences: string[] }) => s.sentences),
    ];
    for (const text of texts)
      for (const n of markersIn(text)) expect(known.has(n), `[${n}] in ${text}`).to.equal(true);
    const other = client(server.baseUrl, (await server.createTenant()).keys.read);
    for (const c of output.citations) {
      const m = /^\/v1\/([a-z-]+)\/([0-9a-f-]{36})$/.exec(c.url);
      expect(m, c.url).to.not.equal(null);
      const operationId = GET_OF[(m as RegExpExecArray)[1] as string] as OperationId;
      const path = c.url.slice('/v1'.length);
      const res = await api.get(operationId, path);
      expect(res.status, c.url).to.equal(200);
      expect(res.body.id).to.equal(c.id);
      if (c.field) expect(Object.keys(res.body), `${c.url} has ${c.field}`).to.include(c.field);
      expectProblem(await other.get(operationId, path), 404, 'not_found');
    }
  }

  it('lists the catalogue: six agents with reads, depths, scopes and metrics (paginated)', async () => {
    const res = await api.get('listAgents', '/agents');
    expect(res.status).to.equal(200);
    expect(res.body.data.map((a: { id: string }) => a.id)).to.deep.equal(AGENT_IDS);
    expect(res.body.pagination).to.deep.equal({ limit: 25, offset: 0, total: 6, hasMore: false });
    for (const agent of res.body.data) {
      expect(agent.depths).to.deep.equal(['quick', 'standard', 'deep']);
      expect(agent.scopes).to.deep.equal(['all', 'project']);
      expect(agent.reads).to.include('projects');
      expect(agent.metrics.length).to.be.greaterThan(3);
      for (const m of agent.metrics) expect(m.description.length).to.be.greaterThan(10);
      expect(agent.changesRecords).to.equal(agent.id === 'schedule-health');
    }
    const page = await client(server.baseUrl, tenant.keys.read).get('listAgents', '/agents', {
      query: { limit: 2, offset: 2 },
    });
    expect(page.body.data.map((a: { id: string }) => a.id)).to.deep.equal([
      'budget-health',
      'risk-assessment',
    ]);
    expect(Object.keys(parseLink(page.headers.get('link')))).to.deep.equal(['next', 'prev']);
  });

  it('accepts a run: 202, Location, PENDING with the tenant’s today as asOf; GET polls it', async () => {
    const res = await run({ agentId: 'budget-health' });
    expect(res.status).to.equal(202);
    expect(res.headers.get('location')).to.equal(`/v1/agents/executions/${res.body.executionId}`);
    expect(res.body).to.include({
      agentId: 'budget-health',
      scope: 'all',
      depth: 'standard',
      asOf: '2026-03-02',
      status: 'PENDING',
      attempts: 0,
      progress: null,
      output: null,
      error: null,
      startedAt: null,
      completedAt: null,
    });
    expect((await get(res.body.executionId)).body).to.deep.equal(res.body);
    await runner.drain();
    const done = (await get(res.body.executionId)).body;
    expect(done).to.include({ status: 'COMPLETED', attempts: 1, progress: null, error: null });
    expect(done.startedAt).to.equal(clock.now().toISOString());
    expect(done.completedAt).to.equal(clock.now().toISOString());
    expect(done.output.asOf).to.equal('2026-03-02');
  });

  it('refuses bad runs: 400 for an unknown agent, depth, a malformed scope or asOf; 422 for another tenant’s project or a future asOf; 403 without write', async () => {
    expectProblem(await run({ agentId: 'fortune-teller' }), 400, 'validation_failed');
    expectProblem(await run({ agentId: 'budget-health', depth: 'thorough' }), 400, 'validation_failed');
    expectProblem(await run({ agentId: 'budget-health', scope: 'project:42' }), 400, 'validation_failed');
    expectProblem(await run({ agentId: 'budget-health', asOf: '2026-02-30' }), 400, 'validation_failed');
    expectProblem(await run({ agentId: 'budget-health', extra: true }), 400, 'validation_failed');
    const foreign = await makeProject(client(server.baseUrl, (await server.createTenant()).keys.write));
    const scoped = expectProblem(
      await run({ agentId: 'budget-health', scope: `project:${foreign.id}` }),
      422,
      'validation_failed',
    );
    expect(fieldErrors(scoped)).to.deep.equal(['body:/scope']);
    const future = expectProblem(
      await run({ agentId: 'budget-health', asOf: '2026-03-03' }),
      422,
      'validation_failed',
    );
    expect(fieldErrors(future)).to.deep.equal(['body:/asOf']);
    expectProblem(await run({ agentId: 'budget-health' }, tenant.keys.read), 403, 'forbidden');
  });

  for (const agentId of AGENT_IDS) {
    it(`${agentId}: runs to COMPLETED over the portfolio and over one project; every citation resolves to the tenant's record`, async () => {
      for (const scope of ['all', `project:${ids.late}`]) {
        const done = await runToEnd({ agentId, scope, depth: 'standard' });
        expect(done.status, JSON.stringify(done.error)).to.equal('COMPLETED');
        expect(done.attempts).to.equal(1);
        expect(done.output.findings.length).to.be.greaterThan(0);
        await checkCitations(done.output);
      }
    });
  }

  it('gives the same output for the same records and parameters (asOf given)', async () => {
    for (const agentId of ['portfolio-health', 'status-report', 'risk-assessment']) {
      const body = { agentId, scope: 'all', depth: 'deep', asOf: '2026-03-01' };
      const first = await runToEnd(body);
      clock.advance(60_000);
      const second = await runToEnd(body);
      expect(second.executionId).to.not.equal(first.executionId);
      expect(second.output).to.deep.equal(first.output);
    }
  });

  it('budget-health names the overrun with its figures; unknown forecasts are said to be unknown, not 0', async () => {
    const done = await runToEnd({ agentId: 'budget-health', depth: 'standard' });
    expect(done.output.metrics).to.include({
      projects: 3,
      projectsWithForecast: 2,
      forecastUnknown: 1,
      totalBudget: 1_500_000,
      totalForecastCost: 1_730_000,
      varianceAtCompletion: -230_000,
      projectsOverBudget: 1,
      largestOverrun: 250_000,
    });
    const byAmount = done.output.findings.find((f: { title: string }) => f.title.includes('by amount'));
    expect(byAmount.citations).to.have.length(1);
    expect(byAmount.citations[0]).to.include({
      id: ids.late,
      field: 'forecastCost',
      url: `/v1/projects/${ids.late}`,
    });
    expect(byAmount.detail).to.contain(
      'budget 1,000,000 USD, forecast 1,250,000 USD, overrun 250,000 USD (25.0 %)',
    );
    const unknown = done.output.findings.find((f: { title: string }) => f.title.includes('without a budget'));
    expect(unknown.citations[0].id).to.equal(ids.bare);
  });

  it('schedule-health marks an overdue milestone MISSED through the sweep’s path: milestone.missed fires once', async () => {
    const made = await api.post('createMilestone', `/projects/${ids.late}/milestones`, {
      body: { name: 'Ventilation shaft', dueDate: '2026-02-15' },
    });
    const id = made.body.id as string;
    expect(made.body.status).to.equal('PENDING');
    const done = await runToEnd({ agentId: 'schedule-health', scope: `project:${ids.late}` });
    // This one and the one the earlier runs marked.
    expect(done.output.metrics).to.include({ overdueMilestones: 2, missedMilestones: 2, maxSlipDays: 365 });
    const after = await api.get('getMilestone', `/milestones/${id}`);
    expect(after.body).to.include({ status: 'MISSED', version: 2 });
    // Again, and the sweep: nothing more happens.
    const again = await runToEnd({ agentId: 'schedule-health', scope: 'all' });
    expect(again.output.metrics.missedMilestones).to.equal(2);
    expect(await server.meridian.services.milestones.sweepMissed()).to.equal(0);
    const events = (await server.db
      .knex('events')
      .where({ tenant_id: tenant.tenantId, type: 'milestone.missed' })) as {
      payload: string;
    }[];
    const ofMilestone = events.map((e) => JSON.parse(e.payload).data.milestoneId);
    expect(ofMilestone.filter((m) => m === id)).to.have.length(1);
    expect(ofMilestone.filter((m) => m === ids.milestone)).to.have.length(1);
    const audit = await api.get('listAuditLogs', '/audit-logs', {
      key: tenant.keys.admin,
      query: { resourceType: 'milestone', resourceId: id },
    });
    expect(audit.body.data.map((e: { action: string }) => e.action)).to.deep.equal([
      'milestone.created',
      'milestone.updated',
    ]);
    expect(audit.body.data[1].changes).to.deep.equal({ status: { from: 'PENDING', to: 'MISSED' } });
    // No agent run changed anything else: the only updates the system made (no user: the agents' and the sweep's
    // actor) are the two milestones'.
    const log = await api.get('listAuditLogs', '/audit-logs', {
      key: tenant.keys.admin,
      query: { limit: 100 },
    });
    const updates = log.body.data.filter(
      (e: { action: string; actor: { userId: string | null } }) =>
        /\.(updated|deleted)$/.test(e.action) && e.actor.userId === null,
    );
    expect(updates.map((e: { resourceId: string }) => e.resourceId).sort()).to.deep.equal(
      [id, ids.milestone].sort(),
    );
  });

  it('resource-capacity and status-report see the over-allocated person', async () => {
    const capacity = await runToEnd({ agentId: 'resource-capacity' });
    expect(capacity.output.metrics).to.include({
      resources: 1,
      overAllocatedResources: 1,
      peakAllocationPercent: 120,
    });
    const report = await runToEnd({ agentId: 'status-report', scope: `project:${ids.late}` });
    const text = report.output.report.text as string;
    expect(text).to.contain('# Status report — Harbour tunnel, as of 2026-03-02');
    expect(text).to.contain('Ana Ruiz');
    expect(report.output.report.overall).to.equal('RED');
    for (const section of report.output.report.sections)
      for (const sentence of section.sentences)
        expect(markersIn(sentence).length, sentence).to.be.greaterThan(0);
  });

  it('deep runs read the status-report history: slip velocity, budget growth, RAG changes, each citing the reports', async () => {
    const schedule = await runToEnd({ agentId: 'schedule-health', depth: 'deep' });
    // Slip +215 days on 2025-12-01, +365 on 2026-02-01: 150 days over 62 days, × 30.
    expect(schedule.output.metrics).to.include({
      projectsWithSlipVelocity: 1,
      // One move later (2027-01-31 → 2027-06-30) is not yet "repeatedly" (two or more).
      projectsSlippingRepeatedly: 0,
    });
    expect(schedule.output.metrics.averageSlipVelocity).to.equal(72.6);
    const velocity = schedule.output.findings.find((f: { title: string }) =>
      f.title.startsWith('Fastest-slipping'),
    );
    expect(velocity.citations.map((c: { type: string; field: string }) => [c.type, c.field])).to.deep.equal([
      ['status_report', 'forecastEndDate'],
      ['status_report', 'forecastEndDate'],
    ]);
    await checkCitations(schedule.output);
    const budget = await runToEnd({ agentId: 'budget-health', depth: 'deep' });
    expect(budget.output.metrics).to.include({
      projectsWithBudgetGrowth: 1,
      averageBudgetGrowthPercent: 4.2,
    });
    await checkCitations(budget.output);
    const health = await runToEnd({ agentId: 'portfolio-health', depth: 'deep' });
    expect(health.output.metrics).to.include({ ragChanged: 1, ragWorsened: 1, ragImproved: 0 });
    await checkCitations(health.output);
    const report = await runToEnd({ agentId: 'status-report', scope: `project:${ids.late}`, depth: 'deep' });
    const overall = report.output.report.sections[0].sentences.join(' ');
    expect(overall).to.contain('moved from AT_RISK to OFF_TRACK');
    await checkCitations(report.output);
  });

  it('lists executions: filters by agentId and status, sort=-createdAt newest first, paginated', async () => {
    const other = await server.createTenant();
    const mine = client(server.baseUrl, other.keys.write);
    const made: string[] = [];
    for (const agentId of ['budget-health', 'risk-assessment', 'budget-health']) {
      clock.advance(1_000);
      const res = await mine.post('runAgent', '/agents/run', { body: { agentId, depth: 'quick' } });
      made.push(res.body.executionId);
    }
    const all = await mine.get('listAgentExecutions', '/agents/executions');
    expect(all.body.data.map((e: { executionId: string }) => e.executionId)).to.deep.equal(made);
    const newest = await mine.get('listAgentExecutions', '/agents/executions', {
      query: { sort: '-createdAt', limit: 2 },
    });
    expect(newest.body.data.map((e: { executionId: string }) => e.executionId)).to.deep.equal([
      made[2],
      made[1],
    ]);
    expect(newest.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 3, hasMore: true });
    expect(parseLink(newest.headers.get('link')).next).to.contain('sort=-createdAt');
    const budget = await mine.get('listAgentExecutions', '/agents/executions', {
      query: { agentId: 'budget-health' },
    });
    expect(budget.body.data.map((e: { executionId: string }) => e.executionId)).to.deep.equal([
      made[0],
      made[2],
    ]);
    const pending = await mine.get('listAgentExecutions', '/agents/executions', {
      query: { status: 'PENDING' },
    });
    expect(pending.body.pagination.total).to.equal(3);
    await runner.drain();
    const completed = await mine.get('listAgentExecutions', '/agents/executions', {
      query: { status: 'COMPLETED', agentId: 'risk-assessment' },
    });
    expect(completed.body.data.map((e: { executionId: string }) => e.executionId)).to.deep.equal([made[1]]);
    expectProblem(
      await mine.get('listAgentExecutions', '/agents/executions', { query: { sort: 'name' } }),
      400,
      'validation_failed',
    );
    // Another tenant sees none of them, and 404 for each.
    const theirs = await api.get('listAgentExecutions', '/agents/executions', { query: { limit: 100 } });
    expect(theirs.body.data.map((e: { executionId: string }) => e.executionId)).to.not.include.members(made);
    expectProblem(await api.get('getAgentExecution', `/agents/executions/${made[0]}`), 404, 'not_found');
    expectProblem(
      await api.get('getAgentExecution', '/agents/executions/01950000-0000-7000-8000-000000000000'),
      404,
      'not_found',
    );
  });

  it('replays a run sent twice with the same Idempotency-Key (one execution)', async () => {
    const key = `agents-${Date.now()}`;
    const first = await api.post('runAgent', '/agents/run', {
      body: { agentId: 'risk-assessment', depth: 'quick' },
      headers: { 'Idempotency-Key': key },
    });
    const second = await api.post('runAgent', '/agents/run', {
      body: { agentId: 'risk-assessment', depth: 'quick' },
      headers: { 'Idempotency-Key': key },
    });
    expect(second.status).to.equal(202);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.body.executionId).to.equal(first.body.executionId);
  });
});
