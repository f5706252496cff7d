/**
 * The state of webhook deliveries as the delivery worker settles them (docs/webhooks.md, Events and webhooks): what a
 * delivery needs to be sent, its attempts and status, the endpoint's failure window (the 5-day rule), and the
 * endpoint disabled on Meridian's own initiative (410 Gone, 5 days of failures) with its pending deliveries failed.
 * The delivery job kind (./delivery-job.ts) talks to this service, never to repositories.
 */
import { v7 as uuidv7 } from 'uuid';
import type { JobQueue } from '../../jobs/queue.js';
import type { Executor } from '../../repositories/sql.js';
import type { DeliveryAttemptRecord } from '../../repositories/webhook-attempts.js';
import { insertAttempt } from '../../repositories/webhook-attempts.js';
import {
  type DeliveryStatus,
  type DeliveryTarget,
  deliveryTarget,
  failPendingDeliveries,
  pruneDeliveries,
  updateDeliveryState,
} from '../../repositories/webhook-deliveries.js';
import {
  endpointHealth,
  recordLastAttempt,
  recordTimeoutStreak,
  setFailingSince,
  type WebhookEndpointFields,
  type WebhookEndpointRecord,
  webhookEndpoints,
} from '../../repositories/webhook-endpoints.js';
import { type ServiceDeps, systemActor } from '../context.js';
import { AppError } from '../errors.js';
import { updateRecord, type VersionedKind } from '../versioned.js';
import { DISABLE_AFTER_TIMEOUTS } from './delivery-outcome.js';
import { WEBHOOK_DELIVERY_JOB } from './outbox.js';
import { openSecrets } from './secrets.js';

export type { DeliveryTarget };

/** Webhook endpoints as versioned records (audit `resourceType` `webhook`). */
export const WEBHOOK_ENDPOINT: VersionedKind<WebhookEndpointRecord, WebhookEndpointFields> = {
  table: webhookEndpoints,
  resourceType: 'webhook',
  noun: 'webhook endpoint',
};

/** An endpoint failing for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * What a failed attempt does to its endpoint's failure window (the 5-day rule): `open` it (the first failure
 * since the last success), `keep` it, or `disable` the endpoint once it has been failing for 5 days.
 * @param failingSince ISO instant of the first failure since the last success, or null.
 */
export function failureWindow(failingSince: string | null, now: Date): 'open' | 'keep' | 'disable' {
  if (failingSince === null) return 'open';
  return now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS ? 'disable' : 'keep';
}

/** How one attempt ends for the delivery and its endpoint (computed by `deliveryOutcome`, ./delivery-outcome.ts). */
export interface SettledAttempt {
  attempt: DeliveryAttemptRecord | null;
  /** The attempt timed out (true), was answered (false), or neither (null: the breaker's count stays). */
  timedOut: boolean | null;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  /** `success` closes the failure window; `failure` opens or keeps it (5-day rule); `disable` disables now. */
  endpoint: 'success' | 'failure' | { disable: string } | null;
}

/**
 * Fails the pending deliveries of an endpoint and cancels their jobs, in the caller's transaction.
 * @param except a delivery whose job is settling in this transaction (its settlement must not find it cancelled;
 *   its next run finds the delivery FAILED and does nothing).
 */
export async function failPending(
  trx: Executor,
  jobs: JobQueue,
  webhookId: string,
  now: string,
  except?: string,
): Promise<void> {
  const ids = await failPendingDeliveries(trx, webhookId, now);
  await jobs.cancel(
    trx,
    WEBHOOK_DELIVERY_JOB,
    ids.filter((id) => id !== except),
  );
}

