/**
 * Sign-in (docs/accounts.md, "Sign-in" and "Sign-in throttling"): email and password, then the second factor when
 * enrolled. An unknown email and a wrong password get the same 401, the same body and about the same time (a dummy
 * hash is verified); failures are throttled per account and address (./throttle.ts) and audited
 * (`auth.sign_in_failed`, for known accounts: an audit row belongs to a tenant); a success is audited
 * `auth.signed_in` and re-hashes the password when the Argon2 parameters changed.
 */
import { type AccountRecord, findAccountByEmail, updateAccount } from '../../repositories/accounts.js';
import type { SessionRecord, SessionStage } from '../../repositories/sessions.js';
import { passwordSignInAllowed } from '../../repositories/tenant-sso.js';
import { findTenant } from '../../repositories/tenants.js';
import { recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import { normalizeEmail } from './emails.js';
import type { PasswordHasher } from './passwords.js';
import type { ClientInfo, SessionService } from './sessions.js';
import type { SignInThrottle } from './throttle.js';
import type { TwoFactorService } from './two-factor.js';

/** The one answer to every failed password sign-in (no enumeration). */
export const SIGN_IN_REFUSED = 'The email or password is not right.';

/** Options of {@link SignInService}. */
export interface SignInServiceOptions extends ServiceDeps {
  passwords: PasswordHasher;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  throttle: SignInThrottle;
}

/** What a sign-in step started: the session (with its secret, for the cookie) and the account. */
export interface SignInResult {
  session: SessionRecord;
  secret: string;
  account: AccountRecord;
}

/** The actor of the account's own sign-in steps (audit rows name the user, "console"). */
export function consoleActor(account: { id: string; tenantId: string }, requestId: string | null): Actor {
  return { tenantId: account.tenantId, userId: account.id, apiKeyId: null, requestId, via: 'console' };
}

/** Password and second-factor sign-in. */
export class SignInService {
  readonly #deps: SignInServiceOptions;

  constructor(options: SignInServiceOptions) {
    this.#deps = options;
  }

  /**
   * Checks email and password and starts a session: `active`, or `two_factor` when the account has a second
   * factor, or `enrol_two_factor` when its tenant requires one it lacks.
   * @throws AppError 401 `unauthenticated` ({@link SIGN_IN_REFUSED}) for an unknown email, a wrong password, an
   *   account without a password or a deactivated one, or a tenant that allows single sign-on only; 429 `rate_limited` while a throttling delay runs.
   */
  async signIn(
    input: { email: string; password: string },
    client: ClientInfo,
    requestId: string | null,
  ): Promise<SignInResult> {
    const { knex } = this.#deps.db;
    const email = normalizeEmail(input.email);
    await this.#deps.throttle.check(email, client.address);
    const account = await findAccountByEmail(knex, email);
    // A tenant whose single sign-on turned passwords off refuses them like a wrong one (docs/members.md).
    const usable =
      account !== null &&
      account.deactivatedAt === null &&
      (await passwordSignInAllowed(knex, account.tenantId))
        ? account
        : null;
    const ok = await this.#deps.passwords.verify(usable?.passwordHash ?? null, input.password);
    const now = this.#deps.clock.now().toISOString();
    if (!ok || !usable) {
      await this.#deps.throttle.failed(email, client.address);
      if (account)
        await recordAudit(
          knex,
          consoleActor(account, requestId),
          now,
          'auth.sign_in_failed',
          'user',
          account.id,
          {
            address: { from: null, to: client.address },
          },
        );
      throw new AppError('unauthenticated', SIGN_IN_REFUSED);
    }
    await this.#deps.throttle.succeeded(email, client.address);
    if (usable.passwordHash && this.#deps.passwords.needsRehash(usable.passwordHash))
      await updateAccount(
        knex,
        usable.id,
        { passwordHash: await this.#deps.passwords.hash(input.password) },
        now,
      );
    const stage = await this.#stageAfterPassword(usable);
    const started = await this.#deps.sessions.start(usable, stage, client);
    if (stage === 'active') await this.#signedIn(usable, started.session, requestId, 'password');
    return { ...started, account: usable };
  }

  /**
   * The second step for a session in the `two_factor` stage: a TOTP code or a recovery code. On success the
   * pending session ends and an active one starts (a new id).
   * @throws AppError 401 `unauthenticated` when the session is not awaiting a second factor or the code is wrong
   *   (counted as a failed sign-in); 429 while a throttling delay runs.
   */
  async secondFactor(
    pending: SessionRecord,
    input: { code?: string; recoveryCode?: string },
    client: ClientInfo,
    requestId: string | null,
  ): Promise<SignInResult> {
    const { knex } = this.#deps.db;
    const account = await this.#deps.sessions.accountOf(pending);
    if (pending.stage !== 'two_factor' || !account)
      throw new AppError('unauthenticated', 'Sign in with email and password first.');
    const key = account.emailNormalized ?? account.id;
    await this.#deps.throttle.check(key, client.address);
    const ok =
      input.code !== undefined
        ? await this.#deps.twoFactor.verifyCode(account, input.code)
        : input.recoveryCode !== undefined &&
          (await this.#deps.twoFactor.useRecoveryCode(account, input.recoveryCode));
    const now = this.#deps.clock.now().toISOString();
    if (!ok) {
      await this.#deps.throttle.failed(key, client.address);
      await recordAudit(
        knex,
        consoleActor(account, requestId),
        now,
        'auth.sign_in_failed',
        'user',
        account.id,
        {
          secondFactor: { from: null, to: input.code !== undefined ? 'totp' : 'recovery_code' },
        },
      );
      throw new AppError('unauthenticated', 'The code is not right.');
    }
    await this.#deps.throttle.succeeded(key, client.address);
    await this.#deps.sessions.end(account.id, pending.id);
    return this.startSignedIn(
      account,
      client,
      requestId,
      input.code !== undefined ? 'totp' : 'recovery_code',
      {
        secondFactorDone: true,
      },
    );
  }

  /**
   * Turns a session that completed a step (enrolment required by the tenant) into an active one with a new id.
   * @throws AppError 401 when the session's user is gone.
   */
  async activate(
    pending: SessionRecord,
    client: ClientInfo,
    requestId: string | null,
  ): Promise<SignInResult> {
    const account = await this.#deps.sessions.accountOf(pending);
    if (!account) throw new AppError('unauthenticated', 'Sign in first.');
    await this.#deps.sessions.end(account.id, pending.id);
    return this.startSignedIn(account, client, requestId, 'totp', { secondFactorDone: true });
  }

  /**
   * Starts a session for an account that proved who it is some other way (an accepted invitation, an OpenID
   * Connect sign-in, a completed setup link): `active` and audited `auth.signed_in` with `method`, unless the
   * account has a second factor not yet given (`secondFactorDone` false: stage `two_factor`) or its tenant requires
   * one it lacks (stage `enrol_two_factor`).
   * @throws AppError 401 `unauthenticated` when the account is deactivated.
   */
  async startSignedIn(
    account: AccountRecord,
    client: ClientInfo,
    requestId: string | null,
    method: string,
    options: { secondFactorDone?: boolean } = {},
  ): Promise<SignInResult> {
    if (account.deactivatedAt !== null) throw new AppError('unauthenticated', 'This account is deactivated.');
    const stage = options.secondFactorDone ? 'active' : await this.#stageAfterPassword(account);
    const started = await this.#deps.sessions.start(account, stage, client);
    if (stage === 'active') await this.#signedIn(account, started.session, requestId, method);
    return { ...started, account };
  }

  async #stageAfterPassword(account: AccountRecord): Promise<SessionStage> {
    if (account.totpEnabledAt !== null) return 'two_factor';
    const tenant = await findTenant(this.#deps.db.knex, account.tenantId);
    return tenant?.settings.requireTwoFactor ? 'enrol_two_factor' : 'active';
  }

  async #signedIn(
    account: AccountRecord,
    session: SessionRecord,
    requestId: string | null,
    method: string,
  ): Promise<void> {
    const now = this.#deps.clock.now().toISOString();
    await updateAccount(this.#deps.db.knex, account.id, { lastSignedInAt: now }, now);
    await recordAudit(
      this.#deps.db.knex,
      consoleActor(account, requestId),
      now,
      'auth.signed_in',
      'user',
      account.id,
      {
        method: { from: null, to: method },
        sessionId: { from: null, to: session.id },
      },
    );
  }
}
