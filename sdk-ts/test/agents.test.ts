/**
 * Agents through the TypeScript SDK against the real server (test/support/server.ts): `client.agents.run` polled with
 * `executions.poll` and `runAndPoll` (the server's own job runner runs them) with typed output; `client.agents.ask`
 * with a typed answer whose citations resolve through the SDK's own `projects.retrieve`/`risks.retrieve`, the
 * restriction to one project, and NotFoundError for another tenant's project.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { createJobRunner } from '../../server/jobs/index.js';
import { startTestServer, type TestServer, type TestTenant } from '../../test/support/server.js';
import { Meridian, NotFoundError, type Project } from '../src/index.js';
import { rejection } from './helpers.js';

describe('sdk-ts: agents', () => {
  let server: TestServer;
  let tenant: TestTenant;
  let client: Meridian;
  let reader: Meridian;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());
  beforeEach(async () => {
    tenant = await server.createTenant();
    client = new Meridian({ apiKey: tenant.keys.write, baseUrl: server.baseUrl, maxRetries: 0 });
    reader = new Meridian({ apiKey: tenant.keys.read, baseUrl: server.baseUrl, maxRetries: 0 });
  });

  const newProject = (overrides: Partial<Project> = {}) =>
    client.projects.create({
      name: `Project ${randomUUID().slice(0, 8)}`,
      startDate: '2025-01-06',
      endDate: '2025-12-19',
      ...overrides,
    });

  describe('runs', () => {
    it('runAndPoll() runs an agent and returns the COMPLETED execution with its typed output; run() + poll() too', async () => {
      // The job runner of the server under test, looping as in `npm start` (test servers start none).
      const runner = createJobRunner({
        services: server.meridian.services,
        clock: systemClock,
        config: loadConfig({ NODE_ENV: 'test', MERIDIAN_WORKER_POLL_MS: '20' }),
      }).start();
      try {
        const late = await newProject({
          forecastEndDate: '2026-03-31',
          budget: 100_000,
          forecastCost: 130_000,
        });
        const params = { agentId: 'budget-health', scope: `project:${late.id}`, depth: 'standard' } as const;
        const { data: accepted, response } = await client.agents.run(params).withResponse();
        expect(response.status).to.equal(202);
        expect(accepted.status).to.equal('PENDING');
        const polled = await client.agents.executions.poll(accepted.executionId, { pollIntervalMs: 50 });
        expect(polled).to.include({ executionId: accepted.executionId, status: 'COMPLETED' });
        const done = await client.agents.runAndPoll(params, { pollIntervalMs: 50, timeoutMs: 30_000 });
        expect(done).to.include({ status: 'COMPLETED', attempts: 1, error: null });
        expect(done.executionId).to.not.equal(accepted.executionId);
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
        const catalogue = await client.agents.list();
        expect(catalogue.data.map((a) => a.id)).to.include('status-report');
        const listed = await client.agents.executions.list({ agentId: 'budget-health', sort: '-createdAt' });
        expect(listed.data[0]?.executionId).to.equal(done.executionId);
      } finally {
        await runner.stop();
      }
    });
  });

  it('answers with citations that resolve to the tenant’s records', async () => {
    const name = `Ferry Terminal ${randomUUID().slice(0, 6)}`;
    const project = await client.projects.create({
      name,
      startDate: '2026-01-05',
      endDate: '2026-12-18',
      budget: 48_500_000,
      forecastCost: 51_200_000,
    });
    const risk = await client.risks.create({
      projectId: project.id,
      title: 'Storm surge damages the pier',
      likelihood: 4,
      impact: 5,
    });
    const { data: answer, requestId } = await reader.agents
      .ask({ question: `What are the risks and the budget of ${name}?` })
      .withResponse();
    expect(requestId).to.be.a('string');
    expect(answer.engine).to.equal('embedded');
    expect(answer.answer).to.include('$2,700,000');
    expect(answer.citations.map((c) => [c.type, c.id])).to.deep.equal([
      ['risk', risk.id],
      ['project', project.id],
    ]);
    for (const c of answer.citations) expect(answer.answer).to.include(`[${c.index}]`);
    expect((await reader.risks.retrieve(risk.id)).title).to.equal('Storm surge damages the pier');
    expect(answer.citations[1]?.url).to.equal(`/v1/projects/${project.id}`);
  });

  it('restricts to projectId and throws NotFoundError for a project of another tenant', async () => {
    const a = await client.projects.create({ name: 'A', startDate: '2026-01-05', endDate: '2026-12-18' });
    const b = await client.projects.create({ name: 'B', startDate: '2026-01-05', endDate: '2026-12-18' });
    await client.risks.create({ projectId: b.id, title: 'Only on B', likelihood: 3, impact: 3 });
    const scoped = await reader.agents.ask({ question: 'What are the risks?', projectId: a.id });
    expect(scoped.citations.map((c) => c.id)).to.deep.equal([a.id]);

    const other = await server.createTenant();
    const foreign = await new Meridian({ apiKey: other.keys.write, baseUrl: server.baseUrl }).projects.create(
      {
        name: 'Elsewhere',
        startDate: '2026-01-05',
        endDate: '2026-12-18',
      },
    );
    const err = await rejection(
      reader.agents.ask({ question: 'Status?', projectId: foreign.id }),
      NotFoundError,
    );
    expect(err).to.be.instanceOf(NotFoundError);
  });
});
