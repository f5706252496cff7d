/**
 * What the settings console needs of webhooks, over real HTTP to real receivers with the worker loop on the wall
 * clock (docs/webhooks.md, "Events and webhooks"): the signing secret revealed on demand (and it signs), the first
 * bytes of each response body in the attempts, and the delivery log filtered by event kind.
 */
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { DeliveryWorker } from '../../server/services/webhooks/index.js';
import { expectProblem } from '../support/assertions.js';
import { emit, receiverPool, registerWebhook, waitUntil, workerConfig } from '../support/delivery.js';
import { type Received, verify } from '../support/receiver.js';
import { contractSuite } from '../support/suite.js';

describe('Webhooks: reveal, response excerpts, event-kind filter', function () {
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

  const deliveries = async (id: string, query: Record<string, string | string[]> = {}) =>
    (await ctx.admin.get('listWebhookDeliveries', `/webhooks/${id}/deliveries`, { query })).body.data;

  it('reveals the current secret (no-store, audited), which signs deliveries; after a rotation, when the old one stops', async () => {
    const r = await receiver();
    const hook = await registerWebhook(ctx.admin, r.url());
    const revealed = await ctx.admin.get('revealWebhookSecret', `/webhooks/${hook.id}/secret`);
    expect(revealed.status).to.equal(200);
    expect(revealed.headers.get('cache-control')).to.equal('no-store');
    expect(revealed.body).to.deep.equal({
      webhookId: hook.id,
      secret: hook.secret,
      previousSecretExpiresAt: null,
    });
    await ctx.admin.post('testWebhook', `/webhooks/${hook.id}/test`);
    await r.waitFor(1);
    expect(verify(revealed.body.secret, r.received[0] as Received).event).to.equal('project.status_changed');

    const before = Date.now();
    const rotated = await ctx.admin.post('rotateWebhookSecret', `/webhooks/${hook.id}/rotate-secret`);
    const after = await ctx.admin.get('revealWebhookSecret', `/webhooks/${hook.id}/secret`);
    expect(after.body.secret).to.equal(rotated.body.secret);
    const expires = Date.parse(after.body.previousSecretExpiresAt);
    expect(expires - before).to.be.within(24 * 3_600_000 - 5_000, 24 * 3_600_000 + 5_000);

    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'webhook.secret_revealed' },
    });
    expect(audit.body.data).to.have.length(2);
    expect(audit.body.data[0]).to.include({ resourceType: 'webhook', resourceId: hook.id });
    expect(JSON.stringify(audit.body)).not.to.include('whsec_');
    // Admin scope only; another tenant's endpoint is not found.
    expectProblem(await ctx.api.get('revealWebhookSecret', `/webhooks/${hook.id}/secret`), 403, 'forbidden');
    const other = await ctx.server.createTenant();
    expectProblem(
      await ctx.as(other.keys.admin).get('revealWebhookSecret', `/webhooks/${hook.id}/secret`),
      404,
      'not_found',
    );
  });

  it('keeps the first 1,024 bytes of each response body: text, truncated multibyte text, binary', async () => {
    const answers = [
      { status: 500, body: '{"error":"database unavailable"}' },
      { status: 200, body: `${'é'.repeat(700)}tail` },
      { status: 200, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]) },
    ];
    const r = await receiver((n) => answers[n] ?? { status: 200 });
    const hook = await registerWebhook(ctx.admin, r.url());
    const test = await ctx.admin.post('testWebhook', `/webhooks/${hook.id}/test`);
    await waitUntil(async () => (await deliveries(hook.id))[0]?.attempts.length === 1);
    for (let n = 2; n <= 3; n++) {
      await ctx.admin.post('resendWebhookDelivery', `/webhooks/${hook.id}/deliveries/${test.body.id}/resend`);
      await waitUntil(async () => (await deliveries(hook.id))[0]?.attempts.length === n);
    }
    const [delivery] = await deliveries(hook.id);
    const [failed, long, binary] = delivery.attempts;
    expect(failed).to.include({
      statusCode: 500,
      responseBodyExcerpt: '{"error":"database unavailable"}',
      responseBodyTruncated: false,
      responseBodyBinary: false,
    });
    expect(long).to.include({ statusCode: 200, responseBodyTruncated: true, responseBodyBinary: false });
    expect(long.responseBodyExcerpt).to.equal('é'.repeat(512));
    expect(binary).to.include({
      responseBodyExcerpt: null,
      responseBodyTruncated: false,
      responseBodyBinary: true,
    });
  });

  it('filters the delivery log by event kind (several kinds combine with OR); an unknown kind is 400', async () => {
    const r = await receiver();
    const hook = await registerWebhook(ctx.admin, r.url());
    const now = new Date();
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', now);
    await emit(ctx.server, ctx.tenant.tenantId, 'milestone.missed', now);
    await emit(ctx.server, ctx.tenant.tenantId, 'risk.created', now);
    await r.waitFor(3);
    const kinds = (list: { event: string }[]) => list.map((d) => d.event);
    expect(kinds(await deliveries(hook.id, { event: 'risk.created' }))).to.deep.equal([
      'risk.created',
      'risk.created',
    ]);
    expect(
      kinds(await deliveries(hook.id, { event: ['milestone.missed'], status: 'SUCCEEDED' })),
    ).to.deep.equal(['milestone.missed']);
    expect(await deliveries(hook.id, { event: 'budget.overrun_detected' })).to.deep.equal([]);
    expect(await deliveries(hook.id, { event: ['risk.created', 'milestone.missed'] })).to.have.length(3);
    expectProblem(
      await ctx.admin.get('listWebhookDeliveries', `/webhooks/${hook.id}/deliveries`, {
        query: { event: 'project.created' },
      }),
      400,
      'validation_failed',
    );
  });
});
