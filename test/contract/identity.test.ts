/**
 * Contract tests of the Identity tag: getMe, getTenant and updateTenant.
 */
import { expect } from 'chai';
import { systemActor } from '../../server/services/context.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { makeProject, uniq } from '../support/records.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('Identity', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  describe('getMe', () => {
    it('answers the user, the key in use (never its secret) and the tenant', async () => {
      const name = uniq('Tenant');
      const t = await server.createTenant(name);
      const before = Date.now();
      const res = await client(server.baseUrl, t.keys.write).get('getMe', '/me');
      expect(res.status).to.equal(200);
      const { user, apiKey, tenant, authenticatedWith } = res.body;
      expect(authenticatedWith).to.equal('api_key');
      expect(user).to.include({ id: t.userId, name: 'Test user', role: 'owner' });
      expect(user.email).to.match(/^pm-[0-9a-f]{8}@example\.com$/);
      expect(tenant).to.deep.equal({ id: t.tenantId, name });
      expect(apiKey).to.have.all.keys('id', 'name', 'prefix', 'scopes', 'expiresAt', 'lastUsedAt');
      expect(apiKey.id).to.match(/^[0-9a-f-]{36}$/);
      expect(apiKey.name).to.equal('read+write');
      expect(apiKey.prefix).to.equal(t.keys.write.slice(0, 12));
      expect(apiKey.prefix).to.match(/^mk_live_/);
      expect(apiKey.scopes).to.have.members(['read', 'write']);
      expect(apiKey.expiresAt).to.equal(null);
      expect(apiKey.lastUsedAt).to.be.a('string');
      expect(Math.abs(Date.parse(apiKey.lastUsedAt) - before)).to.be.below(60_000);
      expect(JSON.stringify(res.body)).not.to.contain(t.keys.write);
    });

    it('describes each key of the tenant with its own id, name and scopes', async () => {
      const t = await server.createTenant();
      const seen = new Set<string>();
      for (const [which, scopes] of [
        ['read', ['read']],
        ['write', ['read', 'write']],
        ['admin', ['read', 'write', 'admin']],
      ] as const) {
        const key = t.keys[which];
        const res = await client(server.baseUrl, key).get('getMe', '/me');
        expect(res.status).to.equal(200);
        expect(res.body.apiKey.scopes).to.have.members([...scopes]);
        expect(res.body.apiKey.name).to.equal(scopes.join('+'));
        expect(res.body.apiKey.prefix).to.equal(key.slice(0, 12));
        expect(res.body.tenant.id).to.equal(t.tenantId);
        seen.add(res.body.apiKey.id);
      }
      expect(seen.size).to.equal(3);
    });

    it('reports the expiry of a key that has one', async () => {
      const t = await server.createTenant();
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const { key } = await server.meridian.services.apiKeys.create(systemActor(t.tenantId), {
        name: 'expiring',
        scopes: ['read'],
        expiresAt,
      });
      const res = await client(server.baseUrl, key).get('getMe', '/me');
      expect(res.status).to.equal(200);
      expect(res.body.apiKey).to.include({ name: 'expiring' });
      expect(Date.parse(res.body.apiKey.expiresAt)).to.equal(Date.parse(expiresAt));
    });
  });

  describe('getTenant', () => {
    it('answers the tenant with plan, currency, timezone and rate limit', async () => {
      const name = uniq('Tenant');
      const t = await server.createTenant(name);
      const res = await client(server.baseUrl, t.keys.read).get('getTenant', '/tenant');
      expect(res.status).to.equal(200);
      const { createdAt, updatedAt, rateLimit, ...rest } = res.body;
      // The tenant's first request: the window holds this one.
      expect(rateLimit).to.include({ requestsPerMinute: 1000, used: 1, remaining: 999 });
      expect(rest).to.deep.equal({
        id: t.tenantId,
        name,
        plan: 'FREE',
        currency: 'USD',
        timezone: 'UTC',
        settings: { llmEnabled: true, requireTwoFactor: false },
      });
      expect(Math.abs(Date.parse(createdAt) - Date.now())).to.be.below(60_000);
      expect(Date.parse(updatedAt)).to.be.at.least(Date.parse(createdAt));
    });

    it('matches the RateLimit-Policy quota announced on the response', async () => {
      const t = await server.createTenant();
      const res = await client(server.baseUrl, t.keys.read).get('getTenant', '/tenant');
      const policy = res.headers.get('ratelimit-policy') as string;
      const q = /q=(\d+)/.exec(policy)?.[1];
      expect(Number(q)).to.equal(res.body.rateLimit.requestsPerMinute);
    });
  });

  describe('updateTenant', () => {
    it('switches the model off and on for the tenant, with an audit row per change', async () => {
      const t = await server.createTenant();
      const other = await server.createTenant();
      const admin = client(server.baseUrl, t.keys.admin);
      const off = await admin.patch('updateTenant', '/tenant', { body: { settings: { llmEnabled: false } } });
      expect(off.status, JSON.stringify(off.body)).to.equal(200);
      expect(off.body.settings).to.deep.equal({ llmEnabled: false, requireTwoFactor: false });
      expect(Date.parse(off.body.updatedAt)).to.be.at.least(Date.parse(off.body.createdAt));
      // The same process reads it at once (its cached principals of the tenant are dropped).
      const read = await client(server.baseUrl, t.keys.read).get('getTenant', '/tenant');
      expect(read.body.settings).to.deep.equal({ llmEnabled: false, requireTwoFactor: false });
      // Another tenant keeps its own.
      const theirs = await client(server.baseUrl, other.keys.read).get('getTenant', '/tenant');
      expect(theirs.body.settings).to.deep.equal({ llmEnabled: true, requireTwoFactor: false });
      // Setting the same value again changes nothing and writes no audit row.
      const again = await admin.patch('updateTenant', '/tenant', {
        body: { settings: { llmEnabled: false } },
      });
      expect(again.body.updatedAt).to.equal(off.body.updatedAt);
      const on = await admin.patch('updateTenant', '/tenant', { body: { settings: { llmEnabled: true } } });
      expect(on.body.settings).to.deep.equal({ llmEnabled: true, requireTwoFactor: false });
      const audit = await admin.get('listAuditLogs', '/audit-logs', { query: { resourceType: 'tenant' } });
      expect(audit.status).to.equal(200);
      const rows = audit.body.data.filter((r: { action: string }) => r.action === 'tenant.updated');
      expect(rows.map((r: { changes: unknown }) => r.changes)).to.have.deep.members([
        { 'settings.llmEnabled': { from: true, to: false } },
        { 'settings.llmEnabled': { from: false, to: true } },
      ]);
      expect(rows.every((r: { resourceId: string }) => r.resourceId === t.tenantId)).to.equal(true);
    });

    it('needs the admin scope and refuses unknown settings (an empty object changes nothing)', async () => {
      const t = await server.createTenant();
      const write = client(server.baseUrl, t.keys.write);
      expectProblem(
        await write.patch('updateTenant', '/tenant', { body: { settings: { llmEnabled: false } } }),
        403,
        'forbidden',
      );
      const admin = client(server.baseUrl, t.keys.admin);
      const same = await admin.patch('updateTenant', '/tenant', { body: { settings: {} } });
      expect(same.status).to.equal(200);
      expect(same.body.settings).to.deep.equal({ llmEnabled: true, requireTwoFactor: false });
      for (const body of [{ settings: { llmEnabled: 'no' } }, { settings: { model: 'x' } }, {}]) {
        expectProblem(await admin.patch('updateTenant', '/tenant', { body }), 400, 'validation_failed');
      }
      const read = await client(server.baseUrl, t.keys.read).get('getTenant', '/tenant');
      expect(read.body.settings).to.deep.equal({ llmEnabled: true, requireTwoFactor: false });
    });
  });

  describe('tenant isolation', () => {
    it('lets each key see only its own tenant', async () => {
      const a = await server.createTenant(uniq('A'));
      const b = await server.createTenant(uniq('B'));
      const apiA = client(server.baseUrl, a.keys.write);
      const apiB = client(server.baseUrl, b.keys.write);
      const pa = await makeProject(apiA);
      const pb = await makeProject(apiB);

      const meA = await apiA.get('getMe', '/me');
      const meB = await apiB.get('getMe', '/me');
      expect(meA.body.tenant.id).to.equal(a.tenantId);
      expect(meB.body.tenant.id).to.equal(b.tenantId);
      expect(meA.body.user.id).to.equal(a.userId);
      expect(meB.body.user.id).to.equal(b.userId);
      expect(meA.body.user.id).not.to.equal(meB.body.user.id);

      const tenantA = await apiA.get('getTenant', '/tenant');
      const tenantB = await apiB.get('getTenant', '/tenant');
      expect(tenantA.body.id).to.equal(a.tenantId);
      expect(tenantB.body.id).to.equal(b.tenantId);

      const listA = await apiA.get('listProjects', '/projects');
      const listB = await apiB.get('listProjects', '/projects');
      expect(listA.body.data.map((p: any) => p.id)).to.deep.equal([pa.id]);
      expect(listB.body.data.map((p: any) => p.id)).to.deep.equal([pb.id]);
    });
  });
});
