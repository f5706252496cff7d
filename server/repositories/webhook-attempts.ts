/**
 * Delivery attempts: one row per HTTP attempt of a webhook delivery (the API's `DeliveryAttempt`), append-only.
 */
import type { Schema } from '../schemas.js';
import type { Executor } from './sql.js';
import { toBoolean } from './values.js';

/** One HTTP attempt of a delivery. */
export type DeliveryAttemptRecord = Schema<'DeliveryAttempt'>;

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
    response_body_excerpt: attempt.responseBodyExcerpt,
    response_body_truncated: attempt.responseBodyTruncated,
    response_body_binary: attempt.responseBodyBinary,
  });
}

/** The attempts of each delivery, oldest first. */
export async function attemptsOf(
  db: Executor,
  deliveryIds: string[],
): Promise<Map<string, DeliveryAttemptRecord[]>> {
  const out = new Map<string, DeliveryAttemptRecord[]>();
  if (deliveryIds.length === 0) return out;
  const rows = (await db('webhook_delivery_attempts')
    .whereIn('delivery_id', deliveryIds)
    .orderBy([{ column: 'attempted_at' }, { column: 'id' }])) as Record<string, unknown>[];
  for (const r of rows) {
    const list = out.get(r.delivery_id as string) ?? [];
    list.push({
      attemptedAt: r.attempted_at as string,
      statusCode: r.status_code === null || r.status_code === undefined ? null : Number(r.status_code),
      durationMs: Number(r.duration_ms),
      error: (r.error as string | null) ?? null,
      responseBodyExcerpt: (r.response_body_excerpt as string | null) ?? null,
      responseBodyTruncated: toBoolean(r.response_body_truncated),
      responseBodyBinary: toBoolean(r.response_body_binary),
    });
    out.set(r.delivery_id as string, list);
  }
  return out;
}
