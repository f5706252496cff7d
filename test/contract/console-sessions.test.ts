/**
 * A signed-in user's sessions and password (docs/accounts.md, "Sessions", "Passwords") and the bound a role puts
 * on keys (docs/accounts.md, "Roles").
 */
import argon2 from 'argon2';
import { expect } from 'chai';
import { updateAccount } from '../../server/repositories/accounts.js';
import { systemActor } from '../../server/services/context.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { ConsoleBrowser, createAccount, newPassword } from '../support/console.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('Console sign-in: sessions, passwords and roles', () => {
  let server: TestServer;
  let origin: string;
  before(async () => {
    server = await startTestServer();
    origin = new URL(server.baseUrl).origin;
  });
  after(async () => server.close());

  /** One user signed in on three browsers. */
  async function threeBrowsers(tenantId: string) {
    const first = new ConsoleBrowser(origin);
    const account = await createAccount(server.meridian, first, tenantId, 'member');
    const more = [new ConsoleBrowser(origin), new ConsoleBrowser(origin)];
    for (const b of more) expect((await b.signIn(account.email, account.password)).status).to.equal(200);
    return { ...account, browsers: [first, ...more] as [ConsoleBrowser, ConsoleBrowser, ConsoleBrowser] };
  }

  it('lists the live sessions, newest first, marking the current one; ends one by id', async () => {
    const t = await server.createTenant();
    const { browsers } = await threeBrowsers(t.tenantId);
    const [first, second, third] = browsers;
    const list = await third.call('GET', '/auth/sessions');
    expect(list.status).to.equal(200);
    expect(list.body.data).to.have.length(3);
    expect(list.body.data.map((s: { current: boolean }) => s.current)).to.deep.equal([true, false, false]);
    expect(list.body.data[0]).to.include({ address: '127.0.0.1' });
    const secondId = (await second.call('GET', '/auth/session')).body.session.id;
    const token = await second.token();
    const end = await first.call('DELETE', `/auth/sessions/${secondId}`, { template: '/auth/sessions/{id}' });
    expect(end.status).to.equal(204);
    expectProblem(await second.call('GET', '/auth/session'), 401, 'unauthenticated');
    expectProblem(await client(server.baseUrl, token).get('getMe', '/me'), 401, 'unauthenticated');
    expect((await first.call('GET', '/auth/sessions')).body.data).to.have.length(2);
    const again = await first.call('DELETE', `/auth/sessions/${secondId}`, {
      template: '/auth/sessions/{id}',
    });
    expectProblem(again, 404, 'not_found');
  });

  it('signs out everywhere', async () => {
    const t = await server.createTenant();
    const { browsers } = await threeBrowsers(t.tenantId);
    const out = await browsers[1].call('DELETE', '/auth/sessions');
    expect(out.status).to.equal(204);
    for (const b of browsers) expectProblem(await b.call('GET', '/auth/session'), 401, 'unauthenticated');
  });

  it("changing the password ends the user's other sessions, not this one", async () => {
    const t = await server.createTenant();
    const { email, password, browsers } = await threeBrowsers(t.tenantId);
    const next = newPassword();
    const wrong = await browsers[0].call('POST', '/auth/password', {
      body: { currentPassword: 'not it at all, sorry', newPassword: next },
    });
    expectProblem(wrong, 422, 'validation_failed');
    const short = await browsers[0].call('POST', '/auth/password', {
      body: { currentPassword: password, newPassword: 'too short' },
    });
    expectProblem(short, 422, 'validation_failed');
    const changed = await browsers[0].call('POST', '/auth/password', {
      body: { currentPassword: password, newPassword: next },
    });
    expect(changed.status).to.equal(204);
    expect((await browsers[0].call('GET', '/auth/session')).status).to.equal(200);
    for (const b of browsers.slice(1))
      expectProblem(await b.call('GET', '/auth/session'), 401, 'unauthenticated');
    expect((await new ConsoleBrowser(origin).signIn(email, password)).status).to.equal(401);
    expect((await new ConsoleBrowser(origin).signIn(email, next)).status).to.equal(200);
  });

  it('re-hashes a password made with older Argon2 parameters at the next sign-in', async () => {
    const t = await server.createTenant();
    const { email, password, userId } = await createAccount(
      server.meridian,
      new ConsoleBrowser(origin),
      t.tenantId,
      'member',
    );
    const old = await argon2.hash(password, {
      type: argon2.argon2id,
      memoryCost: 8_192,
      timeCost: 3,
      parallelism: 1,
    });
    await updateAccount(server.db.knex, userId, { passwordHash: old }, new Date().toISOString());
    expect((await new ConsoleBrowser(origin).signIn(email, password)).status).to.equal(200);
    const stored = (await server.db.knex('users').where({ id: userId }).first()) as { password_hash: string };
    expect(stored.password_hash).to.match(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect((await new ConsoleBrowser(origin).signIn(email, password)).status).to.equal(200);
  });

  it('signing out without a session only clears the cookie; the audit log has the sign-ins', async () => {
    const browser = new ConsoleBrowser(origin);
    const out = await browser.call('POST', '/auth/sign-out');
    expect(out.status).to.equal(204);
    expect(browser.lastSetCookie).to.match(/^__Host-meridian_session=; Path=\/; Expires=Thu, 01 Jan 1970/);
    const t = await server.createTenant();
    const { userId, email } = await createAccount(server.meridian, browser, t.tenantId, 'viewer');
    await browser.call('POST', '/auth/sign-out');
    expect((await browser.signIn(email, 'a wrong password, audited')).status).to.equal(401);
    const audit = await client(server.baseUrl, t.keys.admin).get('listAuditLogs', '/audit-logs', {
      query: { resourceId: userId },
    });
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).to.include.members([
      'user.created',
      'auth.link_issued',
      'auth.setup_completed',
      'auth.signed_in',
      'auth.signed_out',
      'auth.sign_in_failed',
    ]);
    expect(JSON.stringify(audit.body)).not.to.contain('a wrong password');
    for (const e of audit.body.data.filter((x: { action: string }) => x.action.startsWith('auth.sign')))
      expect(e.actor).to.deep.equal({ userId, apiKeyId: null, via: 'console' });
  });

  it("keys never carry more than their user's role: refused at creation, narrowed after a demotion", async () => {
    const t = await server.createTenant();
    const viewer = new ConsoleBrowser(origin);
    const { userId } = await createAccount(server.meridian, viewer, t.tenantId, 'viewer');
    const { apiKeys, principals } = server.meridian.services;
    const refused = await apiKeys
      .create(systemActor(t.tenantId), { name: 'too much', scopes: ['read', 'write'], userId })
      .catch((e: unknown) => e);
    expect(refused).to.have.property('code', 'forbidden');
    const admin = new ConsoleBrowser(origin);
    const m = await createAccount(server.meridian, admin, t.tenantId, 'admin');
    const own = await client(server.baseUrl, await admin.token()).post('createApiKey', '/api-keys', {
      body: { name: 'mine', scopes: ['read', 'write', 'admin'] },
    });
    expect(own.status).to.equal(201);
    // A console access token's 10 minutes do not bound the key's expiry.
    expect(own.body.expiresAt).to.equal(null);
    // Demoted to viewer: the key's write scope no longer counts, from the next request on in this process.
    await updateAccount(server.db.knex, m.userId, { role: 'viewer' }, new Date().toISOString());
    principals.forgetUser(m.userId);
    const me = await client(server.baseUrl, own.body.key).get('getMe', '/me');
    expect(me.body.apiKey.scopes).to.deep.equal(['read']);
    expect(me.body.user.role).to.equal('viewer');
    const write = await client(server.baseUrl, own.body.key).post('createProject', '/projects', {
      body: { name: 'Refused', startDate: '2026-01-01', endDate: '2026-12-31' },
    });
    expectProblem(write, 403, 'forbidden');
  });
});
