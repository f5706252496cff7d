/**
 * Webhook delivery latency: from the commit of an event's transaction to its receipt by a local receiver, against a
 * baseline measured in the same run: the same receiver's latency for a plain POST sent straight from this process
 * (the floor any delivery pays for HTTP on loopback).
 *
 * Uses a fresh SQLite file (or the Postgres named by DATABASE_URL, in a throwaway schema), an in-process
 * DeliveryWorker (woken by the commit, polling every 500 ms as a fallback) and a receiver on 127.0.0.1 that
 * answers 200 at once. Reports p50/p95/p99/max in ms; nothing is asserted.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../server/clock.js';
import { loadConfig } from '../server/config.js';
import { migrate, openDatabase } from '../server/repositories/db.js';
import { buildServices } from '../server/services/index.js';
import { newSecret } from '../server/services/webhooks/index.js';
import { DeliveryWorker } from '../server/services/webhooks/index.js';
import { percentile } from './stats.js';

/** Runs `events` events through outbox and worker, then as many direct POSTs; returns one row per measure. */
export async function benchDelivery(events = 500): Promise<Record<string, string | number>[]> {
  const EVENTS = events;
  const CONCURRENCY = 1;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // The receiver listens on 127.0.0.1.
    MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-'));
  const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  if (config.databaseUrl) {
    const admin = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: '' });
    await admin.knex.raw(`CREATE SCHEMA "${schema}"`);
    await admin.close();
  }
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(dir, 'bench.sqlite'),
    ...(config.databaseUrl ? { pgSchema: schema } : {}),
  });
  await migrate(db);

  const committedAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200).end();
      const id = req.headers['webhook-id'] as string;
      if (!receivedAt.has(id)) receivedAt.set(id, at);
      if (receivedAt.size === EVENTS) done();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;

  const now = new Date().toISOString();
  const tenantId = randomUUID();
  await db.knex('tenants').insert({ id: tenantId, name: 'Bench', created_at: now, updated_at: now });
  await db.knex('webhook_endpoints').insert({
    id: randomUUID(),
    tenant_id: tenantId,
    url: `http://127.0.0.1:${port}/hook`,
    events: JSON.stringify(['*']),
    enabled: true,
    secret: newSecret(),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  // The worker shares the services' job queue, so the commit of each event wakes it.
  const services = buildServices({ db, clock: systemClock }, config);
  const worker = new DeliveryWorker({
    db,
    clock: systemClock,
    services,
    config: { ...config, workerPollMs: 500 },
  }).start();

  const started = performance.now();
  let next = 0;
  async function producer(): Promise<void> {
    while (next < EVENTS) {
      next++;
      let id = '';
      await db.knex.transaction(async (trx) => {
        const event = await services.events.emit(trx, tenantId, 'risk.created', { n: next }, new Date().toISOString());
        id = event.id;
      });
      // The transaction has committed when it resolves (a receipt that beats this line counts as 0 ms).
      committedAt.set(id, performance.now());
      // One event at a time per producer: a steady trickle, not a burst.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, producer));
  await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 60_000))]);
  const elapsed = performance.now() - started;
  await worker.stop();
  receiver.close();
  await db.close();
  if (config.databaseUrl) {
    const admin = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: '' });
    await admin.knex.raw(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });

  const latencies = [...committedAt].flatMap(([id, committed]) => {
    const received = receivedAt.get(id);
    return received === undefined ? [] : [Math.max(0, received - committed)];
  });
  const baseline = await directPosts(EVENTS);
  const row = (measure: string, values: number[], extra: Record<string, string | number> = {}) => {
    const sorted = [...values].sort((a, b) => a - b);
    const fmt = (ms: number) => Number(ms.toFixed(2));
    return {
      measure,
      n: values.length,
      'p50 ms': fmt(percentile(sorted, 50)),
      'p95 ms': fmt(percentile(sorted, 95)),
      'p99 ms': fmt(percentile(sorted, 99)),
      'max ms': fmt(sorted.at(-1) ?? Number.NaN),
      ...extra,
    };
  };
  const delivered = row(`commit → receipt (${db.dialect}, worker in process)`, latencies, {
    'total ms': Number(elapsed.toFixed(0)),
  });
  const direct = row('direct POST → receipt (baseline)', baseline);
  return [
    delivered,
    direct,
    {
      measure: 'delivery / baseline',
      'p50 ms': Number(((delivered['p50 ms'] as number) / (direct['p50 ms'] as number)).toFixed(1)),
      'p95 ms': Number(((delivered['p95 ms'] as number) / (direct['p95 ms'] as number)).toFixed(1)),
    },
  ];
}

/** The baseline: `count` POSTs of a delivery-sized body from this process to a fresh local receiver, one at a time. */
async function directPosts(count: number): Promise<number[]> {
  let receivedAt = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receivedAt = performance.now();
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const body = JSON.stringify({ id: randomUUID(), event: 'risk.created', data: { n: 0 } });
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const sent = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    out.push(Math.max(0, receivedAt - sent));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  return out;
}
