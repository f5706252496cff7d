/**
 * Webhook endpoints: rows ⇄ the API's `WebhookEndpoint` (never its secrets), the secrets the delivery worker signs
 * with, the fan-out's subscriber list and the endpoint's failure window (the 5-day rule).
 */
import type { Schema } from '../schemas.js';
import type { Executor } from './sql.js';
import { runSql, sqlOnce } from './sql.js';
import { parseJson, toBoolean } from './values.js';
import { column, VersionedTable } from './versioned-table.js';

/** A webhook endpoint as the table keeps it (never its secrets); the API adds its `health` (`healthOf`). */
export type WebhookEndpointRecord = Omit<Schema<'WebhookEndpoint'>, 'health'>;

/** The writable fields of an endpoint. */
export type WebhookEndpointFields = Omit<WebhookEndpointRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

/**
 * The webhook endpoints table. `secret`, `previous_secret`, `previous_secret_expires_at` and `failing_since` are
 * hidden columns: written beside the fields, never part of the record (so never in an audit row).
 */
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

/** The signing secret of an endpoint, or null when it does not exist (read inside a rotation's transaction). */
export async function currentSecret(db: Executor, tenantId: string, id: string): Promise<string | null> {
  const row = (await db('webhook_endpoints').where({ tenant_id: tenantId, id }).first('secret')) as
    | { secret: string }
    | undefined;
  return row?.secret ?? null;
}

/** An endpoint's stored (sealed) secrets and the previous secret's expiry, or null when it does not exist. */
export async function storedSecrets(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<WebhookSecrets | null> {
  const row = (await db('webhook_endpoints')
    .where({ tenant_id: tenantId, id })
    .first('secret', 'previous_secret', 'previous_secret_expires_at')) as Record<string, unknown> | undefined;
  if (!row) return null;
  return {
    secret: row.secret as string,
    previousSecret: (row.previous_secret as string | null) ?? null,
    previousSecretExpiresAt: (row.previous_secret_expires_at as string | null) ?? null,
  };
}

/** The tenant's enabled endpoints with their event filters (the fan-out of an event). */
export async function enabledWebhooks(
  db: Executor,
  tenantId: string,
): Promise<{ id: string; events: string[] }[]> {
  const rows = await runSql(db, enabledWebhooksSql(db, tenantId, true), [tenantId, true]);
  return rows.map((r) => ({ id: r.id as string, events: parseJson<string[]>(r.events, []) }));
}

/** The SQL of {@link enabledWebhooks}, built once (it runs in every write that emits an event). */
const enabledWebhooksSql = sqlOnce((db: Executor, tenantId: string, enabled: boolean) =>
  db('webhook_endpoints').where({ tenant_id: tenantId, enabled }).select('id', 'events'),
);

/**
 * An endpoint's health for the 5-day rule: `enabled` and `failing_since`, or null when deleted. `forUpdate` locks
 * the row until the transaction ends (Postgres; SQLite has one writer).
 */
export async function endpointHealth(
  db: Executor,
  webhookId: string,
  options: { forUpdate?: boolean } = {},
): Promise<{ enabled: boolean; failingSince: string | null } | null> {
  const query = db('webhook_endpoints').where({ id: webhookId }).select('enabled', 'failing_since');
  if (options.forUpdate) query.forNoKeyUpdate();
  const row = (await query.first()) as Record<string, unknown> | undefined;
  if (!row) return null;
  return { enabled: toBoolean(row.enabled), failingSince: (row.failing_since as string | null) ?? null };
}

/** Sets (when unset) or clears `failing_since` (no version bump: bookkeeping, not a field the API shows). */
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

/** An endpoint's stored secrets as they are in the table (sealed, or plaintext stored before encryption). */
export interface StoredEndpointSecrets {
  id: string;
  secret: string;
  previousSecret: string | null;
}

/** Up to `limit` endpoints' stored secrets after `afterId` (all tenants, by id): a re-encryption walks them. */
export async function storedSecretsPage(
  db: Executor,
  afterId: string | null,
  limit: number,
): Promise<StoredEndpointSecrets[]> {
  const query = db('webhook_endpoints').select('id', 'secret', 'previous_secret').orderBy('id').limit(limit);
  if (afterId !== null) query.where('id', '>', afterId);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: r.id as string,
    secret: r.secret as string,
    previousSecret: (r.previous_secret as string | null) ?? null,
  }));
}

