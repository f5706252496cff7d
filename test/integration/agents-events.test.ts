/**
 * Agent executions end to end (docs/agents.md, Agents), on the database of this run: `agent.execution_completed`
 * delivered to a real receiver (signed, verified with the standardwebhooks library, matching the spec's payload
 * schema) on COMPLETED and on FAILED; a worker that dies holding an execution leaves a lease that expires and the
 * run is retried (attempts counted), and after the last attempt it is FAILED with `worker_lost` — never left
 * RUNNING. Progress is visible while a run is RUNNING.
 */
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { createJobRunner } from '../../server/jobs/index.js';
import { AGENT_EXECUTION_JOB } from '../../server/services/agents/index.js';
import { client } from '../support/client.js';
import { assertMatchesSchema } from '../support/contract.js';
import { Receiver, verify } from '../support/receiver.js';
import { makeProject } from '../support/records.js';
import { startTestServer, TEST_DB, type TestServer, type TestTenant } from '../support/server.js';

const LEASE_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`agent executions: events, dead workers, progress (${TEST_DB})`, function () {
  this.timeout(60_000);
  let server: TestServer;
  let receiver: Receiver;
  let tenant: TestTenant;
  let secret: string;
  const config = loadConfig({
    NODE_ENV: 'test',
    MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
    MERIDIAN_AGENT_LEASE_MS: String(LEASE_MS),
  });
  before(async () => {
    server = await startTestServer();
    receiver = await Receiver.start();
    tenant = await server.createTenant();
    const admin = client(server.baseUrl, tenant.keys.admin);
    const hook = await admin.post('createWebhook', '/webhooks', {
      body: { url: receiver.url(), events: ['agent.execution_completed'] },
    });
    expect(hook.status).to.equal(201);
    secret = hook.body.secret;
    await makeProject(admin, { forecastEndDate: '2027-03-01', budget: 100, forecastCost: 150 });
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });

  const api = () => client(server.baseUrl, tenant.keys.write);
  const runner = () => createJobRunner({ services: server.meridian.services, clock: systemClock, config });

  async function start(agentId: string): Promise<string> {
    const res = await api().post('runAgent', '/agents/run', { body: { agentId, depth: 'standard' } });
    expect(res.status).to.equal(202);
    return res.body.executionId;
  }

  /** The webhook payloads received for an execution. */
  function eventsOf(executionId: string): Record<string, any>[] {
    return receiver.received
      .map((got) => verify(secret, got))
      .filter((payload) => payload.data.executionId === executionId);
  }

  it('delivers agent.execution_completed (COMPLETED, with the output) to a real receiver, signed', async () => {
    const executionId = await start('budget-health');
    await runner().drain();
    await receiver.waitFor(1);
    const [payload, ...more] = eventsOf(executionId);
    expect(more).to.deep.equal([]);
    assertMatchesSchema('AgentExecutionCompletedEvent', payload);
    const polled = await api().get('getAgentExecution', `/agents/executions/${executionId}`);
    expect(payload).to.deep.include({ event: 'agent.execution_completed', tenantId: tenant.tenantId });
    expect(payload?.data).to.deep.include({ executionId, agentId: 'budget-health', status: 'COMPLETED' });
    expect(payload?.data.execution).to.deep.equal(polled.body);
  });

  it('retries a run whose worker died once its lease expires (attempts = 2), then completes it', async () => {
    const executionId = await start('schedule-health');
    const { jobs, agents } = server.meridian.services;
    // A worker claims the job, starts the run and dies (no heartbeat, no settlement).
    const [claim] = await jobs.claim(AGENT_EXECUTION_JOB, 'dead-worker/1', LEASE_MS, 10);
    expect(claim?.job.ref).to.equal(executionId);
    await agents.start(executionId, claim?.job.attempt as number);
    const stuck = await api().get('getAgentExecution', `/agents/executions/${executionId}`);
    expect(stuck.body).to.include({ status: 'RUNNING', attempts: 1 });
    expect(stuck.body.progress).to.deep.equal({ percent: 0, stage: 'starting' });
    // Within the lease nobody takes it over.
    expect(await runner().runOnce()).to.equal(0);
    await sleep(LEASE_MS + 50);
    await runner().drain();
    const done = await api().get('getAgentExecution', `/agents/executions/${executionId}`);
    expect(done.body).to.include({ status: 'COMPLETED', attempts: 2, progress: null });
    // The dead worker's late settlement commits nothing: its lease is gone.
    expect(
      await jobs.settle(claim as NonNullable<typeof claim>, { status: 'COMPLETED', error: null }, (trx) =>
        agents.fail(trx, executionId, { code: 'internal_error', message: 'late' }),
      ),
    ).to.equal(false);
    expect((await api().get('getAgentExecution', `/agents/executions/${executionId}`)).body.status).to.equal(
      'COMPLETED',
    );
    await receiver.waitFor(2);
    expect(eventsOf(executionId).map((p) => p.data.status)).to.deep.equal(['COMPLETED']);
  });

  it('fails a run whose last attempt’s worker died: FAILED with worker_lost, attempts 3, and the event says FAILED', async () => {
    const executionId = await start('risk-assessment');
    const { jobs, agents } = server.meridian.services;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [claim] = await jobs.claim(AGENT_EXECUTION_JOB, `dead-worker/${attempt}`, LEASE_MS, 10);
      expect(claim?.job).to.include({ ref: executionId, attempt });
      await agents.start(executionId, attempt);
      await sleep(LEASE_MS + 50);
    }
    await runner().drain();
    const failed = await api().get('getAgentExecution', `/agents/executions/${executionId}`);
    expect(failed.body).to.include({ status: 'FAILED', attempts: 3, output: null, progress: null });
    expect(failed.body.error.code).to.equal('worker_lost');
    expect(failed.body.error.message).to.match(/attempt 3 of 3/);
    expect(failed.body.completedAt).to.be.a('string');
    await receiver.waitFor(3);
    const [payload] = eventsOf(executionId);
    assertMatchesSchema('AgentExecutionCompletedEvent', payload);
    expect(payload?.data).to.deep.include({ executionId, status: 'FAILED' });
    expect(payload?.data.execution.error).to.deep.equal(failed.body.error);
  });

  it('shows progress (percent and stage) while RUNNING', async () => {
    // An app whose runs pause after each stage (MERIDIAN_AGENT_STAGE_DELAY_MS), so a poll sees them RUNNING.
    const delayed = await startTestServer({ env: { MERIDIAN_AGENT_STAGE_DELAY_MS: '150' } });
    try {
      const t = await delayed.createTenant();
      const mine = client(delayed.baseUrl, t.keys.write);
      await makeProject(mine);
      const res = await mine.post('runAgent', '/agents/run', { body: { agentId: 'portfolio-health' } });
      const runner2 = createJobRunner({ services: delayed.meridian.services, clock: systemClock, config });
      const running = runner2.drain();
      const seen: { percent: number; stage: string }[] = [];
      for (let i = 0; i < 100 && seen.length < 3; i++) {
        const polled = await mine.get('getAgentExecution', `/agents/executions/${res.body.executionId}`);
        if (polled.body.status === 'RUNNING' && polled.body.progress) {
          const last = seen[seen.length - 1];
          if (!last || last.stage !== polled.body.progress.stage) seen.push(polled.body.progress);
        }
        await sleep(40);
      }
      await running;
      expect(seen.length).to.be.greaterThan(2);
      const percents = seen.map((p) => p.percent);
      expect(percents).to.deep.equal([...percents].sort((a, b) => a - b));
      expect(seen.some((p) => p.stage.startsWith('reading '))).to.equal(true);
      const done = await mine.get('getAgentExecution', `/agents/executions/${res.body.executionId}`);
      expect(done.body).to.include({ status: 'COMPLETED', progress: null });
    } finally {
      await delayed.close();
    }
  });
});
