/**
 * The console's session cookie in a real browser (docs/accounts.md, "Sessions" and "Cross-site requests"): Debian's
 * Chromium on the quick start's plain `http://127.0.0.1` keeps the `__Host-`, `Secure`, `HttpOnly` cookie that
 * `POST /auth/setup` sets, sends it to `/auth/token` (and page scripts cannot read it); a page of another site
 * posting to `/auth/token` is refused, and the cookie does not travel with that cross-site POST (`SameSite=Lax`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { systemActor } from '../../server/services/context.js';
import { CHROMIUM_ARGS, findChromium } from '../support/chromium.js';
import { newPassword } from '../support/console.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('the console session cookie in headless Chromium', function () {
  this.timeout(600_000);
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let origin: string;

  before(async function () {
    const found = findChromium();
    if ('reason' in found) {
      console.log(`      SKIPPED: Chromium is not available and could not be installed: ${found.reason}`);
      this.skip();
    }
    server = await startTestServer();
    origin = new URL(server.baseUrl).origin;
    browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    page = await context.newPage();
    // Any page of the server's origin will do: the console's own pages are built on these calls.
    await page.goto(`${origin}/docs`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps the __Host- cookie on http://127.0.0.1 and sends it back; scripts cannot read it', async () => {
    const t = await server.createTenant();
    const { token } = await server.meridian.services.accounts.issueLink(
      systemActor(t.tenantId),
      t.userId,
      'setup',
    );
    const password = newPassword();
    const setup = await page.evaluate(
      async ({ token, password }) => {
        const res = await fetch('/auth/setup', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token, password, email: 'browser-owner@example.com' }),
        });
        return { status: res.status, body: await res.json() };
      },
      { token, password },
    );
    expect(setup.status, JSON.stringify(setup.body)).to.equal(200);
    const cookies = await context.cookies(origin);
    const session = cookies.find((c) => c.name === '__Host-meridian_session');
    expect(session, JSON.stringify(cookies)).to.not.equal(undefined);
    expect(session).to.include({
      secure: true,
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      domain: '127.0.0.1',
    });
    expect(await page.evaluate('document.cookie')).to.equal('');
    const token2 = await page.evaluate(async () => {
      const res = await fetch('/auth/token', { method: 'POST' });
      return { status: res.status, body: (await res.json()) as { accessToken: string } };
    });
    expect(token2.status).to.equal(200);
    expect(token2.body.accessToken).to.match(/^mt_/);
    const me = await page.evaluate(async (accessToken) => {
      const res = await fetch('/v1/me', { headers: { authorization: `Bearer ${accessToken}` } });
      return (await res.json()) as { authenticatedWith: string };
    }, token2.body.accessToken);
    expect(me.authenticatedWith).to.equal('console_token');
  });

  it('refuses a cross-site form POST, which carries no cookie', async () => {
    // Another site: a page on http://localhost:<another port> whose form posts to the server's /auth/token.
    const attacker = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<form method="POST" action="${origin}/auth/token" enctype="text/plain"><input name="a" value="b"></form>` +
          '<script>document.forms[0].submit()</script>',
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const sent: { cookie?: string; origin?: string }[] = [];
    const other = await context.newPage();
    other.on('request', (request) => {
      if (request.url().endsWith('/auth/token'))
        sent.push({ cookie: request.headers().cookie, origin: request.headers().origin });
    });
    try {
      const { port } = attacker.address() as AddressInfo;
      await other.goto(`http://localhost:${port}/`);
      await other.waitForURL(`${origin}/auth/token`);
      const body = JSON.parse((await other.textContent('body')) ?? '{}') as {
        status?: number;
        code?: string;
      };
      expect(body).to.include({ status: 403, code: 'forbidden' });
      expect(sent[0]?.cookie).to.equal(undefined);
      expect(sent[0]?.origin).to.equal(`http://localhost:${port}`);
    } finally {
      attacker.close();
    }
  });
});
