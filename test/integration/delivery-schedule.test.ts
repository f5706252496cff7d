/**
 * Webhook delivery under an injected clock (docs/webhooks.md, Events and webhooks): the retry schedule and
 * `nextAttemptAt`, Retry-After on 429 and 503, the 5-day rule, timeouts and connection failures, the address policy
 * at delivery time, deleted endpoints, leases of dead workers, pruning, and the end of a rotation's overlap.
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { DeliveryWorker, WEBHOOK_DELIVERY_JOB } from '../../server/services/webhooks/index.js';
import { emit, receiverPool, registerWebhook, workerConfig } from '../support/delivery.js';
import { librarySignature, type Received } from '../support/receiver.js';
import { contractSuite } from '../support/suite.js';

describe('Webhook delivery: schedule, limits and leases (injected clock)', function () {
  this.timeout(30_000);
  // Near the wall clock, so that standardwebhooks' 5-minute tolerance accepts the signed timestamps.
  const clock = new ManualClock(new Date());
  const ctx = contractSuite({ clock });
  const receiver = receiverPool();
  const workerWith = (env: Record<string, string> = {}) =>
    new DeliveryWorker({
      db: ctx.server.db,
      clock,
      config: workerConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,1000,60000', ...env }),
    });
  beforeEach(async () => {
    // The worker serves every tenant: retire what earlier tests left pending so counts here are this test's.
    await ctx.server.db.knex('webhook_deliveries').where({ status: 'PENDING' }).update({ status: 'FAILED' });
  });

  const deliveries = async (id: string) =>
    (await ctx.admin.get('listWebhookDeliveries', `/webhooks/${id}/deliveries`)).body.data;

  it('follows the schedule (nextAttemptAt shown), then marks the delivery FAILED after the last step', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const hook = await registerWebhook(ctx.admin, r.url());
    const worker = workerWith();
    const event = await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    expect(await worker.drain()).to.equal(1);
    let [d] = await deliveries(hook.id);
    expect(d).to.include({ status: 'PENDING', attemptCount: 1 });
    expect(d.nextAttemptAt).to.equal(new Date(clock.now().getTime() + 1000).toISOString());
    expect(d.attempts[0]).to.include({ statusCode: 500, error: null });
    // Not due yet: nothing is sent.
    clock.advance(999);
    expect(await worker.drain()).to.equal(0);
    clock.advance(1);
    expect(await worker.drain()).to.equal(1);
    [d] = await deliveries(hook.id);
    expect(d.nextAttemptAt).to.equal(new Date(clock.now().getTime() + 60_000).toISOString());
    clock.advance(60_000);
    expect(await worker.drain()).to.equal(1);
    [d] = await deliveries(hook.id);
    expect(d).to.include({ status: 'FAILED', attemptCount: 3, nextAttemptAt: null });
    expect(r.received.map((x) => x.headers['webhook-id'])).to.deep.equal([event.id, event.id, event.id]);
    clock.advance(3_600_000);
    expect(await worker.drain()).to.equal(0);
    // Failing for a minute only: still enabled.
    expect((await ctx.admin.get('getWebhook', `/webhooks/${hook.id}`)).body.enabled).to.equal(true);
  });

  it('honours Retry-After on 429 and 503 (seconds or HTTP date), bounded to one hour', async () => {
    const answers = [
      { status: 429, headers: { 'retry-after': '7' } },
      { status: 503, headers: { 'retry-after': '86400' } },
      { status: 429 },
      { status: 200 },
    ];
    const r = await receiver((n) => answers[n] ?? { status: 200 });
    const hook = await registerWebhook(ctx.admin, r.url());
    const worker = workerWith({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,1000,2000,3000,4000' });
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    const next = async () => (await deliveries(hook.id))[0].nextAttemptAt as string;
    expect(await next()).to.equal(new Date(clock.now().getTime() + 7_000).toISOString());
    clock.advance(7_000);
    await worker.drain();
    expect(await next()).to.equal(new Date(clock.now().getTime() + 3_600_000).toISOString());
    clock.advance(3_600_000);
    await worker.drain();
    // 429 without Retry-After: the schedule's step (the fourth entry).
    expect(await next()).to.equal(new Date(clock.now().getTime() + 3_000).toISOString());
    clock.advance(3_000);
    await worker.drain();
    const [d] = await deliveries(hook.id);
    expect(d).to.include({ status: 'SUCCEEDED', attemptCount: 4 });
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).to.deep.equal([429, 503, 429, 200]);
  });

  it('disables an endpoint whose deliveries have failed continuously for 5 days, and a success resets the window', async () => {
    const day = 24 * 3_600_000;
    let healthy = false;
    const r = await receiver(() => ({ status: healthy ? 200 : 500 }));
    const hook = await registerWebhook(ctx.admin, r.url());
    const worker = workerWith({
      MERIDIAN_WEBHOOK_RETRY_SCHEDULE: `0,${day},${day},${day},${day},${day},${day}`,
    });
    // Three days of failures, then a success: the window closes.
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    for (let i = 0; i < 3; i++) {
      clock.advance(day);
      await worker.drain();
    }
    healthy = true;
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    healthy = false;
    // Five more days of failures of a new event: disabled at the attempt 5 days after the first failure.
    await emit(ctx.server, ctx.tenant.tenantId, 'milestone.missed', clock.now());
    await worker.drain();
    for (let i = 0; i < 4; i++) {
      clock.advance(day);
      await worker.drain();
      expect(
        (await ctx.admin.get('getWebhook', `/webhooks/${hook.id}`)).body.enabled,
        `day ${i + 1}`,
      ).to.equal(true);
    }
    clock.advance(day);
    await worker.drain();
    const got = (await ctx.admin.get('getWebhook', `/webhooks/${hook.id}`)).body;
    expect(got.enabled).to.equal(false);
    expect(got.disabledReason).to.match(/5 days/);
    const pending = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`, {
      query: { status: 'PENDING' },
    });
    expect(pending.body.data).to.deep.equal([]);
  });

  it('counts in attemptCount an attempt whose worker died before recording it', async () => {
    const r = await receiver();
    const hook = await registerWebhook(ctx.admin, r.url());
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    // A worker claims the delivery and dies: its lease expires with nothing recorded.
    const claims = await ctx.server.meridian.services.jobs.claim(
      WEBHOOK_DELIVERY_JOB,
      'dead-worker',
      1_000,
      100,
    );
    expect(claims.length).to.be.at.least(1);
    clock.advance(2_000);
    await workerWith().drain();
    const [d] = await deliveries(hook.id);
    expect(d).to.include({ status: 'SUCCEEDED', attemptCount: 2 });
    expect(d.attempts).to.have.length(1);
    expect(r.received).to.have.length(1);
  });

  it('trips the circuit breaker on an endpoint that keeps timing out: backs off, marks it unhealthy, then disables and audits it', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: 1_000 }));
    const hook = await registerWebhook(ctx.admin, r.url());
    const worker = workerWith({
      MERIDIAN_WEBHOOK_TIMEOUT_MS: '150',
      MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,10,10,10,10,10,10,10,10,10,10,10',
    });
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    const at = () => clock.now().getTime();
    for (let attempt = 1; attempt <= 10; attempt++) {
      await worker.drain();
      const [d] = await deliveries(hook.id);
      expect(d.attemptCount, `attempt ${attempt}`).to.equal(attempt);
      const last = d.attempts.at(-1);
      expect(last.error).to.match(/^timeout after 150 ms/);
      if (attempt < 3) {
        expect(last.error).to.not.match(/unhealthy/);
        expect(Date.parse(d.nextAttemptAt) - at()).to.be.below(5_000);
      } else if (attempt < 10) {
        // Unhealthy: the delivery log says so, and the next attempt waits at least 1 min (doubling).
        expect(last.error).to.contain(`endpoint unhealthy: ${attempt} attempts in a row timed out`);
        expect(Date.parse(d.nextAttemptAt) - at()).to.be.at.least(
          Math.min(60_000 * 2 ** (attempt - 3), 3_600_000),
        );
      }
      clock.advance(3_600_000);
    }
    const got = (await ctx.admin.get('getWebhook', `/webhooks/${hook.id}`)).body;
    expect(got.enabled).to.equal(false);
    expect(got.disabledReason).to.equal('The endpoint timed out on 10 delivery attempts in a row.');
    const [d] = await deliveries(hook.id);
    expect(d.status).to.equal('FAILED');
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { sort: '-occurredAt', limit: 20 },
    });
    expect(JSON.stringify(audit.body.data)).to.contain('timed out on 10 delivery attempts in a row');
  });

  it('records a timeout as an attempt without status code', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: 1_000 }));
    const hook = await registerWebhook(ctx.admin, r.url());
    const worker = workerWith({ MERIDIAN_WEBHOOK_TIMEOUT_MS: '200' });
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    const [d] = await deliveries(hook.id);
    expect(d).to.include({ status: 'PENDING', attemptCount: 1 });
    expect(d.attempts[0]).to.include({ statusCode: null, error: 'timeout after 200 ms' });
    expect(d.attempts[0].durationMs).to.be.within(150, 900);
  });

  it('records a connection failure as an attempt with the error', async () => {
    const r = await receiver();
    const url = r.url();
    await r.close();
    const hook = await registerWebhook(ctx.admin, url);
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await workerWith().drain();
    const [d] = await deliveries(hook.id);
    expect(d.attempts[0].statusCode).to.equal(null);
    expect(d.attempts[0].error).to.match(/ECONNREFUSED/);
  });

  it('repeats the address check at delivery time: a target that is now private fails the attempt unsent', async () => {
    const r = await receiver();
    // Registered while private targets were allowed; the worker now runs with them refused.
    const literal = await registerWebhook(ctx.admin, r.url('/literal'));
    const named = await registerWebhook(ctx.admin, r.url('/named', 'localhost'));
    const worker = workerWith({ MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'false' });
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    expect(await worker.drain()).to.equal(2);
    expect(r.received).to.have.length(0);
    const [a] = await deliveries(literal.id);
    expect(a.attempts[0].statusCode).to.equal(null);
    expect(a.attempts[0].error).to.match(/http/);
    // Refused by the policy: failed at once, not retried through the schedule.
    expect(a).to.include({ status: 'FAILED', attemptCount: 1, nextAttemptAt: null });
    expect(a.attempts).to.have.length(1);
    // An https URL whose name resolves to loopback is refused by the connection's own lookup.
    await ctx.admin.patch('updateWebhook', `/webhooks/${named.id}`, {
      body: { url: r.url('/named', 'localhost').replace('http:', 'https:') },
    });
    await emit(ctx.server, ctx.tenant.tenantId, 'milestone.missed', clock.now());
    clock.advance(1_000);
    await worker.drain();
    const named2 = await deliveries(named.id);
    const last = named2.at(-1);
    expect(last.attempts[0].statusCode).to.equal(null);
    expect(last.attempts[0].error).to.match(/localhost does not resolve to public addresses only/);
    expect(last).to.include({ status: 'FAILED', attemptCount: 1, nextAttemptAt: null });
    expect(r.received).to.have.length(0);
  });

  it('refuses at delivery time an IPv4-compatible IPv6 literal ([::127.0.0.1]) and a URL with credentials', async () => {
    const r = await receiver();
    const port = new URL(r.url()).port;
    // Registered while private targets were allowed (development), then delivered with them refused.
    const compatible = await registerWebhook(ctx.admin, `https://[::127.0.0.1]:${port}/compatible`);
    const metadata = await registerWebhook(ctx.admin, `https://[::169.254.169.254]:${port}/latest/meta-data`);
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    expect(await workerWith({ MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'false' }).drain()).to.equal(2);
    for (const hook of [compatible, metadata]) {
      const [d] = await deliveries(hook.id);
      expect(d.attempts[0].statusCode).to.equal(null);
      expect(d.attempts[0].error).to.match(/does not resolve to public addresses only/);
    }
    // A URL with credentials can no longer be registered; one stored before is never called, whatever the setting.
    const hook = await registerWebhook(ctx.admin, r.url('/with-credentials'));
    await ctx.server.db
      .knex('webhook_endpoints')
      .where({ id: hook.id })
      .update({ url: r.url('/with-credentials').replace('http://', 'http://user:secret@') });
    await emit(ctx.server, ctx.tenant.tenantId, 'milestone.missed', clock.now());
    await workerWith().drain();
    const [d] = await deliveries(hook.id);
    expect(d.attempts[0].statusCode).to.equal(null);
    expect(d.attempts[0].error).to.match(/must not carry credentials/);
    expect(r.received).to.have.length(0);
  });

  it('sends nothing for an endpoint deleted while its deliveries were pending', async () => {
    const r = await receiver();
    const hook = await registerWebhook(ctx.admin, r.url());
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    expect((await ctx.admin.delete('deleteWebhook', `/webhooks/${hook.id}`)).status).to.equal(204);
    expect(await workerWith().drain()).to.equal(0);
    expect(r.received).to.have.length(0);
  });

  it('retries a delivery whose worker died: its lease expires and another worker sends it', async () => {
    const r = await receiver();
    const hook = await registerWebhook(ctx.admin, r.url());
    const event = await emit(ctx.server, ctx.tenant.tenantId, 'project.status_changed', clock.now());
    // A worker claims it and dies before sending.
    const { jobs, deliveries } = ctx.server.meridian.services;
    const claims = await jobs.claim('webhook.delivery', 'dead-worker/1', 30_000, 10);
    const claimed = await Promise.all(
      claims.map(async (c) => deliveries.target((c.job.payload as { deliveryId: string }).deliveryId)),
    );
    expect(claimed.map((c) => c?.eventId)).to.deep.equal([event.id]);
    const worker = workerWith();
    expect(await worker.drain()).to.equal(0);
    clock.advance(29_999);
    expect(await worker.drain()).to.equal(0);
    clock.advance(1);
    expect(await worker.drain()).to.equal(1);
    expect(r.received.map((x) => x.headers['webhook-id'])).to.deep.equal([event.id]);
    const got = r.received[0] as Received;
    expect(got.headers['webhook-signature']).to.equal(librarySignature(hook.secret, got));
  });

  it('keeps settled deliveries for 30 days, then prunes them (pending ones stay)', async () => {
    const r = await receiver((n) => ({ status: n === 0 ? 200 : 500 }));
    const hook = await registerWebhook(ctx.admin, r.url());
    const worker = workerWith({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: `0,${40 * 24 * 3_600_000}` });
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    expect((await deliveries(hook.id)).map((d: { status: string }) => d.status)).to.deep.equal([
      'SUCCEEDED',
      'PENDING',
    ]);
    clock.advance(30 * 24 * 3_600_000);
    await worker.prune();
    expect(await deliveries(hook.id)).to.have.length(2);
    clock.advance(1);
    await worker.prune();
    expect((await deliveries(hook.id)).map((d: { status: string }) => d.status)).to.deep.equal(['PENDING']);
  });

  it('drops the old signature once the 24-hour rotation overlap has passed', async () => {
    const r = await receiver();
    const hook = await registerWebhook(ctx.admin, r.url());
    const rotated = (await ctx.admin.post('rotateWebhookSecret', `/webhooks/${hook.id}/rotate-secret`)).body;
    const worker = workerWith();
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    clock.advance(24 * 3_600_000 - 1_000);
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    clock.advance(1_000);
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    const counts = r.received.map((x) => (x.headers['webhook-signature'] as string).split(' ').length);
    expect(counts).to.deep.equal([2, 2, 1]);
    const last = r.received[2] as Received;
    expect(last.headers['webhook-signature']).to.equal(librarySignature(rotated.secret, last));
  });
});
