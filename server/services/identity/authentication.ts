/**
 * Authentication (docs/design.md, "Auth, tenants, users, keys"): a presented key becomes its principal (key, user
 * and tenant), read in one query and then held for a few seconds (./principals.ts); hashes are compared in constant
 * time; expired or revoked keys are refused.
 */
import { timingSafeEqual } from 'node:crypto';
import { findConsoleTokenPrincipal } from '../../repositories/sessions.js';
import { findKeyPrincipalByHash, touchApiKey } from '../../repositories/tenants.js';
import { scopesOfRole, withinRole } from '../accounts/roles.js';
import { CONSOLE_TOKEN_PATTERN, CONSOLE_TOKEN_PREFIX, hashSecret } from '../accounts/secrets.js';
import { isLive } from '../accounts/sessions.js';
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
    if (presented.startsWith(CONSOLE_TOKEN_PREFIX)) return this.#authenticateConsoleToken(presented);
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
    // A key never carries more than its user's role (docs/accounts.md, "Roles").
    return {
      tenant,
      user,
      apiKey: { ...key, scopes: withinRole(key.scopes, user.role) },
      via: 'api_key',
      sessionId: null,
    };
  }

  /**
   * A console access token (`mt_…`): valid for 10 minutes while its console session lives; never held in the
   * principal cache, so signing out ends it at once in every process.
   */
  async #authenticateConsoleToken(presented: string): Promise<Principal> {
    const refuse = new AppError(
      'unauthenticated',
      CONSOLE_TOKEN_PATTERN.test(presented)
        ? 'The console access token is not valid: it is unknown or expired, or its session ended. Get a new one from POST /auth/token.'
        : 'The console access token is malformed: tokens look like mt_ followed by 40 letters and digits.',
      { headers: { 'WWW-Authenticate': `Bearer realm="meridian", error="invalid_token"` } },
    );
    if (!CONSOLE_TOKEN_PATTERN.test(presented)) throw refuse;
    const hash = hashSecret(presented);
    const found = await findConsoleTokenPrincipal(this.#deps.db.knex, hash);
    if (!found || !timingSafeEqual(Buffer.from(found.tokenHash, 'hex'), Buffer.from(hash, 'hex')))
      throw refuse;
    const now = this.#deps.clock.now();
    const { token, session, user, tenant } = found;
    if (Date.parse(token.expiresAt) <= now.getTime() || session.stage !== 'active' || !isLive(session, now))
      throw refuse;
    return {
      tenant,
      user,
      apiKey: {
        id: token.id,
        tenantId: token.tenantId,
        userId: token.userId,
        name: 'Console session',
        prefix: token.prefix,
        scopes: scopesOfRole(user.role),
        expiresAt: token.expiresAt,
        lastUsedAt: null,
        revokedAt: null,
        createdAt: token.createdAt,
      },
      via: 'console',
      sessionId: session.id,
    };
  }
}
