/**
 * Contract tests of the Webhooks tag: the eight operations, their errors, secrets shown only on create and
 * rotate, and the audit trail.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { SecretBox } from '../../server/crypto/secret-box.js';
import { openSecrets } from '../../server/services/webhooks/index.js';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import type { Api } from '../support/client.js';
import { contractSuite } from '../support/suite.js';

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

describe('Webhooks', () => {
  const clock = new ManualClock('2026-05-04T08:00:00.000Z');
  const ctx = contractSuite({ clock });

  const create = (body: Record<string, unknown>, as: Api = ctx.admin) =>
    as.post('createWebhook', '/webhooks', { body });
  const hook = async (body: Record<string, unknown> = {}) => {
    const res = await create({
      url: 'https://hooks.example.com/meridian',
      events: ['risk.created'],
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  };

  it('registers an endpoint (201, Location, ETag) with a whsec_ secret shown only in that response', async () => {
    const res = await create({
      url: 'https://hooks.example.com/pmo',
      events: ['project.status_changed', 'budget.overrun_detected'],
      description: 'PMO dashboard',
    });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({
      url: 'https://hooks.example.com/pmo',
      description: 'PMO dashboard',
      enabled: true,
      disabledReason: null,
      version: 1,
      createdAt: '2026-05-04T08:00:00.000Z',
      updatedAt: '2026-05-04T08:00:00.000Z',
    });
    expect(res.body.events).to.deep.equal(['project.status_changed', 'budget.overrun_detected']);
    expect(res.body.secret).to.match(SECRET);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).to.have.length(32);
    expect(res.headers.get('location')).to.equal(`/v1/webhooks/${res.body.id}`);
    expect(res.headers.get('etag')).to.equal('"1"');

    const got = await ctx.admin.get('getWebhook', `/webhooks/${res.body.id}`);
    expect(got.status).to.equal(200);
    expect(got.body).to.not.have.property('secret');
    const { secret: _secret, ...shown } = res.body;
    expect(got.body).to.deep.equal(shown);
    const list = await ctx.admin.get('listWebhooks', '/webhooks');
    expect(list.body.data).to.deep.equal([shown]);
    expect(JSON.stringify(list.body)).to.not.include('whsec_');
    const notModified = await ctx.admin.get('getWebhook', `/webhooks/${res.body.id}`, {
      headers: { 'If-None-Match': '"1"' },
    });
    expect(notModified.status).to.equal(304);
  });

  it('stores `*` alone, defaults description to null, and accepts enabled: false', async () => {
    const all = await hook({ events: ['*', 'risk.created'] });
    expect(all.events).to.deep.equal(['*']);
    expect(all.description).to.equal(null);
    const off = await hook({ enabled: false });
    expect(off.enabled).to.equal(false);
    expect(off.disabledReason).to.equal(null);
  });

  it('lists endpoints in creation order with pagination and a Link header', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await hook({ description: `hook ${i}` })).id);
    const first = await ctx.admin.get('listWebhooks', '/webhooks', { query: { limit: 2 } });
    expect(first.body.data.map((w: { id: string }) => w.id)).to.deep.equal(ids.slice(0, 2));
    expect(first.body.pagination).to.deep.equal({ limit: 2, offset: 0, total: 3, hasMore: true });
    expect(first.headers.get('link')).to.match(/rel="next"/);
    const second = await ctx.admin.get('listWebhooks', '/webhooks', { query: { limit: 2, offset: 2 } });
    expect(second.body.data.map((w: { id: string }) => w.id)).to.deep.equal(ids.slice(2));
    expect(second.body.pagination.hasMore).to.equal(false);
  });

  it('refuses malformed bodies with 400: unknown event kind, empty or duplicate events, non-http URL, unknown field', async () => {
    const url = 'https://hooks.example.com/x';
    const unknown = expectProblem(
      await create({ url, events: ['project.created'] }),
      400,
      'validation_failed',
    );
    expect(fieldErrors(unknown).some((e) => e.startsWith('body:/events'))).to.equal(true);
    expectProblem(await create({ url, events: [] }), 400, 'validation_failed');
    expectProblem(await create({ url, events: ['risk.created', 'risk.created'] }), 400, 'validation_failed');
    expectProblem(
      await create({ url: 'ftp://hooks.example.com/x', events: ['*'] }),
      400,
      'validation_failed',
    );
    expectProblem(await create({ url: 'not a url', events: ['*'] }), 400, 'validation_failed');
    expectProblem(await create({ events: ['*'] }), 400, 'validation_failed');
    expectProblem(await create({ url, events: ['*'], secret: 'whsec_x' }), 400, 'validation_failed');
  });

  it('refuses URLs with credentials (422 naming /url, nothing stored), even where private targets are allowed', async () => {
    const withCredentials = [
      'https://user:pass@hooks.example.com/meridian',
      'https://127.0.0.1:443@8.8.8.8/', // the real host is 8.8.8.8; "127.0.0.1:443" is a user name and a password
      'https://user@hooks.example.com/meridian',
      'https://:secret@hooks.example.com/meridian',
      'https://@hooks.example.com/meridian',
      'http://admin:admin@127.0.0.1:8080/hook',
    ];
    for (const url of withCredentials) {
      const problem = expectProblem(await create({ url, events: ['*'] }), 422, 'validation_failed');
      expect(fieldErrors(problem), url).to.deep.equal(['body:/url']);
      expect(problem.detail).to.match(/credentials/);
      expect(JSON.stringify(problem)).to.not.contain('pass@');
    }
    expect((await ctx.admin.get('listWebhooks', '/webhooks')).body.pagination.total).to.equal(0);
    const w = await hook();
    const patched = await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, {
      body: { url: 'https://user:pass@hooks.example.com/other' },
    });
    expectProblem(patched, 422, 'validation_failed');
    const got = await ctx.admin.get('getWebhook', `/webhooks/${w.id}`);
    expect(got.body).to.include({ url: 'https://hooks.example.com/meridian', version: 1 });
  });

  it('needs a key (401) with the admin scope (403) for every operation', async () => {
    const w = await hook();
    const anonymous = ctx.as(null);
    const writer = ctx.api;
    const reader = ctx.reader;
    const calls: [Api, 'get' | 'post' | 'patch' | 'delete', Parameters<Api['get']>[0], string, unknown?][] = [
      [anonymous, 'get', 'listWebhooks', '/webhooks'],
      [anonymous, 'post', 'createWebhook', '/webhooks', { url: 'https://a.example.com', events: ['*'] }],
      [anonymous, 'get', 'getWebhook', `/webhooks/${w.id}`],
    ];
    for (const as of [writer, reader]) {
      calls.push(
        [as, 'get', 'listWebhooks', '/webhooks'],
        [as, 'post', 'createWebhook', '/webhooks', { url: 'https://a.example.com', events: ['*'] }],
        [as, 'get', 'getWebhook', `/webhooks/${w.id}`],
        [as, 'patch', 'updateWebhook', `/webhooks/${w.id}`, { description: 'x' }],
        [as, 'delete', 'deleteWebhook', `/webhooks/${w.id}`],
        [as, 'post', 'rotateWebhookSecret', `/webhooks/${w.id}/rotate-secret`],
        [as, 'get', 'listWebhookDeliveries', `/webhooks/${w.id}/deliveries`],
        [as, 'post', 'testWebhook', `/webhooks/${w.id}/test`],
      );
    }
    for (const [as, method, op, path, body] of calls) {
      const res = await as[method](op, path, body === undefined ? {} : { body });
      if (as === anonymous) {
        expectProblem(res, 401, 'unauthenticated');
        expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
      } else expectProblem(res, 403, 'forbidden');
    }
    // Nothing changed.
    const got = await ctx.admin.get('getWebhook', `/webhooks/${w.id}`);
    expect(got.body.version).to.equal(1);
  });

  it('answers 404 for unknown ids and other tenants’ endpoints on every per-endpoint operation', async () => {
    const w = await hook();
    const other = ctx.as((await ctx.server.createTenant()).keys.admin);
    for (const [as, id] of [
      [other, w.id],
      [ctx.admin, randomUUID()],
    ] as const) {
      expectProblem(await as.get('getWebhook', `/webhooks/${id}`), 404, 'not_found');
      expectProblem(
        await as.patch('updateWebhook', `/webhooks/${id}`, { body: { description: 'x' } }),
        404,
        'not_found',
      );
      expectProblem(await as.delete('deleteWebhook', `/webhooks/${id}`), 404, 'not_found');
      expectProblem(await as.post('rotateWebhookSecret', `/webhooks/${id}/rotate-secret`), 404, 'not_found');
      expectProblem(await as.get('listWebhookDeliveries', `/webhooks/${id}/deliveries`), 404, 'not_found');
      expectProblem(await as.post('testWebhook', `/webhooks/${id}/test`), 404, 'not_found');
    }
    expect((await other.get('listWebhooks', '/webhooks')).body.data).to.deep.equal([]);
    expectProblem(await ctx.admin.get('getWebhook', '/webhooks/not-a-uuid'), 400, 'validation_failed');
  });

  it('updates only the fields sent, honours If-Match (412), and re-enabling clears disabledReason', async () => {
    const w = await hook({ description: 'before' });
    clock.advance(60_000);
    expectProblem(
      await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, {
        body: { description: 'x' },
        headers: { 'If-Match': '"9"' },
      }),
      412,
      'precondition_failed',
    );
    const res = await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, {
      body: { events: ['risk.created', 'milestone.missed'], url: 'https://hooks.example.com/v2' },
      headers: { 'If-Match': '"1"' },
    });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({
      url: 'https://hooks.example.com/v2',
      description: 'before',
      version: 2,
      updatedAt: '2026-05-04T08:01:00.000Z',
    });
    expect(res.body.events).to.deep.equal(['risk.created', 'milestone.missed']);
    expect(res.body).to.not.have.property('secret');
    expect(res.headers.get('etag')).to.equal('"2"');
    const cleared = await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, {
      body: { description: null },
    });
    expect(cleared.body.description).to.equal(null);
    const same = await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, { body: { description: null } });
    expect(same.body.version).to.equal(3);
    // A disabled endpoint (as the worker leaves it after a 410) is re-enabled by PATCH enabled: true.
    await ctx.server.db
      .knex('webhook_endpoints')
      .where({ id: w.id })
      .update({ enabled: false, disabled_reason: 'The endpoint answered 410 Gone.' });
    const disabled = await ctx.admin.get('getWebhook', `/webhooks/${w.id}`);
    expect(disabled.body).to.include({ enabled: false, disabledReason: 'The endpoint answered 410 Gone.' });
    const enabled = await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, { body: { enabled: true } });
    expect(enabled.body).to.include({ enabled: true, disabledReason: null, version: 4 });
    expectProblem(
      await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, { body: { events: ['nope'] } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, { body: { enabled: 'yes' } }),
      400,
      'validation_failed',
    );
  });

  it('deletes with 204 (If-Match honoured), after which the endpoint is gone', async () => {
    const w = await hook();
    expectProblem(
      await ctx.admin.delete('deleteWebhook', `/webhooks/${w.id}`, { headers: { 'If-Match': '"2"' } }),
      412,
      'precondition_failed',
    );
    const deleted = await ctx.admin.delete('deleteWebhook', `/webhooks/${w.id}`, {
      headers: { 'If-Match': '"1"' },
    });
    expect(deleted.status).to.equal(204);
    expect(deleted.body).to.equal(undefined);
    expectProblem(await ctx.admin.get('getWebhook', `/webhooks/${w.id}`), 404, 'not_found');
    expectProblem(await ctx.admin.delete('deleteWebhook', `/webhooks/${w.id}`), 404, 'not_found');
  });

  it('rotates the secret: a new whsec_ secret, version bumped, the old one kept for 24 h', async () => {
    const w = await hook();
    const res = await ctx.admin.post('rotateWebhookSecret', `/webhooks/${w.id}/rotate-secret`);
    expect(res.status).to.equal(200);
    expect(res.body.secret).to.match(SECRET);
    expect(res.body.secret).to.not.equal(w.secret);
    expect(res.body).to.include({ id: w.id, version: 2 });
    expect(res.headers.get('etag')).to.equal('"2"');
    // Stored sealed (docs/webhooks.md, "Events and webhooks": secrets at rest); opened, they are the two secrets
    // the API showed.
    const row = await ctx.server.db.knex('webhook_endpoints').where({ id: w.id }).first();
    expect(row.secret).to.match(/^enc:v1:/);
    // The test server's key: the local key file, as loadConfig reads it without MERIDIAN_SECRET_KEY.
    const box = new SecretBox(loadConfig({ NODE_ENV: 'test' }).secretKeys);
    const opened = openSecrets(box, w.id, {
      secret: row.secret,
      previousSecret: row.previous_secret,
      previousSecretExpiresAt: row.previous_secret_expires_at,
    });
    expect(opened.secret).to.equal(res.body.secret);
    expect(opened.previousSecret).to.equal(w.secret);
    expect(row.previous_secret_expires_at).to.equal(
      new Date(clock.now().getTime() + 24 * 3_600_000).toISOString(),
    );
    const got = await ctx.admin.get('getWebhook', `/webhooks/${w.id}`);
    expect(got.body).to.not.have.property('secret');
  });

  it('queues a test delivery (202, PENDING) and lists it among the deliveries; 409 when disabled', async () => {
    const w = await hook({ events: ['risk.created'] });
    const res = await ctx.admin.post('testWebhook', `/webhooks/${w.id}/test`);
    expect(res.status).to.equal(202);
    expect(res.body).to.include({
      webhookId: w.id,
      event: 'project.status_changed',
      status: 'PENDING',
      attemptCount: 0,
      nextAttemptAt: clock.now().toISOString(),
    });
    expect(res.body.attempts).to.deep.equal([]);
    const list = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${w.id}/deliveries`);
    expect(list.body.data).to.deep.equal([res.body]);
    expect(list.body.pagination).to.deep.equal({ limit: 25, offset: 0, total: 1, hasMore: false });
    const pending = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${w.id}/deliveries`, {
      query: { status: 'PENDING' },
    });
    expect(pending.body.pagination.total).to.equal(1);
    const none = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${w.id}/deliveries`, {
      query: { status: 'SUCCEEDED' },
    });
    expect(none.body.data).to.deep.equal([]);
    expectProblem(
      await ctx.admin.get('listWebhookDeliveries', `/webhooks/${w.id}/deliveries`, {
        query: { status: 'DONE' },
      }),
      400,
      'validation_failed',
    );
    expectProblem(
      await ctx.admin.get('listWebhookDeliveries', `/webhooks/${w.id}/deliveries`, { query: { limit: 101 } }),
      400,
      'validation_failed',
    );

    // Disabling fails the pending delivery; a disabled endpoint cannot be tested.
    const off = await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, { body: { enabled: false } });
    expect(off.body.enabled).to.equal(false);
    const failed = await ctx.admin.get('listWebhookDeliveries', `/webhooks/${w.id}/deliveries`);
    expect(failed.body.data[0]).to.include({ status: 'FAILED', nextAttemptAt: null });
    expectProblem(await ctx.admin.post('testWebhook', `/webhooks/${w.id}/test`), 409, 'conflict');
  });

  it('writes audit rows for create, update, rotate and delete, never with a secret', async () => {
    const w = await hook();
    await ctx.admin.patch('updateWebhook', `/webhooks/${w.id}`, { body: { description: 'audited' } });
    const rotated = await ctx.admin.post('rotateWebhookSecret', `/webhooks/${w.id}/rotate-secret`);
    await ctx.admin.delete('deleteWebhook', `/webhooks/${w.id}`);
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { resourceId: w.id } });
    expect(audit.status).to.equal(200);
    expect(audit.body.data.map((e: { action: string }) => e.action)).to.deep.equal([
      'webhook.created',
      'webhook.updated',
      'webhook.secret_rotated',
      'webhook.deleted',
    ]);
    expect(audit.body.data[0].resourceType).to.equal('webhook');
    expect(audit.body.data[0].changes.url).to.deep.equal({ from: null, to: w.url });
    expect(audit.body.data[1].changes).to.deep.equal({ description: { from: null, to: 'audited' } });
    const text = JSON.stringify(audit.body);
    expect(text).to.not.include('whsec_');
    expect(text).to.not.include(w.secret.slice(6));
    expect(text).to.not.include(rotated.body.secret.slice(6));
  });

  it('never registers twice for one Idempotency-Key, and never stores the secret to replay it (409)', async () => {
    const key = randomUUID();
    const body = { url: 'https://hooks.example.com/once', events: ['*'] };
    const first = await ctx.admin.post('createWebhook', '/webhooks', {
      body,
      headers: { 'Idempotency-Key': key },
    });
    expect(first.status).to.equal(201);
    const again = await ctx.admin.post('createWebhook', '/webhooks', {
      body,
      headers: { 'Idempotency-Key': key },
    });
    const problem = expectProblem(again, 409, 'conflict');
    expect(problem.detail).to.contain(`/v1/webhooks/${first.body.id}`);
    expect(JSON.stringify(again.body)).to.not.contain(first.body.secret);
    const stored = await ctx.server.db.knex('idempotency_keys').where({ key }).first();
    expect(JSON.stringify(stored)).to.not.contain(first.body.secret);
    expect((await ctx.admin.get('listWebhooks', '/webhooks')).body.pagination.total).to.equal(1);
  });
});
