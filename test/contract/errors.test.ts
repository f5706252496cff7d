/**
 * Cross-cutting contract tests of access: authentication (401: missing, malformed, unknown and revoked keys) and
 * scopes (403).
 */
import { expect } from 'chai';
import { systemActor } from '../../server/services/context.js';
import { expectProblem } from '../support/assertions.js';
import type { Api } from '../support/client.js';
import { uniq, unknownKey } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Cross-cutting errors: authentication and scopes', () => {
  const ctx = contractSuite();

  describe('authentication (401)', () => {
    const expect401 = (res: Awaited<ReturnType<Api['get']>>) => {
      const body = expectProblem(res, 401, 'unauthenticated');
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer\b/);
      expect(body.instance).to.equal('/v1/projects');
      return body;
    };

    it('answers 401 without an Authorization header', async () => {
      expect401(await ctx.as(null).get('listProjects', '/projects'));
    });

    it('answers 401 for a Basic Authorization header', async () => {
      const res = await ctx.as(null).get('listProjects', '/projects', {
        headers: { authorization: 'Basic xyz' },
      });
      expect401(res);
    });

    it('answers 401 for "Bearer" without a key and for a malformed key', async () => {
      for (const header of ['Bearer', 'Bearer ', 'Bearer not-a-key', 'Bearer mk_live_short', 'Bearer a b']) {
        const res = await ctx.as(null).get('listProjects', '/projects', {
          headers: { authorization: header },
        });
        expect401(res);
      }
    });

    it('answers 401 for a well-formed unknown key', async () => {
      const key = unknownKey();
      expect(key).to.match(/^mk_live_[0-9A-Za-z]{40}$/);
      expect401(await ctx.as(key).get('listProjects', '/projects'));
    });

    it('answers 401 for an expired key', async () => {
      const { key } = await ctx.server.meridian.services.apiKeys.create(systemActor(ctx.tenant.tenantId), {
        name: 'expired',
        scopes: ['read'],
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      expect401(await ctx.as(key).get('listProjects', '/projects'));
    });

    it('answers 401 for a revoked key that worked before', async () => {
      const { key, apiKey } = await ctx.server.meridian.services.apiKeys.create(
        systemActor(ctx.tenant.tenantId),
        {
          name: 'to revoke',
          scopes: ['read'],
        },
      );
      const before = await ctx.as(key).get('listProjects', '/projects');
      expect(before.status).to.equal(200);
      // Revoked by this process: refused from the very next request (other processes: within AUTH_CACHE_TTL_MS,
      // see identity.test.ts).
      await ctx.server.meridian.services.apiKeys.revoke(systemActor(ctx.tenant.tenantId), apiKey.id);
      expect401(await ctx.as(key).get('listProjects', '/projects'));
    });

    it('authenticates before revealing anything about the path', async () => {
      const res = await ctx.as(null).get(null, '/no-such-thing');
      expectProblem(res, 401, 'unauthenticated');
      expect(res.headers.get('www-authenticate')).to.match(/^Bearer\b/);
    });

    it('does not tell an unknown key from an expired or revoked one', async () => {
      const { apiKeys } = ctx.server.meridian.services;
      const expired = await apiKeys.create(systemActor(ctx.tenant.tenantId), {
        name: 'expired',
        scopes: ['read'],
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      const revoked = await apiKeys.create(systemActor(ctx.tenant.tenantId), {
        name: 'revoked',
        scopes: ['read'],
      });
      await ctx.server.db
        .knex('api_keys')
        .where({ id: revoked.apiKey.id })
        .update({ revoked_at: new Date().toISOString() });
      const details = new Set<string>();
      for (const key of [unknownKey(), expired.key, revoked.key]) {
        const res = await ctx.as(key).get('listProjects', '/projects');
        details.add(expect401(res).detail);
      }
      expect(details.size).to.equal(1);
    });
  });

  describe('scopes (403)', () => {
    it('lets a read key list projects but answers 403 naming the scope when it creates one', async () => {
      const readApi = ctx.reader;
      const list = await readApi.get('listProjects', '/projects');
      expect(list.status).to.equal(200);
      const res = await readApi.post('createProject', '/projects', {
        body: { name: uniq('P'), startDate: '2026-01-01', endDate: '2026-02-01' },
      });
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"write"');
      expect(body.detail).to.contain('createProject');
      const after = await readApi.get('listProjects', '/projects');
      expect(after.body.pagination.total).to.equal(0);
    });

    it('answers 403 for an admin operation with a write key, and reaches it with an admin key', async () => {
      const res = await ctx.api.get('listWebhooks', '/webhooks');
      const body = expectProblem(res, 403, 'forbidden');
      expect(body.detail).to.contain('"admin"');
      const admin = await ctx.admin.get('listWebhooks', '/webhooks');
      expect(admin.status).to.equal(200);
    });

    it('lets a read key call askAgent (scope read), reaching the handler', async () => {
      const res = await ctx.reader.post('askAgent', '/agents/ask', {
        body: { question: 'What is at risk?' },
      });
      expect(res.status).to.equal(200);
      expect(res.body.engine).to.equal('embedded');
    });
  });
});
