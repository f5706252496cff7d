/**
 * Sign-in throttling (docs/accounts.md, "Sign-in throttling"): growing delays after failed sign-ins, counted in the
 * database by `rate-limiter-flexible` (table `sign_in_throttle`), along three lines:
 *
 * - per account and address: free for 3 failures, then 1 s, 2 s, 4 s … at most 15 minutes;
 * - per account from any address: free for 10 failures, then 1 s, 2 s … at most 60 s, so someone guessing from
 *   many addresses slows the owner down to one try a minute but never locks them out;
 * - per address over any accounts: free for 20 failures, then growing to at most 15 minutes.
 *
 * The account is named by the SHA-256 of the normalised email typed, whether or not such an account exists, so
 * the delays say nothing about which emails exist. Counters forget after 24 h. A success clears the account's
 * counters (not the address's). The library keeps time with the wall clock, not the injected one.
 */
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '../../repositories/db.js';
import { throttleCounter } from '../../repositories/sign-in-throttle.js';
import { AppError } from '../errors.js';
import { hashSecret } from './secrets.js';

const DAY_S = 24 * 3600;

/** One line of throttling: failures free before delays start, and the longest delay in seconds. */
interface Line {
  name: string;
  free: number;
  maxDelayS: number;
}

const LINES = {
  accountAddress: { name: 'aa', free: 3, maxDelayS: 15 * 60 },
  account: { name: 'ac', free: 10, maxDelayS: 60 },
  address: { name: 'ad', free: 20, maxDelayS: 15 * 60 },
} satisfies Record<string, Line>;

/** The delay after the `failures`-th failure of a line, in seconds (0 while free). */
export function delayAfter(line: Line, failures: number): number {
  if (failures < line.free) return 0;
  return Math.min(2 ** (failures - line.free), line.maxDelayS);
}

/** Counts sign-in failures and answers 429 while a delay runs. One per app. */
export class SignInThrottle {
  readonly #failures: RateLimiterAbstract;
  readonly #delays: RateLimiterAbstract;

  constructor(db: Database) {
    this.#failures = throttleCounter(db.knex, 'signin-fail', 1_000_000, DAY_S);
    this.#delays = throttleCounter(db.knex, 'signin-wait', 1, DAY_S);
  }

  #keys(emailNormalized: string, address: string | null): [Line, string][] {
    const account = hashSecret(emailNormalized).slice(0, 40);
    const from = address ?? 'unknown';
    return [
      [LINES.accountAddress, `${LINES.accountAddress.name}:${account}:${from}`],
      [LINES.account, `${LINES.account.name}:${account}`],
      [LINES.address, `${LINES.address.name}:${from}`],
    ];
  }

  /**
   * Refuses the attempt while a delay of any line runs.
   * @throws AppError 429 `rate_limited` with `Retry-After` in seconds.
   */
  async check(emailNormalized: string, address: string | null): Promise<void> {
    let waitMs = 0;
    for (const [, key] of this.#keys(emailNormalized, address)) {
      const res = await this.#delays.get(key);
      if (res && res.consumedPoints > 1) waitMs = Math.max(waitMs, res.msBeforeNext);
    }
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new AppError(
        'rate_limited',
        `Too many failed sign-ins: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        { headers: { 'Retry-After': String(seconds) } },
      );
    }
  }

  /** Counts a failure on every line and starts the delays it earns. */
  async failed(emailNormalized: string, address: string | null): Promise<void> {
    for (const [line, key] of this.#keys(emailNormalized, address)) {
      const res = await this.#failures.penalty(key, 1);
      const delay = delayAfter(line, res instanceof RateLimiterRes ? res.consumedPoints : 0);
      if (delay > 0) await this.#delays.block(key, delay);
    }
  }

  /** Clears the account's counters after a successful sign-in. */
  async succeeded(emailNormalized: string, address: string | null): Promise<void> {
    const [accountAddress, account] = this.#keys(emailNormalized, address);
    for (const entry of [accountAddress, account]) {
      if (!entry) continue;
      await this.#failures.delete(entry[1]);
      await this.#delays.delete(entry[1]);
    }
  }
}
