/**
 * Crash test (docs/design.md, Job runner): the API process (`server/main.ts`, worker in process, SQLite file) is
 * killed with SIGKILL while deliveries are pending and in flight to a slow receiver; after a restart every event
 * arrives (at least once). Events are made through the API (POST /risks emits `risk.created` in its transaction).
 * The figures (events, deliveries received, duplicates) are printed.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startApi, stopProcess } from '../support/processes.js';
import { Receiver, verify } from '../support/receiver.js';

const KEY = `mk_live_${'crashTest0123456789'.padEnd(40, 'x')}`;

async function post(baseUrl: string, p: string, body: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${p}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 201) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

describe('webhook delivery survives a SIGKILL of the API process', function () {
  this.timeout(180_000);
  let dir: string;
  let receiver: Receiver;
  const children: ChildProcess[] = [];
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-crash-'));
    // A slow receiver: deliveries are in flight when the process dies.
    receiver = await Receiver.start(() => ({ status: 200, delayMs: 250 }));
  });
  after(async () => {
    for (const child of children) await stopProcess(child, 'SIGTERM');
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('delivers every event after a restart, at least once', async () => {
    const env = {
      MERIDIAN_SQLITE_FILE: path.join(dir, 'crash.sqlite'),
      MERIDIAN_IMPORT_DEMO: 'false',
      MERIDIAN_API_KEY: KEY,
      MERIDIAN_WORKER: 'true',
      MERIDIAN_WORKER_POLL_MS: '50',
      // Lease = 2 × timeout = 4 s: a dead worker's claims are retried 4 s later.
      MERIDIAN_WEBHOOK_TIMEOUT_MS: '2000',
      MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,200,200,200,200',
    };
    const first = await startApi({ DATABASE_URL: '', ...env });
    children.push(first.child);
    const hook = await post(first.baseUrl, '/webhooks', { url: receiver.url(), events: ['risk.created'] });
    const project = await post(first.baseUrl, '/projects', {
      name: 'Crash test',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    const EVENTS = 60;
    const riskIds = new Set<string>();
    for (let i = 0; i < EVENTS; i++) {
      const risk = await post(first.baseUrl, '/risks', {
        title: `Risk ${i}`,
        projectId: project.id,
        likelihood: 2,
        impact: 3,
      });
      riskIds.add(risk.id);
    }
    // Kill while deliveries are in flight (the receiver holds each for 250 ms) and others are still pending.
    await receiver.waitFor(5, 30_000);
    await stopProcess(first.child, 'SIGKILL');
    const beforeRestart = receiver.received.length;
    expect(beforeRestart).to.be.lessThan(EVENTS);

    const second = await startApi({ DATABASE_URL: '', ...env });
    children.push(second.child);
    const distinct = () => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size;
    // Done when no delivery is pending any more: the ones in flight at the kill are retried once their leases
    // expire, so they arrive twice (at least once, never lost).
    const pending = async () => {
      const res = await fetch(`${second.baseUrl}/webhooks/${hook.id}/deliveries?status=PENDING&limit=1`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      return ((await res.json()) as { pagination: { total: number } }).pagination.total;
    };
    const deadline = Date.now() + 60_000;
    while ((distinct() < EVENTS || (await pending()) > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    const received = new Set<string>();
    for (const got of receiver.received) {
      const payload = verify(hook.secret, got);
      expect(payload.event).to.equal('risk.created');
      received.add(payload.data.riskId);
    }
    const duplicates = receiver.received.length - distinct();
    console.log(
      `      crash test: ${EVENTS} events, ${beforeRestart} requests before SIGKILL, ` +
        `${receiver.received.length} requests in all, ${distinct()} distinct webhook-ids, ${duplicates} duplicates`,
    );
    expect([...riskIds].filter((id) => !received.has(id))).to.deep.equal([]);
    expect(distinct()).to.equal(EVENTS);
  });
});
