/**
 * API keys (docs/design.md, "Auth, tenants, users, keys"): keys are `mk_live_` + 40 base62 characters, shown once;
 * only their SHA-256 hash and a display prefix are stored. Scopes are cumulative (`admin` ⊇ `write` ⊇ `read`), and a
 * key created through the API has no scope and no expiry beyond its creator's.
 */
import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Page, PageRequest } from '../../repositories/lists.js';
import type { Executor } from '../../repositories/sql.js';
import {
  type ApiKeyRecord,
  type ApiKeyScope,
  findApiKey,
  findFirstUser,
  findUser,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  setApiKeyExpiry,
  type UserRole,
} from '../../repositories/tenants.js';
import { inTransaction } from '../../repositories/transactions.js';
import { withinRole } from '../accounts/roles.js';
import { diff, recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError, businessRule, notFound } from '../errors.js';
import { instantInput } from '../instants.js';
import type { Principal, PrincipalCache } from './principals.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The shape of a Meridian API key. */
export const API_KEY_PATTERN = /^mk_live_[0-9A-Za-z]{32,128}$/;
const PREFIX_LENGTH = 12;

/**
 * The user whose keys alone a caller may see and manage, or null for every key of the tenant: a caller whose
 * credential lacks the `admin` scope (a `member`, or an admin using a key without it) manages only their own keys
 * (docs/accounts.md, "Roles"). Other users' keys answer 404 to them, as unknown ones do.
 */
export function ownKeysOnly(principal: Principal): string | null {
  return hasScope(principal.apiKey.scopes, 'admin') ? null : principal.user.id;
}

/**
 * A key can never carry more than its user's role allows (docs/accounts.md, "Roles").
 * @throws AppError 403 `forbidden` naming the role and the scopes beyond it.
 */
