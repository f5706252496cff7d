/**
 * Single sign-on (docs/members.md, "Single sign-on"): the tenant's settings (`/tenant/sso`: Enterprise only, the
 * client secret write-only and sealed at rest), and sign-in by the authorization code flow with PKCE against a real
 * OpenID Connect provider started here (`oidc-provider`): an account created on the first sign-in with the default
 * role, found again on the next, refused for an unverified email or a domain not allowed; password sign-in refused
 * when the tenant turns it off.
 */
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { newSecretKey, parseSecretKey, SecretBox } from '../../server/crypto/secret-box.js';
import { ZonedCalendar } from '../../server/dates.js';
import { SsoSettingsService } from '../../server/services/people/sso-settings.js';
import { expectProblem } from '../support/assertions.js';
import { ConsoleBrowser, createAccount } from '../support/console.js';
import { Browser, OidcProviderFixture } from '../support/oidc.js';
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
    expect(put.body.redirectUri).to.equal(`${origin()}/auth/sso/callback`);
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

  it('re-seals the client secret under a new key (secrets rotate); only the new key is needed afterwards', async () => {
    await enterprise();
    expect((await configure()).status).to.equal(200);
    const current = loadConfig({ NODE_ENV: 'test' }).secretKeys.current;
    const next = parseSecretKey(newSecretKey(), 'next');
    const settings = (secrets: SecretBox) =>
      new SsoSettingsService({
        db: ctx.server.db,
        clock: systemClock,
        jobs: ctx.server.meridian.services.jobs,
        events: ctx.server.meridian.services.events,
        calendar: new ZonedCalendar(),
        secrets,
        allowHttp: true,
        publicUrl: null,
      });
    const report = await settings(new SecretBox({ current: next, previous: current })).resealSecrets();
    expect(report.resealed).to.be.at.least(1);
    const opened = await settings(new SecretBox({ current: next, previous: null })).opened(
      ctx.tenant.tenantId,
    );
    expect(opened?.clientSecret).to.equal(SECRET);
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

  it('signs a person in with the authorization code flow and PKCE: account created once, with the default role', async () => {
    await enterprise();
    expect((await configure()).status).to.equal(200);
    const first = await signIn('ada');
    expect(first.status, first.body).to.equal(303);
    expect(first.setCookies.join('\n')).to.match(/__Host-meridian_session=[^;]+/);
    const members = (await ctx.admin.get('listMembers', '/members')).body.data;
    const ada = members.find((m: { email: string }) => m.email === 'Ada@Example.com');
    expect(ada).to.include({ name: 'Ada Lovelace', role: 'member' });
    const again = await signIn('ada');
    expect(again.status).to.equal(303);
    expect((await ctx.admin.get('listMembers', '/members')).body.pagination.total).to.equal(2);
    // Removed from the tenant, the person cannot come back through the provider.
    expect((await ctx.admin.delete('removeMember', `/members/${ada.id}`)).status).to.equal(204);
    expect((await signIn('ada')).status).to.equal(403);
    const audit = await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { action: 'member.joined' } });
    expect(audit.body.data).to.have.length(1);
    const signedIn = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'auth.signed_in' },
    });
    expect(
      signedIn.body.data.filter((e: { actor: { userId: string } }) => e.actor.userId === ada.id),
    ).to.have.length(2);
  });

  it('refuses an unverified email, a domain not allowed, and a callback it did not start', async () => {
    await enterprise();
    await configure();
    expect((await signIn('mallory')).status).to.equal(403);
    expect((await signIn('outsider')).status).to.equal(403);
    const failed = await ctx.admin.get('listAuditLogs', '/audit-logs', {
      query: { action: 'auth.sign_in_failed' },
    });
    expect(
      failed.body.data.map((e: { changes: { reason: { to: string } } }) => e.changes.reason.to),
    ).to.deep.equal(['email_not_verified', 'domain_not_allowed']);
    const forged = await fetch(`${origin()}/auth/sso/callback?code=abc&state=def`, { redirect: 'manual' });
    expect(forged.status).to.equal(401);
    expect((await ctx.admin.get('listMembers', '/members')).body.pagination.total).to.equal(1);
  });

  it('refuses password sign-in for the tenant while single sign-on says so, like a wrong password', async () => {
    await enterprise();
    const browser = new ConsoleBrowser(origin());
    const account = await createAccount(ctx.server.meridian, browser, ctx.tenant.tenantId, 'admin');
    expect((await configure(false)).status).to.equal(200);
    const refused = await new ConsoleBrowser(origin()).signIn(account.email, account.password);
    const unknown = await new ConsoleBrowser(origin()).signIn('nobody@example.com', account.password);
    expect(refused.status).to.equal(401);
    expect(refused.body.detail).to.equal(unknown.body.detail);
    expect((await ctx.admin.delete('deleteTenantSso', '/tenant/sso')).status).to.equal(204);
    expect((await new ConsoleBrowser(origin()).signIn(account.email, account.password)).status).to.equal(200);
  });

  /** Starts single sign-on as a browser would and follows it to Meridian's callback; returns the callback's answer. */
  async function signIn(sub: string) {
    op.signInAs(sub);
    const browser = new Browser();
    const hops = await browser.navigate(`${origin()}/auth/sso/start?tenant=${ctx.tenant.tenantId}`, {
      stop: (next) => next.origin === origin() && next.pathname === '/auth/sso/callback',
    });
    const last = hops.at(-1);
    expect(last?.location, JSON.stringify(hops.map((h) => [h.status, h.url, h.body.slice(0, 200)]))).to.be.a(
      'string',
    );
    const callback = await browser.get(new URL(last?.location as string, last?.url).href);
    return callback;
  }
});
