/**
 * What the webhook delivery tests share: events written as the services write them, the worker's configuration,
 * receivers closed after the block, endpoints registered through the API, and polling until a condition holds.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { loadConfig } from '../../server/config.js';
import type { EventType } from '../../server/services/webhooks/index.js';
import type { Api } from './client.js';
import { Receiver } from './receiver.js';
import type { TestServer } from './server.js';

/** Writes an event with `emitEvent` inside a transaction, as the services do (a random `marker` in its data). */
export function emit(
  server: TestServer,
  tenantId: string,
  type: EventType,
  now: Date,
  data: Record<string, unknown> = {},
) {
  return server.db.knex.transaction((trx) =>
    server.meridian.services.events.emit(
      trx,
      tenantId,
      type,
      { marker: randomUUID(), ...data },
      now.toISOString(),
    ),
  );
}

/** A test configuration for a delivery worker: polls every 20 ms, plus `env`. */
export function workerConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    MERIDIAN_WORKER_POLL_MS: '20',
    MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  });
}

/** Starts receivers on 127.0.0.1 for the calling `describe` block and closes them in its `after` hook. */
export function receiverPool(): (...args: Parameters<typeof Receiver.start>) => Promise<Receiver> {
  const receivers: Receiver[] = [];
  after(async () => {
    for (const r of receivers) await r.close();
  });
  return async (...args) => {
    const r = await Receiver.start(...args);
    receivers.push(r);
    return r;
  };
}

/** Registers a webhook endpoint (201 asserted); its id and secret. */
export async function registerWebhook(api: Api, url: string, events: string[] = ['*']) {
  const res = await api.post('createWebhook', '/webhooks', { body: { url, events } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body as { id: string; secret: string };
}

/** Polls `check` every 25 ms until it holds. @throws Error after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`condition not met in ${timeoutMs} ms`);
}
