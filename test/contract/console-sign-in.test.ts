/**
 * Contract tests of the tag "Console sign-in" (`/auth/*`, docs/accounts.md): setup links, password sign-in, the
 * session cookie, console access tokens on /v1, sign-out, session expiry on the injected clock.
 */
import { expect } from 'chai';
import { ManualClock } from '../../server/clock.js';
import { systemActor } from '../../server/services/context.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { ConsoleBrowser, createAccount, newPassword } from '../support/console.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('Console sign-in', () => {
  const clock = new ManualClock(new Date());
  let server: TestServer;
  let origin: string;
  before(async () => {
    server = await startTestServer({ clock });
    origin = new URL(server.baseUrl).origin;
  });
  after(async () => server.close());

  describe('setup links', () => {
    it('sets email and password once, signs in, and refuses the link a second time', async () => {
      const t = await server.createTenant();
      const { accounts } = server.meridian.services;
      const { token } = await accounts.issueLink(systemActor(t.tenantId), t.userId, 'setup');
      const browser = new ConsoleBrowser(origin);
      const email = `Owner-${Date.now()}@Example.com`;
      const password = newPassword();
      const res = await browser.call('POST', '/auth/setup', {
        body: { token, password, email, name: 'Olga Owner' },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ status: 'signed_in' });
      expect(res.body.user).to.include({
        id: t.userId,
        name: 'Olga Owner',
        email,
        role: 'owner',
        twoFactorEnabled: false,
      });
      expect(browser.lastSetCookie).to.match(
        /^__Host-meridian_session=[A-Za-z0-9_-]{43}; Path=\/; Expires=.*; HttpOnly; Secure; SameSite=Lax$/,
      );
      const again = await new ConsoleBrowser(origin).call('POST', '/auth/setup', {
        body: { token, password: newPassword() },
      });
      expectProblem(again, 401, 'unauthenticated');
      // The email is compared case-insensitively at sign-in.
      const other = new ConsoleBrowser(origin);
      const signIn = await other.signIn(email.toLowerCase(), password);
      expect(signIn.status).to.equal(200);
      expect(signIn.body.status).to.equal('signed_in');
    });

    it('refuses a short or common password with 422 naming the field', async () => {
      const t = await server.createTenant();
      const { token } = await server.meridian.services.accounts.issueLink(
        systemActor(t.tenantId),
        t.userId,
        'setup',
      );
      const browser = new ConsoleBrowser(origin);
      for (const password of ['short pass', 'passwordpassword']) {
        const res = await browser.call('POST', '/auth/setup', { body: { token, password } });
        expectProblem(res, 422, 'validation_failed');
        expect(res.body.errors[0]).to.include({ location: 'body', path: '/password' });
      }
      // The refused attempts did not use the link up.
      const res = await browser.call('POST', '/auth/setup', { body: { token, password: newPassword() } });
      expect(res.status).to.equal(200);
    });

    it('expires after 24 hours', async () => {
      const t = await server.createTenant();
      const { token } = await server.meridian.services.accounts.issueLink(
        systemActor(t.tenantId),
        t.userId,
        'setup',
      );
      clock.advance(24 * 3600_000 + 1);
      const res = await new ConsoleBrowser(origin).call('POST', '/auth/setup', {
        body: { token, password: newPassword() },
      });
      expectProblem(res, 401, 'unauthenticated');
    });
  });

  describe('signIn', () => {
    it('answers the same 401 for an unknown email and a wrong password', async () => {
      const t = await server.createTenant();
      const browser = new ConsoleBrowser(origin);
      const { email } = await createAccount(server.meridian, browser, t.tenantId, 'member');
      const wrong = await new ConsoleBrowser(origin).signIn(email, 'not the password at all');
      const unknown = await new ConsoleBrowser(origin).signIn(
        `nobody-${Date.now()}@example.com`,
        'not the password at all',
      );
      expectProblem(wrong, 401, 'unauthenticated');
      expectProblem(unknown, 401, 'unauthenticated');
      const strip = (b: Record<string, unknown>) => ({ ...b, requestId: null, instance: null });
      expect(strip(wrong.body)).to.deep.equal(strip(unknown.body));
      expect(wrong.headers.get('set-cookie')).to.equal(null);
    });

    it('gives a new session id at every sign-in', async () => {
      const t = await server.createTenant();
      const browser = new ConsoleBrowser(origin);
      const { email, password } = await createAccount(server.meridian, browser, t.tenantId, 'admin');
      const first = browser.cookie;
      const res = await browser.signIn(email, password);
      expect(res.status).to.equal(200);
      expect(browser.cookie).to.be.a('string').and.not.equal(first);
    });
  });

  describe('console access tokens', () => {
    it('authenticate /v1 like a key, with the scopes of the role; GET /me says so', async () => {
      const t = await server.createTenant();
      const browser = new ConsoleBrowser(origin);
      const { userId } = await createAccount(server.meridian, browser, t.tenantId, 'member');
      const res = await browser.call('POST', '/auth/token');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ tokenType: 'Bearer', expiresIn: 600 });
      expect(res.body.accessToken).to.match(/^mt_[0-9A-Za-z]{40}$/);
      expect(res.body.scopes).to.deep.equal(['read', 'write']);
      const me = await client(server.baseUrl, res.body.accessToken).get('getMe', '/me');
      expect(me.status).to.equal(200);
      expect(me.body).to.include({ authenticatedWith: 'console_token' });
      expect(me.body.user).to.include({ id: userId, role: 'member' });
      expect(me.body.apiKey.prefix).to.equal(res.body.accessToken.slice(0, 12));
      // Never listed among the tenant's API keys.
      const keys = await client(server.baseUrl, t.keys.admin).get('listApiKeys', '/api-keys', {
        query: { limit: 100 },
      });
      expect(keys.body.data.map((k: { prefix: string }) => k.prefix)).not.to.include(
        res.body.accessToken.slice(0, 12),
      );
    });

    it('a viewer token gets 403 on a write; an audit row written with a token names the user and "console"', async () => {
      const t = await server.createTenant();
      const viewer = new ConsoleBrowser(origin);
      await createAccount(server.meridian, viewer, t.tenantId, 'viewer');
      const token = await viewer.token();
      const write = await client(server.baseUrl, token).post('createProject', '/projects', {
        body: { name: 'Refused', startDate: '2026-01-01', endDate: '2026-12-31' },
      });
      expectProblem(write, 403, 'forbidden');
      const member = new ConsoleBrowser(origin);
      const { userId } = await createAccount(server.meridian, member, t.tenantId, 'member');
      const created = await client(server.baseUrl, await member.token()).post('createProject', '/projects', {
        body: { name: 'Console project', startDate: '2026-01-01', endDate: '2026-12-31' },
      });
      expect(created.status).to.equal(201);
      const audit = await client(server.baseUrl, t.keys.admin).get('listAuditLogs', '/audit-logs', {
        query: { resourceId: created.body.id },
      });
      expect(audit.body.data[0].actor).to.deep.equal({ userId, apiKeyId: null, via: 'console' });
    });

    it('end with their session: sign-out refuses the token at once', async () => {
      const t = await server.createTenant();
      const browser = new ConsoleBrowser(origin);
      await createAccount(server.meridian, browser, t.tenantId, 'admin');
      const token = await browser.token();
      expect((await client(server.baseUrl, token).get('getMe', '/me')).status).to.equal(200);
      const out = await browser.call('POST', '/auth/sign-out');
      expect(out.status).to.equal(204);
      expect(browser.cookie).to.equal(null);
      expectProblem(await client(server.baseUrl, token).get('getMe', '/me'), 401, 'unauthenticated');
    });

    it('expire after 10 minutes; a refreshed one works', async () => {
      const t = await server.createTenant();
      const browser = new ConsoleBrowser(origin);
      await createAccount(server.meridian, browser, t.tenantId, 'admin');
      const first = await browser.token();
      clock.advance(9 * 60_000);
      const second = await browser.token();
      clock.advance(60_000 + 1);
      expectProblem(await client(server.baseUrl, first).get('getMe', '/me'), 401, 'unauthenticated');
      expect((await client(server.baseUrl, second).get('getMe', '/me')).status).to.equal(200);
    });
  });

  describe('session expiry', () => {
    it('ends a session idle for 12 hours, and any session after 14 days', async () => {
      const t = await server.createTenant();
      const browser = new ConsoleBrowser(origin);
      await createAccount(server.meridian, browser, t.tenantId, 'admin');
      clock.advance(11 * 3600_000);
      expect((await browser.call('GET', '/auth/session')).status).to.equal(200);
      clock.advance(12 * 3600_000 + 1);
      expectProblem(await browser.call('GET', '/auth/session'), 401, 'unauthenticated');

      const busy = new ConsoleBrowser(origin);
      await createAccount(server.meridian, busy, t.tenantId, 'member');
      for (let hours = 0; hours < 14 * 24; hours += 10) {
        clock.advance(10 * 3600_000);
        const res = await busy.call('GET', '/auth/session');
        if (hours + 10 < 14 * 24) expect(res.status, `after ${hours + 10} h`).to.equal(200);
        else expectProblem(res, 401, 'unauthenticated');
      }
    });
  });

  it('purges sessions and tokens a day after they ended', async () => {
    const t = await server.createTenant();
    const browser = new ConsoleBrowser(origin);
    const { userId } = await createAccount(server.meridian, browser, t.tenantId, 'viewer');
    await browser.token();
    await browser.call('POST', '/auth/sign-out');
    const count = async (table: string) =>
      Number(
        ((await server.db.knex(table).where({ user_id: userId }).count({ n: '*' }).first()) as { n: unknown })
          .n,
      );
    expect([await count('sessions'), await count('console_tokens')]).to.deep.equal([1, 1]);
    await server.meridian.services.sessions.purgeEnded();
    expect(await count('sessions')).to.equal(1);
    clock.advance(24 * 3600_000 + 1);
    const purged = await server.meridian.services.sessions.purgeEnded();
    expect(purged.sessions).to.be.at.least(1);
    expect([await count('sessions'), await count('console_tokens')]).to.deep.equal([0, 0]);
  });

  describe('cross-site requests', () => {
    it('refuses a POST from another origin, without Origin, or marked cross-site', async () => {
      const t = await server.createTenant();
      const browser = new ConsoleBrowser(origin);
      await createAccount(server.meridian, browser, t.tenantId, 'admin');
      expectProblem(
        await browser.call('POST', '/auth/token', { origin: 'https://evil.example' }),
        403,
        'forbidden',
      );
      expectProblem(await browser.call('POST', '/auth/token', { origin: null }), 403, 'forbidden');
      expectProblem(
        await browser.call('POST', '/auth/token', { headers: { 'sec-fetch-site': 'cross-site' } }),
        403,
        'forbidden',
      );
      expect(
        (await browser.call('POST', '/auth/token', { headers: { 'sec-fetch-site': 'same-origin' } })).status,
      ).to.equal(200);
    });

    it('accepts only application/json bodies', async () => {
      const browser = new ConsoleBrowser(origin);
      const res = await browser.call('POST', '/auth/sign-in', {
        body: 'email=a@example.com&password=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectProblem(res, 415, 'unsupported_media_type');
    });
  });
});
