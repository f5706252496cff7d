/**
 * Members of a tenant (docs/members.md, "Members and roles"): its users that are not deactivated, their roles, and
 * what removing one changes in the same transaction (keys revoked).
 */
import type { Page, PageRequest } from './lists.js';
import { paginate } from './lists.js';
import type { Executor } from './sql.js';
import { toUser, type UserRecord, type UserRole } from './tenants.js';
import { toCount } from './values.js';

/** A member: a user of the tenant with a role, and when they last signed in to the console. */
export interface MemberRecord extends UserRecord {
  lastSignedInAt: string | null;
}

function toMember(row: Record<string, unknown>): MemberRecord {
  return { ...toUser(row), lastSignedInAt: (row.last_signed_in_at as string | null) ?? null };
}

function members(db: Executor, tenantId: string) {
  return db('users').where({ tenant_id: tenantId }).whereNull('deactivated_at');
}

/** A page of the tenant's members, ordered by createdAt then id. */
export async function listMembers(
  db: Executor,
  tenantId: string,
  page: PageRequest,
): Promise<Page<MemberRecord>> {
  return paginate(members(db, tenantId).select('*'), page, toMember);
}

/** One member of the tenant (not deactivated), or null. */
export async function findMember(db: Executor, tenantId: string, id: string): Promise<MemberRecord | null> {
  const row = await members(db, tenantId).where({ id }).first();
  return row ? toMember(row) : null;
}

/** How many owners the tenant has. */
export async function countOwners(db: Executor, tenantId: string): Promise<number> {
  const row = await members(db, tenantId).where({ role: 'owner' }).count({ n: '*' }).first();
  return toCount(row?.n);
}

/** Sets a member's role. */
export async function setMemberRole(db: Executor, id: string, role: UserRole, at: string): Promise<void> {
  await db('users').where({ id }).update({ role, updated_at: at });
}

/** Revokes every live key of a user; returns the ids it revoked. */
export async function revokeUserKeys(
  db: Executor,
  tenantId: string,
  userId: string,
  at: string,
): Promise<string[]> {
  const ids = (await db('api_keys')
    .where({ tenant_id: tenantId, user_id: userId })
    .whereNull('revoked_at')
    .pluck('id')) as string[];
  if (ids.length > 0) await db('api_keys').whereIn('id', ids).update({ revoked_at: at });
  return ids;
}
