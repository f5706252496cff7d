/**
 * Accounts (docs/accounts.md): the sign-in side of `users` (normalised email, password hash, sealed TOTP secret,
 * sign-in times), one-time links (setup, reset) and recovery codes. Links and codes are stored as SHA-256 hashes
 * only; the TOTP secret is stored as the secret box sealed it.
 */
import type { Executor } from './sql.js';
import { toUser, type UserRecord, type UserRole } from './tenants.js';

/** A user with the columns sign-in needs. */
export interface AccountRecord extends UserRecord {
  /** The sign-in address, normalised (unique per deployment), or null. */
  emailNormalized: string | null;
  /** The Argon2id PHC string, or null (no password yet, or single sign-on only). */
  passwordHash: string | null;
  /** The TOTP secret as sealed by the secret box, or null. Set at enrolment, before it is confirmed. */
  totpSecret: string | null;
  /** When the second factor was confirmed; null while not enrolled. */
  totpEnabledAt: string | null;
  /** The last TOTP time step accepted (a code is never accepted twice, RFC 6238 §5.2), or null. */
  totpLastStep: number | null;
  lastSignedInAt: string | null;
  /** When the user was deactivated (no sign-in, no key), or null. */
  deactivatedAt: string | null;
}

function toAccount(row: Record<string, unknown>): AccountRecord {
  return {
    ...toUser(row),
    emailNormalized: (row.email_normalized as string | null) ?? null,
    passwordHash: (row.password_hash as string | null) ?? null,
    totpSecret: (row.totp_secret as string | null) ?? null,
    totpEnabledAt: (row.totp_enabled_at as string | null) ?? null,
    totpLastStep:
      row.totp_last_step === null || row.totp_last_step === undefined ? null : Number(row.totp_last_step),
    lastSignedInAt: (row.last_signed_in_at as string | null) ?? null,
    deactivatedAt: (row.deactivated_at as string | null) ?? null,
  };
}

/** The account whose normalised email is `emailNormalized`, or null. */
export async function findAccountByEmail(
  db: Executor,
  emailNormalized: string,
): Promise<AccountRecord | null> {
  const row = await db('users').where({ email_normalized: emailNormalized }).first();
  return row ? toAccount(row) : null;
}

/** The account with this id (any tenant), or null. */
export async function findAccount(db: Executor, userId: string): Promise<AccountRecord | null> {
  const row = await db('users').where({ id: userId }).first();
  return row ? toAccount(row) : null;
}

/** The tenant's first owner (oldest first), or null. */
export async function findFirstOwner(db: Executor, tenantId: string): Promise<AccountRecord | null> {
  const row = await db('users')
    .where({ tenant_id: tenantId, role: 'owner' })
    .whereNull('deactivated_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first();
  return row ? toAccount(row) : null;
}

/** The columns of an account that sign-in changes. */
export interface AccountChange {
  name?: string;
  email?: string | null;
  emailNormalized?: string | null;
  role?: UserRole;
  passwordHash?: string | null;
  totpSecret?: string | null;
  totpEnabledAt?: string | null;
  totpLastStep?: number | null;
  lastSignedInAt?: string | null;
  deactivatedAt?: string | null;
}

const ACCOUNT_COLUMNS: Record<keyof AccountChange, string> = {
  name: 'name',
  email: 'email',
  emailNormalized: 'email_normalized',
  role: 'role',
  passwordHash: 'password_hash',
  totpSecret: 'totp_secret',
  totpEnabledAt: 'totp_enabled_at',
  totpLastStep: 'totp_last_step',
  lastSignedInAt: 'last_signed_in_at',
  deactivatedAt: 'deactivated_at',
};

/** Writes the given columns of an account and its `updated_at`. */
export async function updateAccount(
  db: Executor,
  userId: string,
  change: AccountChange,
  at: string,
): Promise<void> {
  const row: Record<string, unknown> = { updated_at: at };
  for (const [field, value] of Object.entries(change))
    if (value !== undefined) row[ACCOUNT_COLUMNS[field as keyof AccountChange]] = value;
  await db('users').where({ id: userId }).update(row);
}

/** What a one-time link is for: choosing email and password (`setup`) or a new password (`reset`). */
export type LinkPurpose = 'setup' | 'reset';

/** A one-time link without its token. */
export interface OneTimeLinkRecord {
  id: string;
  tenantId: string;
  userId: string;
  purpose: LinkPurpose;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** Inserts a one-time link given the SHA-256 hex hash of its token. */
export async function insertLink(db: Executor, link: OneTimeLinkRecord, tokenHash: string): Promise<void> {
  await db('one_time_links').insert({
    id: link.id,
    token_hash: tokenHash,
    tenant_id: link.tenantId,
    user_id: link.userId,
    purpose: link.purpose,
    created_at: link.createdAt,
    expires_at: link.expiresAt,
    used_at: link.usedAt,
  });
}

/** The link with this token hash, or null. */
export async function findLinkByHash(db: Executor, tokenHash: string): Promise<OneTimeLinkRecord | null> {
  const row = await db('one_time_links').where({ token_hash: tokenHash }).first();
  if (!row) return null;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    purpose: row.purpose,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at ?? null,
  };
}

/** Marks a link used unless it already is; true when this call used it (so a link works once under races). */
export async function useLink(db: Executor, id: string, at: string): Promise<boolean> {
  const count = await db('one_time_links').where({ id }).whereNull('used_at').update({ used_at: at });
  return Number(count) === 1;
}

/** Marks every unused link of a user used (a new link of the same purpose replaces the older ones). */
export async function retireLinks(db: Executor, userId: string, at: string): Promise<void> {
  await db('one_time_links').where({ user_id: userId }).whereNull('used_at').update({ used_at: at });
}

/** Replaces a user's recovery codes by new ones, given their SHA-256 hex hashes. */
export async function replaceRecoveryCodes(
  db: Executor,
  userId: string,
  codes: { id: string; hash: string }[],
  at: string,
): Promise<void> {
  await db('recovery_codes').where({ user_id: userId }).delete();
  if (codes.length === 0) return;
  await db('recovery_codes').insert(
    codes.map((c) => ({ id: c.id, user_id: userId, code_hash: c.hash, created_at: at, used_at: null })),
  );
}

/** Uses the user's unused recovery code with this hash; true when there was one. */
export async function useRecoveryCode(
  db: Executor,
  userId: string,
  hash: string,
  at: string,
): Promise<boolean> {
  const count = await db('recovery_codes')
    .where({ user_id: userId, code_hash: hash })
    .whereNull('used_at')
    .update({ used_at: at });
  return Number(count) === 1;
}

/** How many unused recovery codes the user has left. */
export async function countRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const row = (await db('recovery_codes')
    .where({ user_id: userId })
    .whereNull('used_at')
    .count({ n: '*' })
    .first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}
