/**
 * The build as a deployment runs it (docs/deploy.md, "Build" and "Production"), in a temporary copy of the
 * repository (the working tree is never pruned): the sources, a copy of `node_modules` (hard links: what `npm ci`
 * gives for the lock file), `npm run build`, `npm prune --omit=dev`; then, with production dependencies only, the
 * commands the Containerfile runs: `node dist/migrate.js`, `NODE_ENV=production node dist/main.js`, its
 * HEALTHCHECK, `node dist/worker.js` and `node dist/cli.js`. On an explicit SQLite file and on Postgres (when TEST_DATABASE_URL is set):
 * no demo tenant, no printed key, the API serves a tenant made with the CLI, and SIGTERM stops it with exit code 0.
 *
 * Runs once per `npm test`: in the Postgres leg when there is one (doing both databases), else in the SQLite leg.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { newSecretKey } from '../../server/crypto/secret-box.js';
import { openDatabase } from '../../server/repositories/db.js';
import { stopProcess } from '../support/processes.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const ONCE = TEST_DB === 'postgres' || !process.env.TEST_DATABASE_URL;

/** The command of the Containerfile's HEALTHCHECK (its exec form), as the image runs it. */
function healthcheckCommand(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'Containerfile'), 'utf8');
  const match = /HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])/.exec(text);
  if (!match) throw new Error('the Containerfile has no HEALTHCHECK … CMD [...]');
  return JSON.parse(match[1] as string) as string[];
}

/** Only what the process needs: PATH without node_modules/.bin (no dev tool can be reached), and `env`. */
function productionEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((p) => !p.includes('node_modules'))
    .join(path.delimiter);
  return { PATH, HOME: os.tmpdir(), NODE_ENV: 'production', ...env };
}

