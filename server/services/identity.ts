/**
 * Tenants, users and API keys (docs/design.md, "Auth, tenants, users, keys"): keys are `mk_live_` + 40 base62
 * characters, shown once; only their SHA-256 hash and a display prefix are stored; lookups compare hashes in
 * constant time; expired or revoked keys are refused.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Page, PageRequest } from '../repositories/lists.js';
import {
  type ApiKeyRecord,
  type ApiKeyScope,
  findApiKey,
  findFirstUser,
  findKeyPrincipalByHash,
  findTenant,
  findTenantForUpdate,
  findTenantsByName,
  findUser,
  insertApiKey,
  insertTenant,
  insertUser,
  type KeyPrincipalRow,
  listApiKeys,
  revokeApiKey,
  type TenantPlan,
  type TenantRecord,
  type TenantSettings,
  touchApiKey,
  type UserRecord,
  updateTenantSettings,
} from '../repositories/tenants.js';
import { inTransaction } from '../repositories/transactions.js';
import type { Schema } from '../schemas.js';
import { diff, recordAudit } from './audit.js';
import { type Actor, type ServiceDeps, systemActor } from './context.js';
import { AppError, businessRule, notFound } from './errors.js';
import { instantInput } from './instants.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The shape of a Meridian API key. */
export const API_KEY_PATTERN = /^mk_live_[0-9A-Za-z]{32,128}$/;
const PREFIX_LENGTH = 12;
/** `lastUsedAt` is written at most once a minute per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;
/**
 * How long a process keeps a key it has authenticated without reading it again (issue 8): a key revoked through
 * another API process is refused here at most this long after (the process that revokes refuses it at once).
 * Expiry (`expiresAt`) is checked on every request regardless. Documented in the spec (Authentication).
 */
export const AUTH_CACHE_TTL_MS = 5_000;
/** Keys held at most; the least recently stored goes first. */
const AUTH_CACHE_SIZE = 10_000;

/**
 * Authenticated keys (with their user and tenant) by key hash, for {@link AUTH_CACHE_TTL_MS} on the injected clock.
 * Held by an {@link IdentityService}, so per app; unknown keys are never held (the failed-authentication limit
 * deals with guessing).
 */
class PrincipalCache {
  readonly #entries = new Map<string, { found: KeyPrincipalRow; until: number }>();

  constructor(private readonly ttlMs: number) {}

  get(hash: string, nowMs: number): KeyPrincipalRow | null {
    const entry = this.#entries.get(hash);
    if (!entry) return null;
    if (entry.until > nowMs) return entry.found;
    this.#entries.delete(hash);
    return null;
  }

