/**
 * Every event kind, caused through the API (agent.execution_completed by a real agent run, executed by the job
 * runner), reaches a real receiver on 127.0.0.1 signed per Standard Webhooks:
 * verified by the reference `standardwebhooks` library and by the TypeScript SDK's own helper, with `data` as the
 * spec's `webhooks` section documents it. The Python SDK's helper verifies a live delivery in sdk-python/tests.
 */
import { expect } from 'chai';
import { webhooks as sdkWebhooks } from '../../sdk-ts/src/lib/webhooks.js';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { createJobRunner } from '../../server/jobs/index.js';
import { DeliveryWorker } from '../../server/services/webhooks/index.js';
import { client } from '../support/client.js';
import { assertMatchesSchema } from '../support/contract.js';
import { Receiver, verify } from '../support/receiver.js';
import { makeProject, makeRisk } from '../support/records.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SCHEMA: Record<string, string> = {
  'project.status_changed': 'ProjectStatusChangedEvent',
  'risk.created': 'RiskCreatedEvent',
  'risk.severity_escalated': 'RiskSeverityEscalatedEvent',
  'milestone.missed': 'MilestoneMissedEvent',
  'agent.execution_completed': 'AgentExecutionCompletedEvent',
  'budget.overrun_detected': 'BudgetOverrunDetectedEvent',
};

describe('events end to end: API → outbox → worker → signed delivery', function () {
  this.timeout(60_000);
  let server: TestServer;
  let worker: DeliveryWorker;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer({ clock: systemClock });
    worker = new DeliveryWorker({
      db: server.db,
      clock: systemClock,
      config: loadConfig({
        NODE_ENV: 'test',
        MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
        MERIDIAN_WORKER_POLL_MS: '20',
      }),
    }).start();
    receiver = await Receiver.start();
  });
  after(async () => {
    await worker.stop();
    await receiver.close();
    await server.close();
  });

  it('delivers all six kinds, each verifiable and shaped as the spec says', async () => {
    const tenant = await server.createTenant();
    const admin = client(server.baseUrl, tenant.keys.admin);
    const hook = (
      await admin.post('createWebhook', '/webhooks', { body: { url: receiver.url(), events: ['*'] } })
    ).body;
    expect(hook.secret).to.match(/^whsec_/);

    // Caused through the API, as a user would.
    const project = await makeProject(admin, { budget: 5_000_000 });
    await admin.patch('updateProject', `/projects/${project.id}`, { body: { status: 'AT_RISK' } });
    await admin.patch('updateProject', `/projects/${project.id}`, { body: { forecastCost: 5_400_000 } });
    const risk = await makeRisk(admin, project.id, { likelihood: 2, impact: 2 });
    await admin.patch('updateRisk', `/risks/${risk.id}`, { body: { impact: 5 } });
    await admin.post('createMilestone', `/projects/${project.id}/milestones`, {
      body: { name: 'Permit', dueDate: '2020-01-31' },
    });
    expect(await server.meridian.services.milestones.sweepMissed()).to.be.greaterThan(0);
    // agent.execution_completed: a real run, executed by the job runner's agent kind.
    const run = await admin.post('runAgent', '/agents/run', { body: { agentId: 'risk-assessment' } });
    expect(run.status).to.equal(202);
    await createJobRunner({
      services: server.meridian.services,
      clock: systemClock,
      config: loadConfig({ NODE_ENV: 'test', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true' }),
    }).drain();

    await receiver.waitFor(6, 20_000);
    const byKind = new Map<string, Record<string, any>>();
    for (const got of receiver.received) {
      const byLibrary = verify(hook.secret, got); // throws if the signature or timestamp does not verify
      const bySdk = await sdkWebhooks.unwrap(got.body, got.headers, hook.secret);
      expect(bySdk).to.deep.equal(byLibrary);
      expect(got.headers['webhook-id']).to.equal(byLibrary.id);
      expect(got.headers['content-type']).to.match(/^application\/json/);
      assertMatchesSchema(SCHEMA[byLibrary.event] as string, byLibrary);
      expect(byLibrary.tenantId).to.equal(tenant.tenantId);
      byKind.set(byLibrary.event, byLibrary);
    }
    expect([...byKind.keys()].sort()).to.deep.equal(Object.keys(SCHEMA).sort());
    expect(byKind.get('agent.execution_completed')?.data).to.include({
      executionId: run.body.executionId,
      agentId: 'risk-assessment',
      status: 'COMPLETED',
    });
    expect(byKind.get('project.status_changed')?.data).to.include({
      previousStatus: 'PLANNED',
      status: 'AT_RISK',
    });
    expect(byKind.get('budget.overrun_detected')?.data).to.include({
      kind: 'FORECAST',
      amount: 5_400_000,
      overrun: 400_000,
    });
    expect(byKind.get('risk.created')?.data.riskId).to.equal(risk.id);
    expect(byKind.get('risk.severity_escalated')?.data).to.include({
      previousSeverity: 'LOW',
      severity: 'HIGH',
    });
    expect(byKind.get('milestone.missed')?.data).to.include({ projectId: project.id, dueDate: '2020-01-31' });
    // A tampered body fails both verifiers.
    const first = receiver.received[0];
    expect(() =>
      verify(hook.secret, { ...(first as (typeof receiver.received)[0]), body: `${first?.body} ` }),
    ).to.throw();
    const tampered = await sdkWebhooks.unwrap(`${first?.body} `, first?.headers ?? {}, hook.secret).then(
      () => 'verified',
      (error: Error) => error.name,
    );
    expect(tampered).to.equal('WebhookVerificationError');
  });
});
