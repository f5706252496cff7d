/**
 * Idempotency-Key rows: reserve (insert, failing on an existing key), read, complete, release.
 */
import type { Executor } from './sql.js';
import { parseJson } from './values.js';

/** A stored key. */
export interface IdempotencyRecord {
  key: string;
  fingerprint: string;
  state: 'IN_FLIGHT' | 'COMPLETED';
  response: { status: number; headers: Record<string, string>; body: unknown } | null;
  lockedUntil: string;
  expiresAt: string;
}

/** Inserts an IN_FLIGHT row; false when the tenant already has this key. */
export async function reserveKey(
  db: Executor,
  tenantId: string,
  key: string,
  fingerprint: string,
  times: { now: string; lockedUntil: string; expiresAt: string },
): Promise<boolean> {
  const inserted = await db('idempotency_keys')
    .insert({
      tenant_id: tenantId,
      key,
      fingerprint,
      state: 'IN_FLIGHT',
      created_at: times.now,
      locked_until: times.lockedUntil,
      expires_at: times.expiresAt,
    })
    .onConflict(['tenant_id', 'key'])
    .ignore()
    .returning('key');
  // RETURNING lists only inserted rows on both databases (SQLite ≥ 3.35), so an ignored insert returns [].
  return inserted.length === 1;
}

/** The tenant's row for a key, or null. */
export async function findKey(
  db: Executor,
  tenantId: string,
  key: string,
): Promise<IdempotencyRecord | null> {
  const row = await db('idempotency_keys').where({ tenant_id: tenantId, key }).first();
  if (!row) return null;
  return {
    key: row.key,
    fingerprint: row.fingerprint,
    state: row.state,
    response:
      row.state === 'COMPLETED'
        ? {
            status: Number(row.response_status),
            headers: parseJson<Record<string, string>>(row.response_headers, {}),
            body: row.response_body === null ? undefined : parseJson<unknown>(row.response_body, null),
          }
        : null,
    lockedUntil: row.locked_until,
    expiresAt: row.expires_at,
  };
}

/** Stores the response of the first request. */
export async function completeKey(
  db: Executor,
  tenantId: string,
  key: string,
  response: { status: number; headers: Record<string, string>; body: unknown },
): Promise<void> {
  await db('idempotency_keys')
    .where({ tenant_id: tenantId, key })
    .update({
      state: 'COMPLETED',
      response_status: response.status,
      response_headers: JSON.stringify(response.headers),
      response_body: response.body === undefined ? null : JSON.stringify(response.body),
    });
}

/** Deletes a key (the request failed, or the row expired or was abandoned). */
export async function deleteKey(db: Executor, tenantId: string, key: string): Promise<void> {
  await db('idempotency_keys').where({ tenant_id: tenantId, key }).delete();
}

/** Deletes keys whose 24 h have passed (housekeeping). */
export async function deleteExpiredKeys(db: Executor, now: string): Promise<void> {
  await db('idempotency_keys').where('expires_at', '<=', now).delete();
}
