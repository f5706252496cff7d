/**
 * The shared window of the rate limiter on Postgres (docs/design.md, "Limits"): one row per key in
 * `rate_limit_buckets`, holding the requests let through in per-second buckets — a ring of {@link BUCKETS} slots, slot
 * `second mod 61`, each with its count and the instant of its last request. A request is checked and counted by one
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` statement: its cost does not grow with traffic, and the row lock that
 * makes it atomic across API processes is held for that statement only, never across a request.
 */
import type { Knex } from 'knex';
import { toCount } from './values.js';

/** Slots per key: the 61 seconds a 60-second window can touch. */
export const BUCKETS = 61;

/** What one attempt to take a unit of a key's window found. */
export interface BucketHit {
  /** Whether the request was let through (and counted). */
  taken: boolean;
  /** Requests counted in the window before this one. */
  count: number;
  /**
   * Epoch ms of the last request of the oldest bucket still in the window (this one's when it is the only one), or
   * null when the window is empty: the count drops when that instant leaves the window.
   */
  oldest: number | null;
}

// The requests of the buckets whose last request lies in the window ((now − window, now]): a bucket that straddles
// the window's start is counted whole (docs/design.md, "Limits": never more than the limit in any window).
const LIVE = 'SELECT coalesce(sum(c), 0) FROM unnest(b.counts, b.lasts) AS u(c, l) WHERE l > :cutoff';

// :slot is 1-based; :second is the epoch ms at which the current second starts. Parameters of a named statement.
const TAKE = `INSERT INTO rate_limit_buckets AS b (key, counts, lasts, last_at, taken)
VALUES (:key,
  array_fill(0, ARRAY[CAST(:slot AS int) - 1]) || 1 || array_fill(0, ARRAY[${BUCKETS} - CAST(:slot AS int)]),
  array_fill(0::bigint, ARRAY[CAST(:slot AS int) - 1]) || CAST(:now AS bigint) || array_fill(0::bigint, ARRAY[${BUCKETS} - CAST(:slot AS int)]),
  :now, true)
ON CONFLICT (key) DO UPDATE SET
  counts[:slot] = CASE WHEN (${LIVE}) < :limit
    THEN CASE WHEN b.lasts[:slot] >= :second THEN b.counts[:slot] + 1 ELSE 1 END ELSE b.counts[:slot] END,
  lasts[:slot] = CASE WHEN (${LIVE}) < :limit THEN greatest(b.lasts[:slot], :now) ELSE b.lasts[:slot] END,
  last_at = CASE WHEN (${LIVE}) < :limit THEN greatest(b.last_at, :now) ELSE b.last_at END,
  taken = (${LIVE}) < :limit
RETURNING b.taken, (${LIVE}) AS used,
  (SELECT min(l) FROM unnest(b.counts, b.lasts) AS u(c, l) WHERE l > :cutoff AND c > 0) AS oldest`;

const COUNT = `SELECT (${LIVE}) AS used,
  (SELECT min(l) FROM unnest(b.counts, b.lasts) AS u(c, l) WHERE l > :cutoff AND c > 0) AS oldest
FROM rate_limit_buckets AS b WHERE b.key = :key`;

function checkedInteger(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return value;
}

/**
 * Counts a request of `key` at `now` if fewer than `limit` requests lie in the window (`now` − `windowMs`, `now`];
 * atomic across processes (Postgres only), one round trip, a named prepared statement. `limit` ≥ 1.
 */
export async function takeBucketHit(
  db: Knex,
  key: string,
  limit: number,
  now: number,
  windowMs: number,
): Promise<BucketHit> {
  const second = Math.floor(checkedInteger(now) / 1000);
  const result = (await db
    .raw(TAKE, {
      key,
      limit: checkedInteger(limit),
      now,
      cutoff: now - checkedInteger(windowMs),
      second: second * 1000,
      slot: (second % BUCKETS) + 1,
    })
    .options({ name: 'rate_limit_take' })) as { rows: { taken: boolean; used: unknown; oldest: unknown }[] };
  const row = result.rows[0];
  const taken = row?.taken === true;
  const used = toCount(row?.used);
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return { taken, count: used - (taken ? 1 : 0), oldest };
}

/** Requests of `key` counted in the window (`now` − `windowMs`, `now`] and the oldest bucket's last instant. */
export async function countBucketHits(
  db: Knex,
  key: string,
  now: number,
  windowMs: number,
): Promise<{ count: number; oldest: number | null }> {
  const result = (await db.raw(COUNT, { key, cutoff: now - checkedInteger(windowMs) })) as {
    rows: { used: unknown; oldest: unknown }[];
  };
  const row = result.rows[0];
  return {
    count: toCount(row?.used),
    oldest: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
  };
}

/** Deletes the rows of keys whose last request left every window (at or before `before`, epoch ms). */
export async function pruneBuckets(db: Knex, before: number): Promise<void> {
  await db('rate_limit_buckets').where('last_at', '<=', before).delete();
}