function assertWithinRole(scopes: readonly ApiKeyScope[], role: UserRole): void {
  const beyond = scopes.filter((scope) => !withinRole([scope], role).length);
  if (beyond.length > 0)
    throw new AppError(
      'forbidden',
      `A key cannot carry more than its user's role (${role}) allows: ${beyond.join(', ')}.`,
    );
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

/** An API key as the API shows it (spec `ApiKey`): no tenant id, never the key. */
export type ApiKeyView = Omit<ApiKeyRecord, 'tenantId'>;

function apiKeyView(key: ApiKeyRecord): ApiKeyView {
  const { tenantId: _t, ...view } = key;
  return view;
}

/** How long a rolled key keeps working (spec `ApiKeyRoll.gracePeriod`), in ms. */
export const ROLL_GRACE_MS = { now: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;

/** Input of {@link ApiKeyService.roll} (spec `ApiKeyRoll`). */
export interface ApiKeyRollInput {
  gracePeriod: keyof typeof ROLL_GRACE_MS;
  expiresAt?: string;
}

/** Input of {@link ApiKeyService.create}. */
export interface ApiKeyCreateInput {
  name: string;
  scopes: ApiKeyScope[];
  expiresAt?: string | null;
  userId?: string;
  /** Use this key value instead of a random one (the demo tenant's `MERIDIAN_API_KEY`). */
  key?: string;
}

/** Options of {@link ApiKeyService}: the app's dependencies and its principal cache (./principals.ts). */
export interface ApiKeyServiceOptions extends ServiceDeps {
  principals: PrincipalCache;
}

/** API key use cases: create (for the system, or within the calling key's bounds), list, revoke. */
export class ApiKeyService {
  readonly #deps: ServiceDeps;
  readonly #principals: PrincipalCache;

  constructor(options: ApiKeyServiceOptions) {
    this.#deps = options;
    this.#principals = options.principals;
  }

  /**
   * Creates an API key for a user of the actor's tenant (the tenant's first user when none is named), whatever
   * scopes and expiry the input asks for: the CLI, the demo set-up and the tests create keys so. Returns the record
   * and the key value, which is never retrievable again.
   * @throws Error when the tenant has no such user or a given key value has the wrong shape; AppError 403 when a
   *   scope exceeds the user's role (docs/accounts.md, "Roles").
   */
  async create(actor: Actor, input: ApiKeyCreateInput): Promise<{ apiKey: ApiKeyRecord; key: string }> {
    return inTransaction(this.#deps.db.knex, (trx) => this.#createIn(trx, actor, input));
  }

  /** {@link ApiKeyService.create} in the caller's transaction. */
  async #createIn(
    trx: Executor,
    actor: Actor,
    input: ApiKeyCreateInput,
  ): Promise<{ apiKey: ApiKeyRecord; key: string }> {
    const key = input.key ?? generateApiKey();
    if (!API_KEY_PATTERN.test(key))
      throw new Error('an API key must look like mk_live_ followed by 32–128 base62 characters');
    const now = this.#deps.clock.now().toISOString();
    const user = input.userId
      ? await findUser(trx, actor.tenantId, input.userId)
      : await findFirstUser(trx, actor.tenantId);
    if (!user) throw new Error('the tenant has no such user');
    assertWithinRole(input.scopes, user.role);
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
  }

  /**
   * `POST /api-keys` (operation `createApiKey`): a new key for the calling user, within the bounds of the key that
   * asks. The key value is returned here only.
   * @throws AppError 403 when a requested scope exceeds the caller's role or key; 422 when `expiresAt` is not in the future,
   *   or is missing or later than the creating key's own expiry.
   */
  async createForCaller(
    principal: Principal,
    actor: Actor,
    input: { name: string; scopes: ApiKeyScope[]; expiresAt?: string },
  ): Promise<{ apiKey: ApiKeyView; key: string }> {
    assertWithinRole(input.scopes, principal.user.role);
    const expiresAt = this.#callerBounds(principal, input.scopes, input.expiresAt);
    const { apiKey, key } = await this.create(actor, {
      name: input.name,
      scopes: input.scopes,
      expiresAt,
      userId: principal.user.id,
    });
    return { apiKey: apiKeyView(apiKey), key };
  }

  /**
   * `POST /api-keys/{id}/roll` (operation `rollApiKey`): issues a successor with the old key's name, scopes and
   * owner, and ends the old key after the grace period (its `expiresAt` is moved earlier, never later), in one
   * transaction. Audited as `api_key.rolled` on the old key and `api_key.created` on the successor.
   * @throws AppError 404 unknown key, or another user's key for a caller without `admin` ({@link ownKeysOnly});
   *   409 `conflict` when it is revoked or expired, or is the calling key and
   *   `gracePeriod` is `now`; 403 and 422 as
   *   {@link ApiKeyService.createForCaller} for the successor's scopes and expiry.
   */
  async roll(
    principal: Principal,
    actor: Actor,
    id: string,
    input: ApiKeyRollInput,
  ): Promise<{ apiKey: ApiKeyView; key: string }> {
    const own = ownKeysOnly(principal);
    const old = await findApiKey(this.#deps.db.knex, actor.tenantId, id);
    if (!old || (own !== null && old.userId !== own)) throw notFound('API key', id);
    const expiresAt = this.#callerBounds(principal, old.scopes, input.expiresAt);
    const now = this.#deps.clock.now();
    const at = now.toISOString();
    const graceEnd = new Date(now.getTime() + ROLL_GRACE_MS[input.gracePeriod]).toISOString();
    const result = await inTransaction(this.#deps.db.knex, async (trx) => {
      const current = await findApiKey(trx, actor.tenantId, id);
      if (!current) throw notFound('API key', id);
      if (current.revokedAt !== null || (current.expiresAt !== null && current.expiresAt <= at)) {
        throw new AppError(
          'conflict',
          'The key is revoked or expired: create a new key instead of rolling it.',
        );
      }
      // As a key cannot revoke itself, it cannot end itself at once (docs/design.md, "Auth, tenants, users, keys").
      if (id === actor.apiKeyId && input.gracePeriod === 'now') {
        throw new AppError(
          'conflict',
          'A key cannot roll itself with gracePeriod now: choose a grace period, or roll it with another key.',
        );
      }
      const created = await this.#createIn(trx, actor, {
        name: current.name,
        scopes: current.scopes,
        expiresAt,
        userId: current.userId,
      });
      const oldExpiry =
        current.expiresAt !== null && current.expiresAt < graceEnd ? current.expiresAt : graceEnd;
      await setApiKeyExpiry(trx, actor.tenantId, id, oldExpiry);
      await recordAudit(trx, actor, at, 'api_key.rolled', 'api_key', id, {
        expiresAt: { from: current.expiresAt, to: oldExpiry },
        successorId: { from: null, to: created.apiKey.id },
      });
      return created;
    });
    // The old key's new expiry applies from the next request on in this process (the cache holds the old row).
    this.#principals.forgetKey(id);
    return { apiKey: apiKeyView(result.apiKey), key: result.key };
  }

  /**
   * The checks of a key issued on a caller's behalf (created or rolled): no scope the calling key lacks, an expiry
   * in the future and no later than the calling key's own. Returns the expiry (null for never).
   * @throws AppError 403 for a scope beyond the calling key; 422 for an expiry out of bounds.
   */
  #callerBounds(
    principal: Principal,
    scopes: readonly ApiKeyScope[],
    input: string | undefined,
  ): string | null {
    const beyond = scopes.filter((s) => !hasScope(principal.apiKey.scopes, s));
    if (beyond.length > 0) {
      throw new AppError(
        'forbidden',
        `A key cannot be given scopes its creator's key lacks: ${beyond.join(', ')}.`,
      );
    }
    const now = this.#deps.clock.now();
    const expiresAt =
      input === undefined ? null : instantInput(input, { location: 'body', path: '/expiresAt' });
    if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime()) {
      throw businessRule('expiresAt must be in the future.', [
        { location: 'body', path: '/expiresAt', message: 'must be after the current time' },
      ]);
    }
    // A key cannot outlive the key that creates it, as it cannot have more scopes. A console access token's
    // 10 minutes are no such limit: the session stands for the user (docs/accounts.md, "Console access tokens").
    const limit = principal.via === 'api_key' ? principal.apiKey.expiresAt : null;
    if (limit !== null && (expiresAt === null || expiresAt > limit)) {
      throw businessRule(`expiresAt must be set and no later than the creating key's expiry (${limit}).`, [
        { location: 'body', path: '/expiresAt', message: `must be on or before ${limit}` },
      ]);
    }
    return expiresAt;
  }

  /**
   * A page of the tenant's API keys (GET /api-keys), or only those of `userId` when given ({@link ownKeysOnly}):
   * never the key itself, only its display prefix.
   */
  async list(actor: Actor, page: PageRequest, userId: string | null = null): Promise<Page<ApiKeyView>> {
    const result = await listApiKeys(this.#deps.db.knex, actor.tenantId, page, userId);
    return { items: result.items.map(apiKeyView), total: result.total };
  }

  /**
   * DELETE /api-keys/{id}: revokes permanently; revoking twice changes nothing.
   * @param userId when given, only that user's keys may be revoked ({@link ownKeysOnly}); others answer 404.
   * @throws AppError 404 unknown key; 409 `conflict` when the request is authenticated by the key itself (so a
   *   tenant cannot lock itself out by accident; rotate by revoking the old key with the new one).
   */
  async revoke(actor: Actor, id: string, userId: string | null = null): Promise<void> {
    const now = this.#deps.clock.now().toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      const key = await findApiKey(trx, actor.tenantId, id);
      if (!key || (userId !== null && key.userId !== userId)) throw notFound('API key', id);
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
}
