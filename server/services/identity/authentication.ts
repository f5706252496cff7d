/**
 * Authentication (docs/design.md, "Auth, tenants, users, keys"): a presented key becomes its principal (key, user
 * and tenant), read in one query and then held for a few seconds (./principals.ts); hashes are compared in constant
 * time; expired or revoked keys are refused.
 */
import { timingSafeEqual } from 'node:crypto';
import { findKeyPrincipalByHash, touchApiKey } from '../../repositories/tenants.js';
import type { ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import { API_KEY_PATTERN, hashApiKey } from './api-keys.js';
import type { Principal, PrincipalCache } from './principals.js';

/** `lastUsedAt` is written at most once a minute per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

/** Options of {@link AuthenticationService}: the app's dependencies and its principal cache (./principals.ts). */
export interface AuthenticationServiceOptions extends ServiceDeps {
  principals: PrincipalCache;
}

/** Resolves presented keys to principals. */
export class AuthenticationService {
  readonly #deps: ServiceDeps;
  readonly #principals: PrincipalCache;

  constructor(options: AuthenticationServiceOptions) {
    this.#deps = options;
    this.#principals = options.principals;
  }

  /**
   * Resolves a presented key to its principal.
   * @throws AppError 401 `unauthenticated` when the key is malformed, or unknown, expired or revoked (one message
   *   for these three, so the answer does not tell which).
   */
  async authenticate(presented: string): Promise<Principal> {
    const refuse = (why: 'malformed' | 'invalid') =>
      new AppError(
        'unauthenticated',
        why === 'malformed'
          ? 'The API key is malformed: keys look like mk_live_ followed by 32 or more letters and digits.'
          : 'The API key is not valid: it is unknown, expired or revoked.',
        { headers: { 'WWW-Authenticate': `Bearer realm="meridian", error="invalid_token"` } },
      );
    if (!API_KEY_PATTERN.test(presented)) throw refuse('malformed');
    const hash = hashApiKey(presented);
    const now = this.#deps.clock.now();
    let found = this.#principals.get(hash, now.getTime());
    if (!found) {
      // Key, user and tenant in one query, then held for a few seconds (AUTH_CACHE_TTL_MS).
      found = await findKeyPrincipalByHash(this.#deps.db.knex, hash);
      // The lookup is by hash; the constant-time comparison keeps the final check free of timing leaks.
      if (!found || !timingSafeEqual(Buffer.from(found.keyHash, 'hex'), Buffer.from(hash, 'hex'))) {
        throw refuse('invalid');
      }
      this.#principals.set(hash, found, now.getTime());
    }
    const { key, user, tenant } = found;
    if (key.revokedAt !== null) throw refuse('invalid');
    if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime()) throw refuse('invalid');
    if (key.lastUsedAt === null || now.getTime() - Date.parse(key.lastUsedAt) >= TOUCH_INTERVAL_MS) {
      key.lastUsedAt = now.toISOString();
      await touchApiKey(this.#deps.db.knex, key.id, key.lastUsedAt);
    }
    return { tenant, user, apiKey: key };
  }
}