/** Starts `node dist/main.js` in `dir`; resolves with its origin once it listens. */
function startDist(
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; origin: string; output: () => string }> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: dir,
    env: productionEnv({ PORT: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dist/main.js did not start:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, origin: m[1] as string, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dist/main.js exited with ${code}:\n${out}`));
    });
  });
}

(ONCE ? describe : describe.skip)('the build, pruned to production dependencies', function () {
  this.timeout(600_000);
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-dist-'));
    const files = (
      await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
    ).stdout
      .split('\0')
      .filter((f) => f !== '' && fs.existsSync(path.join(ROOT, f)));
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
    }
    // node_modules as `npm ci` leaves it, by hard links (npm prune unlinks, never writes into, the copy's files);
    // npm's own record of the tree is a real copy, as npm rewrites it.
    const modules = [path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules')];
    // Hard links need one file system; across two (a separate /tmp), a full copy.
    await run('cp', ['-al', ...modules]).catch(async () => {
      fs.rmSync(modules[1] as string, { recursive: true, force: true });
      await run('cp', ['-a', ...modules]);
    });
    fs.rmSync(path.join(dir, 'node_modules', '.package-lock.json'));
    fs.copyFileSync(
      path.join(ROOT, 'node_modules', '.package-lock.json'),
      path.join(dir, 'node_modules', '.package-lock.json'),
    );
    const tools = {
      ...process.env,
      PATH: `${path.join(dir, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
    };
    const built = Date.now();
    await run('bash', ['scripts/build.sh'], { cwd: dir, env: tools });
    const pruned = Date.now();
    await run('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: tools,
    });
    console.log(
      `      build ${((pruned - built) / 1000).toFixed(1)} s, prune ${((Date.now() - pruned) / 1000).toFixed(1)} s`,
    );
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps production dependencies only', () => {
    for (const dev of ['tsx', 'mocha', 'chai', '@biomejs/biome', 'openapi-typescript'])
      expect(fs.existsSync(path.join(dir, 'node_modules', dev)), dev).to.equal(false);
    for (const prod of ['express', 'knex', 'compression', 'cors'])
      expect(fs.existsSync(path.join(dir, 'node_modules', prod)), prod).to.equal(true);
    // The working tree keeps its own.
    expect(fs.existsSync(path.join(ROOT, 'node_modules', 'tsx'))).to.equal(true);
  });

  it('refuses to start in production without its settings: one line naming each, exit code 1', async () => {
    const child = spawn(process.execPath, ['dist/main.js'], { cwd: dir, env: productionEnv({}) });
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).to.equal(1);
    expect(err.trim().split('\n')).to.deep.equal([
      'meridian: failed to start: production (NODE_ENV=production) needs DATABASE_URL (or MERIDIAN_SQLITE_FILE), MERIDIAN_PUBLIC_URL, MERIDIAN_SECRET_KEY: see docs/deploy.md, "Production"',
    ]);
  });

  const databases: {
    name: string;
    env: () => Promise<{ env: NodeJS.ProcessEnv; dispose: () => Promise<void> }>;
  }[] = [
    {
      name: 'an explicit SQLite file',
      env: async () => ({
        env: { MERIDIAN_SQLITE_FILE: path.join(dir, 'data', 'meridian.sqlite') },
        dispose: async () => undefined,
      }),
    },
  ];
  if (process.env.TEST_DATABASE_URL)
    databases.push({
      name: 'Postgres',
      env: async () => {
        const database = await openTestDatabase('postgres', { migrated: false });
        const url = new URL(process.env.TEST_DATABASE_URL as string);
        url.searchParams.set('options', `-c search_path=${database.connection.pgSchema}`);
        return { env: { DATABASE_URL: url.toString() }, dispose: database.dispose };
      },
    });

  for (const database of databases)
    it(`migrates, serves and stops on ${database.name}: no demo tenant, no printed key`, async () => {
      const { env: dbEnv, dispose } = await database.env();
      const env: NodeJS.ProcessEnv = {
        ...dbEnv,
        MERIDIAN_PUBLIC_URL: 'https://pmo.example.com',
        MERIDIAN_SECRET_KEY: newSecretKey(),
      };
      let main: Awaited<ReturnType<typeof startDist>> | undefined;
      try {
        // Before the migration step, the API refuses to start, naming it.
        const early = await startDist(dir, env).then(
          () => 'started',
          (err: Error) => err.message,
        );
        expect(early).to.match(/migration\(s\) pending .*run node dist\/migrate\.js/);
        const migrated = await run(process.execPath, ['dist/migrate.js'], {
          cwd: dir,
          env: productionEnv(env),
        });
        expect(migrated.stdout).to.match(/meridian-migrate: \d+ migration\(s\) applied/);

        main = await startDist(dir, env);
        expect(main.output()).to.include(
          'meridian: production mode, demo off, running from the build (dist/)',
        );
        expect(main.output()).to.not.match(/mk_live_|demo tenant|NYC/);
        const health = await fetch(`${main.origin}/readyz`);
        expect(health.status).to.equal(200);
        // The Containerfile's HEALTHCHECK, as the image runs it.
        const [cmd, ...args] = healthcheckCommand();
        expect(cmd).to.equal('node');
        const port = new URL(main.origin).port;
        await run(process.execPath, args, { env: productionEnv({ PORT: port }) });

        // No tenant exists: the CLI makes the first one and its key, which the API accepts.
        const cli = (...a: string[]) =>
          run(process.execPath, ['dist/cli.js', ...a], { cwd: dir, env: productionEnv(env) });
        const db = openDatabase({
          databaseUrl: env.DATABASE_URL ?? null,
          sqliteFile: env.MERIDIAN_SQLITE_FILE ?? '',
        });
        try {
          expect(await db.knex('tenants').count({ n: '*' })).to.deep.equal([
            { n: env.DATABASE_URL ? '0' : 0 },
          ]);
        } finally {
          await db.close();
        }
        await cli('tenants', 'create', '--name', 'Acme PMO', '--plan', 'TEAM');
        const made = await cli('keys', 'create', '--tenant', 'Acme PMO', '--scopes', 'read,write');
        const key = /store it now\): (mk_live_[0-9A-Za-z]+)/.exec(made.stdout)?.[1] as string;
        const me = await fetch(`${main.origin}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
        expect(me.status).to.equal(200);
        expect(((await me.json()) as { tenant: { name: string } }).tenant.name).to.equal('Acme PMO');

        // /docs' script, precompressed by the build.
        const docs = await fetch(`${main.origin}/docs/assets/standalone.js`, {
          headers: { 'accept-encoding': 'br' },
        });
        expect(docs.headers.get('content-encoding')).to.equal('br');
        expect((await docs.arrayBuffer()).byteLength).to.be.above(1_000_000);

        // The worker, from the build too: it runs jobs and stops on SIGTERM with exit code 0.
        const worker = spawn(process.execPath, ['dist/worker.js'], { cwd: dir, env: productionEnv(env) });
        let workerOut = '';
        worker.stdout.on('data', (c: Buffer) => {
          workerOut += c.toString();
        });
        const workerExit = new Promise<number | null>((resolve) => worker.once('exit', resolve));
        const deadline = Date.now() + 60_000;
        while (!workerOut.includes('running jobs') && Date.now() < deadline && worker.exitCode === null)
          await new Promise((r) => setTimeout(r, 100));
        expect(workerOut).to.match(/meridian-worker: .*production mode[\s\S]*running jobs/);
        worker.kill('SIGTERM');
        expect(await workerExit).to.equal(0);

        const exit = new Promise<number | null>((resolve) => main?.child.once('exit', resolve));
        main.child.kill('SIGTERM');
        expect(await exit).to.equal(0);
      } finally {
        if (main) await stopProcess(main.child, 'SIGKILL');
        await dispose();
      }
    });
});
