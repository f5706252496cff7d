/**
 * Tenants, users and API keys. Only the SHA-256 hash and a display prefix of a key are stored (docs/design.md).
 */
import type { Schema } from '../schemas.js';
import type { Page, PageRequest } from './lists.js';
import { paginate } from './lists.js';
import type { Executor } from './sql.js';
import { isPostgres } from './sql.js';
import { parseJson } from './values.js';

/** A tenant's plan (spec `TenantPlan`). */
export type TenantPlan = Schema<'TenantPlan'>;
/** A key's scope (spec `ApiKeyScope`). */
export type ApiKeyScope = Schema<'ApiKeyScope'>;

/** A tenant as the API shows it (`GET /tenant`). */
export interface TenantRecord {
  id: string;
  name: string;
  plan: TenantPlan;
  currency: string;
  timezone: string;
  /** Per-tenant override of the requests-per-minute limit; null means the deployment default. */
  rateLimitPerMinute: number | null;
  /** The tenant's settings (spec `TenantSettings`; stored as JSON, defaults filled in by {@link settingsOf}). */
  settings: TenantSettings;
  createdAt: string;
  updatedAt: string;
}

/** A tenant's settings (spec `TenantSettings`). */
export type TenantSettings = Schema<'TenantSettings'>;

/**
 * Stored settings with every default filled in: `llmEnabled` true unless the tenant switched it off,
 * `requireTwoFactor` false unless switched on.
 */
export function settingsOf(stored: unknown): TenantSettings {
  const value = parseJson<Partial<TenantSettings>>(stored, {});
  return { llmEnabled: value.llmEnabled !== false, requireTwoFactor: value.requireTwoFactor === true };
}

/** A user's role in their tenant (docs/accounts.md, "Roles"): owner, admin, member or viewer. */
export type UserRole = 'owner' | 'admin' | 'member' | 'viewer';

/** A user of a tenant. */
export interface UserRecord {
  id: string;
  tenantId: string;
  name: string;
  email: string | null;
  role: UserRole;
  createdAt: string;
}

/** A `users` row as a {@link UserRecord}; `prefix` names the columns when they come aliased from a join. */
export function toUser(row: Record<string, unknown>, prefix = ''): UserRecord {
  return {
    id: row[`${prefix}id`] as string,
    tenantId: row[`${prefix}tenant_id`] as string,
    name: row[`${prefix}name`] as string,
    email: (row[`${prefix}email`] as string | null) ?? null,
    role: row[`${prefix}role`] as UserRole,
    createdAt: row[`${prefix}created_at`] as string,
  };
}

/** An API key without its secret. */
export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  userId: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

