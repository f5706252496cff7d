/**
 * Webhook delivery over real HTTP to real receivers on 127.0.0.1 (docs/webhooks.md, Events and webhooks), the worker
 * loop on the wall clock: every event kind signed and verified with the `standardwebhooks` library, retries with a
 * stable webhook-id, 410 Gone, the test event, and both signatures during a rotation.
 *
 * Events are written with `emitEvent` inside a transaction, as the services do (test/support/delivery.ts); the
 * end-to-end tests through the API live with the services that emit them.
 */
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import type { EventType } from '../../server/services/webhooks/index.js';
import { DeliveryWorker } from '../../server/services/webhooks/index.js';
import { expectProblem } from '../support/assertions.js';
import { emit, receiverPool, registerWebhook, waitUntil, workerConfig } from '../support/delivery.js';
import { librarySignature, type Received, verify } from '../support/receiver.js';
import { contractSuite } from '../support/suite.js';

const KINDS: EventType[] = [
  'project.status_changed',
  'risk.created',
  'risk.severity_escalated',
  'milestone.missed',
  'agent.execution_completed',
  'budget.overrun_detected',
];

describe('Webhook delivery: the worker loop over real HTTP', function () {
  this.timeout(30_000);
  const ctx = contractSuite({ clock: systemClock });
  const receiver = receiverPool();
  let worker: DeliveryWorker;
  before(() => {
    worker = new DeliveryWorker({
      db: ctx.server.db,
      clock: systemClock,
      config: workerConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,100,100,100' }),
    }).start();
  });
  after(async () => worker.stop());

  it('delivers every event kind, signed and verifiable by standardwebhooks, with the stored bytes', async () => {
    const all = await receiver();
    const some = await receiver();
    const hookAll = await registerWebhook(ctx.admin, all.url());
    const hookSome = await registerWebhook(ctx.admin, some.url(), ['risk.created', 'milestone.missed']);
    const events = [];
    for (const kind of KINDS) events.push(await emit(ctx.server, ctx.tenant.tenantId, kind, new Date()));
    await all.waitFor(6);
    await some.waitFor(2);
    const byId = new Map(all.received.map((r) => [r.headers['webhook-id'], r]));
    for (const event of events) {
      const got = byId.get(event.id) as Received;
      expect(got, event.type).to.not.equal(undefined);
      expect(got.body).to.equal(event.payload);
      expect(got.headers['content-type']).to.equal('application/json');
      expect(got.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+={0,2}$/);
      const payload = verify(hookAll.secret, got);
      expect(payload).to.include({ id: event.id, event: event.type, tenantId: ctx.tenant.tenantId });
      expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).to.be.lessThan(60);
    }
    expect(some.received.map((r) => verify(hookSome.secret, r).event).sort()).to.deep.equal([
      'milestone.missed',
      'risk.created',
    ]);
    expect(() => verify(hookSome.secret, all.received[0] as Received)).to.throw();
    // Deliveries endpoint: each SUCCEEDED after one attempt with status 200.
    await waitUntil(async () => {
      const res = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${hookAll.id}/deliveries`, {
        query: { status: 'SUCCEEDED' },
      });
      return res.body.pagination.total === 6;
    });
    const list = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${hookAll.id}/deliveries`);
    for (const d of list.body.data) {
      expect(d).to.include({ status: 'SUCCEEDED', attemptCount: 1, nextAttemptAt: null });
      expect(d.attempts).to.have.length(1);
      expect(d.attempts[0]).to.include({ statusCode: 200, error: null });
      expect(d.attempts[0].durationMs).to.be.a('number');
    }
  });

  it('retries a receiver answering 500, 500, 200: the event arrives on the third attempt with the same webhook-id', async () => {
    const r = await receiver((n) => ({ status: n < 2 ? 500 : 200 }));
    const hook = await registerWebhook(ctx.admin, r.url());
    const event = await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', new Date());
    await r.waitFor(3);
    expect(r.received.map((x) => x.headers['webhook-id'])).to.deep.equal([event.id, event.id, event.id]);
    for (const got of r.received) expect(verify(hook.secret, got).id).to.equal(event.id);
    await waitUntil(async () => {
      const res = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`);
      return res.body.data[0]?.status === 'SUCCEEDED';
    });
    const res = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`);
    const [delivery] = res.body.data;
    expect(delivery).to.include({
      eventId: event.id,
      event: 'risk.created',
      attemptCount: 3,
      nextAttemptAt: null,
    });
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).to.deep.equal([500, 500, 200]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).to.have.length(3);
  });

  it('disables the endpoint on 410 Gone and fails the delivery', async () => {
    const r = await receiver(() => ({ status: 410 }));
    const hook = await registerWebhook(ctx.admin, r.url());
    await emit(ctx.server, ctx.tenant.tenantId, 'milestone.missed', new Date());
    await r.waitFor(1);
    await waitUntil(
      async () => (await ctx.admin.get('getWebhook', `/webhooks/${hook.id}`)).body.enabled === false,
    );
    const got = await ctx.admin.get('getWebhook', `/webhooks/${hook.id}`);
    expect(got.body.disabledReason).to.match(/410 Gone/);
    expect(got.body.version).to.equal(2);
    const list = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`);
    expect(list.body.data[0]).to.include({ status: 'FAILED', attemptCount: 1, nextAttemptAt: null });
    expect(list.body.data[0].attempts[0].statusCode).to.equal(410);
    // Disabled: new events queue nothing, and the test operation answers 409.
    await emit(ctx.server, ctx.tenant.tenantId, 'milestone.missed', new Date());
    expect(
      (await ctx.admin.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`)).body.pagination.total,
    ).to.equal(1);
    expectProblem(await ctx.admin.post('testWebhook', `/webhooks/${hook.id}/test`), 409, 'conflict');
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { resourceId: hook.id } });
    const disabled = audit.body.data.at(-1);
    expect(disabled).to.include({ action: 'webhook.updated' });
    expect(disabled.actor).to.deep.equal({ userId: null, apiKeyId: null, via: null });
    expect(disabled.changes.enabled).to.deep.equal({ from: true, to: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.received).to.have.length(1);
  });

  it('sends the sample event of POST /webhooks/{id}/test, signed, to that endpoint only', async () => {
    const r = await receiver();
    const other = await receiver();
    const hook = await registerWebhook(ctx.admin, r.url(), ['risk.created']);
    await registerWebhook(ctx.admin, other.url());
    const res = await ctx.admin.post('testWebhook', `/webhooks/${hook.id}/test`);
    expect(res.status).to.equal(202);
    await r.waitFor(1);
    const payload = verify(hook.secret, r.received[0] as Received);
    expect(payload).to.include({
      id: res.body.eventId,
      event: 'project.status_changed',
      tenantId: ctx.tenant.tenantId,
    });
    expect(payload.data).to.include({ previousStatus: 'ON_TRACK', status: 'AT_RISK' });
    expect(other.received).to.have.length(0);
  });

  it('carries both signatures during a rotation; each secret verifies with standardwebhooks', async () => {
    const r = await receiver();
    const hook = await registerWebhook(ctx.admin, r.url());
    const rotated = await ctx.admin.post('rotateWebhookSecret', `/webhooks/${hook.id}/rotate-secret`);
    await emit(ctx.server, ctx.tenant.tenantId, 'budget.overrun_detected', new Date());
    await r.waitFor(1);
    const got = r.received[0] as Received;
    const signatures = (got.headers['webhook-signature'] as string).split(' ');
    expect(signatures).to.deep.equal([
      librarySignature(rotated.body.secret, got),
      librarySignature(hook.secret, got),
    ]);
    expect(verify(rotated.body.secret, got).event).to.equal('budget.overrun_detected');
    expect(verify(hook.secret, got).event).to.equal('budget.overrun_detected');
  });
});
