/**
 * Invitations to join a tenant (docs/members.md, "Invitations"): only the SHA-256 hash of the token is stored.
 */
import type { Page, PageRequest } from './lists.js';
import { paginate } from './lists.js';
import type { Executor } from './sql.js';
import { isPostgres } from './sql.js';
import type { UserRole } from './tenants.js';

/** A stored invitation (without its token hash). */
export interface InvitationRecord {
  id: string;
  tenantId: string;
  email: string;
  role: UserRole;
  invitedBy: string | null;
  expiresAt: string;
  acceptedAt: string | null;
  acceptedUserId: string | null;
  revokedAt: string | null;
  createdAt: string;
}

function toRecord(row: Record<string, unknown>): InvitationRecord {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    email: row.email as string,
    role: row.role as UserRole,
    invitedBy: (row.invited_by as string | null) ?? null,
    expiresAt: row.expires_at as string,
    acceptedAt: (row.accepted_at as string | null) ?? null,
    acceptedUserId: (row.accepted_user_id as string | null) ?? null,
    revokedAt: (row.revoked_at as string | null) ?? null,
    createdAt: row.created_at as string,
  };
}

/** Inserts an invitation given the SHA-256 hex hash of its token. */
export async function insertInvitation(
  db: Executor,
  record: InvitationRecord,
  tokenHash: string,
): Promise<void> {
  await db('invitations').insert({
    id: record.id,
    tenant_id: record.tenantId,
    email: record.email,
    role: record.role,
    token_hash: tokenHash,
    invited_by: record.invitedBy,
    expires_at: record.expiresAt,
    accepted_at: record.acceptedAt,
    accepted_user_id: record.acceptedUserId,
    revoked_at: record.revokedAt,
    created_at: record.createdAt,
  });
}

/** Pending invitations of the tenant (not accepted, not revoked, expiring after `now`), oldest first. */
export async function listPendingInvitations(
  db: Executor,
  tenantId: string,
  now: string,
  page: PageRequest,
): Promise<Page<InvitationRecord>> {
  return paginate(pending(db, tenantId, now).select('*'), page, toRecord);
}

function pending(db: Executor, tenantId: string, now: string) {
  return db('invitations')
    .where({ tenant_id: tenantId })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .where('expires_at', '>', now);
}

/** A pending invitation of the tenant for this email (compared lower-case), or null. */
export async function findPendingInvitationByEmail(
  db: Executor,
  tenantId: string,
  email: string,
  now: string,
): Promise<InvitationRecord | null> {
  const row = await pending(db, tenantId, now).whereRaw('lower(email) = ?', [email.toLowerCase()]).first();
  return row ? toRecord(row) : null;
}

/** One invitation of the tenant, or null. */
export async function findInvitation(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<InvitationRecord | null> {
  const row = await db('invitations').where({ tenant_id: tenantId, id }).first();
  return row ? toRecord(row) : null;
}

/**
 * The invitation with this token hash, or null. `forUpdate` reads it under a row lock on Postgres (it is about to
 * be accepted).
 */
export async function findInvitationByTokenHash(
  db: Executor,
  tokenHash: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvitationRecord | null> {
  const query = db('invitations').where({ token_hash: tokenHash });
  if (options.forUpdate && isPostgres(db)) query.forUpdate();
  const row = await query.first();
  return row ? toRecord(row) : null;
}

/** Marks an invitation revoked (only while it is neither accepted nor revoked); whether it changed. */
export async function revokeInvitation(
  db: Executor,
  tenantId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const changed = await db('invitations')
    .where({ tenant_id: tenantId, id })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .update({ revoked_at: at });
  return changed > 0;
}

/** Marks an invitation accepted by a user (only while still open); whether it changed. */
export async function acceptInvitation(
  db: Executor,
  id: string,
  userId: string,
  at: string,
): Promise<boolean> {
  const changed = await db('invitations')
    .where({ id })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .update({ accepted_at: at, accepted_user_id: userId });
  return changed > 0;
}
