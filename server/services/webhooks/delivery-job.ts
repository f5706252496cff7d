/**
 * Webhook delivery on the job runner (docs/webhooks.md, "Events and webhooks" and "Job runner"): each delivery is a
 * job of kind `webhook.delivery`. An attempt POSTs the event (Standard Webhooks headers, 15 s timeout), and
 * `deliveryOutcome` settles it: 2xx → SUCCEEDED; 410 → FAILED and the endpoint disabled; 429/503 with Retry-After →
 * retried after that delay (at most 1 h); anything else → the next step of the schedule, FAILED after the last. The
 * attempt record, the delivery's state and the endpoint's health are written in the transaction that settles the
 * job. A worker that dies mid-delivery leaves its lease, which expires, and the delivery is claimed again (a new
 * attempt): delivery is at least once.
 *
 * Schedule decisions (due times, leases, the 5-day window) and `webhook-timestamp` use the injected clock.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { SecretBox, type SecretKeys } from '../../crypto/secret-box.js';
import { type Commit, type JobKind, JobQueue } from '../../jobs/queue.js';
import { JobRunner } from '../../jobs/runner.js';
import type { BaseDeps } from '../context.js';
import { DeliveryService } from './deliveries.js';
import { deliveryOutcome, UNHEALTHY_AFTER_TIMEOUTS } from './delivery-outcome.js';
import { EventOutbox, WEBHOOK_DELIVERY_JOB } from './outbox.js';
import { signatureHeader } from './signing.js';
import { sendAttempt } from './transport.js';

/** Settled deliveries are kept this long (spec: listWebhookDeliveries), then pruned. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Deliveries one runner sends at once. */
export const DELIVERY_SLOTS = 16;
/** Deliveries of one tenant in flight at once, across every runner. */
export const DELIVERY_PER_TENANT = 4;
/** Deliveries to one endpoint in flight at once, across every runner. */
export const DELIVERY_PER_ENDPOINT = 2;

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
  services: { deliveries: DeliveryService },
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
    // docs/design.md, "Job runner": "Fairness": a pool of its own; a tenant, and an endpoint, hold only a few of
    // the slots of every runner together, so a tenant whose receivers hang delays nobody else's deliveries.
    slots: DELIVERY_SLOTS,
    perTenant: DELIVERY_PER_TENANT,
    perGroup: DELIVERY_PER_ENDPOINT,
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
              timedOut: null,
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
      // The circuit breaker: timeouts in a row, this attempt counted (any answer resets it).
      const timeoutStreak = response.timedOut
        ? target.timeoutStreak + 1
        : response.statusCode !== null
          ? 0
          : target.timeoutStreak;
      const unhealthy = timeoutStreak >= UNHEALTHY_AFTER_TIMEOUTS;
      const outcome = deliveryOutcome({
        statusCode: response.statusCode,
        retryAfter: response.retryAfter,
        refused: response.refused,
        timeoutStreak,
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
            // The delivery log shows an unhealthy endpoint, and that its attempts back off.
            error:
              response.error !== null && unhealthy
                ? `${response.error}; endpoint unhealthy: ${timeoutStreak} attempts in a row timed out, attempts back off`
                : response.error,
            responseBodyExcerpt: response.responseBodyExcerpt,
            responseBodyTruncated: response.responseBodyTruncated,
            responseBodyBinary: response.responseBodyBinary,
          },
          timedOut: response.timedOut ? true : response.statusCode !== null ? false : null,
          status: outcome.status,
          // The job's attempt counts claims, so an attempt sent by a worker that died before recording it counts
          // too (docs/design.md, "Job runner"); a delivery retried by hand runs a new job and keeps counting.
          attemptCount: Math.max(target.attemptCount + 1, job.attempt),
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

/** What a {@link DeliveryWorker} works with: the app's job queue and delivery state. */
export interface DeliveryParts {
  jobs: JobQueue;
  deliveries: DeliveryService;
}

/** Options of a {@link DeliveryWorker}. */
export interface DeliveryWorkerOptions {
  db: BaseDeps['db'];
  clock: Clock;
  config: DeliveryConfig & Pick<Config, 'workerPollMs' | 'secretKeys'>;
  /**
   * The app's job queue and delivery state (its services: their queue wakes this worker on enqueue); absent, the
   * worker builds its own over `db` and `clock`, and finds due deliveries by polling.
   */
  services?: DeliveryParts;
  logger?: Logger;
  /** Deliveries claimed per round (default 25). */
  batchSize?: number;
  /** Lease of a claim in ms (default twice the attempt timeout: 30 s). Must exceed the timeout. */
  leaseMs?: number;
}

/** A job queue and delivery state of their own over `deps`, for a worker built without the app's services. */
function ownParts(deps: BaseDeps, secretKeys: SecretKeys): DeliveryParts {
  const jobs = new JobQueue(deps);
  const events = new EventOutbox({ jobs });
  return {
    jobs,
    deliveries: new DeliveryService({ ...deps, jobs, events, secrets: new SecretBox(secretKeys) }),
  };
}

/**
 * A job runner for webhook deliveries alone, which also prunes settled deliveries after 30 days: `start()` runs
 * the loop until `stop()`; tests drive it with `runOnce()` / `drain()`.
 */
export class DeliveryWorker extends JobRunner {
  readonly #deliveries: DeliveryService;

  constructor(options: DeliveryWorkerOptions) {
    const parts =
      options.services ?? ownParts({ db: options.db, clock: options.clock }, options.config.secretKeys);
    super({
      queue: parts.jobs,
      kinds: [webhookDeliveryJob(parts, options.clock, options.config, options.leaseMs)],
      pollMs: options.config.workerPollMs,
      logger: options.logger,
      batchSize: options.batchSize ?? 25,
      maintain: async () => {
        await parts.deliveries.prune(DELIVERY_RETENTION_MS);
      },
    });
    this.#deliveries = parts.deliveries;
  }

  /** Deletes settled deliveries older than 30 days (run hourly by the loop); returns how many. */
  prune(): Promise<number> {
    return this.#deliveries.prune(DELIVERY_RETENTION_MS);
  }
}