function toTenant(row: Record<string, unknown>): TenantRecord {
  return {
    id: row.id as string,
    name: row.name as string,
    plan: row.plan as TenantPlan,
    currency: row.currency as string,
    timezone: row.timezone as string,
    rateLimitPerMinute: row.rate_limit_per_minute === null ? null : Number(row.rate_limit_per_minute),
    settings: settingsOf(row.settings),
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

function toApiKey(row: Record<string, unknown>): ApiKeyRecord {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    userId: row.user_id as string,
    name: row.name as string,
    prefix: row.prefix as string,
    scopes: parseJson<ApiKeyScope[]>(row.scopes, []),
    expiresAt: (row.expires_at as string | null) ?? null,
    lastUsedAt: (row.last_used_at as string | null) ?? null,
    revokedAt: (row.revoked_at as string | null) ?? null,
    createdAt: row.created_at as string,
  };
}

/** Inserts a tenant. */
export async function insertTenant(db: Executor, tenant: TenantRecord): Promise<void> {
  await db('tenants').insert({
    id: tenant.id,
    name: tenant.name,
    plan: tenant.plan,
    currency: tenant.currency,
    timezone: tenant.timezone,
    rate_limit_per_minute: tenant.rateLimitPerMinute,
    settings: JSON.stringify(tenant.settings),
    created_at: tenant.createdAt,
    updated_at: tenant.updatedAt,
  });
}

/** The fields of a tenant that `PATCH /tenant` changes. */
export type TenantChangeable = Pick<TenantRecord, 'name' | 'currency' | 'timezone' | 'settings'>;

/** Writes a tenant's name, currency, time zone and settings (the whole object), and `updatedAt`. */
export async function updateTenantFields(
  db: Executor,
  id: string,
  fields: TenantChangeable,
  at: string,
): Promise<void> {
  await db('tenants')
    .where({ id })
    .update({
      name: fields.name,
      currency: fields.currency,
      timezone: fields.timezone,
      settings: JSON.stringify(fields.settings),
      updated_at: at,
    });
}

/** A tenant by id, read under a row lock on Postgres (the read of a read–change–write), or null. */
export async function findTenantForUpdate(db: Executor, id: string): Promise<TenantRecord | null> {
  const query = db('tenants').where({ id });
  // SQLite transactions here begin IMMEDIATE (they hold the write lock already); Postgres needs the row lock.
  if (isPostgres(db)) query.forNoKeyUpdate();
  const row = await query.first();
  return row ? toTenant(row) : null;
}

/** A tenant by id, or null. */
export async function findTenant(db: Executor, id: string): Promise<TenantRecord | null> {
  const row = await db('tenants').where({ id }).first();
  return row ? toTenant(row) : null;
}

/** Tenants whose name matches exactly, oldest first (the CLI resolves `--tenant` by id or name). */
export async function findTenantsByName(db: Executor, name: string): Promise<TenantRecord[]> {
  const rows = await db('tenants')
    .where({ name })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(toTenant);
}

/**
 * Inserts a user. `emailNormalized` is the sign-in address (unique per deployment; services/accounts/emails.ts
 * normalises it); null when the user has no email.
 */
export async function insertUser(
  db: Executor,
  user: UserRecord,
  emailNormalized: string | null = null,
): Promise<void> {
  await db('users').insert({
    id: user.id,
    tenant_id: user.tenantId,
    name: user.name,
    email: user.email,
    email_normalized: emailNormalized,
    role: user.role,
    created_at: user.createdAt,
    updated_at: user.createdAt,
  });
}

/** A user of the tenant, or null. */
export async function findUser(db: Executor, tenantId: string, id: string): Promise<UserRecord | null> {
  const row = await db('users').where({ tenant_id: tenantId, id }).first();
  return row ? toUser(row) : null;
}

/** The tenant's first user (the CLI attaches new keys to it when no user is named). */
export async function findFirstUser(db: Executor, tenantId: string): Promise<UserRecord | null> {
  const row = await db('users')
    .where({ tenant_id: tenantId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first();
  return row ? toUser(row) : null;
}

/** Inserts an API key given its SHA-256 hex hash. */
export async function insertApiKey(db: Executor, key: ApiKeyRecord, keyHash: string): Promise<void> {
  await db('api_keys').insert({
    id: key.id,
    tenant_id: key.tenantId,
    user_id: key.userId,
    name: key.name,
    prefix: key.prefix,
    key_hash: keyHash,
    scopes: JSON.stringify(key.scopes),
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
    revoked_at: key.revokedAt,
    created_at: key.createdAt,
  });
}

/** The key with this SHA-256 hex hash and its stored hash (for the constant-time comparison), or null. */
export async function findApiKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<{ key: ApiKeyRecord; keyHash: string } | null> {
  const row = await db('api_keys').where({ key_hash: keyHash }).first();
  return row ? { key: toApiKey(row), keyHash: row.key_hash as string } : null;
}

/** A key with its user and tenant: what authentication needs, in one row. */
export interface KeyPrincipalRow {
  key: ApiKeyRecord;
  keyHash: string;
  user: UserRecord;
  tenant: TenantRecord;
}

/**
 * The key with this SHA-256 hex hash joined to its user and tenant, in one query (docs/design.md, "The request
 * pipeline", hot-path rules), or null when no key, or its user or tenant, exists.
 */
export async function findKeyPrincipalByHash(db: Executor, keyHash: string): Promise<KeyPrincipalRow | null> {
  const row = (await db('api_keys as k')
    .join('users as u', function joinUser() {
      this.on('u.id', '=', 'k.user_id').andOn('u.tenant_id', '=', 'k.tenant_id');
    })
    .join('tenants as t', 't.id', 'k.tenant_id')
    .where('k.key_hash', keyHash)
    .whereNull('u.deactivated_at')
    .first(
      'k.*',
      'u.name as u_name',
      'u.email as u_email',
      'u.role as u_role',
      'u.created_at as u_created_at',
      't.name as t_name',
      't.plan as t_plan',
      't.currency as t_currency',
      't.timezone as t_timezone',
      't.rate_limit_per_minute as t_rate_limit_per_minute',
      't.settings as t_settings',
      't.created_at as t_created_at',
      't.updated_at as t_updated_at',
    )) as Record<string, unknown> | undefined;
  if (!row) return null;
  return {
    key: toApiKey(row),
    keyHash: row.key_hash as string,
    user: toUser({ ...row, u_id: row.user_id, u_tenant_id: row.tenant_id }, 'u_'),
    tenant: toTenant({
      id: row.tenant_id,
      name: row.t_name,
      plan: row.t_plan,
      currency: row.t_currency,
      timezone: row.t_timezone,
      rate_limit_per_minute: row.t_rate_limit_per_minute,
      settings: row.t_settings,
      created_at: row.t_created_at,
      updated_at: row.t_updated_at,
    }),
  };
}

/** Records when a key was last used. */
export async function touchApiKey(db: Executor, id: string, at: string): Promise<void> {
  await db('api_keys').where({ id }).update({ last_used_at: at });
}

/**
 * A page of the tenant's API keys (revoked and expired included; only those of `userId` when given), ordered by
 * createdAt then id.
 */
export async function listApiKeys(
  db: Executor,
  tenantId: string,
  page: PageRequest,
  userId: string | null = null,
): Promise<Page<ApiKeyRecord>> {
  const query = db('api_keys').where({ tenant_id: tenantId });
  if (userId !== null) query.andWhere({ user_id: userId });
  return paginate(query.select('*'), page, toApiKey);
}

/** One API key of the tenant, or null. */
export async function findApiKey(db: Executor, tenantId: string, id: string): Promise<ApiKeyRecord | null> {
  const row = await db('api_keys').where({ tenant_id: tenantId, id }).first();
  return row ? toApiKey(row) : null;
}

/** Marks a key revoked (once: an already revoked key keeps its first `revoked_at`). */
export async function revokeApiKey(db: Executor, tenantId: string, id: string, at: string): Promise<void> {
  await db('api_keys').where({ tenant_id: tenantId, id }).whereNull('revoked_at').update({ revoked_at: at });
}

/** Sets a key's expiry (a roll's grace period ends it). */
export async function setApiKeyExpiry(db: Executor, tenantId: string, id: string, at: string): Promise<void> {
  await db('api_keys').where({ tenant_id: tenantId, id }).update({ expires_at: at });
}
