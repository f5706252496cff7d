/**
 * `GET /docs` in a real browser (docs/design.md, Operations): Debian's Chromium, driven by playwright-core, opens
 * the API reference the server renders from its own `/v1/openapi.json`. The page must load with no console error
 * and no request to any origin but the server's, list every tag of the spec in its sidebar and show an operation's
 * parameters; a screenshot of the operation and one of its parameters are saved to test/artifacts/ (gitignored).
 *
 * Chromium comes from Debian's package (test/support/chromium.ts); the test skips, saying why, only when it cannot be
 * installed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { type Browser, chromium, type Page } from 'playwright-core';
import { loadSpec } from '../../server/http/spec.js';
import { CHROMIUM_ARGS, findChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ARTIFACTS = path.join(ROOT, 'test', 'artifacts');

describe('GET /docs in headless Chromium', function () {
  // apt-get may have to install Chromium first.
  this.timeout(600_000);
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];
  const failedRequests: string[] = [];

  before(async function () {
    const found = findChromium();
    if ('reason' in found) {
      console.log(`      SKIPPED: Chromium is not available and could not be installed: ${found.reason}`);
      this.skip();
    }
    server = await startTestServer();
    origin = new URL(server.baseUrl).origin;
    browser = await chromium.launch({
      executablePath: found.path,
      args: CHROMIUM_ARGS,
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url)) foreignRequests.push(url);
    });
    page.on('requestfailed', (request) =>
      failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`),
    );
    page.on('response', (response) => {
      if (response.status() >= 400) failedRequests.push(`${response.url()}: ${response.status()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the served spec with every tag, an operation and its parameters, from 127.0.0.1 only', async () => {
    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).to.equal(200);
    const { document } = loadSpec();
    const tags = (document.tags as { name: string }[]).map((t) => t.name);
    const sidebar = page.locator('aside');
    // Every tag of the spec is an entry of the sidebar (the reference has fetched and rendered /v1/openapi.json).
    for (const tag of tags) {
      await sidebar.getByText(tag, { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    }

    // An operation: its section shows its query parameters by name, as the spec declares them.
    await sidebar.getByText('Projects', { exact: true }).first().click();
    await sidebar.getByText('List projects', { exact: true }).first().click();
    const listProjects = (
      document.paths as Record<string, { get: { parameters: { name?: string; $ref?: string }[] } }>
    )['/projects']?.get;
    const inline = (listProjects?.parameters ?? []).flatMap((p) => (p.name ? [p.name] : []));
    expect(inline).to.include.members(['status', 'q', 'tag', 'sort']);
    const section = page
      .locator('section, [id*="GET/projects"]')
      .filter({ has: page.getByRole('heading', { name: 'List projects', exact: true }) })
      .first();
    await section.getByText('Query Parameters').first().waitFor({ state: 'visible', timeout: 15_000 });
    for (const name of [...inline, 'limit', 'offset']) {
      await section.getByText(name, { exact: true }).first().waitFor({ state: 'attached', timeout: 5_000 });
    }
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const screenshot = path.join(ARTIFACTS, 'docs.png');
    await page.screenshot({ path: screenshot });
    expect(fs.statSync(screenshot).size).to.be.greaterThan(10_000);
    // And the parameter list itself.
    await page.evaluate(
      "[...document.querySelectorAll('*')].find((e) => e.textContent.trim() === 'Query Parameters')?.scrollIntoView()",
    );
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-parameters.png') });

    // The spec came from this server, the assets from our own node_modules, nothing from anywhere else.
    expect(foreignRequests, `requests that left ${origin}`).to.deep.equal([]);
    expect(consoleErrors, 'console errors').to.deep.equal([]);
    expect(failedRequests, 'failed requests').to.deep.equal([]);
  });

  it('is linked from the served spec and needs no key', async () => {
    const spec = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      externalDocs?: { url: string };
    };
    expect(new URL(spec.externalDocs?.url ?? '').pathname).to.equal('/docs');
    const res = await fetch(`${origin}/docs`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    // Only this origin may be reached from the page: a browser refuses anything else.
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("default-src 'self'").and.include("connect-src 'self'").and.not.include('https:');
    const html = await res.text();
    expect(html).to.not.match(/https?:\/\//);
    const bundle = await fetch(`${origin}/docs/assets/standalone.js`);
    expect(bundle.status).to.equal(200);
    expect(bundle.headers.get('content-type')).to.match(/javascript/);
  });
});
