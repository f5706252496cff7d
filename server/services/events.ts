/**
 * Events (seed: the six kinds; DESIGN.md: payload `{ id, event, tenantId, timestamp, data }`, transactional outbox).
 *
 * `emitEvent` is called by the services inside the transaction of the change: the event row and one pending
 * delivery per subscribed webhook endpoint commit with the change or not at all.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../repositories/common.js';
import { type EventRecord, insertEvent } from '../repositories/events.js';

/** The six event kinds of the seed. */
export type EventType =
  | 'project.status_changed'
  | 'risk.created'
  | 'risk.severity_escalated'
  | 'milestone.missed'
  | 'agent.execution_completed'
  | 'budget.overrun_detected';

/** Something that fans an event out to its deliveries, in the same transaction (the webhook module). */
export type DeliveryEnqueuer = (trx: Executor, event: EventRecord) => Promise<void>;

let enqueuer: DeliveryEnqueuer | null = null;

/** Registers the delivery fan-out (called once by the webhook module when it loads). */
export function setDeliveryEnqueuer(fn: DeliveryEnqueuer): void {
  enqueuer = fn;
}

/**
 * Writes an event to the outbox and enqueues its deliveries, in the caller's transaction.
 * @param data the kind's `data` object as the spec's `webhooks` section documents it.
 * @returns the stored event (its `payload` is the exact delivered body).
 */
export async function emitEvent(
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
  if (enqueuer) await enqueuer(trx, event);
  return event;
}
