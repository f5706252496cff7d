/**
 * Rate limits as a sliding window (seed: 1,000 requests per minute per tenant; docs/design.md, "Limits"): in any
 * 60-second interval at most `limit` requests of a key pass, whatever the clock's minute. Refused requests are not
 * counted, so a client that keeps retrying is let through again as soon as quota leaves the window.
 *
 * Two stores, one guarantee. The embedded SQLite default (one process) keeps a log of the instants let through per
 * key in memory and answers exactly. Postgres, where every API process of a deployment must see one count, keeps
 * per-second buckets in one row per key (repositories/rate-limits.ts), checked and counted by one statement: a bucket
 * that straddles the window's start is counted whole, so the limit still holds in every 60 s and the only error is
 * on the safe side — a request may be refused that the exact log would pass, by at most the requests let through in
 * that one second. Time is the injected clock's, so tests move time instead of sleeping.
 *
 * No library fitted both stores: express-rate-limit's and rate-limiter-flexible's stores count fixed windows (twice
 * the limit across a boundary), the sliding-window packages on npm (ratelimit.js, sliding-window-rate-limiter) need
 * Redis, and @acpr/rate-limit-postgresql counts per window with its own pg pool and schema.
 */
import { countBucketHits, pruneBuckets, takeBucketHit } from '../repositories/rate-limits.js';
import type { ServiceDeps } from './context.js';

/** Length of the sliding window (the seed's limit is per minute). */
export const WINDOW_MS = 60_000;
/** The rate-limit key of a tenant's requests (one window per tenant, across its keys). */
export function tenantRateKey(tenantId: string): string {
  return `tenant:${tenantId}`;
}

/** Housekeeping: keys whose requests all left the window are forgotten every this many requests. */
const PRUNE_EVERY = 1_000;

/** The outcome of one request against a key's window. */
export interface RateDecision {
  /** Whether the request may go on. */
  allowed: boolean;
  /** The limit of the window. */
  limit: number;
  /** Requests counted in the window, this one included when it was let through. */
  used: number;
  /** Requests still allowed in the window after this one (0 when refused). */
  remaining: number;
  /**
   * Milliseconds until the window holds one request fewer than now (the oldest leaves it), at least 1: after a
   * refusal, the wait before a retry can pass (`Retry-After`); after a success, when quota starts to come back.
   */
  resetMs: number;
}

/** One key's log in memory: instants (epoch ms) in ascending order, the live ones from `head` on. */
interface MemoryLog {
  at: number[];
  head: number;
}

/** Sliding-window limits per key (a tenant, a client address), in memory or shared through Postgres. */
export class RateLimitService {
  readonly #memory = new Map<string, MemoryLog>();
  #requests = 0;

  constructor(private readonly deps: ServiceDeps) {}

  /** Whether the window is shared by every process (Postgres) or kept by this one (SQLite). */
  get shared(): boolean {
    return this.deps.db.dialect === 'postgres';
  }

  /**
   * Counts a request of `key` against `limit` per {@link WINDOW_MS}: lets it through and counts it when fewer than
   * `limit` requests of the key were let through in the last 60 s (on Postgres: in the buckets the last 60 s touch),
   * else refuses it (and counts nothing).
   */
  async consume(key: string, limit: number): Promise<RateDecision> {
    const now = this.deps.clock.now().getTime();
    if (++this.#requests % PRUNE_EVERY === 0) await this.#prune(now);
    if (!this.shared) {
      const log = this.#live(key, now);
      const count = log.at.length - log.head;
      const allowed = count < limit;
      if (allowed) log.at.push(now);
      const oldest = log.head < log.at.length ? (log.at[log.head] as number) : null;
      return this.#decision(allowed, limit, count + (allowed ? 1 : 0), oldest, now);
    }
    if (limit < 1) return this.#decision(false, limit, 0, null, now);
    const hit = await takeBucketHit(this.deps.db.knex, key, limit, now, WINDOW_MS);
    return this.#decision(hit.taken, limit, hit.count + (hit.taken ? 1 : 0), hit.oldest, now);
  }

  /** The state of `key`'s window without counting a request: `allowed` says whether one more would pass. */
  async peek(key: string, limit: number): Promise<RateDecision> {
    const now = this.deps.clock.now().getTime();
    if (!this.shared) {
      const log = this.#live(key, now);
      const count = log.at.length - log.head;
      return this.#decision(
        count < limit,
        limit,
        count,
        log.head < log.at.length ? (log.at[log.head] as number) : null,
        now,
      );
    }
    const { count, oldest } = await countBucketHits(this.deps.db.knex, key, now, WINDOW_MS);
    return this.#decision(count < limit, limit, count, oldest, now);
  }

  #decision(allowed: boolean, limit: number, used: number, oldest: number | null, now: number): RateDecision {
    return {
      allowed,
      limit,
      used,
      remaining: Math.max(0, limit - used),
      resetMs: Math.max(1, (oldest ?? now) + WINDOW_MS - now),
    };
  }

  /** The key's log with the instants that left the window dropped. */
  #live(key: string, now: number): MemoryLog {
    let log = this.#memory.get(key);
    if (!log) {
      log = { at: [], head: 0 };
      this.#memory.set(key, log);
    }
    const cutoff = now - WINDOW_MS;
    while (log.head < log.at.length && (log.at[log.head] as number) <= cutoff) log.head++;
    // Compact now and then instead of shifting on every request.
    if (log.head > 1024 && log.head * 2 > log.at.length) {
      log.at = log.at.slice(log.head);
      log.head = 0;
    }
    return log;
  }

  async #prune(now: number): Promise<void> {
    const cutoff = now - WINDOW_MS;
    if (!this.shared) {
      for (const [key, log] of this.#memory) {
        const newest = log.at[log.at.length - 1];
        if (newest === undefined || newest <= cutoff) this.#memory.delete(key);
      }
      return;
    }
    await pruneBuckets(this.deps.db.knex, cutoff);
  }
}
