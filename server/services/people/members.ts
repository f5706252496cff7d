/**
 * Members and their roles (docs/members.md, "Members and roles"): `GET /members`, `GET|PATCH|DELETE
 * /members/{id}`. Every change reads the tenant under a row lock first, so two owners demoting each other at once
 * cannot leave the tenant without one. A removal revokes the member's keys, ends their sessions and takes their
 * sign-in away in one transaction, then drops their keys from this process's principal cache
 * (server/services/identity/principals.ts), so the next request with one of them is refused here at once.
 */
import { updateAccount } from '../../repositories/accounts.js';
import type { Page, PageRequest } from '../../repositories/lists.js';
import {
  countOwners,
  findMember,
  listMembers,
  type MemberRecord,
  revokeUserKeys,
  setMemberRole,
} from '../../repositories/members.js';
import { revokeUserSessions } from '../../repositories/sessions.js';
import { findTenantForUpdate, type UserRole } from '../../repositories/tenants.js';
import { inTransaction } from '../../repositories/transactions.js';
import type { Schema } from '../../schemas.js';
import { recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import type { PrincipalCache } from '../identity/principals.js';
import { assertMayManage } from './member-rules.js';

/** A member as the API shows it (spec `Member`). */
export type MemberView = Schema<'Member'>;

function view(member: MemberRecord): MemberView {
  return {
    id: member.id,
    name: member.name,
    email: member.email,
    role: member.role,
    lastSignedInAt: member.lastSignedInAt,
    createdAt: member.createdAt,
  };
}

/** Options of {@link MemberService}. */
export interface MemberServiceOptions extends ServiceDeps {
  principals: PrincipalCache;
}

/** Member use cases. */
export class MemberService {
  readonly #deps: ServiceDeps;
  readonly #principals: PrincipalCache;

  constructor(options: MemberServiceOptions) {
    this.#deps = options;
    this.#principals = options.principals;
  }

  /** A page of the tenant's members. */
  async list(actor: Actor, page: PageRequest): Promise<Page<MemberView>> {
    const result = await listMembers(this.#deps.db.knex, actor.tenantId, page);
    return { items: result.items.map(view), total: result.total };
  }

  /** @throws AppError 404 for an unknown or removed member. */
  async get(actor: Actor, id: string): Promise<MemberView> {
    const member = await findMember(this.#deps.db.knex, actor.tenantId, id);
    if (!member) throw notFound('member', id);
    return view(member);
  }

  /**
   * Gives a member another role; their sessions end (console tokens carry the old role's scopes) and their keys are
   * read again on their next request.
   * @throws AppError 403 when the caller's role does not allow it; 404; 409 when the last owner would be demoted.
   */
  async changeRole(actor: Actor, callerRole: UserRole, id: string, role: UserRole): Promise<MemberView> {
    const now = this.#deps.clock.now().toISOString();
    const changed = await inTransaction(this.#deps.db.knex, async (trx) => {
      await findTenantForUpdate(trx, actor.tenantId);
      const member = await findMember(trx, actor.tenantId, id);
      if (!member) throw notFound('member', id);
      assertMayManage(callerRole, member.role, role);
      if (member.role === role) return member;
      if (member.role === 'owner' && (await countOwners(trx, actor.tenantId)) <= 1) {
        throw new AppError(
          'conflict',
          "This member is the tenant's last owner and cannot be demoted: make another member owner first.",
        );
      }
      await setMemberRole(trx, id, role, now);
      await revokeUserSessions(trx, id, now);
      await recordAudit(trx, actor, now, 'member.role_changed', 'member', id, {
        role: { from: member.role, to: role },
      });
      return { ...member, role };
    });
    this.#principals.forgetUser(id);
    return view(changed);
  }

  /**
   * Removes a member from the tenant: in one transaction their keys are revoked, their sessions end, their account
   * is deactivated and loses its password and second factor, and `member.removed` is written. Their keys are then
   * forgotten by this process.
   * @throws AppError 403 when the caller's role does not allow it; 404; 409 for the last owner, or for the member
   *   whose credentials make the request.
   */
  async remove(actor: Actor, callerRole: UserRole, id: string): Promise<void> {
    const now = this.#deps.clock.now().toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      await findTenantForUpdate(trx, actor.tenantId);
      const member = await findMember(trx, actor.tenantId, id);
      if (!member) throw notFound('member', id);
      assertMayManage(callerRole, member.role);
      if (member.role === 'owner' && (await countOwners(trx, actor.tenantId)) <= 1) {
        throw new AppError(
          'conflict',
          "This member is the tenant's last owner and cannot be removed: make another member owner first.",
        );
      }
      if (id === actor.userId) {
        throw new AppError(
          'conflict',
          'You cannot remove yourself with your own credentials: ask another owner or admin to remove you.',
        );
      }
      const revoked = await revokeUserKeys(trx, actor.tenantId, id, now);
      const sessions = await revokeUserSessions(trx, id, now);
      // The account keeps its email, so neither single sign-on nor a password lets the person back in; an
      // invitation to the same address reactivates it (./joins.ts).
      await updateAccount(
        trx,
        id,
        { deactivatedAt: now, passwordHash: null, totpSecret: null, totpEnabledAt: null },
        now,
      );
      await recordAudit(trx, actor, now, 'member.removed', 'member', id, {
        role: { from: member.role, to: null },
        apiKeysRevoked: { from: null, to: revoked.length },
        sessionsEnded: { from: null, to: sessions },
      });
    });
    this.#principals.forgetUser(id);
  }
}
