/**
 * The webhook delivery worker (DESIGN.md, Events and webhooks; issue 5, Delivery).
 *
 * Loop: claim a batch of due deliveries under a lease, POST each (Standard Webhooks headers, 15 s timeout),
 * record the attempt and settle the delivery: 2xx → SUCCEEDED; 410 → FAILED and the endpoint disabled; 429/503
 * with Retry-After → retried after that delay (at most 1 h); anything else → the next step of the schedule, FAILED
 * after the last. An endpoint failing continuously for 5 days is disabled. A worker that dies mid-delivery leaves
 * its lease, which expires, and the delivery is claimed again: delivery is at least once.
 *
 * Schedule decisions (due times, leases, the 5-day window) and `webhook-timestamp` use the injected clock.
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { inTransaction } from '../repositories/common.js';
import type { Database } from '../repositories/db.js';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  type DeliveryStatus,
  deliveryExists,
  endpointHealth,
  insertAttempt,
  pruneDeliveries,
  setFailingSince,
  settleDelivery,
  type WebhookSecrets,
} from '../repositories/webhooks.js';
import {
  checkLiteralTarget,
  disableEndpoint,
  guardedLookup,
  onDeliveriesQueued,
} from '../services/webhooks.js';

/** An endpoint failing for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
/** Settled deliveries are kept this long (spec: listWebhookDeliveries), then pruned. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Upper bound of a honoured `Retry-After`. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>` with the key the
 * base64-decoded part of the `whsec_` secret; during a rotation's overlap a second, space-separated signature made
 * with the previous secret.
 */
export function signatureHeader(
  secrets: WebhookSecrets,
  now: Date,
  msgId: string,
  timestamp: number,
  body: string,
): string {
  const sign = (secret: string) =>
    `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
      .update(`${msgId}.${timestamp}.${body}`)
      .digest('base64')}`;
  const signatures = [sign(secrets.secret)];
  if (
    secrets.previousSecret &&
    secrets.previousSecretExpiresAt &&
    secrets.previousSecretExpiresAt > now.toISOString()
  ) {
    signatures.push(sign(secrets.previousSecret));
  }
  return signatures.join(' ');
}

/** `Retry-After` (delay-seconds or an HTTP-date) as a delay in ms from `now`, bounded to [0, 1 h]; null if absent. */
export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (value === undefined || value.trim() === '') return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    // An HTTP-date (RFC 9110 §5.6.7) names a weekday and month; anything else (e.g. "-5") is malformed.
    if (!/^[A-Za-z]{3},? /.test(trimmed)) return null;
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** What one HTTP attempt produced. */
interface AttemptResult {
  statusCode: number | null;
  retryAfter: string | undefined;
  error: string | null;
}

/** POSTs the body; resolves at the response's status line (the body is drained and ignored). */
function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<{ statusCode: number; retryAfter: string | undefined }> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(timeoutMs),
        // The address policy runs in the connection's own lookup (no window for DNS rebinding). Redirects are
        // never followed: node:http does not, and a 3xx is a failed attempt.
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        res.resume();
        res.on('error', () => undefined);
        const retryAfter = res.headers['retry-after'];
        resolve({ statusCode: res.statusCode ?? 0, retryAfter });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function describeError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
    const code = (err as { code?: string }).code;
    const message = err.message.slice(0, 300);
    return code && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return String(err).slice(0, 300);
}

/** Options of a {@link DeliveryWorker}. */
export interface DeliveryWorkerOptions {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'webhookAllowPrivate' | 'webhookRetrySchedule' | 'webhookTimeoutMs' | 'workerPollMs'>;
  logger?: Logger;
  /** Deliveries claimed per round (default 25). */
  batchSize?: number;
  /** Lease of a claim in ms (default twice the attempt timeout: 30 s). Must exceed the timeout. */
  leaseMs?: number;
}