/**
 * Replaces an endpoint's stored secrets when they are still `expected` (no version bump and no audit row: the
 * same secrets in another envelope). False when a rotation changed them meanwhile.
 */
export async function replaceStoredSecrets(
  db: Executor,
  expected: StoredEndpointSecrets,
  next: { secret: string; previousSecret: string | null },
): Promise<boolean> {
  const changed = await db('webhook_endpoints')
    .where({ id: expected.id, secret: expected.secret })
    .andWhere((w) =>
      expected.previousSecret === null
        ? w.whereNull('previous_secret')
        : w.where('previous_secret', expected.previousSecret),
    )
    .update({ secret: next.secret, previous_secret: next.previousSecret });
  return changed === 1;
}

/**
 * Keeps an endpoint's count of attempts that timed out in a row: +1 for a timeout, back to 0 for any answer.
 * Returns the new count (0 when the endpoint is gone).
 */
export async function recordTimeoutStreak(
  db: Executor,
  webhookId: string,
  timedOut: boolean,
): Promise<number> {
  await db('webhook_endpoints')
    .where({ id: webhookId })
    .update({ timeout_streak: timedOut ? db.raw('timeout_streak + 1') : 0 });
  const row = (await db('webhook_endpoints').where({ id: webhookId }).first('timeout_streak')) as
    | { timeout_streak: number | string }
    | undefined;
  return row ? Number(row.timeout_streak) : 0;
}

/** What the table keeps of an endpoint's deliveries (docs/webhooks.md, "Endpoint health"). */
export interface StoredEndpointHealth {
  lastAttemptAt: string | null;
  lastAttemptSucceeded: boolean | null;
  lastResponseStatus: number | null;
  /** Attempts that failed in a row since the last success. */
  consecutiveFailures: number;
  /** When the current run of failures began (the 5-day rule's window), or null. */
  failingSince: string | null;
  /** Attempts that timed out in a row (the circuit breaker's count). */
  timeoutStreak: number;
}

/** The stored health of each endpoint named (absent ids: deleted). One statement. */
export async function healthOf(db: Executor, ids: string[]): Promise<Map<string, StoredEndpointHealth>> {
  const out = new Map<string, StoredEndpointHealth>();
  if (ids.length === 0) return out;
  const rows = (await db('webhook_endpoints')
    .whereIn('id', ids)
    .select(
      'id',
      'last_attempt_at',
      'last_attempt_succeeded',
      'last_response_status',
      'failure_streak',
      'failing_since',
      'timeout_streak',
    )) as Record<string, unknown>[];
  for (const r of rows) {
    out.set(r.id as string, {
      lastAttemptAt: (r.last_attempt_at as string | null) ?? null,
      lastAttemptSucceeded: r.last_attempt_succeeded == null ? null : toBoolean(r.last_attempt_succeeded),
      lastResponseStatus: r.last_response_status == null ? null : Number(r.last_response_status),
      consecutiveFailures: Number(r.failure_streak),
      failingSince: (r.failing_since as string | null) ?? null,
      timeoutStreak: Number(r.timeout_streak),
    });
  }
  return out;
}

/**
 * Keeps an endpoint's last attempt (time, 2xx or not, the answer's status or null) and its failures in a row:
 * +1 for a failed attempt, back to 0 for a success.
 */
export async function recordLastAttempt(
  db: Executor,
  webhookId: string,
  attempt: { attemptedAt: string; statusCode: number | null; succeeded: boolean },
): Promise<void> {
  await db('webhook_endpoints')
    .where({ id: webhookId })
    .update({
      last_attempt_at: attempt.attemptedAt,
      last_attempt_succeeded: attempt.succeeded,
      last_response_status: attempt.statusCode,
      failure_streak: attempt.succeeded ? 0 : db.raw('failure_streak + 1'),
    });
}
