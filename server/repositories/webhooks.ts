/**
 * Webhook endpoints, deliveries and delivery attempts. Maps rows to the API's `WebhookEndpoint`,
 * `WebhookDelivery` and `DeliveryAttempt` shapes, and holds the worker's claim query (the one place that differs
 * between SQLite and Postgres: `FOR UPDATE SKIP LOCKED`).
 */
import type { Schema } from '../schemas.js';
import type { Executor, Page, PageRequest } from './common.js';
import { column, paginate, parseJson, toBoolean, toCount, VersionedTable } from './common.js';

export type DeliveryStatus = Schema<'WebhookDeliveryStatus'>;

/** A webhook endpoint as the API shows it (never its secrets). */
export type WebhookEndpointRecord = Schema<'WebhookEndpoint'>;

/** The writable fields of an endpoint. */
export type WebhookEndpointFields = Omit<WebhookEndpointRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

/** The webhook endpoints table (its secrets are hidden columns, read only by the delivery worker). */
export const webhookEndpoints = new VersionedTable<WebhookEndpointRecord, WebhookEndpointFields>({
  table: 'webhook_endpoints',
  fields: {
    url: column.text('url'),
    description: column.optionalText('description'),
    events: column.json<Schema<'WebhookEventFilter'>[]>('events', []),
    enabled: column.boolean('enabled'),
    disabledReason: column.optionalText('disabled_reason'),
  },
});

/** The signing secrets of an endpoint: the current one and, for 24 h after a rotation, the previous one. */
export interface WebhookSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

/** One HTTP attempt of a delivery. */
export type DeliveryAttemptRecord = Schema<'DeliveryAttempt'>;

/** A delivery as the API shows it. */
export type DeliveryRecord = Schema<'WebhookDelivery'>;

/** A new delivery row. */
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

/** A delivery claimed by a worker, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  webhookId: string;
  eventId: string;
  attemptCount: number;
  payload: string | null;
  url: string;
  enabled: boolean;
  secrets: WebhookSecrets;
}

type Row = Record<string, unknown>;

/** The signing secret of an endpoint, or null when it does not exist (read inside a rotation's transaction). */
export async function currentSecret(db: Executor, tenantId: string, id: string): Promise<string | null> {
  const row = (await db('webhook_endpoints').where({ tenant_id: tenantId, id }).first('secret')) as
    | { secret: string }
    | undefined;
  return row?.secret ?? null;
}

/** Marks every pending delivery of an endpoint FAILED (the endpoint was disabled). Returns how many. */
export async function failPendingDeliveries(db: Executor, webhookId: string, now: string): Promise<number> {
  return db('webhook_deliveries')
    .where({ webhook_id: webhookId, status: 'PENDING' })
    .update({ status: 'FAILED', next_attempt_at: null, updated_at: now });
}

/** The tenant's enabled endpoints with their event filters (the fan-out of an event). */
export async function enabledWebhooks(
  db: Executor,
  tenantId: string,
): Promise<{ id: string; events: string[] }[]> {
  const rows = (await db('webhook_endpoints')
    .where({ tenant_id: tenantId, enabled: true })
    .select('id', 'events')) as Row[];
  return rows.map((r) => ({ id: r.id as string, events: parseJson<string[]>(r.events, []) }));
}

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
      lease_owner: null,
      lease_until: null,
      created_at: d.createdAt,
      updated_at: d.createdAt,
    })),
  );
}

