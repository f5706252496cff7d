/**
 * The event fan-out (docs/webhooks.md, Events and webhooks: transactional outbox): `emit` writes an event and, for each
 * enabled endpoint of the tenant that subscribes to its kind, a PENDING delivery and the job that will send it, all
 * in the transaction of the change that caused the event. The job queue wakes in-process workers once that
 * transaction commits.
 *
 * One `EventOutbox` per app, built by `buildServices` and handed to the services in `ServiceDeps` (never imported
 * as module state, so two apps in one process do not share it).
 */
import { v7 as uuidv7 } from 'uuid';
import type { JobQueue } from '../../jobs/queue.js';
import { type EventRecord, insertEvent } from '../../repositories/events.js';
import type { Executor } from '../../repositories/sql.js';
import { insertDeliveries, type NewDelivery } from '../../repositories/webhook-deliveries.js';
import { enabledWebhooks } from '../../repositories/webhook-endpoints.js';
import type { Schema } from '../../schemas.js';

/** The six event kinds of the seed (spec `WebhookEventType`). */
export type EventType = Schema<'WebhookEventType'>;

/** The job kind that sends one webhook delivery (./delivery-job.ts); its payload is `{ deliveryId }`. */
export const WEBHOOK_DELIVERY_JOB = 'webhook.delivery';

/** Whether an endpoint's `events` filter takes an event kind. */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/** Writes events to the outbox and queues their deliveries. */
export class EventOutbox {
  private readonly jobs: JobQueue;

  /** @param options.jobs the app's job queue: each delivery's job is enqueued in the event's transaction. */
  constructor(options: { jobs: JobQueue }) {
    this.jobs = options.jobs;
  }

  /**
   * Writes an event and queues one delivery per subscribed endpoint, in the caller's transaction.
   * @param data the kind's `data` object as the spec's `webhooks` section documents it.
   * @returns the stored event (its `payload` is the exact delivered body).
   */
  async emit(
    trx: Executor,
    tenantId: string,
    type: EventType,
    data: Record<string, unknown>,
    occurredAt: string,
  ): Promise<EventRecord> {
    const id = uuidv7();
    const payload = JSON.stringify({ id, event: type, tenantId, timestamp: occurredAt, data });
    const event: EventRecord = { id, tenantId, type, payload, occurredAt };
    await insertEvent(trx, event);
    const endpoints = (await enabledWebhooks(trx, tenantId)).filter((w) => subscribes(w.events, type));
    await this.queue(
      trx,
      endpoints.map((w) => ({
        id: uuidv7(),
        tenantId,
        webhookId: w.id,
        eventId: id,
        eventType: type,
        payload: null,
        nextAttemptAt: occurredAt,
        createdAt: occurredAt,
      })),
    );
    return event;
  }

  /** Queues deliveries (and their jobs, due at each `nextAttemptAt`) in the caller's transaction. */
  async queue(trx: Executor, deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await insertDeliveries(trx, deliveries);
    for (const d of deliveries) await this.#enqueue(trx, d, d.nextAttemptAt);
  }

  /**
   * Queues a new attempt of an existing delivery, due at `at`, in the caller's transaction: the delivery's
   * scheduled job (a retry) is cancelled and a new job takes its place, so the attempt counts start afresh for the
   * retry schedule while the delivery keeps counting its attempts (./delivery-job.ts).
   */
  async requeue(trx: Executor, delivery: { id: string; tenantId: string; webhookId: string }, at: string) {
    await this.jobs.cancel(trx, WEBHOOK_DELIVERY_JOB, [delivery.id]);
    await this.#enqueue(trx, delivery, at);
  }

  async #enqueue(trx: Executor, d: { id: string; tenantId: string; webhookId: string }, runAt: string) {
    await this.jobs.enqueue(trx, {
      kind: WEBHOOK_DELIVERY_JOB,
      payload: { deliveryId: d.id },
      runAt,
      ref: d.id,
      // Capped per tenant and per endpoint (docs/design.md, "Job runner": "Fairness").
      tenantId: d.tenantId,
      groupKey: `webhook:${d.webhookId}`,
    });
  }
}
