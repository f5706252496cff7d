/**
 * Rate limits (seed: 1,000 requests per minute per tenant; DESIGN.md: RateLimit headers, 429 + Retry-After, a count
 * shared by all API processes, failed authentication limited per client address).
 *
 * express-rate-limit does the HTTP side (keys, limits, IETF draft-8 `RateLimit`/`RateLimit-Policy` headers). The
 * store below only counts, in fixed one-minute windows read from the injected clock, so tests move time instead of
 * sleeping: in process memory on the embedded SQLite default, in the database (one atomic upsert per request) on
 * Postgres, where every API process must share the count.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type ClientRateLimitInfo, ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import type { Clock } from '../clock.js';
import type { Database } from '../repositories/db.js';
import {
  decrementWindow,
  deleteWindows,
  incrementWindow,
  pruneWindows,
  readWindow,
} from '../repositories/rate-limits.js';
import { AppError } from '../services/errors.js';

/** Length of a rate-limit window (the seed's limit is per minute). */
export const WINDOW_MS = 60_000;

/** A fixed-window counter store for express-rate-limit, on the injected clock. */
export class FixedWindowStore implements Store {
  readonly localKeys: boolean;
  readonly #memory = new Map<string, { windowStart: number; hits: number }>();
  #increments = 0;

  /** @param db the database when counts must be shared (Postgres); null counts in this process. */
  constructor(
    private readonly clock: Clock,
    private readonly db: Database | null,
  ) {
    this.localKeys = db === null;
  }

  #window(): number {
    const now = this.clock.now().getTime();
    return now - (now % WINDOW_MS);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const windowStart = this.#window();
    // express-rate-limit measures time with Date.now() (the `t` of the RateLimit header, whether a decrement is
    // still due), so the reset instant is reported on that scale: as far from Date.now() as the window's end is
    // from the injected clock's now. With the system clock the two are the same.
    const resetTime = new Date(Date.now() + (windowStart + WINDOW_MS - this.clock.now().getTime()));
    if (!this.db) {
      const entry = this.#memory.get(key);
      const hits = entry && entry.windowStart === windowStart ? entry.hits + 1 : 1;
      this.#memory.set(key, { windowStart, hits });
      return { totalHits: hits, resetTime };
    }
    const totalHits = await incrementWindow(this.db.knex, key, windowStart);
    // Housekeeping every 1,000 requests: windows older than the previous one are no longer read.
    if (++this.#increments % 1000 === 0) await pruneWindows(this.db.knex, windowStart - WINDOW_MS);
    return { totalHits, resetTime };
  }

  /** Hits of the key in the current window (0 when none). */
  async hits(key: string): Promise<number> {
    const windowStart = this.#window();
    if (!this.db) {
      const entry = this.#memory.get(key);
      return entry && entry.windowStart === windowStart ? entry.hits : 0;
    }
    return readWindow(this.db.knex, key, windowStart);
  }

  /** Milliseconds until the current window ends, on the injected clock. */
  msToReset(): number {
    return this.#window() + WINDOW_MS - this.clock.now().getTime();
  }

  async decrement(key: string): Promise<void> {
    const windowStart = this.#window();
    if (!this.db) {
      const entry = this.#memory.get(key);
      if (entry && entry.windowStart === windowStart && entry.hits > 0) entry.hits -= 1;
      return;
    }
    await decrementWindow(this.db.knex, key, windowStart);
  }

  async resetKey(key: string): Promise<void> {
    this.#memory.delete(key);
    if (this.db) await deleteWindows(this.db.knex, key);
  }
}

function tooMany(detail: (seconds: number) => string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
    const now = Date.now(); // the scale of resetTime (see FixedWindowStore.increment)
    const retryAfter = Math.max(1, Math.ceil(((reset?.getTime() ?? now + WINDOW_MS) - now) / 1000));
    next(
      new AppError('rate_limited', detail(retryAfter), { headers: { 'Retry-After': String(retryAfter) } }),
    );
  };
}

/** Options of the two limiters. */
export interface RateLimitOptions {
  clock: Clock;
  /** The database when the count must be shared by all API processes (Postgres); null → in process. */
  sharedDb: Database | null;
  /** The requests-per-minute limit of the authenticated request's tenant. */
  limitOf: (req: Request) => number;
  /** Failed authentication attempts allowed per client address per minute. */
  authFailuresPerMinute: number;
}

/** Per-tenant limit (after authentication): `RateLimit`/`RateLimit-Policy` on every response, 429 above it. */
export function tenantRateLimiter(options: RateLimitOptions): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit: options.limitOf,
    keyGenerator: (req: Request) => `tenant:${req.principal?.tenant.id ?? 'anonymous'}`,
    store: new FixedWindowStore(options.clock, options.sharedDb),
    standardHeaders: 'draft-8',
    identifier: 'default',
    legacyHeaders: false,
    handler: tooMany((s) => `The tenant's limit of requests per minute is used up; retry in ${s} s.`),
  });
}

/**
 * Failed authentication per client address: only real 401 answers count (recorded by the authentication step when
 * it refuses a key), so callers with a valid key are never slowed by it, however many requests they have in flight.
 * Once an address has used up its failures in the window, every request from it gets 429 until the window ends.
 * Behind a proxy, set MERIDIAN_TRUST_PROXY so the address is the client's and not the proxy's.
 */
export class FailedAuthGuard {
  readonly #store: FixedWindowStore;

  constructor(private readonly options: RateLimitOptions) {
    this.#store = new FixedWindowStore(options.clock, options.sharedDb);
  }

  #key(req: Request): string {
    // ipKeyGenerator groups IPv6 addresses by /56, so one host cannot dodge the limit by rotating addresses.
    return `auth-failures:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
  }

  /** Middleware (before authentication): 429 with Retry-After when the address has no failures left. */
  check(): RequestHandler {
    return async (req: Request, _res: Response, next: NextFunction) => {
      try {
        if ((await this.#store.hits(this.#key(req))) < this.options.authFailuresPerMinute) {
          next();
          return;
        }
        const retryAfter = Math.max(1, Math.ceil(this.#store.msToReset() / 1000));
        next(
          new AppError(
            'rate_limited',
            `Too many failed authentication attempts from this address; retry in ${retryAfter} s.`,
            { headers: { 'Retry-After': String(retryAfter) } },
          ),
        );
      } catch (err) {
        next(err);
      }
    };
  }

  /** Counts one failed authentication of the request's address. */
  async recordFailure(req: Request): Promise<void> {
    await this.#store.increment(this.#key(req));
  }
}
