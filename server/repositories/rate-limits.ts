/**
 * Shared fixed-window counters for the rate limiter (Postgres deployments): one atomic upsert per request.
 */
import type { Executor } from './common.js';

/** Adds one hit to (key, window) and returns the window's total, atomically across processes. */
export async function incrementWindow(db: Executor, key: string, windowStart: number): Promise<number> {
  const rows = (await db('rate_limit_windows')
    .insert({ key, window_start: windowStart, hits: 1 })
    .onConflict(['key', 'window_start'])
    .merge({ hits: db.raw('rate_limit_windows.hits + 1') })
    .returning('hits')) as { hits: number | string }[];
  return Number(rows[0]?.hits ?? 1);
}

/** The hits of (key, window), 0 when none. */
export async function readWindow(db: Executor, key: string, windowStart: number): Promise<number> {
  const row = (await db('rate_limit_windows').where({ key, window_start: windowStart }).first('hits')) as
    | { hits: number | string }
    | undefined;
  return Number(row?.hits ?? 0);
}

/** Takes one hit back (express-rate-limit's skip-successful-requests mode). */
export async function decrementWindow(db: Executor, key: string, windowStart: number): Promise<void> {
  await db('rate_limit_windows')
    .where({ key, window_start: windowStart })
    .andWhere('hits', '>', 0)
    .decrement('hits', 1);
}

/** Forgets a key's counters. */
export async function deleteWindows(db: Executor, key: string): Promise<void> {
  await db('rate_limit_windows').where({ key }).delete();
}

/** Deletes windows that ended before `windowStart` (housekeeping). */
export async function pruneWindows(db: Executor, windowStart: number): Promise<void> {
  await db('rate_limit_windows').where('window_start', '<', windowStart).delete();
}
