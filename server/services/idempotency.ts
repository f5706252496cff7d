/**
 * `Idempotency-Key` on POST (docs/design.md; the pattern of Stripe's API): per tenant, kept 24 h.
 *
 * - First request with a key: reserved IN_FLIGHT, run, and its successful response stored.
 * - Same key and same request again: the stored status, headers and body are replayed (nothing runs twice).
 * - Same key, different request (method, path or body): 422 `idempotency_key_reused`.
 * - Same key while the first is still running: 409 `conflict` with `Retry-After: 1` (seconds).
 * - A request that fails (validation never reaches here; business errors and server errors do) releases its key,
 *   so a corrected retry may use it again. A reservation left by a crashed process stays until the key expires
 *   (409 meanwhile): whether its change committed cannot be known, and repeating it could do it twice.
 * - Responses that carry a one-time secret (a new API key, a webhook secret) are not stored: their replay answers
 *   409 naming the record created (server/app.ts).
 */
import { createHash } from 'node:crypto';
import {
  completeKey,
  deleteExpiredKeys,
  deleteKey,
  findKey,
  reserveKey,
} from '../repositories/idempotency.js';
import { inTransaction } from '../repositories/transactions.js';
import type { ServiceDeps } from './context.js';
import { AppError } from './errors.js';

/** How long a key is remembered (docs/design.md: 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An IN_FLIGHT reservation is never taken over while the key lives: if the process that held it crashed after its
 * change committed, running the request again would repeat the effect. The retry gets 409 until the key expires.
 */
export const IN_FLIGHT_LOCK_MS = IDEMPOTENCY_TTL_MS;
/** `Retry-After` (seconds) of the 409 for a key whose first request is still in progress: most finish within it. */
export const IN_PROGRESS_RETRY_AFTER_S = 1;

/** A stored response. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Outcome of {@link IdempotencyService.begin}. */
export type Reservation = { kind: 'new' } | { kind: 'replay'; response: StoredResponse };

/** The request's fingerprint: SHA-256 of method, path and the body's bytes as sent (empty when none). */
export function fingerprintOf(method: string, path: string, rawBody: Buffer | string | undefined): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n`)
    .update(rawBody ?? '')
    .digest('hex');
}

/** Idempotency-key bookkeeping. */
export class IdempotencyService {
  #reservations = 0;
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Reserves `key` for this request, or returns the response to replay.
   * @throws AppError 422 `idempotency_key_reused` (different request), 409 `conflict` (first still in flight).
   */
  async begin(tenantId: string, key: string, fingerprint: string): Promise<Reservation> {
    const now = this.deps.clock.now();
    const times = {
      now: now.toISOString(),
      lockedUntil: new Date(now.getTime() + IN_FLIGHT_LOCK_MS).toISOString(),
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
    };
    // Housekeeping every 500 reservations: expired keys are never read again (an expired key found on a
    // conflict is replaced below anyway).
    if (++this.#reservations % 500 === 0) await deleteExpiredKeys(this.deps.db.knex, times.now);
    return inTransaction(this.deps.db.knex, async (trx) => {
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await reserveKey(trx, tenantId, key, fingerprint, times)) return { kind: 'new' } as const;
        const existing = await findKey(trx, tenantId, key);
        if (!existing) continue;
        const abandoned = existing.state === 'IN_FLIGHT' && existing.lockedUntil <= times.now;
        if (existing.expiresAt <= times.now || abandoned) {
          await deleteKey(trx, tenantId, key);
          continue;
        }
        if (existing.fingerprint !== fingerprint) {
          throw new AppError(
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different request in the last 24 hours; use a new key.',
          );
        }
        if (existing.state === 'IN_FLIGHT' || !existing.response) {
          throw new AppError(
            'conflict',
            'A request with this Idempotency-Key is still in progress; retry shortly.',
            { headers: { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_S) } },
          );
        }
        return { kind: 'replay', response: existing.response } as const;
      }
      throw new AppError('conflict', 'The Idempotency-Key is contended; retry shortly.', {
        headers: { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_S) },
      });
    });
  }

  /** Stores the first request's successful response for replay. */
  async complete(tenantId: string, key: string, response: StoredResponse): Promise<void> {
    await completeKey(this.deps.db.knex, tenantId, key, response);
  }

  /** Forgets the key after a failed request. */
  async release(tenantId: string, key: string): Promise<void> {
    await deleteKey(this.deps.db.knex, tenantId, key);
  }
}
