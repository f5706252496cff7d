/**
 * Accounts (docs/accounts.md, "Accounts" and "First run"): a user found or created by email, one-time setup and
 * reset links (24 h, single use, only their hash stored), completing a link, and changing a password.
 */
import { v7 as uuidv7 } from 'uuid';
import {
  type AccountRecord,
  findAccount,
  findAccountByEmail,
  findFirstOwner,
  findLinkByHash,
  insertLink,
  type LinkPurpose,
  replaceRecoveryCodes,
  retireLinks,
  updateAccount,
  useLink,
} from '../../repositories/accounts.js';
import { revokeUserSessions } from '../../repositories/sessions.js';
import { insertUser, type UserRole } from '../../repositories/tenants.js';
import { inTransaction } from '../../repositories/transactions.js';
import { diff, recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import { isEmailLike, normalizeEmail } from './emails.js';
import type { PasswordHasher } from './passwords.js';
import { hashSecret, randomToken } from './secrets.js';

/** How long a setup or reset link is valid: 24 hours. */
export const LINK_TTL_MS = 24 * 3600_000;

/** Input of {@link AccountService.findOrCreate}. */
export interface AccountInput {
  tenantId: string;
  email: string;
  /** Display name; defaults to the part of the email before the @. */
  name?: string;
  role: UserRole;
}

/** Input of {@link AccountService.redeemLink} (`POST /auth/setup`). */
export interface RedeemInput {
  token: string;
  password: string;
  /** The sign-in email to choose (setup links only; required when the account has none). */
  email?: string;
  /** A new display name (setup links only). */
  name?: string;
}

/** Options of {@link AccountService}. */
export interface AccountServiceOptions extends ServiceDeps {
  passwords: PasswordHasher;
}

/** Account use cases: find or create, links, passwords. */
export class AccountService {
  readonly #deps: ServiceDeps;
  readonly #passwords: PasswordHasher;

  constructor(options: AccountServiceOptions) {
    this.#deps = options;
    this.#passwords = options.passwords;
  }

  /** The account with this id, or null. */
  async find(userId: string): Promise<AccountRecord | null> {
    return findAccount(this.#deps.db.knex, userId);
  }

  /** The tenant's first owner, or null. */
  async firstOwner(tenantId: string): Promise<AccountRecord | null> {
    return findFirstOwner(this.#deps.db.knex, tenantId);
  }

  /** The account whose sign-in email is `email` (compared case-insensitively), or null. */
  async findByEmail(email: string): Promise<AccountRecord | null> {
    return findAccountByEmail(this.#deps.db.knex, normalizeEmail(email));
  }

  /**
   * The account of `email` in the tenant, created (without a password, audited `user.created`) when no account has
   * that email. Returns it and whether this call created it. Shared by the CLI (`users create`), invitations and
   * single sign-on.
   * @throws AppError 422 when the email does not look like one; 409 `conflict` when another tenant's account
   *   has that email (an email is unique per deployment).
   */
  async findOrCreate(
    actor: Actor,
    input: AccountInput,
  ): Promise<{ account: AccountRecord; created: boolean }> {
    if (!isEmailLike(input.email))
      throw new AppError('validation_failed', `"${input.email}" is not an email address.`, {
        status: 422,
        errors: [{ location: 'body', path: '/email', message: 'must be an email address' }],
      });
    const email = input.email.trim();
    const normalized = normalizeEmail(email);
    const now = this.#deps.clock.now().toISOString();
    return inTransaction(this.#deps.db.knex, async (trx) => {
      const existing = await findAccountByEmail(trx, normalized);
      if (existing) {
        if (existing.tenantId !== input.tenantId)
          throw new AppError('conflict', `Another tenant already has an account with the email ${email}.`);
        return { account: existing, created: false };
      }
      const user = {
        id: uuidv7(),
        tenantId: input.tenantId,
        name: input.name ?? email.split('@')[0] ?? email,
        email,
        role: input.role,
        createdAt: now,
      };
      await insertUser(trx, user, normalized);
      await recordAudit(
        trx,
        actor,
        now,
        'user.created',
        'user',
        user.id,
        diff({}, { name: user.name, email: user.email, role: user.role }),
      );
      const account = await findAccount(trx, user.id);
      if (!account) throw new Error('the account just created is missing');
      return { account, created: true };
    });
  }

  /**
   * A new one-time link token of `purpose` for the user (valid {@link LINK_TTL_MS}; the user's older unused links
   * stop working). Only its hash is stored: the token is returned here only. Audited `auth.link_issued`.
   */
  async issueLink(
    actor: Actor,
    userId: string,
    purpose: LinkPurpose,
  ): Promise<{ token: string; expiresAt: string }> {
    const token = randomToken();
    const now = this.#deps.clock.now();
    const expiresAt = new Date(now.getTime() + LINK_TTL_MS).toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      const account = await findAccount(trx, userId);
      if (!account) throw new Error(`no user with id ${userId}`);
      await retireLinks(trx, userId, now.toISOString());
      await insertLink(
        trx,
        {
          id: uuidv7(),
          tenantId: account.tenantId,
          userId,
          purpose,
          createdAt: now.toISOString(),
          expiresAt,
          usedAt: null,
        },
        hashSecret(token),
      );
      await recordAudit(trx, actor, now.toISOString(), 'auth.link_issued', 'user', userId, {
        purpose: { from: null, to: purpose },
      });
    });
    return { token, expiresAt };
  }

  /**
   * Completes a setup or reset link: sets the password (and, for a setup link, the email and name), uses the link
   * up. A reset also turns the second factor off, deletes the recovery codes and ends every session: it is the
   * way back for an owner who lost both password and second factor. Returns the account.
   * @throws AppError 401 `unauthenticated` when the link is unknown, used or expired (one answer for the three);
   *   422 when the password breaks the rules or a needed email is missing; 409 when the email is taken.
   */
  async redeemLink(input: RedeemInput): Promise<AccountRecord> {
    const now = this.#deps.clock.now().toISOString();
    const refuse = () =>
      new AppError(
        'unauthenticated',
        'This link is not valid: it is unknown, used or expired. Ask for a new one.',
      );
    const link = await findLinkByHash(this.#deps.db.knex, hashSecret(input.token));
    if (!link || link.usedAt !== null || link.expiresAt <= now) throw refuse();
    const account = await findAccount(this.#deps.db.knex, link.userId);
    if (!account || account.deactivatedAt !== null) throw refuse();
    const setup = link.purpose === 'setup';
    let email: { email: string; normalized: string } | null = null;
    if (setup && input.email !== undefined) {
      if (!isEmailLike(input.email))
        throw new AppError('validation_failed', 'The email is not an email address.', {
          status: 422,
          errors: [{ location: 'body', path: '/email', message: 'must be an email address' }],
        });
      email = { email: input.email.trim(), normalized: normalizeEmail(input.email) };
    } else if (setup && account.emailNormalized === null) {
      throw new AppError('validation_failed', 'Choose the email you will sign in with.', {
        status: 422,
        errors: [{ location: 'body', path: '/email', message: 'is required: this account has no email yet' }],
      });
    }
    const withSecondFactor = !setup ? false : account.totpEnabledAt !== null;
    const password = this.#passwords.accept(input.password, withSecondFactor);
    const passwordHash = await this.#passwords.hash(password);
    const actor: Actor = {
      tenantId: account.tenantId,
      userId: account.id,
      apiKeyId: null,
      requestId: null,
      via: 'console',
    };
    return inTransaction(this.#deps.db.knex, async (trx) => {
      if (!(await useLink(trx, link.id, now))) throw refuse();
      if (email && email.normalized !== account.emailNormalized) {
        const holder = await findAccountByEmail(trx, email.normalized);
        if (holder) throw new AppError('conflict', `Another account already has the email ${email.email}.`);
      }
      await updateAccount(
        trx,
        account.id,
        {
          passwordHash,
          ...(email ? { email: email.email, emailNormalized: email.normalized } : {}),
          ...(setup && input.name !== undefined ? { name: input.name } : {}),
          ...(setup ? {} : { totpSecret: null, totpEnabledAt: null, totpLastStep: null }),
        },
        now,
      );
      if (!setup) {
        await replaceRecoveryCodes(trx, account.id, [], now);
        await revokeUserSessions(trx, account.id, now);
      }
      await recordAudit(
        trx,
        actor,
        now,
        setup ? 'auth.setup_completed' : 'auth.password_reset',
        'user',
        account.id,
        email ? { email: { from: account.email, to: email.email } } : {},
      );
      const updated = await findAccount(trx, account.id);
      if (!updated) throw refuse();
      return updated;
    });
  }

  /**
   * Changes the display name of a signed-in user (trimmed) and returns the account; audited `user.updated` with the
   * name before and after (no row when it is unchanged).
   * @throws AppError 400 `validation_failed` when the trimmed name is empty; 401 when the user is gone.
   */
  async rename(actor: Actor, name: string): Promise<AccountRecord> {
    const trimmed = name.trim();
    if (trimmed.length === 0)
      throw new AppError('validation_failed', 'The name is empty: type the name people should see.', {
        errors: [{ location: 'body', path: '/name', message: 'must not be only spaces' }],
      });
    const now = this.#deps.clock.now().toISOString();
    return inTransaction(this.#deps.db.knex, async (trx) => {
      const account = actor.userId ? await findAccount(trx, actor.userId) : null;
      if (!account) throw new AppError('unauthenticated', 'Sign in first.');
      if (account.name === trimmed) return account;
      await updateAccount(trx, account.id, { name: trimmed }, now);
      await recordAudit(trx, actor, now, 'user.updated', 'user', account.id, {
        name: { from: account.name, to: trimmed },
      });
      return { ...account, name: trimmed };
    });
  }

  /**
   * Changes the password of a signed-in user and ends their other sessions (docs/accounts.md, "Passwords").
   * @throws AppError 422 when `current` is wrong or `next` breaks the rules.
   */
  async changePassword(actor: Actor, sessionId: string, current: string, next: string): Promise<void> {
    const account = actor.userId ? await findAccount(this.#deps.db.knex, actor.userId) : null;
    if (!account) throw new AppError('unauthenticated', 'Sign in first.');
    if (!(await this.#passwords.verify(account.passwordHash, current)))
      throw new AppError('validation_failed', 'The current password is not right.', {
        status: 422,
        errors: [{ location: 'body', path: '/currentPassword', message: 'is not the current password' }],
      });
    const password = this.#passwords.accept(next, account.totpEnabledAt !== null, '/newPassword');
    const passwordHash = await this.#passwords.hash(password);
    const now = this.#deps.clock.now().toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      await updateAccount(trx, account.id, { passwordHash }, now);
      const ended = await revokeUserSessions(trx, account.id, now, sessionId);
      await recordAudit(trx, actor, now, 'auth.password_changed', 'user', account.id, {
        otherSessionsEnded: { from: null, to: ended },
      });
    });
  }
}

/**
 * The address of a one-time link for a person to open: the console's setup page (`/console/setup`) or reset page
 * (`/console/reset-password`), with the token after `#` so that it never reaches a server's access log.
 * @param base where people reach the deployment (`MERIDIAN_PUBLIC_URL`, else this server's address).
 */
export function linkUrl(base: string, purpose: LinkPurpose, token: string): string {
  const page = purpose === 'setup' ? 'setup' : 'reset-password';
  return `${base}/console/${page}#token=${token}`;
}
