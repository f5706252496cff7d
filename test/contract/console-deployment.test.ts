/**
 * Console sign-in behind a TLS-terminating proxy (docs/accounts.md, "Cross-site requests"): with
 * `MERIDIAN_PUBLIC_URL` and `MERIDIAN_TRUST_PROXY`, state-changing `/auth/*` requests must come from the public
 * origin; and console access tokens count against the tenant's rate limit like keys (docs/accounts.md, "Console
 * access tokens").
 */
import { expect } from 'chai';
import { systemActor } from '../../server/services/context.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { ConsoleBrowser, createAccount, newPassword } from '../support/console.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('Console sign-in behind a proxy', () => {
  const PUBLIC = 'https://pm.example.com';
  let server: TestServer;
  let origin: string;
  before(async () => {
    server = await startTestServer({ env: { MERIDIAN_PUBLIC_URL: PUBLIC, MERIDIAN_TRUST_PROXY: 'true' } });
    origin = new URL(server.baseUrl).origin;
  });
  after(async () => server.close());

  it('accepts the public origin and refuses the server’s own address', async () => {
    const t = await server.createTenant();
    const { token } = await server.meridian.services.accounts.issueLink(
      systemActor(t.tenantId),
      t.userId,
      'setup',
    );
    const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'pm.example.com' };
    const direct = new ConsoleBrowser(origin);
    const refused = await direct.call('POST', '/auth/setup', {
      body: { token, password: newPassword(), email: `o-${Date.now()}@example.com` },
      headers: proxied,
    });
    expectProblem(refused, 403, 'forbidden');
    expect(refused.body.detail).to.contain(PUBLIC);
    const browser = new ConsoleBrowser(origin);
    const ok = await browser.call('POST', '/auth/setup', {
      body: { token, password: newPassword(), email: `o-${Date.now()}@example.com` },
      headers: proxied,
      origin: PUBLIC,
    });
    expect(ok.status).to.equal(200);
    expect(ok.headers.get('set-cookie')).to.match(/^__Host-meridian_session=.*; Secure; SameSite=Lax$/);
  });
});

describe('Console sign-in behind a proxy, without a public URL', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { MERIDIAN_TRUST_PROXY: 'true' } });
  });
  after(async () => server.close());

  it("checks Origin against the proxy's X-Forwarded-Proto and X-Forwarded-Host", async () => {
    const browser = new ConsoleBrowser(new URL(server.baseUrl).origin);
    await createAccount(server.meridian, browser, (await server.createTenant()).tenantId, 'admin');
    const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'pm.example.com' };
    expectProblem(await browser.call('POST', '/auth/token', { headers: proxied }), 403, 'forbidden');
    const ok = await browser.call('POST', '/auth/token', {
      headers: proxied,
      origin: 'https://pm.example.com',
    });
    expect(ok.status).to.equal(200);
  });
});

describe('Console access tokens and the tenant rate limit', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  it('count against the tenant’s limit like its keys', async () => {
    const t = await server.createTenant(undefined, { rateLimitPerMinute: 3 });
    const browser = new ConsoleBrowser(new URL(server.baseUrl).origin);
    await createAccount(server.meridian, browser, t.tenantId, 'viewer');
    const api = client(server.baseUrl, await browser.token());
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await api.get('getMe', '/me')).status);
    expect(statuses).to.deep.equal([200, 200, 200]);
    expectProblem(await client(server.baseUrl, t.keys.read).get('getMe', '/me'), 429, 'rate_limited');
  });
});
