/**
 * Starting and stopping (docs/deploy.md, "Operations"), as child processes over a real SQLite file: a busy port is
 * reported in one line before any import or key; SIGTERM lets the API answer a request in flight (and accept no
 * new connection) before it exits 0, and lets a worker finish the agent run in flight (exit
 * code 0, the run COMPLETED on its first attempt) within MERIDIAN_SHUTDOWN_TIMEOUT_MS, or, past that bound, exits
 * with code 1 leaving the run to its lease (docs/design.md, "Job runner").
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { type Started, startApi, startEntryPoint, stopProcess } from '../support/processes.js';
import { TEST_DB } from '../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const KEY = `mk_live_${'lifecycle0123456789'.padEnd(40, 'x')}`;

async function call(baseUrl: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}

(TEST_DB === 'sqlite' ? describe : describe.skip)('starting and stopping', function () {
  this.timeout(180_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-lifecycle-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports a busy port in one line, before migrating, importing or printing a key', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const port = (holder.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'development',
          DATABASE_URL: '',
          PORT: String(port),
          MERIDIAN_SQLITE_FILE: path.join(dir, 'm.sqlite'),
          MERIDIAN_SECRET_KEY_FILE: path.join(dir, 'secret.key'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).to.equal(1);
      expect(err.trim().split('\n')).to.deep.equal([
        `meridian: failed to start: port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop what listens there or set PORT to another port`,
      ]);
      expect(out).to.not.match(/mk_live_|import|demo tenant/);
      // Nothing was migrated: the database file was never opened.
      expect(fs.existsSync(path.join(dir, 'm.sqlite'))).to.equal(false);
    } finally {
      holder.close();
    }
  });

  it('on SIGTERM, a worker finishes the agent run in flight and exits 0; past the bound it exits 1', async () => {
    const env = {
      DATABASE_URL: '',
      MERIDIAN_SQLITE_FILE: path.join(dir, 'drain.sqlite'),
      MERIDIAN_IMPORT_DEMO: 'false',
      MERIDIAN_API_KEY: KEY,
      MERIDIAN_WORKER: 'false',
      MERIDIAN_WORKER_POLL_MS: '50',
    };
    const api = await startApi(env);
    const workers: Started[] = [];
    try {
      for (let i = 0; i < 10; i++)
        await call(api.baseUrl, 'POST', '/projects', {
          name: `Drain project ${i}`,
          startDate: '2026-01-01',
          endDate: '2026-12-31',
          budget: 1_000_000,
          forecastCost: 1_100_000,
        });
      const runUntilRunning = async (worker: Started) => {
        workers.push(worker);
        const run = await call(api.baseUrl, 'POST', '/agents/run', {
          agentId: 'portfolio-health',
          depth: 'deep',
        });
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline) {
          const seen = await call(api.baseUrl, 'GET', `/agents/executions/${run.executionId}`);
          if (seen.status === 'RUNNING') return run.executionId as string;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`the run did not start:\n${worker.output()}`);
      };
      const exitOf = (worker: Started) =>
        new Promise<number | null>((resolve) => {
          worker.child.removeAllListeners('exit');
          worker.child.once('exit', resolve);
        });

      // Within the bound: the run ends on this worker, before it exits.
      const patient = await startEntryPoint(
        'server/worker.ts',
        { ...env, MERIDIAN_AGENT_STAGE_DELAY_MS: '200', MERIDIAN_SHUTDOWN_TIMEOUT_MS: '20000' },
        /running jobs/,
      );
      const drained = await runUntilRunning(patient);
      const patientExit = exitOf(patient);
      patient.child.kill('SIGTERM');
      expect(await patientExit).to.equal(0);
      expect(await call(api.baseUrl, 'GET', `/agents/executions/${drained}`)).to.include({
        status: 'COMPLETED',
        attempts: 1,
      });

      // Past the bound: the worker stops waiting and exits 1; the run keeps its lease, to be claimed again.
      const hasty = await startEntryPoint(
        'server/worker.ts',
        { ...env, MERIDIAN_AGENT_STAGE_DELAY_MS: '2000', MERIDIAN_SHUTDOWN_TIMEOUT_MS: '300' },
        /running jobs/,
      );
      const cut = await runUntilRunning(hasty);
      const hastyExit = exitOf(hasty);
      const signalled = Date.now();
      hasty.child.kill('SIGTERM');
      expect(await hastyExit).to.equal(1);
      console.log(`      past a 300 ms bound, the worker exited in ${Date.now() - signalled} ms`);
      expect(await call(api.baseUrl, 'GET', `/agents/executions/${cut}`)).to.include({ status: 'RUNNING' });
    } finally {
      for (const w of workers) await stopProcess(w.child, 'SIGKILL');
      await stopProcess(api.child);
    }
  });

  it('on SIGTERM, the API answers the request in flight, refuses new connections, and exits 0', async () => {
    const api = await startApi({
      DATABASE_URL: '',
      MERIDIAN_SQLITE_FILE: path.join(dir, 'requests.sqlite'),
      MERIDIAN_IMPORT_DEMO: 'false',
      MERIDIAN_API_KEY: KEY,
    });
    try {
      const url = new URL(api.baseUrl);
      const body = JSON.stringify({
        name: 'Sent across a shutdown',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
      });
      // A request whose body arrives in two halves, with SIGTERM between them.
      const socket = connect(Number(url.port), url.hostname);
      let answer = '';
      socket.on('data', (c: Buffer) => {
        answer += c.toString();
      });
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `POST /v1/projects HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${KEY}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );
      await new Promise((r) => setTimeout(r, 300));
      const exit = new Promise<number | null>((resolve) => {
        api.child.removeAllListeners('exit');
        api.child.once('exit', resolve);
      });
      api.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      const refused = await fetch(`${api.baseUrl}/me`, { headers: { authorization: `Bearer ${KEY}` } }).then(
        () => 'answered',
        (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
      );
      expect(refused).to.equal('ECONNREFUSED');
      socket.write(body.slice(20));
      await closed;
      expect(answer).to.match(/^HTTP\/1\.1 201 /);
      expect(answer).to.include('Sent across a shutdown');
      expect(await exit).to.equal(0);
    } finally {
      await stopProcess(api.child, 'SIGKILL');
    }
  });
});
