/**
 * Contract tests of a member's own API keys (docs/accounts.md, "Roles"): the API Keys operations need `write`; a
 * caller without `admin` sees and manages only their own keys (others answer 404), creates keys only within their
 * role; `admin` and `owner` keep every key of the tenant.
 */
import { expect } from 'chai';
import { expectProblem } from '../support/assertions.js';
import { ConsoleBrowser, createAccount } from '../support/console.js';
import { addMember } from '../support/members.js';
import { contractSuite } from '../support/suite.js';

describe('API keys of a member', () => {
  const ctx = contractSuite();

  it('lets a member create a read,write key for themselves and use it, and never an admin key', async () => {
    const member = await addMember(ctx.server, ctx.tenant.tenantId, 'member');
    const memberApi = ctx.as(member.key);
    const made = await memberApi.post('createApiKey', '/api-keys', {
      body: { name: 'my script', scopes: ['read', 'write'] },
    });
    expect(made.status).to.equal(201);
    expect(made.body).to.include({ userId: member.userId, name: 'my script' });
    expect(made.body.scopes).to.have.members(['read', 'write']);
    const created = await ctx.as(made.body.key).post('createProject', '/projects', {
      body: { name: 'Own key project', startDate: '2026-01-01', endDate: '2026-12-31' },
    });
    expect(created.status).to.equal(201);
    const asAdmin = await memberApi.post('createApiKey', '/api-keys', {
      body: { name: 'too much', scopes: ['read', 'admin'] },
    });
    expect(expectProblem(asAdmin, 403, 'forbidden').detail).to.match(/role \(member\).*admin/);
  });

  it('lets a member with a console token create a key within the role only', async () => {
    const browser = new ConsoleBrowser(new URL(ctx.server.baseUrl).origin);
    const account = await createAccount(ctx.server.meridian, browser, ctx.tenant.tenantId, 'member');
    const tokenApi = ctx.as(await browser.token());
    const made = await tokenApi.post('createApiKey', '/api-keys', {
      body: { name: 'cli', scopes: ['write'] },
    });
    expect(made.status).to.equal(201);
    expect(made.body.userId).to.equal(account.userId);
    const asAdmin = await tokenApi.post('createApiKey', '/api-keys', {
      body: { name: 'x', scopes: ['admin'] },
    });
    expect(expectProblem(asAdmin, 403, 'forbidden').detail).to.match(/role \(member\)/);
    const listed = await tokenApi.get('listApiKeys', '/api-keys');
    expect(listed.body.data.map((k: { id: string }) => k.id)).to.deep.equal([made.body.id]);
  });

  it("lists only the member's own keys, and answers 404 for an admin's key", async () => {
    const member = await addMember(ctx.server, ctx.tenant.tenantId, 'member');
    const other = await addMember(ctx.server, ctx.tenant.tenantId, 'member');
    const memberApi = ctx.as(member.key);
    const second = await memberApi.post('createApiKey', '/api-keys', {
      body: { name: 'second', scopes: ['read'] },
    });
    expect(second.status).to.equal(201);
    const mine = await memberApi.get('listApiKeys', '/api-keys', { query: { limit: 100 } });
    expect(mine.status).to.equal(200);
    expect(mine.body.pagination.total).to.equal(2);
    for (const key of mine.body.data) expect(key.userId).to.equal(member.userId);
    const adminKey = await ctx.admin.post('createApiKey', '/api-keys', {
      body: { name: 'admin', scopes: ['read'] },
    });
    expect(adminKey.status).to.equal(201);
    const otherKeys = await ctx.as(other.key).get('listApiKeys', '/api-keys');
    const othersKeyId = otherKeys.body.data[0].id as string;
    for (const id of [adminKey.body.id as string, othersKeyId]) {
      expectProblem(await memberApi.delete('revokeApiKey', `/api-keys/${id}`), 404, 'not_found');
      expectProblem(
        await memberApi.post('rollApiKey', `/api-keys/${id}/roll`, { body: { gracePeriod: '1h' } }),
        404,
        'not_found',
      );
    }
    // Neither was touched: the admin still sees them live.
    const all = await ctx.admin.get('listApiKeys', '/api-keys', { query: { limit: 100 } });
    const byId = new Map(all.body.data.map((k: { id: string; revokedAt: string | null }) => [k.id, k]));
    expect(byId.get(adminKey.body.id)).to.include({ revokedAt: null, expiresAt: null });
    expect(byId.get(othersKeyId)).to.include({ revokedAt: null, expiresAt: null });
    // Their own keys they revoke and roll.
    const rolled = await memberApi.post('rollApiKey', `/api-keys/${second.body.id}/roll`, {
      body: { gracePeriod: '1h' },
    });
    expect(rolled.status).to.equal(201);
    expect(rolled.body.userId).to.equal(member.userId);
    expect((await memberApi.delete('revokeApiKey', `/api-keys/${second.body.id}`)).status).to.equal(204);
  });

  it('refuses a viewer (403), and an admin still lists and revokes every key of the tenant', async () => {
    const viewer = await addMember(ctx.server, ctx.tenant.tenantId, 'viewer');
    const member = await addMember(ctx.server, ctx.tenant.tenantId, 'member');
    const viewerApi = ctx.as(viewer.key);
    const create = await viewerApi.post('createApiKey', '/api-keys', {
      body: { name: 'v', scopes: ['read'] },
    });
    expectProblem(create, 403, 'forbidden');
    expectProblem(await viewerApi.get('listApiKeys', '/api-keys'), 403, 'forbidden');
    const admin = await addMember(ctx.server, ctx.tenant.tenantId, 'admin');
    const adminApi = ctx.as(admin.key);
    const all = await adminApi.get('listApiKeys', '/api-keys', { query: { limit: 100 } });
    expect(all.status).to.equal(200);
    const owners = new Set(all.body.data.map((k: { userId: string }) => k.userId));
    for (const userId of [ctx.tenant.userId, viewer.userId, member.userId, admin.userId])
      expect(owners.has(userId), userId).to.equal(true);
    const membersKey = all.body.data.find((k: { userId: string }) => k.userId === member.userId).id;
    expect((await adminApi.delete('revokeApiKey', `/api-keys/${membersKey}`)).status).to.equal(204);
    expectProblem(await ctx.as(member.key).get('listProjects', '/projects'), 401, 'unauthenticated');
  });
});
