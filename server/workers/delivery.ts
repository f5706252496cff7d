/**
 * Webhook delivery on the job runner (docs/design.md, Events and webhooks; issue 5, Delivery; issue 9): each delivery
 * is a job of kind `webhook.delivery`. An attempt POSTs the event (Standard Webhooks headers, 15 s timeout), and
 * `deliveryOutcome` settles it: 2xx → SUCCEEDED; 410 → FAILED and the endpoint disabled; 429/503 with Retry-After →
 * retried after that delay (at most 1 h); anything else → the next step of the schedule, FAILED after the last. The
 * attempt record, the delivery's state and the endpoint's health are written in the transaction that settles the
 * job. A worker that dies mid-delivery leaves its lease, which expires, and the delivery is claimed again (a new
 * attempt): delivery is at least once.
 *
 * Schedule decisions (due times, leases, the 5-day window) and `webhook-timestamp` use the injected clock.
 */
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Commit, JobKind } from '../jobs/queue.js';
import { JobRunner } from '../jobs/runner.js';
import type { BaseDeps } from '../services/context.js';
import type { Services } from '../services/index.js';
import { buildServices } from '../services/index.js';
import { WEBHOOK_DELIVERY_JOB } from '../services/webhook-outbox.js';
import { deliveryOutcome } from './delivery-outcome.js';
import { signatureHeader } from './webhook-signing.js';
import { sendAttempt } from './webhook-transport.js';

/** Settled deliveries are kept this long (spec: listWebhookDeliveries), then pruned. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The configuration a delivery needs. */
export type DeliveryConfig = Pick<
  Config,
  'webhookAllowPrivate' | 'webhookRetrySchedule' | 'webhookTimeoutMs'
>;

/**
 * The `webhook.delivery` job kind: one attempt per run, as many attempts as the retry schedule has steps, a lease
 * of twice the attempt timeout (at least 1 s) unless given.
 */
export function webhookDeliveryJob(
  services: Pick<Services, 'deliveries'>,
  clock: Clock,
  config: DeliveryConfig,
  leaseMs = Math.max(2 * config.webhookTimeoutMs, 1_000),
): JobKind<{ deliveryId: string }> {
  const schedule = config.webhookRetrySchedule;
  return {
    kind: WEBHOOK_DELIVERY_JOB,
    maxAttempts: schedule.length,
    backoffMs: (attempt) => schedule[attempt] ?? schedule.at(-1) ?? 0,
    leaseMs,
    async perform(job) {
      const target = await services.deliveries.target(job.payload.deliveryId);
      // Settled or deleted since it was queued (its endpoint removed, disabled or the delivery failed by hand).
      if (!target) return { status: 'cancelled', reason: 'the delivery is no longer pending' };
      if (!target.enabled) {
        // Disabled between the queuing and now: no attempt, nothing more to do.
        return {
          status: 'failed',
          error: 'the endpoint is disabled',
          commit: (trx) =>
            services.deliveries.record(trx, target, {
              attempt: null,
              status: 'FAILED',
              attemptCount: target.attemptCount,
              nextAttemptAt: null,
              endpoint: null,
            }),
        };
      }
      const started = clock.now();
      const attemptedAt = started.toISOString();
      const response = await sendAttempt(
        target.url,
        target.payload,
        () => {
          const timestamp = Math.floor(started.getTime() / 1000);
          return {
            'content-type': 'application/json',
            'user-agent': 'Meridian-Webhooks/1.0',
            'webhook-id': target.eventId,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader(
              target.secrets,
              started,
              target.eventId,
              timestamp,
              target.payload as string,
            ),
          };
        },
        { timeoutMs: config.webhookTimeoutMs, allowPrivate: config.webhookAllowPrivate },
      );
      const outcome = deliveryOutcome({
        statusCode: response.statusCode,
        retryAfter: response.retryAfter,
        attempt: job.attempt,
        schedule,
        attemptedAt,
        now: clock.now(),
      });
      const commit: Commit = (trx) =>
        services.deliveries.record(trx, target, {
          attempt: {
            attemptedAt,
            statusCode: response.statusCode,
            durationMs: response.durationMs,
            error: response.error,
          },
          status: outcome.status,
          attemptCount: target.attemptCount + 1,
          nextAttemptAt: outcome.nextAttemptAt,
          endpoint: outcome.endpoint,
        });
      const error = response.error ?? `HTTP ${response.statusCode}`;
      if (outcome.status === 'SUCCEEDED') return { status: 'completed', commit };
      if (outcome.status === 'PENDING') {
        return { status: 'retry', runAt: outcome.nextAttemptAt ?? undefined, error, commit };
      }
      return { status: 'failed', error, commit };
    },
    onGiveUp: (trx, job) => services.deliveries.giveUp(trx, job.payload.deliveryId),
  };
}

/** Options of a {@link DeliveryWorker}. */
export interface DeliveryWorkerOptions {
  db: BaseDeps['db'];
  clock: Clock;
  config: DeliveryConfig & Pick<Config, 'workerPollMs' | 'defaultRateLimitPerMinute'>;
  /** The app's services (their job queue wakes this worker on enqueue); built over `db` and `clock` if absent. */
  services?: Services;
  logger?: Logger;
  /** Deliveries claimed per round (default 25). */
  batchSize?: number;
  /** Lease of a claim in ms (default twice the attempt timeout: 30 s). Must exceed the timeout. */
  leaseMs?: number;
}

/**
 * A job runner for webhook deliveries alone, which also prunes settled deliveries after 30 days: `start()` runs
 * the loop until `stop()`; tests drive it with `runOnce()` / `drain()`.
 */
export class DeliveryWorker extends JobRunner {
  readonly #services: Services;

  constructor(options: DeliveryWorkerOptions) {
    const services =
      options.services ?? buildServices({ db: options.db, clock: options.clock }, options.config);
    super({
      queue: services.jobs,
      kinds: [webhookDeliveryJob(services, options.clock, options.config, options.leaseMs)],
      pollMs: options.config.workerPollMs,
      logger: options.logger,
      batchSize: options.batchSize ?? 25,
      maintain: async () => {
        await services.deliveries.prune(DELIVERY_RETENTION_MS);
      },
    });
    this.#services = services;
  }

  /** Deletes settled deliveries older than 30 days (run hourly by the loop); returns how many. */
  prune(): Promise<number> {
    return this.#services.deliveries.prune(DELIVERY_RETENTION_MS);
  }
}
