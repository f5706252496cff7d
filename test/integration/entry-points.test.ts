/**
 * The entry points as a user runs them, as child processes over a real SQLite file: `npm start` (server/main.ts)
 * imports the NYC portfolio and prints a working admin key; the CLI creates a tenant and a key that the API
 * accepts.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { startApi, stopProcess } from '../support/processes.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Starts server/main.ts on an empty DATABASE_URL (the SQLite file of `env`), allowing 120 s for the import. */
const startMainFor = (env: NodeJS.ProcessEnv) => startApi({ DATABASE_URL: '', ...env }, 120_000);

describe('entry points', function () {
  this.timeout(240_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-entry-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('npm start imports the NYC portfolio, prints the admin key once, and serves GET /projects per the seed', async () => {
    const env = { MERIDIAN_SQLITE_FILE: path.join(dir, 'm.sqlite') };
    const first = await startMainFor(env);
    let key: string;
    try {
      const printed = /(mk_live_[0-9A-Za-z]{40})/.exec(first.output());
      expect(printed, first.output()).to.not.equal(null);
      key = printed?.[1] as string;
      expect(first.output()).to.match(/2189 status reports stored, 355 projects created/);
      const res = await fetch(`${first.baseUrl}/projects?status=AT_RISK&limit=5`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await res.json()) as {
        data: { status: string; code: string }[];
        pagination: { total: number };
      };
      expect(res.status).to.equal(200);
      expect(body.data).to.have.length(5);
      expect(body.data.every((p) => p.status === 'AT_RISK' && p.code.startsWith('NYC-'))).to.equal(true);
      expect(body.pagination.total).to.be.greaterThan(5);
    } finally {
      await stopProcess(first.child);
    }
    // A second start reuses the database: the unchanged file is not read again and no key is printed again.
    const restarted = Date.now();
    const second = await startMainFor(env);
    // Printed, not asserted (the machine is shared): docs/deploy.md, "Restarts" quotes it.
    console.log(
      `      restart with the database and the file unchanged (tsx): listening after ${Date.now() - restarted} ms`,
    );
    try {
      expect(second.output()).to.match(/NYC capital projects portfolio is imported and its file unchanged/);
      expect(second.output()).to.not.match(/mk_live_/);
      const me = await fetch(`${second.baseUrl}/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).to.equal(200);
    } finally {
      await stopProcess(second.child);
    }
  });

  it('the CLI import reports progress as plain lines when stdout is not a terminal', async () => {
    const env = { ...process.env, MERIDIAN_SQLITE_FILE: path.join(dir, 'import.sqlite'), DATABASE_URL: '' };
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], { cwd: ROOT, env });
    await cli('tenants', 'create', '--name', 'Progress PMO');
    const { stdout, stderr } = await cli(
      'import',
      'nyc-capital-projects',
      'datasets/nyc-capital-projects-2019-09-01.csv',
      '--tenant',
      'Progress PMO',
    );
    // No bar: no carriage returns or escape sequences, one line per 250 rows and one at the end.
    expect(stderr.includes('\r') || stderr.includes('\u001b[')).to.equal(false);
    const lines = stderr.split('\n').filter((l) => l.startsWith('imported '));
    const counts = lines.map((l) => {
      const m = /^imported (\d+)\/(\d+) status reports \((\d+) %\)$/.exec(l);
      expect(m, l).to.not.equal(null);
      return { done: Number(m?.[1]), total: Number(m?.[2]), percent: Number(m?.[3]) };
    });
    const total = counts[0]?.total as number;
    expect(total).to.be.greaterThan(2189);
    expect(counts.map((c) => c.done)).to.deep.equal([
      ...Array.from({ length: Math.floor(total / 250) }, (_, i) => (i + 1) * 250),
      ...(total % 250 === 0 ? [] : [total]),
    ]);
    expect(counts.every((c) => c.total === total)).to.equal(true);
    expect(counts.at(-1)?.percent).to.equal(100);
    // The report itself stays on stdout.
    expect(stdout).to.match(/2189 status reports stored/);
  });

  it('the CLI import draws a progress bar when stdout is a terminal (a pseudo-terminal from `script`)', async function () {
    if (!fs.existsSync('/usr/bin/script')) this.skip();
    const env = { ...process.env, MERIDIAN_SQLITE_FILE: path.join(dir, 'bar.sqlite'), DATABASE_URL: '' };
    const node = `${process.execPath} --import tsx server/cli.ts`;
    await run(
      process.execPath,
      ['--import', 'tsx', 'server/cli.ts', 'tenants', 'create', '--name', 'Bar PMO'],
      {
        cwd: ROOT,
        env,
      },
    );
    const command = `${node} import nyc-capital-projects datasets/nyc-capital-projects-2019-09-01.csv --tenant 'Bar PMO'`;
    const { stdout } = await run('/usr/bin/script', ['-qec', command, '/dev/null'], { cwd: ROOT, env });
    // cli-progress redraws one line in place (cursor to column 1) and ends full.
    expect(stdout).to.include('\u001b[1Gimported [');
    expect(stdout).to.match(/\] 100% \| (\d+)\/\1 status reports/);
    expect(stdout).to.not.match(/^imported \d+\/\d+ status reports \(/m);
  });

  it('the CLI creates a tenant and a key the API accepts, with exactly the scopes asked for', async () => {
    const env = { ...process.env, MERIDIAN_SQLITE_FILE: path.join(dir, 'cli.sqlite'), DATABASE_URL: '' };
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], { cwd: ROOT, env });
    const tenant = JSON.parse(
      (await cli('tenants', 'create', '--name', 'Acme PMO', '--plan', 'TEAM')).stdout,
    );
    expect(tenant).to.include({ name: 'Acme PMO', plan: 'TEAM' });
    const keyOut = (await cli('keys', 'create', '--tenant', 'Acme PMO', '--scopes', 'read')).stdout;
    const key = /API key \(shown once, store it now\): (mk_live_\w+)/.exec(keyOut)?.[1];
    expect(key).to.be.a('string');
    const bad = await cli('keys', 'create', '--tenant', 'Acme PMO', '--scopes', 'root').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((bad as { code: number }).code).to.not.equal(0);
    const server = await startMainFor({
      MERIDIAN_SQLITE_FILE: env.MERIDIAN_SQLITE_FILE,
      MERIDIAN_IMPORT_DEMO: 'false',
    });
    try {
      const me = await fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await me.json()) as {
        tenant: { id: string; name: string };
        apiKey: { scopes: string[] };
      };
      expect(body.tenant).to.deep.equal({ id: tenant.tenantId, name: 'Acme PMO' });
      expect(body.apiKey.scopes).to.deep.equal(['read']);
      const write = await fetch(`${server.baseUrl}/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', startDate: '2026-01-01', endDate: '2026-02-01' }),
      });
      expect(write.status).to.equal(403);
    } finally {
      await stopProcess(server.child);
    }
  });
});
