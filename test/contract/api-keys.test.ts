/**
 * Contract tests of the API Keys tag (admin scope; docs/design.md: key shown once, SHA-256 at rest, revocable).
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../server/app.js';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { AUTH_CACHE_TTL_MS } from '../../server/services/identity/index.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { startTestServer } from '../support/server.js';
import { contractSuite } from '../support/suite.js';

describe('API Keys', () => {
  const ctx = contractSuite();

  it('creates a key shown once, usable at once, listed afterwards by prefix only', async () => {
    const created = await ctx.admin.post('createApiKey', '/api-keys', {
      body: { name: 'Reporting dashboard', scopes: ['read'], expiresAt: '2030-01-01T00:00:00Z' },
    });
    expect(created.status).to.equal(201);
    const { key, ...record } = created.body;
    expect(key).to.match(/^mk_live_[0-9A-Za-z]{40}$/);
    expect(record).to.include({
      name: 'Reporting dashboard',
      prefix: key.slice(0, 12),
      userId: ctx.tenant.userId,
    });
    expect(record).to.include({ expiresAt: '2030-01-01T00:00:00.000Z', revokedAt: null, lastUsedAt: null });
    expect(record.scopes).to.deep.equal(['read']);
    expect(created.headers.get('location')).to.equal(`/v1/api-keys/${record.id}`);
    // Only the hash is stored.
    const row = await ctx.server.db.knex('api_keys').where({ id: record.id }).first();
    expect(JSON.stringify(row)).to.not.include(key);
    const me = await client(ctx.server.baseUrl, key).get('getMe', '/me');
    expect(me.body.apiKey).to.include({ id: record.id, prefix: record.prefix });
    const list = await ctx.admin.get('listApiKeys', '/api-keys');
    expect(list.body.pagination.total).to.equal(4); // three from the harness, one new
    const listed = list.body.data.find((k: { id: string }) => k.id === record.id);
    expect(listed).to.not.have.property('key');
    expect(JSON.stringify(list.body)).to.not.include(key);
  });

  it('revokes a key (204): it answers 401 from then on, stays listed, and revoking again changes nothing', async () => {
    const { body } = await ctx.admin.post('createApiKey', '/api-keys', {
      body: { name: 'CI', scopes: ['read', 'write'] },
    });
    const revoked = await ctx.admin.delete('revokeApiKey', `/api-keys/${body.id}`);
    expect(revoked.status).to.equal(204);
    expectProblem(await client(ctx.server.baseUrl, body.key).get('getMe', '/me'), 401, 'unauthenticated');
    const first = (await ctx.admin.get('listApiKeys', '/api-keys', { query: { limit: 100 } })).body.data.find(
      (k: { id: string }) => k.id === body.id,
    );
    expect(first.revokedAt).to.be.a('string');
    expect((await ctx.admin.delete('revokeApiKey', `/api-keys/${body.id}`)).status).to.equal(204);
    // A key cannot revoke itself (409); another admin key can.
    const self = (await ctx.admin.get('getMe', '/me')).body.apiKey.id;
    expectProblem(await ctx.admin.delete('revokeApiKey', `/api-keys/${self}`), 409, 'conflict');
    expect((await ctx.admin.get('getMe', '/me')).status).to.equal(200);
    const again = (await ctx.admin.get('listApiKeys', '/api-keys', { query: { limit: 100 } })).body.data.find(
      (k: { id: string }) => k.id === body.id,
    );
    expect(again.revokedAt).to.equal(first.revokedAt);
  });

  it('refuses a past expiry (422), unknown and other tenants’ keys (404), and read-only keys (403)', async () => {
    const past = await ctx.admin.post('createApiKey', '/api-keys', {
      body: { name: 'old', scopes: ['read'], expiresAt: '2001-01-01T00:00:00Z' },
    });
    expect(expectProblem(past, 422, 'validation_failed').errors[0].path).to.equal('/expiresAt');
    expectProblem(await ctx.admin.delete('revokeApiKey', `/api-keys/${randomUUID()}`), 404, 'not_found');
    const other = await ctx.server.createTenant();
    const theirs = await client(ctx.server.baseUrl, other.keys.admin).post('createApiKey', '/api-keys', {
      body: { name: 'theirs', scopes: ['read'] },
    });
    expectProblem(await ctx.admin.delete('revokeApiKey', `/api-keys/${theirs.body.id}`), 404, 'not_found');
    expectProblem(await ctx.reader.get('listApiKeys', '/api-keys'), 403, 'forbidden');
    expectProblem(
      await ctx.reader.post('createApiKey', '/api-keys', { body: { name: 'x', scopes: ['read'] } }),
      403,
      'forbidden',
    );
    // A write key of an owner still cannot give a key more than it has itself.
    expectProblem(
      await ctx.api.post('createApiKey', '/api-keys', { body: { name: 'x', scopes: ['admin'] } }),
      403,
      'forbidden',
    );
    expectProblem(
      await ctx.admin.post('createApiKey', '/api-keys', { body: { name: 'x', scopes: ['root'] } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await ctx.admin.post('createApiKey', '/api-keys', { body: { name: 'x', scopes: [] } }),
      400,
      'validation_failed',
    );
  });

  it('cannot outlive the creating key, and is never stored for an Idempotency-Key replay (409)', async () => {
    const shortLived = await ctx.admin.post('createApiKey', '/api-keys', {
      body: { name: 'contractor', scopes: ['admin'], expiresAt: '2031-01-01T00:00:00Z' },
    });
    const contractor = client(ctx.server.baseUrl, shortLived.body.key);
    const forever = await contractor.post('createApiKey', '/api-keys', {
      body: { name: 'forever', scopes: ['read'] },
    });
    expect(expectProblem(forever, 422, 'validation_failed').errors[0].path).to.equal('/expiresAt');
    const longer = await contractor.post('createApiKey', '/api-keys', {
      body: { name: 'longer', scopes: ['read'], expiresAt: '2032-01-01T00:00:00Z' },
    });
    expectProblem(longer, 422, 'validation_failed');
    const within = await contractor.post('createApiKey', '/api-keys', {
      body: { name: 'within', scopes: ['read'], expiresAt: '2030-06-01T00:00:00Z' },
    });
    expect(within.status).to.equal(201);

    const idempotencyKey = randomUUID();
    const body = { name: 'once', scopes: ['read'] };
    const first = await ctx.admin.post('createApiKey', '/api-keys', {
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(first.status).to.equal(201);
    const again = await ctx.admin.post('createApiKey', '/api-keys', {
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(expectProblem(again, 409, 'conflict').detail).to.contain(`/v1/api-keys/${first.body.id}`);
    const stored = await ctx.server.db.knex('idempotency_keys').where({ key: idempotencyKey }).first();
    expect(JSON.stringify(stored)).to.not.contain(first.body.key);
  });

  it('revocation is immediate in the revoking process and reaches another API process within AUTH_CACHE_TTL_MS', async () => {
    // Two API processes over one database, on an injected clock (time moves by hand, never by sleeping).
    const clock = new ManualClock('2026-07-01T09:00:00.000Z');
    const a = await startTestServer({ clock });
    const b = createApp({ config: loadConfig({ NODE_ENV: 'test' }), db: a.db, clock });
    const listener: Server = await new Promise((resolve) => {
      const s = b.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const t = await a.createTenant();
      const created = await client(a.baseUrl, t.keys.admin).post('createApiKey', '/api-keys', {
        body: { name: 'to revoke', scopes: ['read'] },
      });
      const key = created.body.key as string;
      const viaA = client(a.baseUrl, key);
      const viaB = client(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/v1`, key);
      expect((await viaA.get('getMe', '/me')).status).to.equal(200);
      expect((await viaB.get('getMe', '/me')).status).to.equal(200);
      const revoked = await client(a.baseUrl, t.keys.admin).delete(
        'revokeApiKey',
        `/api-keys/${created.body.id}`,
      );
      expect(revoked.status).to.equal(204);
      expectProblem(await viaA.get('getMe', '/me'), 401, 'unauthenticated');
      // B still holds the key it authenticated a moment ago, for at most AUTH_CACHE_TTL_MS.
      expect((await viaB.get('getMe', '/me')).status).to.equal(200);
      clock.advance(AUTH_CACHE_TTL_MS);
      expectProblem(await viaB.get('getMe', '/me'), 401, 'unauthenticated');
    } finally {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await a.close();
    }
  });
});