/** One delivery worker: `start()` runs the loop until `stop()`; tests drive it with `runOnce()`/`drain()`. */
export class DeliveryWorker {
  readonly id = `worker-${randomUUID()}`;
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #config: DeliveryWorkerOptions['config'];
  readonly #logger: Logger | undefined;
  readonly #batchSize: number;
  readonly #leaseMs: number;
  #claims = 0;
  #prunedAt = Number.NEGATIVE_INFINITY;
  #running: Promise<void> | null = null;
  #stopping = false;
  #wake: (() => void) | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(options: DeliveryWorkerOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#config = options.config;
    this.#logger = options.logger;
    this.#batchSize = options.batchSize ?? 25;
    this.#leaseMs = options.leaseMs ?? Math.max(2 * options.config.webhookTimeoutMs, 1_000);
  }

  /** Starts the polling loop (idempotent); in-process enqueues wake it at once. */
  start(): this {
    if (this.#running) return this;
    this.#stopping = false;
    this.#unsubscribe = onDeliveriesQueued(() => this.#wake?.());
    this.#running = this.#loop();
    return this;
  }

  /** Stops the loop after the round in flight settles. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#wake?.();
    await this.#running;
    this.#running = null;
  }

  async #loop(): Promise<void> {
    while (!this.#stopping) {
      let handled = 0;
      try {
        if (this.#clock.now().getTime() - this.#prunedAt >= PRUNE_EVERY_MS) await this.prune();
        handled = await this.runOnce();
      } catch (err) {
        this.#logger?.error({ err }, 'webhook delivery round failed');
      }
      if (handled < this.#batchSize && !this.#stopping) await this.#idle();
    }
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#config.workerPollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
    });
  }

  /** Claims one batch of due deliveries and attempts each (concurrently); returns how many were attempted. */
  async runOnce(): Promise<number> {
    const now = this.#clock.now();
    const token = `${this.id}/${++this.#claims}`;
    const claimed = await claimDueDeliveries(this.#db.knex, {
      skipLocked: this.#db.dialect === 'postgres',
      token,
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.#leaseMs).toISOString(),
      limit: this.#batchSize,
    });
    await Promise.all(claimed.map((delivery) => this.#deliver(delivery, token)));
    return claimed.length;
  }

  /** Deletes settled deliveries older than 30 days (run hourly by the loop); returns how many. */
  async prune(): Promise<number> {
    const now = this.#clock.now().getTime();
    this.#prunedAt = now;
    return pruneDeliveries(this.#db.knex, new Date(now - DELIVERY_RETENTION_MS).toISOString());
  }

  /** Runs rounds until none is due (tests: "deliver everything that is due now"). */
  async drain(maxRounds = 1_000): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxRounds; i++) {
      const n = await this.runOnce();
      total += n;
      if (n === 0) break;
    }
    return total;
  }

  async #deliver(delivery: ClaimedDelivery, token: string): Promise<void> {
    const started = this.#clock.now();
    const attemptedAt = started.toISOString();
    const { webhookTimeoutMs: timeoutMs, webhookAllowPrivate: allowPrivate } = this.#config;
    if (!delivery.enabled) {
      // Disabled between the queuing and now: no attempt, nothing more to do.
      await this.#settle(delivery, token, null, { status: 'FAILED', nextAttemptAt: null }, attemptedAt);
      return;
    }
    const t0 = performance.now();
    let result: AttemptResult;
    try {
      if (delivery.payload === null) throw new Error('the event payload is missing');
      const url = new URL(delivery.url);
      checkLiteralTarget(url, allowPrivate);
      const timestamp = Math.floor(started.getTime() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Meridian-Webhooks/1.0',
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(
          delivery.secrets,
          started,
          delivery.eventId,
          timestamp,
          delivery.payload,
        ),
      };
      const res = await post(url, delivery.payload, headers, timeoutMs, allowPrivate);
      result = { statusCode: res.statusCode, retryAfter: res.retryAfter, error: null };
    } catch (err) {
      result = { statusCode: null, retryAfter: undefined, error: describeError(err, timeoutMs) };
    }
    const durationMs = Math.max(0, Math.round(performance.now() - t0));
    const now = this.#clock.now();
    const attempt = { attemptedAt, statusCode: result.statusCode, durationMs, error: result.error };
    const code = result.statusCode;
    const attemptCount = delivery.attemptCount + 1;
    if (code !== null && code >= 200 && code < 300) {
      await this.#settle(
        delivery,
        token,
        attempt,
        { status: 'SUCCEEDED', nextAttemptAt: null, attemptCount },
        attemptedAt,
        'success',
      );
      return;
    }
    if (code === 410) {
      await this.#settle(
        delivery,
        token,
        attempt,
        { status: 'FAILED', nextAttemptAt: null, attemptCount },
        attemptedAt,
        {
          disable: `The endpoint answered 410 Gone at ${attemptedAt}.`,
        },
      );
      return;
    }
    const schedule = this.#config.webhookRetrySchedule;
    let next: string | null = null;
    if (attemptCount < schedule.length) {
      const honoured = code === 429 || code === 503 ? retryAfterMs(result.retryAfter, now) : null;
      const delay = honoured ?? schedule[attemptCount] ?? 0;
      next = new Date(now.getTime() + delay).toISOString();
    }
    await this.#settle(
      delivery,
      token,
      attempt,
      { status: next ? 'PENDING' : 'FAILED', nextAttemptAt: next, attemptCount },
      attemptedAt,
      'failure',
    );
  }

  /**
   * Records the attempt and settles the delivery in one transaction, and keeps the endpoint's health: a success
   * closes its failure window; a failure opens it (or disables the endpoint once it is 5 days old); 410 disables.
   */
  async #settle(
    delivery: ClaimedDelivery,
    token: string,
    attempt: {
      attemptedAt: string;
      statusCode: number | null;
      durationMs: number;
      error: string | null;
    } | null,
    outcome: { status: DeliveryStatus; nextAttemptAt: string | null; attemptCount?: number },
    attemptedAt: string,
    health?: 'success' | 'failure' | { disable: string },
  ): Promise<void> {
    const now = this.#clock.now().toISOString();
    await inTransaction(this.#db.knex, async (trx) => {
      // The endpoint (and so the delivery) may have been deleted while the request was in flight.
      if (!(await deliveryExists(trx, delivery.id))) return;
      if (attempt) await insertAttempt(trx, uuidv7(), delivery.id, attempt);
      const settled = await settleDelivery(
        trx,
        delivery.id,
        token,
        {
          status: outcome.status,
          attemptCount: outcome.attemptCount ?? delivery.attemptCount,
          nextAttemptAt: outcome.nextAttemptAt,
        },
        now,
      );
      if (!settled) {
        this.#logger?.warn({ deliveryId: delivery.id }, 'webhook delivery lease lost before settling');
      }
      if (health === undefined) return;
      if (health === 'success') {
        await setFailingSince(trx, delivery.webhookId, null);
        return;
      }
      if (health !== 'failure') {
        await disableEndpoint(trx, delivery.tenantId, delivery.webhookId, health.disable, now);
        return;
      }
      const endpoint = await endpointHealth(trx, delivery.webhookId);
      if (!endpoint?.enabled) return;
      if (endpoint.failingSince === null) {
        await setFailingSince(trx, delivery.webhookId, attemptedAt);
        return;
      }
      if (Date.parse(now) - Date.parse(endpoint.failingSince) >= DISABLE_AFTER_FAILING_MS) {
        await disableEndpoint(
          trx,
          delivery.tenantId,
          delivery.webhookId,
          `Deliveries have failed continuously since ${endpoint.failingSince} (5 days).`,
          now,
        );
      }
    });
  }
}
