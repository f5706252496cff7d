/**
 * The package as users get it: `npm pack` of sdk-ts, checked like a published library (publint, and
 * @arethetypeswrong/cli with the ESM-only profile: the package ships ES modules only), installed into a fresh
 * project, its types resolved by `tsc` under `node16` and `bundler`, a smoke program run on every Node.js version
 * at hand (20: the system's; 22: the npm registry's `node@22`, installed once into ~/.cache/meridian-sdk-node; 24: the
 * repository's) and in Debian's Chromium from an esbuild bundle (the settings console imports the SDK in the
 * browser). The smoke program calls the real server (test/support/server.ts).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { chromium } from 'playwright-core';
import { startTestServer, type TestServer } from '../../test/support/server.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

/** What the smoke program does with the SDK, in Node and (with `window`) in the browser. */
const SMOKE = `import { Meridian, NotFoundError, VERSION, webhooks } from '@meridian/sdk';
export async function smoke(options) {
  const client = new Meridian({ maxRetries: 0, ...options });
  const me = await client.me.retrieve();
  const project = await client.projects.create({ name: 'Smoke', startDate: '2026-01-01', endDate: '2026-02-01' });
  const { requestId } = await client.projects.retrieve(project.id).withResponse();
  let listed = 0;
  for await (const p of client.projects.list({ limit: 1 })) listed += p.id ? 1 : 0;
  const notFound = await client.projects.retrieve('00000000-0000-4000-8000-000000000000').then(
    () => false,
    (e) => e instanceof NotFoundError && typeof e.requestId === 'string',
  );
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = JSON.stringify({ event: 'risk.created' });
  const event = await webhooks.unwrap(body, await webhooks.sign(body, secret), secret);
  return { version: VERSION, tenant: me.tenant.id, requestId: typeof requestId, listed, notFound, event: event.event };
}
`;

