/**
 * The counters of sign-in throttling (docs/accounts.md, "Sign-in throttling") in table `sign_in_throttle`, kept by
 * `rate-limiter-flexible`'s SQL stores over the app's Knex pool: on Postgres its Postgres store, on SQLite its SQLite
 * store (the table comes from the migrations; the library is told it exists).
 */
import { type RateLimiterAbstract, RateLimiterPostgres, RateLimiterSQLite } from 'rate-limiter-flexible';
import { type Executor, isPostgres } from './sql.js';

const TABLE = 'sign_in_throttle';

/**
 * A counter per key in `sign_in_throttle`, forgetting a key `durationS` seconds after its first point.
 * @param keyPrefix separates the counters sharing the table.
 * @param points points before the counter is exhausted (`block` sets it past them).
 */
export function throttleCounter(
  db: Executor,
  keyPrefix: string,
  points: number,
  durationS: number,
): RateLimiterAbstract {
  const options = {
    storeClient: db,
    storeType: 'knex',
    tableName: TABLE,
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix,
    points,
    duration: durationS,
  };
  return isPostgres(db) ? new RateLimiterPostgres(options) : new RateLimiterSQLite(options);
}

/** Deletes the counters that expired before `nowMs` (epoch ms, the library's clock). Returns how many. */
export async function purgeExpiredCounters(db: Executor, nowMs: number): Promise<number> {
  return Number(await db(TABLE).where('expire', '<', nowMs).delete());
}
