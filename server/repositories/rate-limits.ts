/**
 * The shared sliding-window log of the rate limiter (Postgres deployments; docs/design.md, "Limits"): one row per
 * request let through, in `rate_limit_hits`. A key's hits are read and written under a transaction-scoped advisory lock on the
 * key, so two API processes can never both take the last unit of a window.
 */
import type { Knex } from 'knex';
import { toCount } from './values.js';

/** What one attempt to take a unit of a key's window found. */
export interface LoggedHit {
  /** Whether the request was let through (and logged). */
  taken: boolean;
  /** Hits in the window before this request. */
  count: number;
  /** Epoch ms of the oldest hit in the window (this one's when it is the first), or null when none. */
  oldest: number | null;
}

/** `value` as a Postgres string literal (pg's `escapeLiteral`: quotes doubled, backslashes as an E'' string). */
function literal(value: string): string {
  if (value.includes('\0')) throw new Error('a rate-limit key cannot contain NUL');
  const quoted = `'${value.replaceAll("'", "''").replaceAll('\\', '\\\\')}'`;
  return value.includes('\\') ? ` E${quoted}` : quoted;
}

function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
}

/**
 * Logs a hit at `now` for `key` if fewer than `limit` hits lie in (`now` − `windowMs`, `now`]; atomic across
 * processes (Postgres only). One round trip: two statements sent together run as one implicit transaction, the
 * first taking a per-key advisory lock (held to the end of it), the second counting and inserting with a snapshot
 * taken after the lock was granted, so it sees every hit committed by the process that held the lock before. Sent as
 * a simple query (several statements cannot be parameters of one prepared statement), so the values are literals.
 */
export async function takeLoggedHit(
  db: Knex,
  key: string,
  limit: number,
  now: number,
  windowMs: number,
): Promise<LoggedHit> {
  const k = literal(key);
  const results = (await db.raw(
    `SELECT pg_advisory_xact_lock(hashtext(${literal(`rate-limit:${key}`)}));
     WITH w AS (SELECT count(*) AS n, min(at) AS oldest FROM rate_limit_hits WHERE key = ${k} AND at > ${integer(now - windowMs)}),
          ins AS (INSERT INTO rate_limit_hits (key, at) SELECT ${k}, ${integer(now)} FROM w WHERE w.n < ${integer(limit)} RETURNING 1)
     SELECT w.n, w.oldest, (SELECT count(*) FROM ins) AS taken FROM w`,
  )) as { rows: { n: unknown; oldest: unknown; taken: unknown }[] }[];
  const row = results[1]?.rows[0];
  const count = toCount(row?.n);
  const taken = toCount(row?.taken) === 1;
  const oldest =
    row?.oldest === null || row?.oldest === undefined ? (taken ? now : null) : Number(row.oldest);
  return { taken, count, oldest };
}

/** Hits of `key` in (`now` − `windowMs`, `now`] and the oldest of them. */
export async function countLoggedHits(
  db: Knex,
  key: string,
  now: number,
  windowMs: number,
): Promise<{ count: number; oldest: number | null }> {
  const row = (await db('rate_limit_hits')
    .where('key', key)
    .andWhere('at', '>', now - windowMs)
    .first(db.raw('count(*) as n'), db.raw('min(at) as oldest'))) as
    | { n: unknown; oldest: unknown }
    | undefined;
  return {
    count: toCount(row?.n),
    oldest: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
  };
}

/** Deletes hits that left every window (at or before `before`, epoch ms). */
export async function pruneLoggedHits(db: Knex, before: number): Promise<void> {
  await db('rate_limit_hits').where('at', '<=', before).delete();
}