/** Delivery state for the worker. */
export class DeliveryService {
  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'clock' | 'jobs' | 'events' | 'secrets'>) {}

  /**
   * A PENDING delivery with its endpoint, secrets (opened) and body, or null when it is gone or already settled.
   * @throws Error when a secret is sealed under a key that is not configured.
   */
  async target(deliveryId: string): Promise<DeliveryTarget | null> {
    const target = await deliveryTarget(this.deps.db.knex, deliveryId);
    return target && { ...target, secrets: openSecrets(this.deps.secrets, target.webhookId, target.secrets) };
  }

  /**
   * Records an attempt and the delivery's new state, and keeps the endpoint's health, in the transaction that
   * settles the delivery's job: a success closes the failure window; a failure opens it, or disables the endpoint
   * once it is 5 days old; 410 disables it at once.
   */
  async record(trx: Executor, target: DeliveryTarget, settled: SettledAttempt): Promise<void> {
    const now = this.deps.clock.now();
    const at = now.toISOString();
    // The endpoint's row first: a disable fails the endpoint's other pending deliveries and cancels their jobs, so
    // every writer takes the endpoint before its deliveries and jobs (no deadlock between two settling deliveries).
    const endpoint = await endpointHealth(trx, target.webhookId, { forUpdate: true });
    // Deleted while the request was in flight: its deliveries went with it (and the job's lease with them).
    if (!endpoint) return;
    if (settled.attempt) {
      await insertAttempt(trx, uuidv7(), target.id, settled.attempt);
      const { attemptedAt, statusCode } = settled.attempt;
      const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
      await recordLastAttempt(trx, target.webhookId, { attemptedAt, statusCode, succeeded });
    }
    await updateDeliveryState(
      trx,
      target.id,
      { status: settled.status, attemptCount: settled.attemptCount, nextAttemptAt: settled.nextAttemptAt },
      at,
    );
    // The circuit breaker (docs/webhooks.md, "Events and webhooks"): timeouts in a row disable the endpoint.
    if (settled.timedOut !== null) {
      const streak = await recordTimeoutStreak(trx, target.webhookId, settled.timedOut);
      if (streak >= DISABLE_AFTER_TIMEOUTS && endpoint.enabled) {
        const reason = `The endpoint timed out on ${streak} delivery attempts in a row.`;
        await this.disable(trx, target, reason, at);
        return;
      }
    }
    const health = settled.endpoint;
    if (health === null) return;
    if (health === 'success') {
      await setFailingSince(trx, target.webhookId, null);
      return;
    }
    if (health !== 'failure') {
      await this.disable(trx, target, health.disable, at);
      return;
    }
    if (!endpoint.enabled) return;
    const window = failureWindow(endpoint.failingSince, now);
    if (window === 'open') {
      await setFailingSince(trx, target.webhookId, settled.attempt?.attemptedAt ?? at);
    } else if (window === 'disable') {
      const reason = `Deliveries have failed continuously since ${endpoint.failingSince} (5 days).`;
      await this.disable(trx, target, reason, at);
    }
  }

  /** The delivery's job gave up without a recorded attempt (its last worker died): FAILED, nothing next. */
  async giveUp(trx: Executor, deliveryId: string): Promise<void> {
    await updateDeliveryState(
      trx,
      deliveryId,
      { status: 'FAILED', nextAttemptAt: null },
      this.deps.clock.now().toISOString(),
    );
  }

  /** Deletes settled deliveries last changed more than `retentionMs` ago; returns how many. */
  prune(retentionMs: number): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - retentionMs).toISOString();
    return pruneDeliveries(this.deps.db.knex, before);
  }

  /**
   * Disables an endpoint on Meridian's own initiative and fails its pending deliveries, in the caller's
   * transaction; audited as `webhook.updated` by the system. No-op when already disabled or deleted.
   */
  async disable(trx: Executor, target: DeliveryTarget, reason: string, now: string): Promise<void> {
    const { changed } = await updateRecord(
      { trx, actor: systemActor(target.tenantId), now },
      WEBHOOK_ENDPOINT,
      {
        id: target.webhookId,
        apply: (current) => {
          const fields = webhookEndpoints.fieldsOf(current);
          return current.enabled ? { ...fields, enabled: false, disabledReason: reason } : fields;
        },
      },
    ).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'not_found') return { changed: false };
      throw err;
    });
    if (changed) await failPending(trx, this.deps.jobs, target.webhookId, now, target.id);
  }
}
