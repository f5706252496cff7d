/**
 * Webhook delivery over real HTTP to real receivers on 127.0.0.1 (docs/design.md, "Events and webhooks"):
 * Standard Webhooks signatures verified with the `standardwebhooks` library, retries on the schedule with a stable
 * webhook-id, 410, Retry-After, the 5-day rule, rotation overlap, timeouts, the address policy at delivery time
 * (refused targets fail at once), and leases. Dead workers and the circuit breaker: ./delivery-health.test.ts.
 *
 * Events are written with `emitEvent` inside a transaction, as the services do; the end-to-end tests through the
 * API live with the services that emit them.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock, systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { DeliveryWorker, type EventType } from '../../server/services/webhooks/index.js';
import { type Api, expectProblem } from '../contract/helpers.js';
import { client } from '../support/client.js';
import { startTestServer, type TestServer, type TestTenant } from '../support/server.js';
import { librarySignature, type Received, Receiver, verify } from './delivery-receiver.js';

const KINDS: EventType[] = [
  'project.status_changed',
  'risk.created',
  'risk.severity_escalated',
  'milestone.missed',
  'agent.execution_completed',
  'budget.overrun_detected',
];

function emit(
  server: TestServer,
  tenantId: string,
  type: EventType,
  now: Date,
  data: Record<string, unknown> = {},
) {
  return server.db.knex.transaction((trx) =>
    server.meridian.services.events.emit(
      trx,
      tenantId,
      type,
      { marker: randomUUID(), ...data },
      now.toISOString(),
    ),
  );
}

function workerConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    MERIDIAN_WORKER_POLL_MS: '20',
    MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  });
}

describe('Webhook delivery: the worker loop over real HTTP', function () {
  this.timeout(30_000);
  let server: TestServer;
  let worker: DeliveryWorker;
  let tenant: TestTenant;
  let api: Api;
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof Receiver.start>) => {
    const r = await Receiver.start(...args);
    receivers.push(r);
    return r;
  };

  before(async () => {
    server = await startTestServer({ clock: systemClock });
    worker = new DeliveryWorker({
      db: server.db,
      clock: systemClock,
      config: workerConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,100,100,100' }),
    }).start();
  });
  after(async () => {
    await worker.stop();
    for (const r of receivers) await r.close();
    await server.close();
  });
  beforeEach(async () => {
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.admin);
  });

  const register = async (url: string, events: string[] = ['*']) => {
    const res = await api.post('createWebhook', '/webhooks', { body: { url, events } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; secret: string };
  };

  it('delivers every event kind, signed and verifiable by standardwebhooks, with the stored bytes', async () => {
    const all = await receiver();
    const some = await receiver();
    const hookAll = await register(all.url());
    const hookSome = await register(some.url(), ['risk.created', 'milestone.missed']);
    const events = [];
    for (const kind of KINDS) events.push(await emit(server, tenant.tenantId, kind, new Date()));
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
      expect(payload).to.include({ id: event.id, event: event.type, tenantId: tenant.tenantId });
      expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).to.be.lessThan(60);
    }
    expect(some.received.map((r) => verify(hookSome.secret, r).event).sort()).to.deep.equal([
      'milestone.missed',
      'risk.created',
    ]);
    expect(() => verify(hookSome.secret, all.received[0] as Received)).to.throw();
    // Deliveries endpoint: each SUCCEEDED after one attempt with status 200.
    await waitUntil(async () => {
      const res = await api.get('listWebhookDeliveries', `/webhooks/${hookAll.id}/deliveries`, {
        query: { status: 'SUCCEEDED' },
      });
      return res.body.pagination.total === 6;
    });
    const list = await api.get('listWebhookDeliveries', `/webhooks/${hookAll.id}/deliveries`);
    for (const d of list.body.data) {
      expect(d).to.include({ status: 'SUCCEEDED', attemptCount: 1, nextAttemptAt: null });
      expect(d.attempts).to.have.length(1);
      expect(d.attempts[0]).to.include({ statusCode: 200, error: null });
      expect(d.attempts[0].durationMs).to.be.a('number');
    }
  });

  it('retries a receiver answering 500, 500, 200: the event arrives on the third attempt with the same webhook-id', async () => {
    const r = await receiver((n) => ({ status: n < 2 ? 500 : 200 }));
    const hook = await register(r.url());
    const event = await emit(server, tenant.tenantId, 'risk.created', new Date());
    await r.waitFor(3);
    expect(r.received.map((x) => x.headers['webhook-id'])).to.deep.equal([event.id, event.id, event.id]);
    for (const got of r.received) expect(verify(hook.secret, got).id).to.equal(event.id);
    await waitUntil(async () => {
      const res = await api.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`);
      return res.body.data[0]?.status === 'SUCCEEDED';
    });
    const res = await api.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`);
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
    const hook = await register(r.url());
    await emit(server, tenant.tenantId, 'milestone.missed', new Date());
    await r.waitFor(1);
    await waitUntil(async () => (await api.get('getWebhook', `/webhooks/${hook.id}`)).body.enabled === false);
    const got = await api.get('getWebhook', `/webhooks/${hook.id}`);
    expect(got.body.disabledReason).to.match(/410 Gone/);
    expect(got.body.version).to.equal(2);
    const list = await api.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`);
    expect(list.body.data[0]).to.include({ status: 'FAILED', attemptCount: 1, nextAttemptAt: null });
    expect(list.body.data[0].attempts[0].statusCode).to.equal(410);
    // Disabled: new events queue nothing, and the test operation answers 409.
    await emit(server, tenant.tenantId, 'milestone.missed', new Date());
    expect(
      (await api.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`)).body.pagination.total,
    ).to.equal(1);
    expectProblem(await api.post('testWebhook', `/webhooks/${hook.id}/test`), 409, 'conflict');
    const audit = await api.get('listAuditLogs', '/audit-logs', { query: { resourceId: hook.id } });
    const disabled = audit.body.data.at(-1);
    expect(disabled).to.include({ action: 'webhook.updated' });
    expect(disabled.actor).to.deep.equal({ userId: null, apiKeyId: null });
    expect(disabled.changes.enabled).to.deep.equal({ from: true, to: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.received).to.have.length(1);
  });

  it('sends the sample event of POST /webhooks/{id}/test, signed, to that endpoint only', async () => {
    const r = await receiver();
    const other = await receiver();
    const hook = await register(r.url(), ['risk.created']);
    await register(other.url());
    const res = await api.post('testWebhook', `/webhooks/${hook.id}/test`);
    expect(res.status).to.equal(202);
    await r.waitFor(1);
    const payload = verify(hook.secret, r.received[0] as Received);
    expect(payload).to.include({
      id: res.body.eventId,
      event: 'project.status_changed',
      tenantId: tenant.tenantId,
    });
    expect(payload.data).to.include({ previousStatus: 'ON_TRACK', status: 'AT_RISK' });
    expect(other.received).to.have.length(0);
  });

  it('carries both signatures during a rotation; each secret verifies with standardwebhooks', async () => {
    const r = await receiver();
    const hook = await register(r.url());
    const rotated = await api.post('rotateWebhookSecret', `/webhooks/${hook.id}/rotate-secret`);
    await emit(server, tenant.tenantId, 'budget.overrun_detected', new Date());
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

describe('Webhook delivery: schedule, limits and leases (injected clock)', function () {
  this.timeout(30_000);
  let server: TestServer;
  let tenant: TestTenant;
  let api: Api;
  // Near the wall clock, so that standardwebhooks' 5-minute tolerance accepts the signed timestamps.
  const clock = new ManualClock(new Date());
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof Receiver.start>) => {
    const r = await Receiver.start(...args);
    receivers.push(r);
    return r;
  };
  const workerWith = (env: Record<string, string> = {}) =>
    new DeliveryWorker({
      db: server.db,
      clock,
      config: workerConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,1000,60000', ...env }),
    });

  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await server.close();
  });
  beforeEach(async () => {
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.admin);
    // The worker serves every tenant: retire what earlier tests left pending so counts here are this test's.
    await server.db.knex('webhook_deliveries').where({ status: 'PENDING' }).update({ status: 'FAILED' });
  });

  const register = async (url: string, events: string[] = ['*']) => {
    const res = await api.post('createWebhook', '/webhooks', { body: { url, events } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; secret: string };
  };
  const deliveries = async (id: string) =>
    (await api.get('listWebhookDeliveries', `/webhooks/${id}/deliveries`)).body.data;

  it('follows the schedule (nextAttemptAt shown), then marks the delivery FAILED after the last step', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const hook = await register(r.url());
    const worker = workerWith();
    const event = await emit(server, tenant.tenantId, 'risk.created', clock.now());
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
    expect((await api.get('getWebhook', `/webhooks/${hook.id}`)).body.enabled).to.equal(true);
  });

  it('honours Retry-After on 429 and 503 (seconds or HTTP date), bounded to one hour', async () => {
    const answers = [
      { status: 429, headers: { 'retry-after': '7' } },
      { status: 503, headers: { 'retry-after': '86400' } },
      { status: 429 },
      { status: 200 },
    ];
    const r = await receiver((n) => answers[n] ?? { status: 200 });
    const hook = await register(r.url());
    const worker = workerWith({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,1000,2000,3000,4000' });
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
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
    const hook = await register(r.url());
    const worker = workerWith({
      MERIDIAN_WEBHOOK_RETRY_SCHEDULE: `0,${day},${day},${day},${day},${day},${day}`,
    });
    // Three days of failures, then a success: the window closes.
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    for (let i = 0; i < 3; i++) {
      clock.advance(day);
      await worker.drain();
    }
    healthy = true;
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    healthy = false;
    // Five more days of failures of a new event: disabled at the attempt 5 days after the first failure.
    await emit(server, tenant.tenantId, 'milestone.missed', clock.now());
    await worker.drain();
    for (let i = 0; i < 4; i++) {
      clock.advance(day);
      await worker.drain();
      expect((await api.get('getWebhook', `/webhooks/${hook.id}`)).body.enabled, `day ${i + 1}`).to.equal(
        true,
      );
    }
    clock.advance(day);
    await worker.drain();
    const got = (await api.get('getWebhook', `/webhooks/${hook.id}`)).body;
    expect(got.enabled).to.equal(false);
    expect(got.disabledReason).to.match(/5 days/);
    const pending = await api.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`, {
      query: { status: 'PENDING' },
    });
    expect(pending.body.data).to.deep.equal([]);
  });

  it('records a timeout as an attempt without status code', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: 1_000 }));
    const hook = await register(r.url());
    const worker = workerWith({ MERIDIAN_WEBHOOK_TIMEOUT_MS: '200' });
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
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
    receivers.splice(receivers.indexOf(r), 1);
    const hook = await register(url);
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    await workerWith().drain();
    const [d] = await deliveries(hook.id);
    expect(d.attempts[0].statusCode).to.equal(null);
    expect(d.attempts[0].error).to.match(/ECONNREFUSED/);
  });

  it('repeats the address check at delivery time: a target that is now private fails the attempt unsent', async () => {
    const r = await receiver();
    // Registered while private targets were allowed; the worker now runs with them refused.
    const literal = await register(r.url('/literal'));
    const named = await register(r.url('/named', 'localhost'));
    const worker = workerWith({ MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'false' });
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    expect(await worker.drain()).to.equal(2);
    expect(r.received).to.have.length(0);
    const [a] = await deliveries(literal.id);
    expect(a.attempts[0].statusCode).to.equal(null);
    expect(a.attempts[0].error).to.match(/http/);
    // Refused by the policy: failed at once, not retried through the schedule.
    expect(a).to.include({ status: 'FAILED', attemptCount: 1, nextAttemptAt: null });
    expect(a.attempts).to.have.length(1);
    // An https URL whose name resolves to loopback is refused by the connection's own lookup.
    await api.patch('updateWebhook', `/webhooks/${named.id}`, {
      body: { url: r.url('/named', 'localhost').replace('http:', 'https:') },
    });
    await emit(server, tenant.tenantId, 'milestone.missed', clock.now());
    clock.advance(1_000);
    await worker.drain();
    const named2 = await deliveries(named.id);
    const last = named2.at(-1);
    expect(last.attempts[0].statusCode).to.equal(null);
    expect(last.attempts[0].error).to.match(/localhost does not resolve to public addresses only/);
    expect(last).to.include({ status: 'FAILED', attemptCount: 1, nextAttemptAt: null });
    expect(r.received).to.have.length(0);
  });

  it('refuses at delivery time an IPv4-compatible IPv6 literal ([::127.0.0.1]) and a URL with credentials (issue 13)', async () => {
    const r = await receiver();
    const port = new URL(r.url()).port;
    // Registered while private targets were allowed (development), then delivered with them refused.
    const compatible = await register(`https://[::127.0.0.1]:${port}/compatible`);
    const metadata = await register(`https://[::169.254.169.254]:${port}/latest/meta-data`);
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    expect(await workerWith({ MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'false' }).drain()).to.equal(2);
    for (const hook of [compatible, metadata]) {
      const [d] = await deliveries(hook.id);
      expect(d.attempts[0].statusCode).to.equal(null);
      expect(d.attempts[0].error).to.match(/does not resolve to public addresses only/);
    }
    // A URL with credentials can no longer be registered; one stored before is never called, whatever the setting.
    const hook = await register(r.url('/with-credentials'));
    await server.db
      .knex('webhook_endpoints')
      .where({ id: hook.id })
      .update({ url: r.url('/with-credentials').replace('http://', 'http://user:secret@') });
    await emit(server, tenant.tenantId, 'milestone.missed', clock.now());
    await workerWith().drain();
    const [d] = await deliveries(hook.id);
    expect(d.attempts[0].statusCode).to.equal(null);
    expect(d.attempts[0].error).to.match(/must not carry credentials/);
    expect(r.received).to.have.length(0);
  });

  it('sends nothing for an endpoint deleted while its deliveries were pending', async () => {
    const r = await receiver();
    const hook = await register(r.url());
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    expect((await api.delete('deleteWebhook', `/webhooks/${hook.id}`)).status).to.equal(204);
    expect(await workerWith().drain()).to.equal(0);
    expect(r.received).to.have.length(0);
  });

  it('retries a delivery whose worker died: its lease expires and another worker sends it', async () => {
    const r = await receiver();
    const hook = await register(r.url());
    const event = await emit(server, tenant.tenantId, 'project.status_changed', clock.now());
    // A worker claims it and dies before sending.
    const { jobs, deliveries } = server.meridian.services;
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
    const hook = await register(r.url());
    const worker = workerWith({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: `0,${40 * 24 * 3_600_000}` });
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
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
    const hook = await register(r.url());
    const rotated = (await api.post('rotateWebhookSecret', `/webhooks/${hook.id}/rotate-secret`)).body;
    const worker = workerWith();
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    clock.advance(24 * 3_600_000 - 1_000);
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    clock.advance(1_000);
    await emit(server, tenant.tenantId, 'risk.created', clock.now());
    await worker.drain();
    const counts = r.received.map((x) => (x.headers['webhook-signature'] as string).split(' ').length);
    expect(counts).to.deep.equal([2, 2, 1]);
    const last = r.received[2] as Received;
    expect(last.headers['webhook-signature']).to.equal(librarySignature(rotated.secret, last));
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`condition not met in ${timeoutMs} ms`);
}