/** A Node.js binary of `major`: the system's, the repository's, or the registry's `node` package (cached). */
function nodeOf(major: number): string | { reason: string } {
  const candidates = [process.execPath, '/usr/bin/node', '/usr/local/bin/node'];
  for (const candidate of candidates) {
    if (!fs.existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    if (version.startsWith(`v${major}.`)) return candidate;
  }
  const cache = path.join(os.homedir(), '.cache', 'meridian-sdk-node', String(major));
  const cached = path.join(cache, 'node_modules', '.bin', 'node');
  if (!fs.existsSync(cached)) {
    try {
      fs.mkdirSync(cache, { recursive: true });
      execFileSync('npm', ['install', '--prefix', cache, '--no-audit', '--no-fund', `node@${major}`], {
        stdio: 'pipe',
        timeout: 300_000,
      });
    } catch (error) {
      return { reason: `npm install node@${major} failed: ${(error as Error).message.split('\n')[0]}` };
    }
  }
  return cached;
}

describe('sdk-ts as a published package', function () {
  this.timeout(600_000);
  let tmp: string;
  let tarball: string;
  let consumer: string;
  let server: TestServer;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-sdk-pack-'));
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], {
        cwd: path.join(root, 'sdk-ts'),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as { filename: string; files: { path: string }[] }[];
    if (!packed) throw new Error('npm pack wrote no tarball');
    tarball = path.join(tmp, packed.filename);
    // A user's project: the tarball and its one dependency, from the npm cache when it can.
    consumer = path.join(tmp, 'consumer');
    fs.mkdirSync(consumer);
    fs.writeFileSync(
      path.join(consumer, 'package.json'),
      '{ "name": "consumer", "private": true, "type": "module" }',
    );
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: consumer,
      stdio: 'pipe',
    });
    fs.writeFileSync(path.join(consumer, 'smoke.mjs'), SMOKE);
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('holds the built modules, their types, README and LICENSE; sideEffects false; one dependency', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    const files = listing.map((f) => f.replace(/^package\//, ''));
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']) {
      expect(files, needed).to.include(needed);
    }
    expect(
      files.filter((f) => !/^(dist\/.+\.(js|d\.ts)|package\.json|README\.md|LICENSE)$/.test(f)),
    ).to.deep.equal([]);
    const pkg = JSON.parse(
      fs.readFileSync(path.join(consumer, 'node_modules/@meridian/sdk/package.json'), 'utf8'),
    );
    expect(pkg.sideEffects).to.equal(false);
    expect(Object.keys(pkg.dependencies)).to.deep.equal(['openapi-fetch']);
  });

  it('passes publint and @arethetypeswrong/cli (ESM only) with no problem', async () => {
    const publint = await run(bin('publint'), ['run', '--strict', tarball], { encoding: 'utf8' });
    expect(publint.stdout).to.match(/All good!/);
    // attw exits non-zero on any problem in the resolutions the profile checks (node16 from ESM, bundler); the
    // profile leaves out node10 and require() from CommonJS, which an ESM-only package does not serve.
    const attw = await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], {
      encoding: 'utf8',
    });
    const report = JSON.parse(attw.stdout) as { analysis: { problems: { resolutionKind?: string }[] } };
    const checked = report.analysis.problems.filter(
      (p) => !['node10', 'node16-cjs'].includes(`${p.resolutionKind}`),
    );
    expect(checked).to.deep.equal([]);
  });

  for (const resolution of ['node16', 'bundler'] as const) {
    it(`resolves its types under moduleResolution ${resolution} (tsc, skipLibCheck off)`, async () => {
      const dir = path.join(consumer, `types-${resolution}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'use.ts'),
        `import { Meridian, type Project, type RisksListParams } from '@meridian/sdk';
const client = new Meridian({ apiKey: 'mk_live_x' });
export const first: Promise<Project | undefined> = client.projects.list().then((page) => page.data[0]);
export const params: RisksListParams = { severity: ['HIGH'] };
`,
      );
      const module = resolution === 'node16' ? 'node16' : 'esnext';
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            target: 'ES2022',
            lib: ['ES2023', 'DOM'],
            types: [],
            module,
            moduleResolution: resolution,
          },
          files: ['use.ts'],
        }),
      );
      fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
      await run(bin('tsc'), ['-p', dir], { encoding: 'utf8' }).catch((error: { stdout?: string }) => {
        throw new Error(`tsc (${resolution}) failed:\n${error.stdout}`);
      });
    });
  }

  for (const major of [20, 22, 24]) {
    it(`runs on Node.js ${major} against the real server`, async function () {
      const node = nodeOf(major);
      if (typeof node !== 'string') {
        console.log(`      SKIPPED: no Node.js ${major}: ${node.reason}`);
        this.skip();
      }
      const script = `import { smoke } from './smoke.mjs';\nconsole.log(JSON.stringify(await smoke()));`;
      const tenant = await server.createTenant();
      const { stdout } = await run(node, ['--input-type=module', '-e', script], {
        cwd: consumer,
        env: { ...process.env, MERIDIAN_API_KEY: tenant.keys.write, MERIDIAN_BASE_URL: server.baseUrl },
      });
      expect(JSON.parse(stdout)).to.deep.include({ tenant: tenant.tenantId, requestId: 'string', listed: 1 });
      expect(JSON.parse(stdout)).to.include({ notFound: true, event: 'risk.created' });
    });
  }

  it('runs in Chromium from a browser bundle (esbuild), same-origin with the real server', async function () {
    const found = (() => {
      try {
        return execFileSync('bash', [path.join(root, 'scripts/ensure-chromium.sh')], {
          encoding: 'utf8',
        }).trim();
      } catch {
        return undefined;
      }
    })();
    if (!found) this.skip();
    const entry = path.join(consumer, 'browser.mjs');
    fs.writeFileSync(entry, `import { smoke } from './smoke.mjs';\nwindow.smoke = smoke;\n`);
    const bundle = path.join(consumer, 'bundle.js');
    await run(
      bin('esbuild'),
      [entry, '--bundle', '--platform=browser', '--format=esm', `--outfile=${bundle}`],
      {
        cwd: consumer,
      },
    );
    const code = fs.readFileSync(bundle, 'utf8');
    expect(code).to.not.match(/from ["']node:/);
    // The page and the API on one origin: the bundle at /, /v1 forwarded to the test server.
    const api = new URL(server.baseUrl);
    const site = http.createServer((req, res) => {
      if (req.url?.startsWith('/v1/')) {
        const upstream = http.request(
          { host: api.hostname, port: api.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        req.pipe(upstream);
        return;
      }
      const page =
        req.url === '/bundle.js' ? code : '<!doctype html><script type="module" src="/bundle.js"></script>';
      res
        .writeHead(200, { 'content-type': req.url === '/bundle.js' ? 'text/javascript' : 'text/html' })
        .end(page);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const tenant = await server.createTenant();
    const browser = await chromium.launch({
      executablePath: found.split('\n').pop(),
      args: ['--no-sandbox'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(origin);
      type Smoke = { smoke?: (o: object) => Promise<Record<string, unknown>> };
      await page.waitForFunction(() => typeof (globalThis as Smoke).smoke === 'function');
      const result = await page.evaluate(
        ([apiKey, baseUrl]) => (globalThis as Smoke).smoke?.({ apiKey, baseUrl }),
        [tenant.keys.write, `${origin}/v1`],
      );
      expect(result).to.deep.include({
        tenant: tenant.tenantId,
        listed: 1,
        notFound: true,
        event: 'risk.created',
      });
    } finally {
      await browser.close();
      site.closeAllConnections();
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});
