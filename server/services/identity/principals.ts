/**
 * The authenticated callers a process holds (docs/design.md, "Auth, tenants, users, keys"): a key, once
 * authenticated, is kept with its user and tenant for {@link AUTH_CACHE_TTL_MS}, so a request reads nothing to
 * authenticate a key it saw a moment ago. One cache per app, built by ./index.ts and shared by the three identity
 * services: authentication fills it, a revocation and a tenant's change in this process empty it.
 */
import type { ApiKeyRecord, KeyPrincipalRow, TenantRecord, UserRecord } from '../../repositories/tenants.js';

/**
 * How long a process keeps a key it has authenticated without reading it again: a key revoked through another API
 * process is refused here at most this long after (the process that revokes refuses it at once). Expiry
 * (`expiresAt`) is checked on every request regardless. Documented in the spec (Authentication).
 */
export const AUTH_CACHE_TTL_MS = 5_000;
/** Keys held at most; the least recently stored goes first. */
const AUTH_CACHE_SIZE = 10_000;

/**
 * The authenticated caller: tenant, user and credential. `via` says which credential: an API key, or a console
 * access token (docs/accounts.md, "Console access tokens"), which `apiKey` then describes (its id, its `mt_`
 * prefix, the scopes of the user's role, its expiry) and `sessionId` ties to its console session. `apiKey.scopes`
 * are always within the user's role.
 */
export interface Principal {
  tenant: TenantRecord;
  user: UserRecord;
  apiKey: ApiKeyRecord;
  via: 'api_key' | 'console';
  /** The console session of a console access token; null for a key. */
  sessionId: string | null;
}

/**
 * Authenticated keys (with their user and tenant) by key hash, for a time to live on the injected clock. Unknown
 * keys are never held (the failed-authentication limit deals with guessing).
 */
export class PrincipalCache {
  readonly #entries = new Map<string, { found: KeyPrincipalRow; until: number }>();
  readonly #ttlMs: number;

  /** @param ttlMs how long an authenticated key is held, in ms (default {@link AUTH_CACHE_TTL_MS}; 0 holds none). */
  constructor(ttlMs: number = AUTH_CACHE_TTL_MS) {
    this.#ttlMs = ttlMs;
  }

  /** The key with this hash, when it was authenticated less than the time to live before `nowMs`; else null. */
  get(hash: string, nowMs: number): KeyPrincipalRow | null {
    const entry = this.#entries.get(hash);
    if (!entry) return null;
    if (entry.until > nowMs) return entry.found;
    this.#entries.delete(hash);
    return null;
  }

  /** Holds an authenticated key from `nowMs` on. */
  set(hash: string, found: KeyPrincipalRow, nowMs: number): void {
    if (this.#ttlMs <= 0) return;
    if (this.#entries.size >= AUTH_CACHE_SIZE)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(hash, { found, until: nowMs + this.#ttlMs });
  }

  /** Drops every key of a tenant (its settings changed in this process: read again on the next request). */
  forgetTenant(tenantId: string): void {
    for (const [hash, entry] of this.#entries)
      if (entry.found.tenant.id === tenantId) this.#entries.delete(hash);
  }

  /** Drops every key of a user (their role changed, or they were removed, in this process). */
  forgetUser(userId: string): void {
    for (const [hash, entry] of this.#entries) if (entry.found.user.id === userId) this.#entries.delete(hash);
  }

  /** Drops a key (revoked in this process: refused from the next request on). */
  forgetKey(id: string): void {
    for (const [hash, entry] of this.#entries) if (entry.found.key.id === id) this.#entries.delete(hash);
  }
}
