/**
 * Single sign-on settings (docs/members.md, "Single sign-on"): `/tenant/sso` is for the Enterprise plan, the client
 * secret is write-only and sealed at rest.
 */
import { expect } from 'chai';
import { expectProblem } from '../support/assertions.js';
import { OidcProviderFixture } from '../support/oidc.js';
import { contractSuite } from '../support/suite.js';

const SECRET = 'client-secret-of-meridian-at-the-provider';

describe('Single sign-on', () => {
  const ctx = contractSuite({ env: { MERIDIAN_SSO_ALLOW_HTTP: 'true' } });
  let op: OidcProviderFixture;
  const origin = () => new URL(ctx.server.baseUrl).origin;

  before(async () => {
    op = await OidcProviderFixture.start(
      { clientId: 'meridian', clientSecret: SECRET, redirectUri: `${origin()}/auth/sso/callback` },
      [
        { sub: 'ada', email: 'Ada@Example.com', emailVerified: true, name: 'Ada Lovelace' },
        { sub: 'mallory', email: 'mallory@example.com', emailVerified: false },
        { sub: 'outsider', email: 'someone@elsewhere.org', emailVerified: true },
      ],
    );
  });
  after(async () => op?.close());

  async function enterprise(): Promise<void> {
    await ctx.server.db.knex('tenants').where({ id: ctx.tenant.tenantId }).update({ plan: 'ENTERPRISE' });
  }

  async function configure(passwordSignIn = true, api = ctx.admin) {
    return api.put('updateTenantSso', '/tenant/sso', {
      body: {
        issuerUrl: op.issuer,
        clientId: 'meridian',
        clientSecret: SECRET,
        allowedDomains: ['Example.com'],
        defaultRole: 'member',
        passwordSignIn,
      },
    });
  }

  it('is for the Enterprise plan; the secret is write-only and sealed at rest; audited without it', async () => {
    // The plan is read when the key authenticates: set it before the tenant's first request.
    await enterprise();
    const free = await ctx.server.createTenant();
    expectProblem(await configure(true, ctx.as(free.keys.admin)), 403, 'forbidden');
    expectProblem(await ctx.admin.get('getTenantSso', '/tenant/sso'), 404, 'not_found');
    const put = await configure();
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    expect(put.body).to.include({ issuerUrl: op.issuer, clientSecretSet: true, defaultRole: 'member' });
    expect(put.body.allowedDomains).to.deep.equal(['example.com']);
    expect(put.body.redirectUri).to.match(/\/auth\/sso\/callback$/);
    expect(JSON.stringify(put.body)).not.to.include(SECRET);
    const row = await ctx.server.db.knex('tenant_sso').where({ tenant_id: ctx.tenant.tenantId }).first();
    expect(row.client_secret).to.match(/^enc:v1:/);
    expect(JSON.stringify(row)).not.to.include(SECRET);
    // Changing other fields keeps the stored secret.
    const renamed = await ctx.admin.put('updateTenantSso', '/tenant/sso', {
      body: {
        issuerUrl: op.issuer,
        clientId: 'meridian',
        allowedDomains: ['example.com'],
        defaultRole: 'viewer',
      },
    });
    expect(renamed.body.defaultRole).to.equal('viewer');
    const after = await ctx.server.db.knex('tenant_sso').where({ tenant_id: ctx.tenant.tenantId }).first();
    expect(after.client_secret).to.equal(row.client_secret);
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'tenant.sso_updated' },
    });
    expect(audit.body.data).to.have.length(2);
    expect(JSON.stringify(audit.body)).not.to.include(SECRET);
    expect((await ctx.admin.delete('deleteTenantSso', '/tenant/sso')).status).to.equal(204);
    expectProblem(await ctx.admin.get('getTenantSso', '/tenant/sso'), 404, 'not_found');
    expectProblem(await ctx.api.get('getTenantSso', '/tenant/sso'), 403, 'forbidden');
  });

  it('refuses an issuer that is not http(s), and a first configuration without a secret (422)', async () => {
    await enterprise();
    const ftp = await ctx.admin.put('updateTenantSso', '/tenant/sso', {
      body: {
        issuerUrl: 'ftp://login.example.com',
        clientId: 'meridian',
        clientSecret: SECRET,
        allowedDomains: ['example.com'],
        defaultRole: 'member',
      },
    });
    expectProblem(ftp, 422, 'validation_failed');
    const noSecret = await ctx.admin.put('updateTenantSso', '/tenant/sso', {
      body: {
        issuerUrl: op.issuer,
        clientId: 'meridian',
        allowedDomains: ['example.com'],
        defaultRole: 'member',
      },
    });
    expectProblem(noSecret, 422, 'validation_failed');
  });
});
