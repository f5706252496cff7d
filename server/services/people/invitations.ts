/**
 * Invitations (docs/members.md, "Invitations"): `POST|GET /invitations`, `DELETE /invitations/{id}`. A new
 * invitation's link carries a one-time token (`mi_` + 256 random bits) in its fragment; only the token's SHA-256
 * is stored. The link is returned once and, when SMTP is configured, mailed after the invitation is committed.
 * Accepting one is ./invitation-acceptance.ts.
 */
import { v7 as uuidv7 } from 'uuid';
import { findAccountByEmail } from '../../repositories/accounts.js';
import {
  findInvitation,
  findPendingInvitationByEmail,
  type InvitationRecord,
  insertInvitation,
  listPendingInvitations,
  revokeInvitation,
} from '../../repositories/invitations.js';
import type { Page, PageRequest } from '../../repositories/lists.js';
import { findTenant, findUser, type UserRole } from '../../repositories/tenants.js';
import { inTransaction } from '../../repositories/transactions.js';
import type { Schema } from '../../schemas.js';
import { normalizeEmail } from '../accounts/emails.js';
import { hashSecret, randomToken } from '../accounts/secrets.js';
import { diff, recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import type { Mailer } from './mailer.js';
import { assertMayManage } from './member-rules.js';
import { linkBase } from './sso-settings.js';

/** How long an invitation link works: 7 days, in ms. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
/** The prefix of an invitation token. */
export const INVITATION_TOKEN_PREFIX = 'mi_';

/** A pending invitation as the API shows it (spec `Invitation`). */
export type InvitationView = Schema<'Invitation'>;
/** A new invitation with its link (spec `InvitationCreated`). */
export type InvitationCreatedView = Schema<'InvitationCreated'>;

function view(record: InvitationRecord): InvitationView {
  return {
    id: record.id,
    email: record.email,
    role: record.role,
    invitedBy: record.invitedBy,
    expiresAt: record.expiresAt,
    createdAt: record.createdAt,
  };
}

/** Options of {@link InvitationService}. */
export interface InvitationServiceOptions extends ServiceDeps {
  mailer: Mailer;
  /** `MERIDIAN_PUBLIC_URL`, or null (links then use the request's origin). */
  publicUrl: string | null;
}

/** Invitation use cases. */
export class InvitationService {
  readonly #deps: ServiceDeps;
  readonly #mailer: Mailer;
  readonly #publicUrl: string | null;

  constructor(options: InvitationServiceOptions) {
    this.#deps = options;
    this.#mailer = options.mailer;
    this.#publicUrl = options.publicUrl;
  }

  /**
   * Invites `email` with `role`; mails the link when SMTP is configured. The link is under `MERIDIAN_PUBLIC_URL`,
   * or `requestOrigin` (the origin the request came to) without it.
   * @throws AppError 403 for a role the caller may not give; 409 when an account with this email exists (other than
   *   a member removed from this tenant), or a pending invitation of this tenant for it does.
   */
  async create(
    actor: Actor,
    callerRole: UserRole,
    input: { email: string; role: UserRole },
    requestOrigin: string,
  ): Promise<InvitationCreatedView> {
    assertMayManage(callerRole, null, input.role);
    const email = input.email.normalize('NFKC').trim();
    const token = `${INVITATION_TOKEN_PREFIX}${randomToken()}`;
    const now = this.#deps.clock.now();
    const record: InvitationRecord = {
      id: uuidv7(),
      tenantId: actor.tenantId,
      email,
      role: input.role,
      invitedBy: actor.userId,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
      acceptedAt: null,
      acceptedUserId: null,
      revokedAt: null,
      createdAt: now.toISOString(),
    };
    const context = await inTransaction(this.#deps.db.knex, async (trx) => {
      const existing = await findAccountByEmail(trx, normalizeEmail(email));
      // A member removed from this tenant may be invited back (accepting reactivates the account).
      if (existing && !(existing.tenantId === actor.tenantId && existing.deactivatedAt !== null)) {
        throw new AppError('conflict', 'An account with this email already exists on this deployment.');
      }
      if (await findPendingInvitationByEmail(trx, actor.tenantId, email, record.createdAt)) {
        throw new AppError(
          'conflict',
          'A pending invitation for this email exists: revoke it first to send a new one.',
        );
      }
      await insertInvitation(trx, record, hashSecret(token));
      await recordAudit(
        trx,
        actor,
        record.createdAt,
        'member.invited',
        'invitation',
        record.id,
        diff({}, { email, role: input.role }),
      );
      const tenant = await findTenant(trx, actor.tenantId);
      const inviter = actor.userId ? await findUser(trx, actor.tenantId, actor.userId) : null;
      return { tenantName: tenant?.name ?? 'Meridian', inviterName: inviter?.name ?? null };
    });
    const url = `${linkBase(this.#publicUrl, requestOrigin)}/console/invitations/accept#token=${token}`;
    const emailSent = this.#mailer.enabled
      ? await this.#mailer.send({
          to: email,
          subject: `You are invited to ${context.tenantName} on Meridian`,
          text: [
            `${context.inviterName ?? 'Someone'} invited you to join ${context.tenantName} on Meridian as ${input.role}.`,
            '',
            `Accept the invitation (the link works once, until ${record.expiresAt.slice(0, 16).replace('T', ' ')} UTC):`,
            url,
            '',
            'If you did not expect this message, you can ignore it.',
          ].join('\n'),
        })
      : false;
    return { ...view(record), url, emailSent };
  }

  /** A page of the tenant's pending invitations. */
  async list(actor: Actor, page: PageRequest): Promise<Page<InvitationView>> {
    const now = this.#deps.clock.now().toISOString();
    const result = await listPendingInvitations(this.#deps.db.knex, actor.tenantId, now, page);
    return { items: result.items.map(view), total: result.total };
  }

  /**
   * Revokes a pending invitation (already revoked or expired: nothing changes).
   * @throws AppError 404; 409 when it was accepted.
   */
  async revoke(actor: Actor, id: string): Promise<void> {
    const now = this.#deps.clock.now().toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      const invitation = await findInvitation(trx, actor.tenantId, id);
      if (!invitation) throw notFound('invitation', id);
      if (invitation.acceptedAt !== null) {
        throw new AppError(
          'conflict',
          'This invitation was accepted: remove the member instead (DELETE /members/{id}).',
        );
      }
      if (invitation.revokedAt !== null || invitation.expiresAt <= now) return;
      await revokeInvitation(trx, actor.tenantId, id, now);
      await recordAudit(trx, actor, now, 'invitation.revoked', 'invitation', id, {
        revokedAt: { from: null, to: now },
      });
    });
  }
}
