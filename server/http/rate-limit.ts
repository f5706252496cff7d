/**
 * The HTTP side of the rate limits (seed: 1,000 requests per minute per tenant; docs/design.md, "Limits"): the
 * per-tenant limit with the IETF RateLimit header fields (draft 8: `RateLimit-Policy` and `RateLimit` on every
 * response, 429 with `Retry-After`), and the failed-authentication limit per client address. The counting is the
 * {@link RateLimitService}'s (a sliding window, shared by every API process on Postgres).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { AppError } from '../services/errors.js';
import {
  type RateDecision,
  type RateLimitService,
  tenantRateKey,
  WINDOW_MS,
} from '../services/rate-limits.js';

const POLICY = '"default"';
const WINDOW_SECONDS = WINDOW_MS / 1000;

function retryAfterSeconds(decision: RateDecision): number {
  return Math.max(1, Math.ceil(decision.resetMs / 1000));
}

/**
 * Per-tenant limit (after authentication): every response carries `RateLimit-Policy: "default"; q=<limit>; w=60`
 * and `RateLimit: "default"; r=<remaining>; t=<seconds until the oldest request of the window leaves it>`; above
 * the limit, 429 `rate_limited` with `Retry-After` (the same seconds).
 * @param limitOf the requests-per-minute limit of the authenticated request's tenant.
 */
export function tenantRateLimit(
  rateLimits: RateLimitService,
  limitOf: (req: Request) => number,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const limit = limitOf(req);
      const decision = await rateLimits.consume(
        tenantRateKey(req.principal?.tenant.id ?? 'anonymous'),
        limit,
      );
      const seconds = retryAfterSeconds(decision);
      res.setHeader('RateLimit-Policy', `${POLICY}; q=${limit}; w=${WINDOW_SECONDS}`);
      res.setHeader('RateLimit', `${POLICY}; r=${decision.remaining}; t=${seconds}`);
      if (decision.allowed) {
        next();
        return;
      }
      next(
        new AppError(
          'rate_limited',
          `The tenant's limit of ${limit} requests in any 60 seconds is used up; retry in ${seconds} s.`,
          { headers: { 'Retry-After': String(seconds) } },
        ),
      );
    } catch (err) {
      next(err);
    }
  };
}

/**
 * Failed authentication per client address (docs/design.md, "Limits"): only requests whose key is missing or not
 * valid are counted or refused, so a valid key is never refused by it, whoever shares its address (a NAT, a proxy).
 * An address that used up its failures in the last 60 s gets 429 instead of 401 for every further failure until the
 * oldest leaves the window. Behind a proxy, set MERIDIAN_TRUST_PROXY so the address is the client's.
 */
export class FailedAuthLimit {
  constructor(
    private readonly rateLimits: RateLimitService,
    private readonly perMinute: number,
  ) {}

  #key(req: Request): string {
    // ipKeyGenerator groups IPv6 addresses by /56, so one host cannot dodge the limit by rotating addresses.
    return `auth-failures:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
  }

  /**
   * Counts one failed authentication of the request's address; returns the 429 to answer instead of the 401 when
   * the address has no failures left, else null (answer the 401).
   */
  async refusal(req: Request): Promise<AppError | null> {
    const decision = await this.rateLimits.consume(this.#key(req), this.perMinute);
    if (decision.allowed) return null;
    const seconds = retryAfterSeconds(decision);
    return new AppError(
      'rate_limited',
      `Too many failed authentication attempts from this address; retry in ${seconds} s.`,
      { headers: { 'Retry-After': String(seconds) } },
    );
  }
}
