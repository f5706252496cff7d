/**
 * The shared window of the rate limiter on Postgres (docs/design.md, "Limits"): one row per key in
 * `rate_limit_buckets`, holding the requests let through in per-second buckets — a ring of {@link BUCKETS} slots, slot
 * `second mod 61`, each with its count and the instant of its last request. A request (or a lease of several, for a
 * process that serves them within the second) is checked and counted by one
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` statement: its cost does not grow with traffic, and the row lock that
 * makes it atomic across API processes is held for that statement only, never across a request.
 */
import type { Knex } from 'knex';
import { toCount } from './values.js';

/** Slots per key: the 61 seconds a 60-second window can touch. */
export const BUCKETS = 61;

/** What one attempt to take units of a key's window found. */
export interface BucketHit {
  /** Units granted (counted in the window), 0 when refused: at most the units asked for. */
  granted: number;
  /** Requests counted in the window before these units. */
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

// :slot is 1-based; :second is the epoch ms at which the current second starts; :through is the instant the units
// are counted at (the last instant they may be used: now for one unit, the second's last ms for a lease); :want ≥ 1
// units, granted while the window has room (least(:want, room)). Parameters of a named statement.
const TAKE = `INSERT INTO rate_limit_buckets AS b (key, counts, lasts, last_at, taken, granted)
VALUES (:key,
  array_fill(0, ARRAY[CAST(:slot AS int) - 1]) || CAST(least(CAST(:want AS int), CAST(:limit AS int)) AS int)
    || array_fill(0, ARRAY[${BUCKETS} - CAST(:slot AS int)]),
  array_fill(0::bigint, ARRAY[CAST(:slot AS int) - 1]) || CAST(:through AS bigint) || array_fill(0::bigint, ARRAY[${BUCKETS} - CAST(:slot AS int)]),
  :through, true, least(CAST(:want AS int), CAST(:limit AS int)))
ON CONFLICT (key) DO UPDATE SET
  counts[:slot] = CASE WHEN (${LIVE}) < :limit
    THEN CASE WHEN b.lasts[:slot] >= :second THEN b.counts[:slot] ELSE 0 END + least(CAST(:want AS bigint), CAST(:limit AS bigint) - (${LIVE}))
    ELSE b.counts[:slot] END,
  lasts[:slot] = CASE WHEN (${LIVE}) < :limit THEN greatest(b.lasts[:slot], :through) ELSE b.lasts[:slot] END,
  last_at = CASE WHEN (${LIVE}) < :limit THEN greatest(b.last_at, :through) ELSE b.last_at END,
  taken = (${LIVE}) < :limit,
  granted = CASE WHEN (${LIVE}) < :limit THEN least(CAST(:want AS bigint), CAST(:limit AS bigint) - (${LIVE})) ELSE 0 END
RETURNING b.granted, (${LIVE}) AS used,
  (SELECT min(l) FROM unnest(b.counts, b.lasts) AS u(c, l) WHERE l > :cutoff AND c > 0) AS oldest`;

const COUNT = `SELECT (${LIVE}) AS used,
  (SELECT min(l) FROM unnest(b.counts, b.lasts) AS u(c, l) WHERE l > :cutoff AND c > 0) AS oldest
FROM rate_limit_buckets AS b WHERE b.key = :key`;

function checkedInteger(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return value;
}

/**
 * Counts up to `want` requests of `key` at `now` while fewer than `limit` requests lie in the window (`now` −
 * `windowMs`, `now`]: grants min(`want`, room) units, or none when the window is full. Units are counted at
 * `through` (≥ `now`, within `now`'s second): the last instant the caller may use them, so every request let through
 * lies in the window at least as long as one counted on its own (docs/design.md, "Limits"). Atomic across processes
 * (Postgres only), one round trip, a named prepared statement. `limit` ≥ 1, `want` ≥ 1.
 */
export async function takeBucketHits(
  db: Knex,
  key: string,
  limit: number,
  want: number,
  now: number,
  through: number,
  windowMs: number,
): Promise<BucketHit> {
  const second = Math.floor(checkedInteger(now) / 1000);
  if (checkedInteger(through) < now || Math.floor(through / 1000) !== second)
    throw new Error(`units are counted within the second of now: ${through}`);
  const result = (await db
    .raw(TAKE, {
      key,
      limit: checkedInteger(limit),
      want: checkedInteger(want),
      through,
      cutoff: now - checkedInteger(windowMs),
      second: second * 1000,
      slot: (second % BUCKETS) + 1,
    })
    .options({ name: 'rate_limit_take_units' })) as {
    rows: { granted: unknown; used: unknown; oldest: unknown }[];
  };
  const row = result.rows[0];
  const granted = toCount(row?.granted);
  const used = toCount(row?.used);
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return { granted, count: used - granted, oldest };
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
