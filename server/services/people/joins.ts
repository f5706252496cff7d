/**
 * How a person becomes a member without an owner typing their details (docs/members.md): by accepting an
 * invitation (`POST /auth/invitations/accept`: name and password chosen, the invitation's role) or by a first
 * single sign-on (the tenant's default role; later sign-ins find the account by its verified email). Both return
 * the account that the HTTP layer then signs in (services/accounts/sessions.ts).
 */
import { v7 as uuidv7 } from 'uuid';
import { findAccountByEmail, updateAccount } from '../../repositories/accounts.js';
import {
  acceptInvitation,
  findInvitationByTokenHash,
  type InvitationRecord,
} from '../../repositories/invitations.js';
import type { Executor } from '../../repositories/sql.js';
import { findTenant, insertUser, type UserRecord } from '../../repositories/tenants.js';
import { inTransaction } from '../../repositories/transactions.js';
import type { Schema } from '../../schemas.js';
import { normalizeEmail } from '../accounts/emails.js';
import type { PasswordHasher } from '../accounts/passwords.js';
import { hashSecret } from '../accounts/secrets.js';
import { diff, recordAudit } from '../audit.js';
import type { ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import type { SsoIdentity } from './sso-sign-in.js';

/** The one answer to a link that is unknown, used, revoked or expired (docs/members.md, "Invitations"). */
function invalidInvitation(): AppError {
  return new AppError(
    'unauthenticated',
    'This invitation link is not valid: it was used, revoked or has expired. Ask for a new invitation.',
  );
}

/** Whether an invitation can still be accepted at `now`. */
function isOpen(invitation: InvitationRecord | null, now: string): invitation is InvitationRecord {
  return (
    invitation !== null &&
    invitation.acceptedAt === null &&
    invitation.revokedAt === null &&
    invitation.expiresAt > now
  );
}

/** Options of {@link JoinService}. */
export interface JoinServiceOptions extends ServiceDeps {
  passwords: PasswordHasher;
}

/** Creates and finds the accounts of people who join by invitation or single sign-on. */
export class JoinService {
  readonly #deps: ServiceDeps;
  readonly #passwords: PasswordHasher;

  constructor(options: JoinServiceOptions) {
    this.#deps = options;
    this.#passwords = options.passwords;
  }

  /**
   * What an open invitation offers (`POST /auth/invitations/preview`): the tenant's name, the email, the role and
   * the expiry, so the accept page can show them before a password is chosen. Changes nothing.
   * @throws AppError 401 `unauthenticated` for a token that is unknown, used, revoked or expired (the answer
   *   {@link acceptInvitation} gives).
   */
  async previewInvitation(token: string): Promise<Schema<'InvitationPreview'>> {
    const db = this.#deps.db.knex;
    const invitation = await findInvitationByTokenHash(db, hashSecret(token));
    if (!isOpen(invitation, this.#deps.clock.now().toISOString())) throw invalidInvitation();
    const tenant = await findTenant(db, invitation.tenantId);
    if (!tenant) throw invalidInvitation();
    return {
      tenantName: tenant.name,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
    };
  }

  /**
   * Accepts an invitation: creates the account (the invitation's email and role, the chosen name and password) and
   * marks the invitation used, in one transaction, audited `member.joined`.
   * @throws AppError 422 for a password the rules refuse (services/accounts/passwords.ts); 401 `unauthenticated`
   *   for a token that is unknown, used, revoked or expired (one answer for all four, as for a setup link); 409 when
   *   an account with the invitation's email appeared meanwhile.
   */
  async acceptInvitation(input: { token: string; name: string; password: string }): Promise<UserRecord> {
    const accepted = this.#passwords.accept(input.password, false);
    if (input.token.length > 256) throw invalidInvitation();
    const passwordHash = await this.#passwords.hash(accepted);
    const now = this.#deps.clock.now().toISOString();
    return inTransaction(this.#deps.db.knex, async (trx) => {
      const invitation = await findInvitationByTokenHash(trx, hashSecret(input.token), { forUpdate: true });
      if (!isOpen(invitation, now)) throw invalidInvitation();
      const user = await this.#create(trx, {
        tenantId: invitation.tenantId,
        email: invitation.email,
        name: input.name.normalize('NFKC').trim(),
        role: invitation.role,
        now,
        reactivate: true,
      });
      await updateAccount(trx, user.id, { passwordHash }, now);
      if (!(await acceptInvitation(trx, invitation.id, user.id, now))) throw invalidInvitation();
      await recordAudit(
        trx,
        { tenantId: user.tenantId, userId: user.id, apiKeyId: null, requestId: null },
        now,
        'member.joined',
        'member',
        user.id,
        diff({}, { email: user.email, role: user.role, invitationId: invitation.id }),
      );
      return user;
    });
  }

  /**
   * The account a single sign-on signs in: found by the verified email, or created with the tenant's default role
   * on the first sign-in (audited `member.joined`).
   * @throws AppError 403 `forbidden` when the provider did not say the email is verified, its domain is not
   *   allowed, or the account belongs to another tenant or was removed (each audited `auth.sign_in_failed`).
   */
  async ssoAccount(identity: SsoIdentity, requestId: string | null = null): Promise<UserRecord> {
    const { sso } = identity;
    if (!identity.email || !identity.emailVerified) {
      throw await this.#refused(
        identity,
        requestId,
        'email_not_verified',
        'The identity provider did not confirm a verified email address for this person, so Meridian cannot match them.',
      );
    }
    const email = normalizeEmail(identity.email);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!email.includes('@') || !sso.allowedDomains.includes(domain)) {
      throw await this.#refused(
        identity,
        requestId,
        'domain_not_allowed',
        `Sign-in with an address at ${domain} is not allowed for this tenant.`,
      );
    }
    const now = this.#deps.clock.now().toISOString();
    const existing = await findAccountByEmail(this.#deps.db.knex, email);
    if (existing && (existing.tenantId !== identity.tenantId || existing.deactivatedAt !== null)) {
      throw await this.#refused(
        identity,
        requestId,
        'not_a_member',
        'This account is not a member of the tenant.',
      );
    }
    return inTransaction(this.#deps.db.knex, async (trx) => {
      const existing = await findAccountByEmail(trx, email);
      if (existing) {
        if (existing.tenantId !== identity.tenantId || existing.deactivatedAt !== null) {
          throw new AppError('forbidden', 'This account is not a member of the tenant.');
        }
        return existing;
      }
      const user = await this.#create(trx, {
        tenantId: identity.tenantId,
        email: identity.email as string,
        name: identity.name ?? email.slice(0, email.indexOf('@')),
        role: sso.defaultRole,
        now,
      });
      await recordAudit(
        trx,
        { tenantId: user.tenantId, userId: user.id, apiKeyId: null, requestId: null },
        now,
        'member.joined',
        'member',
        user.id,
        diff({}, { email: user.email, role: user.role, via: 'sso' }),
      );
      return user;
    });
  }

  /**
   * Records a refused single sign-on in the tenant's audit log (`auth.sign_in_failed`, method `oidc`, the reason and
   * the email the provider named) and returns the 403 to throw.
   */
  async #refused(
    identity: SsoIdentity,
    requestId: string | null,
    reason: string,
    detail: string,
  ): Promise<AppError> {
    await recordAudit(
      this.#deps.db.knex,
      { tenantId: identity.tenantId, userId: null, apiKeyId: null, requestId, via: 'console' },
      this.#deps.clock.now().toISOString(),
      'auth.sign_in_failed',
      'tenant',
      identity.tenantId,
      diff({}, { method: 'oidc', reason, email: identity.email }),
    );
    return new AppError('forbidden', detail);
  }

  /**
   * Creates the account, or with `reactivate` brings back a member removed from the same tenant (docs/members.md,
   * "Members and roles": a removed account keeps its email).
   */
  async #create(
    trx: Executor,
    input: {
      tenantId: string;
      email: string;
      name: string;
      role: UserRecord['role'];
      now: string;
      reactivate?: boolean;
    },
  ): Promise<UserRecord> {
    if (!(await findTenant(trx, input.tenantId)))
      throw new AppError('not_found', 'The tenant no longer exists.');
    const emailNormalized = normalizeEmail(input.email);
    const existing = await findAccountByEmail(trx, emailNormalized);
    if (
      existing &&
      input.reactivate === true &&
      existing.tenantId === input.tenantId &&
      existing.deactivatedAt !== null
    ) {
      const name = input.name.slice(0, 200) || existing.name;
      await updateAccount(trx, existing.id, { deactivatedAt: null, name, role: input.role }, input.now);
      return { ...existing, name, role: input.role };
    }
    if (existing) {
      throw new AppError('conflict', 'An account with this email already exists on this deployment.');
    }
    const user: UserRecord = {
      id: uuidv7(),
      tenantId: input.tenantId,
      name: input.name.slice(0, 200) || 'Member',
      email: input.email.normalize('NFKC').trim(),
      role: input.role,
      createdAt: input.now,
    };
    await insertUser(trx, user, emailNormalized);
    return user;
  }
}
