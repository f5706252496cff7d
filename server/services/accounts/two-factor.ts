/**
 * TOTP second factor (docs/accounts.md, "Two-factor sign-in"): RFC 6238 codes (6 digits, 30 s, SHA-1, as every
 * authenticator app reads them) through `otplib`, enrolled from a QR code (`qrcode`, an SVG data URL) and confirmed
 * with a first code; a code is accepted one step either side of now and never twice (RFC 6238 §5.2). Ten
 * single-use recovery codes are shown once at confirmation and stored hashed. The secret is sealed by the secret
 * box, bound to its user's row. Regenerating the recovery codes and turning the factor off need the password (or,
 * for new codes, a current code): a session cookie alone does neither, and wrong guesses count against the account
 * like failed sign-ins (docs/accounts.md, "Two-factor sign-in" and "Sign-in throttling").
 */
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { v7 as uuidv7 } from 'uuid';
import {
  type AccountRecord,
  countRecoveryCodes,
  replaceRecoveryCodes,
  updateAccount,
  useRecoveryCode,
} from '../../repositories/accounts.js';
import { findTenant } from '../../repositories/tenants.js';
import { inTransaction } from '../../repositories/transactions.js';
import { recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import type { PasswordHasher } from './passwords.js';
import { generateRecoveryCode, hashSecret, normalizeRecoveryCode } from './secrets.js';
import type { ClientInfo } from './sessions.js';
import type { SignInThrottle } from './throttle.js';

/** How many recovery codes a user gets. */
export const RECOVERY_CODE_COUNT = 10;
const PERIOD_S = 30;
/** The issuer shown by authenticator apps. */
const ISSUER = 'Meridian';

/** What enrolment shows the user once. */
export interface EnrolmentView {
  /** The base32 secret, for typing in by hand. */
  secret: string;
  /** The `otpauth://totp/…` URI the QR code encodes. */
  otpauthUri: string;
  /** The QR code as an `image/svg+xml` data URL. */
  qrCode: string;
}

/** What confirms new recovery codes: the password in use, or the authenticator app's current code. */
export type RecoveryCodesProof = { password: string } | { code: string };

const context = (userId: string) => `users:${userId}:totp`;

/** Options of {@link TwoFactorService}. */
export interface TwoFactorServiceOptions extends ServiceDeps {
  passwords: PasswordHasher;
  /** The sign-in throttle: a wrong password or code given to confirm a change counts as a failed sign-in. */
  throttle: SignInThrottle;
}

/** Enrols, checks and removes TOTP second factors. */
export class TwoFactorService {
  readonly #deps: ServiceDeps;
  readonly #passwords: PasswordHasher;
  readonly #throttle: SignInThrottle;

  constructor(options: TwoFactorServiceOptions) {
    this.#deps = options;
    this.#passwords = options.passwords;
    this.#throttle = options.throttle;
  }

  /**
   * Starts enrolment: a new secret (replacing any unconfirmed one), sealed and stored, shown once.
   * @throws AppError 409 `conflict` when a second factor is already on.
   */
  async begin(account: AccountRecord): Promise<EnrolmentView> {
    if (account.totpEnabledAt !== null)
      throw new AppError('conflict', 'Two-factor sign-in is already on for this account.');
    const secret = generateSecret();
    const label = account.email ?? account.name;
    const otpauthUri = generateURI({ issuer: ISSUER, label, secret });
    const qrCode = `data:image/svg+xml;base64,${Buffer.from(
      await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
    ).toString('base64')}`;
    await updateAccount(
      this.#deps.db.knex,
      account.id,
      { totpSecret: this.#deps.secrets.seal(secret, context(account.id)), totpEnabledAt: null },
      this.#deps.clock.now().toISOString(),
    );
    return { secret, otpauthUri, qrCode };
  }

  /**
   * Confirms enrolment with a first code; returns the recovery codes (shown once).
   * @throws AppError 409 when enrolment was not begun or is already confirmed; 422 when the code is wrong.
   */
  async confirm(actor: Actor, account: AccountRecord, code: string): Promise<string[]> {
    if (account.totpEnabledAt !== null)
      throw new AppError('conflict', 'Two-factor sign-in is already on for this account.');
    if (account.totpSecret === null)
      throw new AppError('conflict', 'Start enrolment first (POST /auth/two-factor/enrolment).');
    const step = await this.#check(account, code);
    if (step === null)
      throw new AppError('validation_failed', 'The code is not valid: check the time on your device.', {
        status: 422,
        errors: [{ location: 'body', path: '/code', message: 'is not the current code' }],
      });
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
    const now = this.#deps.clock.now().toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      await updateAccount(trx, account.id, { totpEnabledAt: now, totpLastStep: step }, now);
      await replaceRecoveryCodes(trx, account.id, hashedCodes(codes), now);
      await recordAudit(trx, actor, now, 'auth.two_factor_enabled', 'user', account.id, {
        twoFactor: { from: false, to: true },
      });
    });
    return codes;
  }

  /**
   * Ten new recovery codes (returned once); every earlier one stops working. Audited
   * `auth.recovery_codes_regenerated` with how many unused codes were replaced.
   * @throws AppError 409 `conflict` when two-factor sign-in is off; 422 when the password or code is wrong; 429
   *   while a sign-in throttling delay runs.
   */
  async regenerateRecoveryCodes(
    actor: Actor,
    account: AccountRecord,
    proof: RecoveryCodesProof,
    client: ClientInfo,
  ): Promise<string[]> {
    if (account.totpEnabledAt === null)
      throw new AppError('conflict', 'Two-factor sign-in is off: recovery codes come with it.');
    await this.#confirmed(account, client, proof);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
    const now = this.#deps.clock.now().toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      const left = await countRecoveryCodes(trx, account.id);
      await replaceRecoveryCodes(trx, account.id, hashedCodes(codes), now);
      await recordAudit(trx, actor, now, 'auth.recovery_codes_regenerated', 'user', account.id, {
        recoveryCodesLeft: { from: left, to: RECOVERY_CODE_COUNT },
      });
    });
    return codes;
  }

  /**
   * Turns the second factor off after the password confirms it: the secret and the recovery codes are deleted;
   * sessions stay. Audited `auth.two_factor_disabled`.
   * @throws AppError 409 `conflict` when it is off, or when the tenant requires it (`requireTwoFactor`); 422 when
   *   the password is wrong, or would not be accepted as the only factor (NIST SP 800-63B: 15 characters); 429
   *   while a sign-in throttling delay runs.
   */
  async disable(actor: Actor, account: AccountRecord, password: string, client: ClientInfo): Promise<void> {
    if (account.totpEnabledAt === null) throw new AppError('conflict', 'Two-factor sign-in is already off.');
    const tenant = await findTenant(this.#deps.db.knex, account.tenantId);
    if (tenant?.settings.requireTwoFactor)
      throw new AppError(
        'conflict',
        'Your organisation requires two-factor sign-in (requireTwoFactor), so it cannot be turned off. ' +
          'An owner can change that setting.',
      );
    await this.#confirmed(account, client, { password });
    try {
      this.#passwords.accept(password, false);
    } catch {
      throw new AppError(
        'validation_failed',
        'Two-factor sign-in stays on: as the only factor, a password needs at least 15 characters and must ' +
          'not be a common one. Change your password first.',
        { status: 422, errors: [{ location: 'body', path: '/password', message: 'is too weak alone' }] },
      );
    }
    const now = this.#deps.clock.now().toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      await updateAccount(
        trx,
        account.id,
        { totpSecret: null, totpEnabledAt: null, totpLastStep: null },
        now,
      );
      await replaceRecoveryCodes(trx, account.id, [], now);
      await recordAudit(trx, actor, now, 'auth.two_factor_disabled', 'user', account.id, {
        twoFactor: { from: true, to: false },
      });
    });
  }

  /**
   * Checks the account's password, or its current code (used up), counting a wrong one as a failed sign-in.
   * @throws AppError 422 naming the field when it is wrong; 429 while a throttling delay runs.
   */
  async #confirmed(account: AccountRecord, client: ClientInfo, proof: RecoveryCodesProof): Promise<void> {
    const key = account.emailNormalized ?? account.id;
    await this.#throttle.check(key, client.address);
    const ok =
      'code' in proof
        ? await this.verifyCode(account, proof.code)
        : await this.#passwords.verify(account.passwordHash, proof.password);
    if (ok) return this.#throttle.succeeded(key, client.address);
    await this.#throttle.failed(key, client.address);
    throw 'code' in proof
      ? new AppError('validation_failed', 'The code is not valid: check the time on your device.', {
          status: 422,
          errors: [{ location: 'body', path: '/code', message: 'is not the current code' }],
        })
      : new AppError('validation_failed', 'The password is not right.', {
          status: 422,
          errors: [{ location: 'body', path: '/password', message: 'is not the current password' }],
        });
  }

  /** Whether `code` is the account's current TOTP code (and not used before); records its step when it is. */
  async verifyCode(account: AccountRecord, code: string): Promise<boolean> {
    if (account.totpSecret === null || account.totpEnabledAt === null) return false;
    const step = await this.#check(account, code);
    if (step === null) return false;
    await updateAccount(
      this.#deps.db.knex,
      account.id,
      { totpLastStep: step },
      this.#deps.clock.now().toISOString(),
    );
    return true;
  }

  /** Uses one of the account's recovery codes; true when it was unused. */
  async useRecoveryCode(account: AccountRecord, typed: string): Promise<boolean> {
    const code = normalizeRecoveryCode(typed);
    if (code === null || account.totpEnabledAt === null) return false;
    return useRecoveryCode(
      this.#deps.db.knex,
      account.id,
      hashSecret(code),
      this.#deps.clock.now().toISOString(),
    );
  }

  /** How many unused recovery codes the account has. */
  async recoveryCodesLeft(userId: string): Promise<number> {
    return countRecoveryCodes(this.#deps.db.knex, userId);
  }

  /** The time step `code` matches (one step either side of now), unless it is not later than the last one used. */
  async #check(account: AccountRecord, code: string): Promise<number | null> {
    if (!/^\d{6}$/.test(code) || account.totpSecret === null) return null;
    const secret = this.#deps.secrets.open(account.totpSecret, context(account.id));
    const epoch = Math.floor(this.#deps.clock.now().getTime() / 1000);
    const result = await verify({ secret, token: code, epoch, epochTolerance: PERIOD_S });
    if (!result.valid) return null;
    const step = Math.floor(epoch / PERIOD_S) + result.delta;
    if (account.totpLastStep !== null && step <= account.totpLastStep) return null;
    return step;
  }
}

/** Recovery codes as stored: each with an id and its SHA-256. */
function hashedCodes(codes: string[]): { id: string; hash: string }[] {
  return codes.map((c) => ({ id: uuidv7(), hash: hashSecret(c) }));
}
