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
 * that one second. From 12,000 requests a minute, one statement leases a process a batch of units for the current
 * second ({@link leaseSize}), so a busy tenant costs one statement per batch rather than per request; the units are
 * counted before they are used, at the second's end, so the limit holds as before. Time is the injected clock's, so
 * tests move time instead of sleeping.
 *
 * No library fitted both stores: express-rate-limit's and rate-limiter-flexible's stores count fixed windows (twice
 * the limit across a boundary), the sliding-window packages on npm (ratelimit.js, sliding-window-rate-limiter) need
 * Redis, and @acpr/rate-limit-postgresql counts per window with its own pg pool and schema.
 */
import { countBucketHits, pruneBuckets, takeBucketHits } from '../repositories/rate-limits.js';
import type { ServiceDeps } from './context.js';

/** Length of the sliding window (the seed's limit is per minute). */
export const WINDOW_MS = 60_000;
/** The rate-limit key of a tenant's requests (one window per tenant, across its keys). */
export function tenantRateKey(tenantId: string): string {
  return `tenant:${tenantId}`;
}

/** Housekeeping: keys whose requests all left the window are forgotten every this many requests. */
const PRUNE_EVERY = 1_000;
/** The most units one lease takes (docs/design.md, "Limits"). */
const MAX_LEASE = 100;
/** A lease takes at most 1/this of the limit: at most 60 leftovers per process per window, 1 % of the limit. */
const LEASE_DIVISOR = 6_000;

/**
 * The units one API process takes from a key's shared window at once on Postgres (docs/design.md, "Limits"):
 * ⌊limit / 6,000⌋, between 1 and 100 — 1 (every request its own statement, exact) below 12,000 requests per minute.
 */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(limit / LEASE_DIVISOR)));
}

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

/** Units of a key's shared window this process took and has not used yet, usable until their second ends. */
interface Lease {
  /** The epoch second the units were counted in (at its last ms). */
  second: number;
  /** Units left. */
  left: number;
  /** The window's count after the latest lease, leftovers included. */
  counted: number;
  /** The oldest bucket's last instant at the latest lease. */
  oldest: number | null;
  /** The lease under way, if any: settles when its units (or its refusal) arrive. */
  taking: Promise<void> | null;
}

/** One key's log in memory: instants (epoch ms) in ascending order, the live ones from `head` on. */
interface MemoryLog {
  at: number[];
  head: number;
}

/** Sliding-window limits per key (a tenant, a client address), in memory or shared through Postgres. */
export class RateLimitService {
  readonly #memory = new Map<string, MemoryLog>();
  readonly #leases = new Map<string, Lease>();
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
    const want = leaseSize(limit);
    if (want === 1) {
      const hit = await takeBucketHits(this.deps.db.knex, key, limit, 1, now, now, WINDOW_MS);
      return this.#decision(hit.granted > 0, limit, hit.count + hit.granted, hit.oldest, now);
    }
    return this.#leased(key, limit, want, now);
  }

  /**
   * A request of `key` served from this process's lease of the current second, taking a new lease of `want` units
   * when it is used up (docs/design.md, "Limits"). `remaining` is this process's view: the window's count at its
   * latest lease, less the units it still holds.
   */
  async #leased(key: string, limit: number, want: number, now: number): Promise<RateDecision> {
    const second = Math.floor(now / 1000);
    let lease: Lease;
    for (;;) {
      const held = this.#leases.get(key);
      if (held && held.second > second) {
        // The clock moved on under this request: it is counted on its own, at its instant.
        const hit = await takeBucketHits(this.deps.db.knex, key, limit, 1, now, now, WINDOW_MS);
        return this.#decision(hit.granted > 0, limit, hit.count + hit.granted, hit.oldest, now);
      }
      lease = held?.second === second ? held : { second, left: 0, counted: 0, oldest: null, taking: null };
      if (lease !== held) this.#leases.set(key, lease);
      if (lease.left > 0) {
        lease.left--;
        return this.#decision(true, limit, lease.counted - lease.left, lease.oldest, now);
      }
      // One lease at a time per key: requests that find it under way wait for its units.
      if (!lease.taking) break;
      await lease.taking;
    }
    let landed = (): void => undefined;
    lease.taking = new Promise<void>((resolve) => {
      landed = resolve;
    });
    let hit: Awaited<ReturnType<typeof takeBucketHits>>;
    try {
      hit = await takeBucketHits(this.deps.db.knex, key, limit, want, now, second * 1000 + 999, WINDOW_MS);
    } finally {
      lease.taking = null;
      landed();
    }
    if (hit.granted === 0) return this.#decision(false, limit, hit.count, hit.oldest, now);
    lease.left += hit.granted - 1;
    lease.counted = Math.max(lease.counted, hit.count + hit.granted);
    lease.oldest = hit.oldest;
    return this.#decision(true, limit, lease.counted - lease.left, lease.oldest, now);
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
    const second = Math.floor(now / 1000);
    for (const [key, lease] of this.#leases) if (lease.second !== second) this.#leases.delete(key);
    await pruneBuckets(this.deps.db.knex, cutoff);
  }
}
