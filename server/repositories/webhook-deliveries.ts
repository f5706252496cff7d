/**
 * Webhook deliveries: one row per event and subscribed endpoint (the API's `WebhookDelivery`, with its attempts),
 * and what the delivery worker needs to send one. Scheduling (due times, leases, retries) belongs to the delivery's
 * job (repositories/jobs.ts); the row keeps what the API shows: status, attempt count, next attempt.
 */
import type { ListFilter, Schema } from '../schemas.js';
import type { Page, PageRequest } from './lists.js';
import { paginate, whereAnyOf } from './lists.js';
import type { Executor } from './sql.js';
import { toBoolean } from './values.js';
import { attemptsOf } from './webhook-attempts.js';
import type { WebhookSecrets } from './webhook-endpoints.js';

/** A delivery's state (spec `WebhookDeliveryStatus`). */
export type DeliveryStatus = Schema<'WebhookDeliveryStatus'>;

/** A delivery as the API shows it. */
export type DeliveryRecord = Schema<'WebhookDelivery'>;

/** A new delivery row (PENDING). */
export interface NewDelivery {
  id: string;
  tenantId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** Only for test deliveries; event deliveries send the outbox row's payload. */
  payload: string | null;
  nextAttemptAt: string;
  createdAt: string;
}

/** A PENDING delivery with what sending it needs: the body, the endpoint's URL, state and secrets. */
export interface DeliveryTarget {
  id: string;
  tenantId: string;
  webhookId: string;
  eventId: string;
  attemptCount: number;
  payload: string | null;
  url: string;
  enabled: boolean;
  /** Attempts to the endpoint that timed out in a row (the circuit breaker's count). */
  timeoutStreak: number;
  secrets: WebhookSecrets;
}

type Row = Record<string, unknown>;

/** Inserts PENDING deliveries. */
export async function insertDeliveries(db: Executor, deliveries: NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db('webhook_deliveries').insert(
    deliveries.map((d) => ({
      id: d.id,
      tenant_id: d.tenantId,
      webhook_id: d.webhookId,
      event_id: d.eventId,
      event_type: d.eventType,
      payload: d.payload,
      status: 'PENDING',
      attempt_count: 0,
      next_attempt_at: d.nextAttemptAt,
      created_at: d.createdAt,
      updated_at: d.createdAt,
    })),
  );
}

function toDelivery(row: Row, attempts: DeliveryRecord['attempts']): DeliveryRecord {
  return {
    id: row.id as string,
    webhookId: row.webhook_id as string,
    eventId: row.event_id as string,
    event: row.event_type as Schema<'WebhookEventType'>,
    status: row.status as DeliveryStatus,
    attemptCount: Number(row.attempt_count),
    attempts,
    nextAttemptAt: (row.next_attempt_at as string | null) ?? null,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

/** One delivery of the tenant with its attempts, or null. */
export async function findDelivery(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<DeliveryRecord | null> {
  const row = (await db('webhook_deliveries').where({ tenant_id: tenantId, id }).first()) as Row | undefined;
  if (!row) return null;
  const attempts = await attemptsOf(db, [id]);
  return toDelivery(row, attempts.get(id) ?? []);
}

/**
 * A page of one endpoint's deliveries (optionally only some statuses and event kinds), ordered by createdAt then
 * id, with attempts.
 */
export async function listDeliveries(
  db: Executor,
  tenantId: string,
  webhookId: string,
  filter: ListFilter<'listWebhookDeliveries'>,
  page: PageRequest,
): Promise<Page<DeliveryRecord>> {
  const query = db('webhook_deliveries').where({ tenant_id: tenantId, webhook_id: webhookId }).select('*');
  whereAnyOf(query, 'status', filter.status);
  whereAnyOf(query, 'event_type', filter.event);
  const rows = await paginate<Row, Row>(query, page, (r) => r);
  const attempts = await attemptsOf(
    db,
    rows.items.map((r) => r.id as string),
  );
  return {
    total: rows.total,
    items: rows.items.map((r) => toDelivery(r, attempts.get(r.id as string) ?? [])),
  };
}

/** The ids of an endpoint's PENDING deliveries. */
export async function pendingDeliveryIds(db: Executor, webhookId: string): Promise<string[]> {
  const rows = (await db('webhook_deliveries')
    .where({ webhook_id: webhookId, status: 'PENDING' })
    .select('id')) as { id: string }[];
  return rows.map((r) => r.id);
}

/** Marks every pending delivery of an endpoint FAILED (the endpoint was disabled). Returns their ids. */
export async function failPendingDeliveries(db: Executor, webhookId: string, now: string): Promise<string[]> {
  const ids = await pendingDeliveryIds(db, webhookId);
  if (ids.length > 0) {
    await db('webhook_deliveries')
      .where({ webhook_id: webhookId, status: 'PENDING' })
      .update({ status: 'FAILED', next_attempt_at: null, updated_at: now });
  }
  return ids;
}

/** A PENDING delivery with its endpoint and body, or null when it is gone or settled. */
export async function deliveryTarget(db: Executor, id: string): Promise<DeliveryTarget | null> {
  const row = (await db('webhook_deliveries as d')
    .join('webhook_endpoints as w', 'w.id', 'd.webhook_id')
    .leftJoin('events as e', 'e.id', 'd.event_id')
    .where({ 'd.id': id, 'd.status': 'PENDING' })
    .select(
      'd.id',
      'd.tenant_id',
      'd.webhook_id',
      'd.event_id',
      'd.attempt_count',
      db.raw('coalesce(d.payload, e.payload) as payload'),
      'w.url',
      'w.enabled',
      'w.timeout_streak',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_expires_at',
    )
    .first()) as Row | undefined;
  if (!row) return null;
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    webhookId: row.webhook_id as string,
    eventId: row.event_id as string,
    attemptCount: Number(row.attempt_count),
    payload: (row.payload as string | null) ?? null,
    url: row.url as string,
    enabled: toBoolean(row.enabled),
    timeoutStreak: Number(row.timeout_streak ?? 0),
    secrets: {
      secret: row.secret as string,
      previousSecret: (row.previous_secret as string | null) ?? null,
      previousSecretExpiresAt: (row.previous_secret_expires_at as string | null) ?? null,
    },
  };
}

/** Writes a delivery's state after an attempt (or after its job gave up). False when the delivery is gone. */
export async function updateDeliveryState(
  db: Executor,
  id: string,
  state: { status: DeliveryStatus; attemptCount?: number; nextAttemptAt: string | null },
  now: string,
): Promise<boolean> {
  const changed = await db('webhook_deliveries')
    .where({ id })
    .update({
      status: state.status,
      ...(state.attemptCount === undefined ? {} : { attempt_count: state.attemptCount }),
      next_attempt_at: state.nextAttemptAt,
      updated_at: now,
    });
  return changed === 1;
}

/** Makes a delivery PENDING again with its next attempt at `at` (a resend). */
export async function reopenDelivery(db: Executor, id: string, at: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ id })
    .update({ status: 'PENDING', next_attempt_at: at, updated_at: at });
}

/** Deletes settled (SUCCEEDED or FAILED) deliveries last changed before `before`, with their attempts. */
export async function pruneDeliveries(db: Executor, before: string): Promise<number> {
  return db('webhook_deliveries').whereNot('status', 'PENDING').andWhere('updated_at', '<', before).delete();
}
