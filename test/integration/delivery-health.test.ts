/**
 * The health of webhook deliveries over real HTTP (docs/design.md, "Events and webhooks"), with an injected clock:
 * an attempt whose worker died counts in `attemptCount`, and the circuit breaker of an endpoint that keeps timing
 * out (unhealthy after 3 timeouts in a row, attempts backing off, disabled and audited after 10).
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { DeliveryWorker, WEBHOOK_DELIVERY_JOB } from '../../server/services/webhooks/index.js';
import type { Api } from '../contract/helpers.js';
import { client } from '../support/client.js';
import { startTestServer, TEST_DB, type TestServer, type TestTenant } from '../support/server.js';
import { Receiver } from './delivery-receiver.js';

describe(`Webhook delivery health: dead workers and the circuit breaker (${TEST_DB})`, function () {
  this.timeout(30_000);
  let server: TestServer;
  let tenant: TestTenant;
  let api: Api;
  // Near the wall clock, so that signed timestamps stay plausible.
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
      config: loadConfig({
        NODE_ENV: 'test',
        MERIDIAN_WORKER_POLL_MS: '20',
        MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
        MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,1000,60000',
        ...env,
      }),
    });
  const emit = () =>
    server.db.knex.transaction((trx) =>
      server.meridian.services.events.emit(
        trx,
        tenant.tenantId,
        'risk.created',
        {},
        clock.now().toISOString(),
      ),
    );

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

  const register = async (url: string) => {
    const res = await api.post('createWebhook', '/webhooks', { body: { url, events: ['*'] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; secret: string };
  };
  const deliveries = async (id: string) =>
    (await api.get('listWebhookDeliveries', `/webhooks/${id}/deliveries`)).body.data;

  it('counts in attemptCount an attempt whose worker died before recording it', async () => {
    const r = await receiver();
    const hook = await register(r.url());
    await emit();
    // A worker claims the delivery and dies: its lease expires with nothing recorded.
    const claims = await server.meridian.services.jobs.claim(WEBHOOK_DELIVERY_JOB, 'dead-worker', 1_000, 100);
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
    const hook = await register(r.url());
    const worker = workerWith({
      MERIDIAN_WEBHOOK_TIMEOUT_MS: '150',
      MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,10,10,10,10,10,10,10,10,10,10,10',
    });
    await emit();
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
    const got = (await api.get('getWebhook', `/webhooks/${hook.id}`)).body;
    expect(got.enabled).to.equal(false);
    expect(got.disabledReason).to.equal('The endpoint timed out on 10 delivery attempts in a row.');
    const [d] = await deliveries(hook.id);
    expect(d.status).to.equal('FAILED');
    const audit = await api.get('listAuditLogs', '/audit-logs', {
      query: { sort: '-occurredAt', limit: 20 },
    });
    expect(JSON.stringify(audit.body.data)).to.contain('timed out on 10 delivery attempts in a row');
  });
});
