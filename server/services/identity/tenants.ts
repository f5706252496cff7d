/**
 * Tenants and their users (docs/design.md, "Auth, tenants, users, keys"): a tenant is created with its first user,
 * found by id or name for the CLI, shown as `GET /tenant` and `GET /me` show it, and its settings changed by
 * `PATCH /tenant`.
 */
import { v7 as uuidv7 } from 'uuid';
import {
  type ApiKeyScope,
  findTenant,
  findTenantForUpdate,
  findTenantsByName,
  insertTenant,
  insertUser,
  type TenantChangeable,
  type TenantPlan,
  type TenantRecord,
  type TenantSettings,
  type UserRecord,
  type UserRole,
  updateTenantFields,
} from '../../repositories/tenants.js';
import { inTransaction } from '../../repositories/transactions.js';
import type { Schema } from '../../schemas.js';
import { normalizeEmail } from '../accounts/emails.js';
import { diff, recordAudit } from '../audit.js';
import { type Actor, type ServiceDeps, systemActor } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { type RateLimitService, tenantRateKey } from '../rate-limits.js';
import type { Principal, PrincipalCache } from './principals.js';
import { assertKnownTenantValues } from './tenant-fields.js';

/** Body of GET /me (spec `Me`). */
export interface MeView {
  authenticatedWith: 'api_key' | 'console_token';
  user: { id: string; name: string; email: string | null; role: UserRole };
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
  rateLimit: Schema<'TenantRateLimit'>;
  settings: TenantSettings;
  createdAt: string;
  updatedAt: string;
}

/** Body of PATCH /tenant (spec `TenantUpdate`). */
export type TenantUpdateInput = Schema<'TenantUpdate'>;

/** Input of {@link TenantService.create}. */
export interface TenantCreateInput {
  name: string;
  plan?: TenantPlan;
  currency?: string;
  timezone?: string;
  rateLimitPerMinute?: number | null;
  userName?: string;
  userEmail?: string | null;
}

/** Options of {@link TenantService}. */
export interface TenantServiceOptions extends ServiceDeps {
  /** The app's principal cache (./principals.ts): a tenant's change drops its keys from it. */
  principals: PrincipalCache;
  /** Requests per minute of a tenant without its own limit (`MERIDIAN_RATE_LIMIT`). */
  defaultRateLimitPerMinute: number;
  /** The app's rate limiter, whose tenant windows `GET /tenant` reads (docs/design.md, "Limits"). */
  rateLimits: RateLimitService;
}

/** Tenant use cases. */
export class TenantService {
  readonly #deps: ServiceDeps;
  readonly #principals: PrincipalCache;
  readonly #defaultRateLimitPerMinute: number;
  readonly #rateLimits: RateLimitService;

  constructor(options: TenantServiceOptions) {
    this.#deps = options;
    this.#rateLimits = options.rateLimits;
    this.#principals = options.principals;
    this.#defaultRateLimitPerMinute = options.defaultRateLimitPerMinute;
  }

