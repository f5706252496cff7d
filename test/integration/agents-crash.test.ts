/**
 * Crash test (docs/agents.md, Agents): the API (`server/main.ts`, no worker) and a worker (`server/worker.ts`) on
 * one database (a SQLite file, or with MERIDIAN_TEST_DB=postgres a schema of the test Postgres). The worker is
 * killed with SIGKILL while it runs an execution (RUNNING, progress shown); a second worker claims it once its
 * lease expires and completes it: attempts = 2, output present, exactly one `agent.execution_completed`. The
 * figures are printed.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startApi, startWorker, stopProcess } from '../support/processes.js';
import { Receiver, verify } from '../support/receiver.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

const KEY = `mk_live_${'agentCrash0123456789'.padEnd(40, 'x')}`;
const LEASE_MS = 1_500;

async function call(baseUrl: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

describe(`an agent execution survives a SIGKILL of its worker (${TEST_DB})`, function () {
  this.timeout(180_000);
  let dir: string;
  let receiver: Receiver;
  let database: Awaited<ReturnType<typeof openTestDatabase>> | null = null;
  let databaseUrl = '';
  const children: ChildProcess[] = [];
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-agent-crash-'));
    receiver = await Receiver.start();
    if (TEST_DB === 'postgres') {
      // A migrated schema of its own; the processes reach it through the URL's search_path.
      database = await openTestDatabase('postgres');
      const schema = (
        (await database.db.knex.raw('select current_schema() as s')) as { rows: { s: string }[] }
      ).rows[0]?.s;
      const url = new URL(process.env.TEST_DATABASE_URL as string);
      url.searchParams.set('options', `-c search_path=${schema}`);
      databaseUrl = url.toString();
    }
  });
  after(async () => {
    for (const child of children) await stopProcess(child);
    await receiver.close();
    await database?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is retried once the lease expires and COMPLETES with attempts = 2', async () => {
    const env = {
      MERIDIAN_SQLITE_FILE: path.join(dir, 'crash.sqlite'),
      MERIDIAN_IMPORT_DEMO: 'false',
      MERIDIAN_API_KEY: KEY,
      MERIDIAN_WORKER: 'false',
      MERIDIAN_WORKER_POLL_MS: '50',
      MERIDIAN_AGENT_LEASE_MS: String(LEASE_MS),
      DATABASE_URL: databaseUrl,
    };
    const api = await startApi(env);
    children.push(api.child);
    const hook = await call(api.baseUrl, 'POST', '/webhooks', {
      url: receiver.url(),
      events: ['agent.execution_completed'],
    });
    for (let i = 0; i < 20; i++) {
      await call(api.baseUrl, 'POST', '/projects', {
        name: `Crash project ${i}`,
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        forecastEndDate: `2027-0${1 + (i % 9)}-01`,
        budget: 1_000_000,
        forecastCost: 1_000_000 + i * 10_000,
      });
    }
    // The first worker pauses 1 s after each stage: it is mid-run for several seconds.
    const first = await startWorker({ ...env, MERIDIAN_AGENT_STAGE_DELAY_MS: '1000' });
    children.push(first);
    const run = await call(api.baseUrl, 'POST', '/agents/run', {
      agentId: 'portfolio-health',
      depth: 'deep',
    });
    let seen: any = null;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      seen = await call(api.baseUrl, 'GET', `/agents/executions/${run.executionId}`);
      if (seen.status === 'RUNNING' && seen.progress?.stage.startsWith('reading')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).to.include({ status: 'RUNNING', attempts: 1 });
    const killedAt = Date.now();
    await stopProcess(first, 'SIGKILL');
    const afterKill = await call(api.baseUrl, 'GET', `/agents/executions/${run.executionId}`);
    expect(afterKill).to.include({ status: 'RUNNING', attempts: 1 });

    const second = await startWorker(env);
    children.push(second);
    let done: any = null;
    while (Date.now() < killedAt + 60_000) {
      done = await call(api.baseUrl, 'GET', `/agents/executions/${run.executionId}`);
      if (done.status === 'COMPLETED' || done.status === 'FAILED') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const recoveredMs = Date.now() - killedAt;
    console.log(
      `      agent crash test: SIGKILL at "${seen.progress.stage}" (${seen.progress.percent} %), lease ${LEASE_MS} ms; ` +
        `${done.status} with attempts = ${done.attempts} ${recoveredMs} ms after the kill`,
    );
    expect(done).to.include({ status: 'COMPLETED', attempts: 2, error: null, progress: null });
    expect(done.output.metrics.projects).to.equal(20);
    expect(done.startedAt <= done.completedAt).to.equal(true);
    // Not before the dead worker's lease (extended every third of it) ran out.
    expect(recoveredMs).to.be.at.least(LEASE_MS / 2);
    // One event, after the completion.
    await receiver.waitFor(1, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    const events = receiver.received.map((got) => verify(hook.secret, got));
    expect(events.map((e) => [e.data.executionId, e.data.status, e.data.execution.attempts])).to.deep.equal([
      [run.executionId, 'COMPLETED', 2],
    ]);
  });
});
