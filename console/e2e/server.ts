/**
 * Playwright's global setup: starts Meridian as `npm start` does (server/main.ts, first run on a fresh database,
 * the job runner in process, private webhook targets allowed for the test's receivers on 127.0.0.1), reads the
 * printed admin key and the owner's one-time setup link, and hands them to the tests in the environment
 * (`E2E_BASE_URL`, `E2E_SETUP_LINK`, `E2E_ADMIN_KEY`, and `E2E_SERVER_ENV` for the CLI). A real SMTP server
 * (test/support/smtp.ts) receives the server's mail (`MERIDIAN_SMTP_URL`) and writes each message to `E2E_MAIL_DIR`. With TEST_DATABASE_URL the server runs on Postgres, in a
 * schema of its own. Returns the teardown that stops the server by its pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SmtpSink } from '../../test/support/smtp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-console-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const mailDir = path.join(dir, 'mail');
  mkdirSync(mailDir);
  const smtp = await SmtpSink.start(mailDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    MERIDIAN_SQLITE_FILE: path.join(dir, 'meridian.sqlite'),
    MERIDIAN_SECRET_KEY_FILE: path.join(dir, 'secret.key'),
    MERIDIAN_PUBLIC_URL: baseUrl,
    MERIDIAN_WORKER: 'true',
    // The console's journeys need no portfolio: start-up skips the demo import.
    MERIDIAN_IMPORT_DEMO: 'false',
    MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
    MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,600000',
    MERIDIAN_SMTP_URL: smtp.url,
  };
  delete env.MERIDIAN_API_KEY;
  // On Postgres (TEST_DATABASE_URL), a schema of this run's own, dropped at teardown.
  const pgUrl = process.env.TEST_DATABASE_URL;
  const schema = `console_e2e_${port}_${Date.now()}`;
  if (pgUrl) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.toString();
  }
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  server.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  server.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const deadline = Date.now() + 120_000;
  let link: RegExpMatchArray | null = null;
  let key: RegExpMatchArray | null = null;
  for (;;) {
    link = /(http:\/\/\S+\/console\/setup#token=\S+)/.exec(out);
    key = /(mk_live_[0-9A-Za-z]+)/.exec(out);
    const ready = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (link && key && ready) break;
    if (server.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the server did not start (exit ${server.exitCode}):\n${out}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_SETUP_LINK = link[1];
  process.env.E2E_ADMIN_KEY = key[1];
  process.env.E2E_MAIL_DIR = mailDir;
  // What `npm run cli` needs to reach the same database (the viewer journey creates an account with it).
  process.env.E2E_SERVER_ENV = JSON.stringify({
    MERIDIAN_SQLITE_FILE: env.MERIDIAN_SQLITE_FILE,
    MERIDIAN_SECRET_KEY_FILE: env.MERIDIAN_SECRET_KEY_FILE,
    MERIDIAN_PUBLIC_URL: baseUrl,
    NODE_ENV: 'test',
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
  });
  return async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
    if (pgUrl) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    }
  };
}