  /** Creates a tenant and its first user (the owner). Returns both. */
  async create(input: TenantCreateInput): Promise<{ tenant: TenantRecord; user: UserRecord }> {
    const now = this.#deps.clock.now().toISOString();
    const tenant: TenantRecord = {
      id: uuidv7(),
      name: input.name,
      plan: input.plan ?? 'FREE',
      currency: input.currency ?? 'USD',
      timezone: input.timezone ?? 'UTC',
      rateLimitPerMinute: input.rateLimitPerMinute ?? null,
      settings: { llmEnabled: true, requireTwoFactor: false },
      createdAt: now,
      updatedAt: now,
    };
    const user: UserRecord = {
      id: uuidv7(),
      tenantId: tenant.id,
      name: input.userName ?? 'Owner',
      email: input.userEmail ?? null,
      role: 'owner',
      createdAt: now,
    };
    await inTransaction(this.#deps.db.knex, async (trx) => {
      await insertTenant(trx, tenant);
      await insertUser(trx, user, user.email === null ? null : normalizeEmail(user.email));
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

  /** A tenant by id or, failing that, by exact name (the CLI's `--tenant`). @throws Error when none or several match. */
  async resolve(idOrName: string): Promise<TenantRecord> {
    const byId = await findTenant(this.#deps.db.knex, idOrName);
    if (byId) return byId;
    const byName = await findTenantsByName(this.#deps.db.knex, idOrName);
    if (byName.length === 1 && byName[0]) return byName[0];
    if (byName.length > 1) throw new Error(`several tenants are named "${idOrName}"; pass the tenant id`);
    throw new Error(`no tenant with id or name "${idOrName}"`);
  }

  /**
   * Changes the tenant's name, currency, time zone and settings (`PATCH /tenant`; docs/design.md, "Auth,
   * tenants, users, keys"): what the body names replaces the stored value, the settings given replace theirs, the rest keeps its
   * value; one audit row `tenant.updated` with each changed field before and after (`settings.<name>` for a
   * setting). A currency change relabels stored amounts, it converts nothing. Returns the tenant after the change.
   * Cached principals of the tenant are dropped in this process (others see the change within AUTH_CACHE_TTL_MS;
   * the Ask agent and agent runs read the tenant's settings from the database on every use).
   * @param role the acting user's role: only an `owner` changes `requireTwoFactor` (docs/accounts.md, "Roles").
   * @throws AppError 404 `not_found` when the tenant no longer exists; 403 `forbidden` when a user below owner
   *   changes `requireTwoFactor`; 422 `validation_failed` for an unknown currency or time zone (./tenant-fields.ts).
   */
  async update(actor: Actor, input: TenantUpdateInput, role: UserRole): Promise<TenantRecord> {
    if (input.settings?.requireTwoFactor !== undefined && role !== 'owner')
      throw new AppError(
        'forbidden',
        `Only an owner may change requireTwoFactor; this user is ${role === 'admin' ? 'an' : 'a'} ${role}.`,
      );
    assertKnownTenantValues(input);
    const now = this.#deps.clock.now().toISOString();
    const updated = await inTransaction(this.#deps.db.knex, async (trx) => {
      const tenant = await findTenantForUpdate(trx, actor.tenantId);
      if (!tenant) throw notFound('tenant', actor.tenantId);
      const next: TenantChangeable = {
        name: tenant.name,
        currency: tenant.currency,
        timezone: tenant.timezone,
        settings: { ...tenant.settings },
      };
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      const given = { name: input.name?.trim(), currency: input.currency, timezone: input.timezone };
      for (const field of ['name', 'currency', 'timezone'] as const) {
        const value = given[field];
        if (value === undefined || next[field] === value) continue;
        changes[field] = { from: next[field], to: value };
        next[field] = value;
      }
      for (const [name, value] of Object.entries(input.settings ?? {}) as [keyof TenantSettings, boolean][]) {
        if (value === undefined || next.settings[name] === value) continue;
        changes[`settings.${name}`] = { from: next.settings[name], to: value };
        next.settings[name] = value;
      }
      if (Object.keys(changes).length === 0) return tenant;
      await updateTenantFields(trx, tenant.id, next, now);
      await recordAudit(trx, actor, now, 'tenant.updated', 'tenant', tenant.id, changes);
      return { ...tenant, ...next, updatedAt: now };
    });
    this.#principals.forgetTenant(actor.tenantId);
    return updated;
  }

  /** The requests-per-minute limit in force for a tenant: its override, else the deployment default. */
  rateLimitOf(tenant: TenantRecord): number {
    return tenant.rateLimitPerMinute ?? this.#defaultRateLimitPerMinute;
  }

  /**
   * GET /tenant (and the answer of PATCH /tenant): the tenant with its rate limit's use in the current window, read
   * from the limiter the request passed through without counting a request (`RateLimitService.peek`; on SQLite the
   * process's log, on Postgres the `rate_limit_buckets` row; docs/design.md, "Limits").
   */
  async view(tenant: TenantRecord): Promise<TenantView> {
    const limit = this.rateLimitOf(tenant);
    const usage = await this.#rateLimits.peek(tenantRateKey(tenant.id), limit);
    const now = this.#deps.clock.now();
    return {
      id: tenant.id,
      name: tenant.name,
      plan: tenant.plan,
      currency: tenant.currency,
      timezone: tenant.timezone,
      rateLimit: {
        requestsPerMinute: limit,
        used: usage.used,
        remaining: usage.remaining,
        resetAt: new Date(now.getTime() + usage.resetMs).toISOString(),
      },
      settings: tenant.settings,
      createdAt: tenant.createdAt,
      updatedAt: tenant.updatedAt,
    };
  }

  /**
   * GET /me: the user with their role, the credential in use (a key, or a console access token: docs/accounts.md)
   * and the tenant.
   */
  me(principal: Principal): MeView {
    const { user, apiKey, tenant } = principal;
    return {
      authenticatedWith: principal.via === 'console' ? 'console_token' : 'api_key',
      user: { id: user.id, name: user.name, email: user.email, role: user.role },
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
}
