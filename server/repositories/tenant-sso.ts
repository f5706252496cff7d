/**
 * A tenant's OpenID Connect single sign-on configuration (docs/members.md, "Single sign-on"): one row per tenant,
 * the client secret stored sealed (the service seals and opens it; this module only moves the sealed text).
 */
import type { Schema } from '../schemas.js';
import type { Executor } from './sql.js';
import { parseJson, toBoolean } from './values.js';

/** The role given to an account created by its first single sign-on (spec `SsoRole`). */
export type SsoRole = Schema<'SsoRole'>;

/** A stored configuration; `sealedSecret` is the secret box's `enc:v1:…` text, never the secret. */
export interface TenantSsoRecord {
  tenantId: string;
  issuerUrl: string;
  clientId: string;
  sealedSecret: string;
  allowedDomains: string[];
  defaultRole: SsoRole;
  passwordSignIn: boolean;
  createdAt: string;
  updatedAt: string;
}

function toRecord(row: Record<string, unknown>): TenantSsoRecord {
  return {
    tenantId: row.tenant_id as string,
    issuerUrl: row.issuer_url as string,
    clientId: row.client_id as string,
    sealedSecret: row.client_secret as string,
    allowedDomains: parseJson<string[]>(row.allowed_domains, []),
    defaultRole: row.default_role as SsoRole,
    passwordSignIn: toBoolean(row.password_sign_in),
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

/** The tenant's configuration, or null when single sign-on is not configured. */
export async function findTenantSso(db: Executor, tenantId: string): Promise<TenantSsoRecord | null> {
  const row = await db('tenant_sso').where({ tenant_id: tenantId }).first();
  return row ? toRecord(row) : null;
}

/** Inserts or replaces the tenant's configuration. */
export async function saveTenantSso(db: Executor, record: TenantSsoRecord): Promise<void> {
  const row = {
    tenant_id: record.tenantId,
    issuer_url: record.issuerUrl,
    client_id: record.clientId,
    client_secret: record.sealedSecret,
    allowed_domains: JSON.stringify(record.allowedDomains),
    default_role: record.defaultRole,
    password_sign_in: record.passwordSignIn,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
  await db('tenant_sso')
    .insert(row)
    .onConflict('tenant_id')
    .merge([
      'issuer_url',
      'client_id',
      'client_secret',
      'allowed_domains',
      'default_role',
      'password_sign_in',
      'updated_at',
    ]);
}

/** Deletes the tenant's configuration; whether there was one. */
export async function deleteTenantSso(db: Executor, tenantId: string): Promise<boolean> {
  return (await db('tenant_sso').where({ tenant_id: tenantId }).delete()) > 0;
}

/** Every tenant's sealed client secret (the secret key rotation reseals them). */
export async function listSealedSsoSecrets(
  db: Executor,
): Promise<{ tenantId: string; sealedSecret: string }[]> {
  const rows = (await db('tenant_sso').select('tenant_id', 'client_secret')) as Record<string, string>[];
  return rows.map((r) => ({ tenantId: r.tenant_id as string, sealedSecret: r.client_secret as string }));
}

/** Replaces a tenant's sealed client secret. */
export async function updateSealedSsoSecret(
  db: Executor,
  tenantId: string,
  sealedSecret: string,
): Promise<void> {
  await db('tenant_sso').where({ tenant_id: tenantId }).update({ client_secret: sealedSecret });
}

/**
 * Whether the tenant's members may sign in with a password: false only when its single sign-on is configured with
 * password sign-in off.
 */
export async function passwordSignInAllowed(db: Executor, tenantId: string): Promise<boolean> {
  const row = await db('tenant_sso').where({ tenant_id: tenantId }).first('password_sign_in');
  return row ? toBoolean(row.password_sign_in) : true;
}