function toDelivery(row: Row, attempts: DeliveryAttemptRecord[]): DeliveryRecord {
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

async function attemptsOf(
  db: Executor,
  deliveryIds: string[],
): Promise<Map<string, DeliveryAttemptRecord[]>> {
  const out = new Map<string, DeliveryAttemptRecord[]>();
  if (deliveryIds.length === 0) return out;
  const rows = (await db('webhook_delivery_attempts')
    .whereIn('delivery_id', deliveryIds)
    .orderBy([{ column: 'attempted_at' }, { column: 'id' }])) as Row[];
  for (const r of rows) {
    const list = out.get(r.delivery_id as string) ?? [];
    list.push({
      attemptedAt: r.attempted_at as string,
      statusCode: r.status_code === null || r.status_code === undefined ? null : Number(r.status_code),
      durationMs: Number(r.duration_ms),
      error: (r.error as string | null) ?? null,
    });
    out.set(r.delivery_id as string, list);
  }
  return out;
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

/** A page of one endpoint's deliveries (optionally one status), ordered by createdAt then id, with attempts. */
export async function listDeliveries(
  db: Executor,
  tenantId: string,
  webhookId: string,
  filter: { status?: DeliveryStatus | undefined },
  page: PageRequest,
): Promise<Page<DeliveryRecord>> {
  const query = db('webhook_deliveries').where({ tenant_id: tenantId, webhook_id: webhookId }).select('*');
  if (filter.status) query.andWhere('status', filter.status);
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

/**
 * Claims up to `limit` due deliveries (PENDING, `next_attempt_at` ≤ now, no live lease) for `token` until
 * `leaseUntil`, and returns them with their endpoint and payload.
 *
 * One UPDATE … WHERE id IN (SELECT … LIMIT n): on Postgres the inner SELECT takes `FOR UPDATE SKIP LOCKED`, so
 * concurrent workers each get different rows and never wait on each other; a row claimed meanwhile is re-checked
 * against the outer WHERE (its lease is then live) and skipped. On SQLite the statement holds the database's
 * write lock, which serialises claims across processes just the same.
 */
export async function claimDueDeliveries(
  db: Executor,
  options: { skipLocked: boolean; token: string; now: string; leaseUntil: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const { token, now, leaseUntil, limit } = options;
  const due = (q: ReturnType<Executor>) =>
    q
      .where('status', 'PENDING')
      .andWhere('next_attempt_at', '<=', now)
      .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<=', now));
  const candidates = due(db('webhook_deliveries').select('id'))
    .orderBy([{ column: 'next_attempt_at' }, { column: 'id' }])
    .limit(limit);
  if (options.skipLocked) candidates.forUpdate().skipLocked();
  const claimed = await due(db('webhook_deliveries'))
    .whereIn('id', candidates)
    .update({ lease_owner: token, lease_until: leaseUntil });
  if (claimed === 0) return [];
  const rows = (await db('webhook_deliveries as d')
    .join('webhook_endpoints as w', 'w.id', 'd.webhook_id')
    .leftJoin('events as e', 'e.id', 'd.event_id')
    .where('d.lease_owner', token)
    .andWhere('d.status', 'PENDING')
    .select(
      'd.id',
      'd.tenant_id',
      'd.webhook_id',
      'd.event_id',
      'd.attempt_count',
      db.raw('coalesce(d.payload, e.payload) as payload'),
      'w.url',
      'w.enabled',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_expires_at',
    )
    .orderBy([{ column: 'd.next_attempt_at' }, { column: 'd.id' }])) as Row[];
  return rows.map((r) => ({
    id: r.id as string,
    tenantId: r.tenant_id as string,
    webhookId: r.webhook_id as string,
    eventId: r.event_id as string,
    attemptCount: Number(r.attempt_count),
    payload: (r.payload as string | null) ?? null,
    url: r.url as string,
    enabled: toBoolean(r.enabled),
    secrets: {
      secret: r.secret as string,
      previousSecret: (r.previous_secret as string | null) ?? null,
      previousSecretExpiresAt: (r.previous_secret_expires_at as string | null) ?? null,
    },
  }));
}

/** Appends one attempt of a delivery. */
export async function insertAttempt(
  db: Executor,
  id: string,
  deliveryId: string,
  attempt: DeliveryAttemptRecord,
): Promise<void> {
  await db('webhook_delivery_attempts').insert({
    id,
    delivery_id: deliveryId,
    attempted_at: attempt.attemptedAt,
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    error: attempt.error,
  });
}

/**
 * Settles a claimed delivery after an attempt: new status, attempt count and next attempt, lease released.
 * Only while `token` still holds it (a worker whose lease expired and was taken over writes nothing).
 */
export async function settleDelivery(
  db: Executor,
  id: string,
  token: string,
  outcome: { status: DeliveryStatus; attemptCount: number; nextAttemptAt: string | null },
  now: string,
): Promise<boolean> {
  const changed = await db('webhook_deliveries').where({ id, lease_owner: token }).update({
    status: outcome.status,
    attempt_count: outcome.attemptCount,
    next_attempt_at: outcome.nextAttemptAt,
    lease_owner: null,
    lease_until: null,
    updated_at: now,
  });
  return changed === 1;
}

/** Whether a delivery still exists (its endpoint may have been deleted while it was in flight). */
export async function deliveryExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db('webhook_deliveries').where({ id }).count({ n: '*' });
  return toCount((row as { n: unknown } | undefined)?.n) > 0;
}

/** An endpoint's health for the 5-day rule: `enabled`, `failing_since` and `version`, or null when deleted. */
export async function endpointHealth(
  db: Executor,
  webhookId: string,
): Promise<{ tenantId: string; enabled: boolean; failingSince: string | null; version: number } | null> {
  const row = (await db('webhook_endpoints')
    .where({ id: webhookId })
    .select('tenant_id', 'enabled', 'failing_since', 'version')
    .first()) as Row | undefined;
  if (!row) return null;
  return {
    tenantId: row.tenant_id as string,
    enabled: toBoolean(row.enabled),
    failingSince: (row.failing_since as string | null) ?? null,
    version: Number(row.version),
  };
}

/** Sets or clears `failing_since` (no version bump: it is bookkeeping, not a field the API shows). */
export async function setFailingSince(
  db: Executor,
  webhookId: string,
  failingSince: string | null,
): Promise<void> {
  const query = db('webhook_endpoints').where({ id: webhookId });
  if (failingSince === null) query.whereNotNull('failing_since');
  else query.whereNull('failing_since');
  await query.update({ failing_since: failingSince });
}

/** Deletes settled (SUCCEEDED or FAILED) deliveries last changed before `before`, with their attempts. */
export async function pruneDeliveries(db: Executor, before: string): Promise<number> {
  return db('webhook_deliveries').whereNot('status', 'PENDING').andWhere('updated_at', '<', before).delete();
}
