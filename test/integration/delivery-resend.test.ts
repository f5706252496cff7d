/**
 * Resending a webhook delivery (spec `resendWebhookDelivery`) over real HTTP to a real receiver, the worker loop on
 * the wall clock: a retry scheduled far ahead is brought forward, the new attempt carries the same event signed with
 * the endpoint's current secret (verified with `standardwebhooks`), earlier attempts stay listed, and the resend is
 * audited.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { DeliveryWorker } from '../../server/services/webhooks/index.js';
import { expectProblem } from '../support/assertions.js';
import { receiverPool, registerWebhook, waitUntil, workerConfig } from '../support/delivery.js';
import { type Received, verify } from '../support/receiver.js';
import { contractSuite } from '../support/suite.js';

describe('Webhook delivery: resend', function () {
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
      // The retry after a failure is an hour away: only a resend can bring the next attempt sooner.
      config: workerConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,3600000' }),
    }).start();
  });

  async function deliveriesOf(webhookId: string) {
    return (await ctx.admin.get('listWebhookDeliveries', `/webhooks/${webhookId}/deliveries`)).body.data;
  }

  it('brings a scheduled retry forward, signed with the rotated secret; resends a succeeded delivery too', async () => {
    let failing = true;
    const r = await receiver(() => ({ status: failing ? 500 : 200 }));
    const hook = await registerWebhook(ctx.admin, r.url());
    const test = await ctx.admin.post('testWebhook', `/webhooks/${hook.id}/test`);
    await r.waitFor(1);
    await waitUntil(async () => (await deliveriesOf(hook.id))[0]?.attemptCount === 1);
    const [retrying] = await deliveriesOf(hook.id);
    expect(retrying).to.include({ id: test.body.id, status: 'PENDING' });
    expect(Date.parse(retrying.nextAttemptAt) - Date.now()).to.be.greaterThan(30 * 60_000);

    const rotated = await ctx.admin.post('rotateWebhookSecret', `/webhooks/${hook.id}/rotate-secret`);
    failing = false;
    const resent = await ctx.admin.post(
      'resendWebhookDelivery',
      `/webhooks/${hook.id}/deliveries/${retrying.id}/resend`,
    );
    expect(resent.status).to.equal(202);
    expect(resent.body).to.include({ id: retrying.id, status: 'PENDING', attemptCount: 1 });
    expect(Date.parse(resent.body.nextAttemptAt)).to.be.at.most(Date.now());
    await r.waitFor(2);
    const second = r.received[1] as Received;
    expect(second.headers['webhook-id']).to.equal((r.received[0] as Received).headers['webhook-id']);
    expect(second.body).to.equal((r.received[0] as Received).body);
    expect(verify(rotated.body.secret, second).id).to.equal(retrying.eventId);
    expect(() => verify(rotated.body.secret, r.received[0] as Received)).to.throw();
    await waitUntil(async () => (await deliveriesOf(hook.id))[0]?.status === 'SUCCEEDED');
    const [done] = await deliveriesOf(hook.id);
    expect(done).to.include({ attemptCount: 2, nextAttemptAt: null });
    expect(done.attempts.map((a: { statusCode: number }) => a.statusCode)).to.deep.equal([500, 200]);

    // A succeeded delivery can be sent again (e.g. the receiver lost it).
    await ctx.admin.post('resendWebhookDelivery', `/webhooks/${hook.id}/deliveries/${done.id}/resend`);
    await r.waitFor(3);
    await waitUntil(async () => (await deliveriesOf(hook.id))[0]?.attemptCount === 3);
    // Only the resends' attempts were made: the retry an hour away was replaced, not added.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.received).to.have.length(3);

    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { resourceId: hook.id, action: 'webhook.delivery_resent' },
    });
    expect(audit.body.data).to.have.length(2);
    expect(audit.body.data[0].changes).to.deep.equal({
      deliveryId: { from: null, to: retrying.id },
      status: { from: 'PENDING', to: 'PENDING' },
    });
  });

  it('answers 404 for a delivery of another endpoint, 409 when the endpoint is disabled, 403 without admin', async () => {
    const r = await receiver();
    const a = await registerWebhook(ctx.admin, r.url());
    const b = await registerWebhook(ctx.admin, r.url('/other'));
    const test = await ctx.admin.post('testWebhook', `/webhooks/${a.id}/test`);
    const resend = (webhookId: string, deliveryId: string, as = ctx.admin) =>
      as.post('resendWebhookDelivery', `/webhooks/${webhookId}/deliveries/${deliveryId}/resend`);
    expectProblem(await resend(b.id, test.body.id), 404, 'not_found');
    expectProblem(await resend(a.id, randomUUID()), 404, 'not_found');
    expectProblem(await resend(randomUUID(), test.body.id), 404, 'not_found');
    expectProblem(await resend(a.id, test.body.id, ctx.api), 403, 'forbidden');
    expectProblem(await resend(a.id, 'not-a-uuid'), 400, 'validation_failed');
    await ctx.admin.patch('updateWebhook', `/webhooks/${a.id}`, { body: { enabled: false } });
    expectProblem(await resend(a.id, test.body.id), 409, 'conflict');
  });
});
