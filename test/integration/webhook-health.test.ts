/**
 * An endpoint's `health` (docs/webhooks.md, "Endpoint health"), over real HTTP to a real receiver with the worker
 * loop on the wall clock: nothing before the first attempt; each failed attempt counted in a row with its status and
 * the start of the failure run; a success resets the count; the list shows the same as the endpoint.
 */
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { DeliveryWorker } from '../../server/services/webhooks/index.js';
import { receiverPool, registerWebhook, waitUntil, workerConfig } from '../support/delivery.js';
import { contractSuite } from '../support/suite.js';

describe('Webhooks: endpoint health', function () {
  this.timeout(30_000);
  let worker: DeliveryWorker | undefined;
  // Registered before the suite's own hooks, so the worker stops before the server and its database close.
  after(async () => worker?.stop());
  const ctx = contractSuite({ clock: systemClock });
  const receiver = receiverPool();
  before(() => {
    worker = new DeliveryWorker({
      db: ctx.server.db,
      clock: systemClock,
      config: workerConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,3600000' }),
    }).start();
  });

  const attempts = async (id: string): Promise<number> =>
    (await ctx.admin.get('listWebhookDeliveries', `/webhooks/${id}/deliveries`)).body.data[0]?.attempts
      .length ?? 0;
  const health = async (id: string) => (await ctx.admin.get('getWebhook', `/webhooks/${id}`)).body.health;

  it('counts failed attempts in a row with the last status, and a success resets them', async () => {
    const answers = [{ status: 503 }, { status: 500 }, { status: 204 }];
    const r = await receiver((n) => answers[n] ?? { status: 200 });
    const hook = await registerWebhook(ctx.admin, r.url());
    expect(await health(hook.id)).to.deep.equal({
      lastAttemptAt: null,
      lastAttemptSucceeded: null,
      lastResponseStatus: null,
      consecutiveFailures: 0,
      failingSince: null,
      unhealthy: false,
    });

    const test = await ctx.admin.post('testWebhook', `/webhooks/${hook.id}/test`);
    await waitUntil(async () => (await attempts(hook.id)) === 1);
    const first = await health(hook.id);
    expect(first).to.include({
      lastAttemptSucceeded: false,
      lastResponseStatus: 503,
      consecutiveFailures: 1,
      unhealthy: false,
    });
    expect(first.failingSince).to.equal(first.lastAttemptAt);

    await ctx.admin.post('resendWebhookDelivery', `/webhooks/${hook.id}/deliveries/${test.body.id}/resend`);
    await waitUntil(async () => (await attempts(hook.id)) === 2);
    const second = await health(hook.id);
    expect(second).to.include({
      lastResponseStatus: 500,
      consecutiveFailures: 2,
      failingSince: first.failingSince,
    });
    expect(Date.parse(second.lastAttemptAt)).to.be.at.least(Date.parse(first.lastAttemptAt));

    await ctx.admin.post('resendWebhookDelivery', `/webhooks/${hook.id}/deliveries/${test.body.id}/resend`);
    await waitUntil(async () => (await attempts(hook.id)) === 3);
    const third = await health(hook.id);
    expect(third).to.include({
      lastAttemptSucceeded: true,
      lastResponseStatus: 204,
      consecutiveFailures: 0,
      failingSince: null,
      unhealthy: false,
    });
    const listed = (await ctx.admin.get('listWebhooks', '/webhooks')).body.data.find(
      (w: { id: string }) => w.id === hook.id,
    );
    expect(listed.health).to.deep.equal(third);
  });
});