  set(hash: string, found: KeyPrincipalRow, nowMs: number): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= AUTH_CACHE_SIZE)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(hash, { found, until: nowMs + this.ttlMs });
  }

  /** Drops every key of a tenant (its settings changed in this process: read again on the next request). */
  forgetTenant(tenantId: string): void {
    for (const [hash, entry] of this.#entries)
      if (entry.found.tenant.id === tenantId) this.#entries.delete(hash);
  }

  /** Drops a key (revoked in this process: refused from the next request on). */
  forgetKey(id: string): void {
    for (const [hash, entry] of this.#entries) if (entry.found.key.id === id) this.#entries.delete(hash);
  }
}

/** A new random API key: `mk_live_` + 40 base62 characters (≈ 238 bits). */
export function generateApiKey(): string {
  const bytes = randomBytes(40);
  let out = 'mk_live_';
  // 256 % 62 ≠ 0: drop the 8 high values so every character is equally likely.
  let i = 0;
  while (out.length < 48) {
    if (i >= bytes.length) return generateApiKey();
    const b = bytes[i++] as number;
    if (b < 248) out += BASE62[b % 62];
  }
  return out;
}

/** SHA-256 of the key as lowercase hex: what the database stores. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The authenticated caller: tenant, user and key (without its secret). */
export interface Principal {
  tenant: TenantRecord;
  user: UserRecord;
  apiKey: ApiKeyRecord;
}

/** Body of GET /me (spec `Me`). */
export interface MeView {
  user: { id: string; name: string; email: string | null };
  apiKey: {
    id: string;
    name: string;
    prefix: string;
    scopes: ApiKeyScope[];
    expiresAt: string | null;
    lastUsedAt: string | null;
  };
  tenant: { id: string; name: string };
}

/** Body of GET /tenant (spec `Tenant`). */
export interface TenantView {
  id: string;
  name: string;
  plan: TenantPlan;
  currency: string;
  timezone: string;
  rateLimit: { requestsPerMinute: number };
  settings: TenantSettings;
  createdAt: string;
  updatedAt: string;
}

/** Body of PATCH /tenant (spec `TenantUpdate`). */
export type TenantUpdateInput = Schema<'TenantUpdate'>;

/** An API key as the API shows it (spec `ApiKey`): no tenant id, never the key. */
export type ApiKeyView = Omit<ApiKeyRecord, 'tenantId'>;

function apiKeyView(key: ApiKeyRecord): ApiKeyView {
  const { tenantId: _t, ...view } = key;
  return view;
}

/** Scopes are cumulative (spec, Authentication): `admin` ⊇ `write` ⊇ `read`. */
const IMPLIED: Record<ApiKeyScope, ApiKeyScope[]> = {
  read: ['read'],
  write: ['read', 'write'],
  admin: ['read', 'write', 'admin'],
};

/** Whether a key's scopes grant `required`. */
export function hasScope(scopes: readonly ApiKeyScope[], required: ApiKeyScope): boolean {
  return scopes.some((s) => IMPLIED[s]?.includes(required));
}

/** Options of {@link IdentityService.createTenant}. */
export interface TenantCreateInput {
  name: string;
  plan?: TenantPlan;
  currency?: string;
  timezone?: string;
  rateLimitPerMinute?: number | null;
  userName?: string;
  userEmail?: string | null;
}

/** Options of {@link IdentityService.createApiKey}. */
export interface ApiKeyCreateInput {
  name: string;
  scopes: ApiKeyScope[];
  expiresAt?: string | null;
  userId?: string;
  /** Use this key value instead of a random one (the demo tenant's `MERIDIAN_API_KEY`). */
  key?: string;
}

/** Tenant, user and key use cases. */
export class IdentityService {
  readonly #principals: PrincipalCache;

  /** @param authCacheMs how long an authenticated key is held in process (default {@link AUTH_CACHE_TTL_MS}). */
  constructor(
    private readonly deps: ServiceDeps,
    private readonly defaultRateLimitPerMinute: number,
    authCacheMs: number = AUTH_CACHE_TTL_MS,
  ) {
    this.#principals = new PrincipalCache(authCacheMs);
  }

  /** Creates a tenant and its first user (the owner). Returns both. */
  async createTenant(input: TenantCreateInput): Promise<{ tenant: TenantRecord; user: UserRecord }> {
    const now = this.deps.clock.now().toISOString();
    const tenant: TenantRecord = {
      id: uuidv7(),
      name: input.name,
      plan: input.plan ?? 'FREE',
      currency: input.currency ?? 'USD',
      timezone: input.timezone ?? 'UTC',
      rateLimitPerMinute: input.rateLimitPerMinute ?? null,
      settings: { llmEnabled: true },
      createdAt: now,
      updatedAt: now,
    };
    const user: UserRecord = {
      id: uuidv7(),
      tenantId: tenant.id,
      name: input.userName ?? 'Owner',
      email: input.userEmail ?? null,
      createdAt: now,
    };
    await inTransaction(this.deps.db.knex, async (trx) => {
      await insertTenant(trx, tenant);
      await insertUser(trx, user);
      const actor = systemActor(tenant.id);
      await recordAudit(
        trx,
        actor,
        now,
        'tenant.created',
        'tenant',
        tenant.id,
        diff({}, { name: tenant.name, plan: tenant.plan }),
      );
      await recordAudit(
        trx,
        actor,
        now,
        'user.created',
        'user',
        user.id,
        diff({}, { name: user.name, email: user.email }),
      );
    });
    return { tenant, user };
  }

  /** A tenant by id or, failing that, by exact name. @throws Error when none or several match. */
  async resolveTenant(idOrName: string): Promise<TenantRecord> {
    const byId = await findTenant(this.deps.db.knex, idOrName);
    if (byId) return byId;
    const byName = await findTenantsByName(this.deps.db.knex, idOrName);
    if (byName.length === 1 && byName[0]) return byName[0];
    if (byName.length > 1) throw new Error(`several tenants are named "${idOrName}"; pass the tenant id`);
    throw new Error(`no tenant with id or name "${idOrName}"`);
  }

  /** A tenant by id, or null. */
  async findTenant(id: string): Promise<TenantRecord | null> {
    return findTenant(this.deps.db.knex, id);
  }

  /**
   * Issues an API key for a user of the tenant (the tenant's first user when none is named). Returns the record
   * and the key value, which is never retrievable again.
   * @throws Error when the tenant has no such user or a given key value has the wrong shape.
   */
  async createApiKey(actor: Actor, input: ApiKeyCreateInput): Promise<{ apiKey: ApiKeyRecord; key: string }> {
    const key = input.key ?? generateApiKey();
    if (!API_KEY_PATTERN.test(key))
      throw new Error('an API key must look like mk_live_ followed by 32–128 base62 characters');
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      const user = input.userId
        ? await findUser(trx, actor.tenantId, input.userId)
        : await findFirstUser(trx, actor.tenantId);
      if (!user) throw new Error('the tenant has no such user');
      const apiKey: ApiKeyRecord = {
        id: uuidv7(),
        tenantId: actor.tenantId,
        userId: user.id,
        name: input.name,
        prefix: key.slice(0, PREFIX_LENGTH),
        scopes: [...new Set(input.scopes)],
        expiresAt: input.expiresAt ?? null,
        lastUsedAt: null,
        revokedAt: null,
        createdAt: now,
      };
      await insertApiKey(trx, apiKey, hashApiKey(key));
      await recordAudit(
        trx,
        actor,
        now,
        'api_key.created',
        'api_key',
        apiKey.id,
        diff(
          {},
          { name: apiKey.name, prefix: apiKey.prefix, scopes: apiKey.scopes, expiresAt: apiKey.expiresAt },
        ),
      );
      return { apiKey, key };
    });
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
    const now = this.deps.clock.now();
    let found = this.#principals.get(hash, now.getTime());
    if (!found) {
      // Key, user and tenant in one query (issue 8); held for a few seconds (AUTH_CACHE_TTL_MS).
      found = await findKeyPrincipalByHash(this.deps.db.knex, hash);
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
      await touchApiKey(this.deps.db.knex, key.id, key.lastUsedAt);
    }
    return { tenant, user, apiKey: key };
  }

  /** GET /me: the user, the key in use and the tenant. */
  me(principal: Principal): MeView {
    const { user, apiKey, tenant } = principal;
    return {
      user: { id: user.id, name: user.name, email: user.email },
      apiKey: {
        id: apiKey.id,
        name: apiKey.name,
        prefix: apiKey.prefix,
        scopes: apiKey.scopes,
        expiresAt: apiKey.expiresAt,
        lastUsedAt: apiKey.lastUsedAt,
      },
      tenant: { id: tenant.id, name: tenant.name },
    };
  }

  /** A page of the tenant's API keys (GET /api-keys): never the key itself, only its display prefix. */
  async listKeys(actor: Actor, page: PageRequest): Promise<Page<ApiKeyView>> {
    const result = await listApiKeys(this.deps.db.knex, actor.tenantId, page);
    return { items: result.items.map(apiKeyView), total: result.total };
  }

  /**
   * POST /api-keys: a new key for the calling user. The key value is returned here only.
   * @throws AppError 403 when a requested scope exceeds the caller's key; 422 when `expiresAt` is not in the future,
   *   or is missing or later than the creating key's own expiry.
   */
  async issueKey(
    principal: Principal,
    actor: Actor,
    input: { name: string; scopes: ApiKeyScope[]; expiresAt?: string },
  ): Promise<{ apiKey: ApiKeyView; key: string }> {
    const beyond = input.scopes.filter((s) => !hasScope(principal.apiKey.scopes, s));
    if (beyond.length > 0) {
      throw new AppError(
        'forbidden',
        `A key cannot be given scopes its creator's key lacks: ${beyond.join(', ')}.`,
      );
    }
    const now = this.deps.clock.now();
    const expiresAt =
      input.expiresAt === undefined
        ? null
        : instantInput(input.expiresAt, { location: 'body', path: '/expiresAt' });
    if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime()) {
      throw businessRule('expiresAt must be in the future.', [
        { location: 'body', path: '/expiresAt', message: 'must be after the current time' },
      ]);
    }
    // A key cannot outlive the key that creates it, as it cannot have more scopes.
    const limit = principal.apiKey.expiresAt;
    if (limit !== null && (expiresAt === null || expiresAt > limit)) {
      throw businessRule(`expiresAt must be set and no later than the creating key's expiry (${limit}).`, [
        { location: 'body', path: '/expiresAt', message: `must be on or before ${limit}` },
      ]);
    }
    const { apiKey, key } = await this.createApiKey(actor, {
      name: input.name,
      scopes: input.scopes,
      expiresAt,
      userId: principal.user.id,
    });
    return { apiKey: apiKeyView(apiKey), key };
  }

  /**
   * DELETE /api-keys/{id}: revokes permanently; revoking twice changes nothing.
   * @throws AppError 404 unknown key; 409 `conflict` when the request is authenticated by the key itself (so a
   *   tenant cannot lock itself out by accident; rotate by revoking the old key with the new one).
   */
  async revokeKey(actor: Actor, id: string): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    await inTransaction(this.deps.db.knex, async (trx) => {
      const key = await findApiKey(trx, actor.tenantId, id);
      if (!key) throw notFound('API key', id);
      if (id === actor.apiKeyId) {
        throw new AppError(
          'conflict',
          'A key cannot revoke itself: create a new key, switch to it, then revoke this one with the new key.',
        );
      }
      if (key.revokedAt !== null) return;
      await revokeApiKey(trx, actor.tenantId, id, now);
      await recordAudit(trx, actor, now, 'api_key.revoked', 'api_key', id, {
        revokedAt: { from: null, to: now },
      });
    });
    // Refused by this process from the next request on; by other processes within AUTH_CACHE_TTL_MS.
    this.#principals.forgetKey(id);
  }

  /** The requests-per-minute limit in force for a tenant: its override, else the deployment default. */
  /**
   * Changes the tenant's settings (`PATCH /tenant`): the settings given replace theirs, the others keep their
   * values; one audit row `tenant.updated` with the changed settings. Returns the tenant after the change.
   * Cached principals of the tenant are dropped in this process (others see the change within AUTH_CACHE_TTL_MS;
   * the Ask agent and agent runs read the tenant's settings from the database on every use).
   * @throws AppError 404 `not_found` when the tenant no longer exists.
   */
  async updateTenant(actor: Actor, input: TenantUpdateInput): Promise<TenantRecord> {
    const now = this.deps.clock.now().toISOString();
    const updated = await inTransaction(this.deps.db.knex, async (trx) => {
      const tenant = await findTenantForUpdate(trx, actor.tenantId);
      if (!tenant) throw notFound('tenant', actor.tenantId);
      const settings: TenantSettings = { ...tenant.settings };
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const [name, value] of Object.entries(input.settings) as [keyof TenantSettings, boolean][]) {
        if (value === undefined || settings[name] === value) continue;
        changes[`settings.${name}`] = { from: settings[name], to: value };
        settings[name] = value;
      }
      if (Object.keys(changes).length === 0) return tenant;
      await updateTenantSettings(trx, tenant.id, settings, now);
      await recordAudit(trx, actor, now, 'tenant.updated', 'tenant', tenant.id, changes);
      return { ...tenant, settings, updatedAt: now };
    });
    this.#principals.forgetTenant(actor.tenantId);
    return updated;
  }

  rateLimitOf(tenant: TenantRecord): number {
    return tenant.rateLimitPerMinute ?? this.defaultRateLimitPerMinute;
  }

  /** GET /tenant. */
  tenantView(tenant: TenantRecord): TenantView {
    return {
      id: tenant.id,
      name: tenant.name,
      plan: tenant.plan,
      currency: tenant.currency,
      timezone: tenant.timezone,
      rateLimit: { requestsPerMinute: this.rateLimitOf(tenant) },
      settings: tenant.settings,
      createdAt: tenant.createdAt,
      updatedAt: tenant.updatedAt,
    };
  }
}
