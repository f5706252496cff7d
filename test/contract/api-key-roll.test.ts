/**
 * Contract tests of `POST /api-keys/{id}/roll` (spec `rollApiKey`): a successor with the old key's name, scopes and
 * owner, the old key working until its grace period ends, both audited. Time moves by hand (ManualClock).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { expectProblem } from '../support/assertions.js';
import { contractSuite } from '../support/suite.js';

describe('API Keys: roll', () => {
  const clock = new ManualClock('2026-07-01T09:00:00.000Z');
  const ctx = contractSuite({ clock });

  async function createKey(body: Record<string, unknown>) {
    const created = await ctx.admin.post('createApiKey', '/api-keys', { body });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body as { id: string; key: string; name: string; scopes: string[]; userId: string };
  }

  it('issues a successor shown once; the old key works through the grace period, then answers 401', async () => {
    const old = await createKey({ name: 'Nightly export', scopes: ['read', 'write'] });
    const rolled = await ctx.admin.post('rollApiKey', `/api-keys/${old.id}/roll`, {
      body: { gracePeriod: '1h' },
    });
    expect(rolled.status).to.equal(201);
    expect(rolled.headers.get('cache-control')).to.equal('no-store');
    const { key, ...successor } = rolled.body;
    expect(key).to.match(/^mk_live_[0-9A-Za-z]{40}$/);
    expect(successor).to.include({
      name: 'Nightly export',
      userId: old.userId,
      expiresAt: null,
      revokedAt: null,
    });
    expect(successor.scopes).to.deep.equal(['read', 'write']);
    expect(successor.id).to.not.equal(old.id);
    expect(rolled.headers.get('location')).to.equal(`/v1/api-keys/${successor.id}`);

    expect((await ctx.as(old.key).get('getMe', '/me')).status).to.equal(200);
    expect((await ctx.as(key).get('getMe', '/me')).status).to.equal(200);
    const listed = (await ctx.admin.get('listApiKeys', '/api-keys', { query: { limit: 100 } })).body.data;
    expect(listed.find((k: { id: string }) => k.id === old.id).expiresAt).to.equal(
      '2026-07-01T10:00:00.000Z',
    );

    clock.advance(60 * 60 * 1000);
    expectProblem(await ctx.as(old.key).get('getMe', '/me'), 401, 'unauthenticated');
    expect((await ctx.as(key).get('getMe', '/me')).status).to.equal(200);

    const audit = (
      await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { resourceId: old.id, limit: 100 } })
    ).body.data.find((e: { action: string }) => e.action === 'api_key.rolled');
    expect(audit.changes).to.deep.equal({
      expiresAt: { from: null, to: '2026-07-01T10:00:00.000Z' },
      successorId: { from: null, to: successor.id },
    });
    const createdAudit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { resourceId: successor.id, action: 'api_key.created' },
    });
    expect(createdAudit.body.data).to.have.length(1);
  });

  it('ends the old key at once with gracePeriod now, and keeps an expiry sooner than the grace period', async () => {
    const old = await createKey({ name: 'Leaked', scopes: ['read'] });
    const rolled = await ctx.admin.post('rollApiKey', `/api-keys/${old.id}/roll`, {
      body: { gracePeriod: 'now', expiresAt: '2026-12-31T00:00:00Z' },
    });
    expect(rolled.body.expiresAt).to.equal('2026-12-31T00:00:00.000Z');
    expectProblem(await ctx.as(old.key).get('getMe', '/me'), 401, 'unauthenticated');
    expect((await ctx.as(rolled.body.key).get('getMe', '/me')).status).to.equal(200);

    const halfAnHour = new Date(clock.now().getTime() + 30 * 60_000).toISOString();
    const soon = await createKey({ name: 'Soon', scopes: ['read'], expiresAt: halfAnHour });
    await ctx.admin.post('rollApiKey', `/api-keys/${soon.id}/roll`, { body: { gracePeriod: '7d' } });
    const listed = (await ctx.admin.get('listApiKeys', '/api-keys', { query: { limit: 100 } })).body.data;
    expect(listed.find((k: { id: string }) => k.id === soon.id).expiresAt).to.equal(halfAnHour);
  });

  it('refuses revoked and expired keys (409), unknown ones (404), bad bodies (400), read-only keys (403)', async () => {
    const revoked = await createKey({ name: 'Revoked', scopes: ['read'] });
    await ctx.admin.delete('revokeApiKey', `/api-keys/${revoked.id}`);
    const roll = (id: string, body: Record<string, unknown> = { gracePeriod: '24h' }) =>
      ctx.admin.post('rollApiKey', `/api-keys/${id}/roll`, { body });
    expectProblem(await roll(revoked.id), 409, 'conflict');
    const inAMinute = new Date(clock.now().getTime() + 60_000).toISOString();
    const expiring = await createKey({ name: 'Expiring', scopes: ['read'], expiresAt: inAMinute });
    clock.advance(2 * 60 * 1000);
    expectProblem(await roll(expiring.id), 409, 'conflict');
    expectProblem(await roll(randomUUID()), 404, 'not_found');
    const self = (await ctx.admin.get('getMe', '/me')).body.apiKey.id;
    expectProblem(await roll(self, { gracePeriod: 'now' }), 409, 'conflict');
    expect((await ctx.admin.get('getMe', '/me')).status).to.equal(200);
    const live = await createKey({ name: 'Live', scopes: ['read'] });
    expectProblem(await roll(live.id, { gracePeriod: '2h' }), 400, 'validation_failed');
    expectProblem(await roll(live.id, {}), 400, 'validation_failed');
    const past = await roll(live.id, { gracePeriod: '1h', expiresAt: '2001-01-01T00:00:00Z' });
    expect(expectProblem(past, 422, 'validation_failed').errors[0].path).to.equal('/expiresAt');
    expectProblem(
      await ctx.reader.post('rollApiKey', `/api-keys/${live.id}/roll`, { body: { gracePeriod: '1h' } }),
      403,
      'forbidden',
    );
    // A successor's key is never stored for an Idempotency-Key replay: the replay answers 409 naming it.
    const idempotencyKey = randomUUID();
    const rollOnce = () =>
      ctx.admin.post('rollApiKey', `/api-keys/${live.id}/roll`, {
        body: { gracePeriod: '7d' },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    const first = await rollOnce();
    expect(first.status).to.equal(201);
    expect(expectProblem(await rollOnce(), 409, 'conflict').detail).to.contain(
      `/v1/api-keys/${first.body.id}`,
    );
    const stored = await ctx.server.db.knex('idempotency_keys').where({ key: idempotencyKey }).first();
    expect(JSON.stringify(stored)).to.not.contain(first.body.key);
    // The key still works: the refused rolls changed nothing, and the last roll gave it 7 days.
    expect((await ctx.as(live.key).get('getMe', '/me')).status).to.equal(200);
  });
});
