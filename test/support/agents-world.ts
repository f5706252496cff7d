/**
 * The agents' contract tests' world: one server with a job runner, a tenant whose small portfolio has every kind
 * of record and signal (a late, over-budget project with a status-report history, a missed milestone, a high risk,
 * an open issue, an over-allocated person; a healthy project; a bare one), and helpers that run an agent to its end
 * and check its citations (every `[n]` resolves; every url answers the cited record to this tenant, 404 to another).
 * Today in the tenants' time zone (UTC) is 2026-03-02.
 */
import { expect } from 'chai';
import type { OperationId } from '../../generated/operations.js';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import type { JobRunner } from '../../server/jobs/index.js';
import { createJobRunner } from '../../server/jobs/index.js';
import { markersIn } from '../../server/services/agents/citations.js';
import { expectProblem } from './assertions.js';
import { type Api, client } from './client.js';
import { makeProject, makeRisk } from './records.js';
import { startTestServer, type TestServer, type TestTenant } from './server.js';

export const AGENT_IDS = [
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

/**
 * Registers the hooks that build the world (once for the calling `describe` block) and returns it; read its
 * members inside tests.
 */
export function agentsWorld() {
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

  return {
    clock,
    ids,
    run,
    get,
    runToEnd,
    checkCitations,
    get server() {
      return server;
    },
    get runner() {
      return runner;
    },
    get tenant() {
      return tenant;
    },
    get api() {
      return api;
    },
  };
}
