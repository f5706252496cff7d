/**
 * TOTP second factor (docs/accounts.md, "Two-factor sign-in"): RFC 6238 codes (6 digits, 30 s, SHA-1, as every
 * authenticator app reads them) through `otplib`, enrolled from a QR code (`qrcode`, an SVG data URL) and confirmed
 * with a first code; a code is accepted one step either side of now and never twice (RFC 6238 §5.2). Ten
 * single-use recovery codes are shown once at confirmation and stored hashed. The secret is sealed by the secret
 * box, bound to its user's row.
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
import { inTransaction } from '../../repositories/transactions.js';
import { recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import { generateRecoveryCode, hashSecret, normalizeRecoveryCode } from './secrets.js';

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

const context = (userId: string) => `users:${userId}:totp`;

/** Enrols, checks and removes TOTP second factors. */
export class TwoFactorService {
  readonly #deps: ServiceDeps;

  constructor(deps: ServiceDeps) {
    this.#deps = deps;
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
      await replaceRecoveryCodes(
        trx,
        account.id,
        codes.map((c) => ({ id: uuidv7(), hash: hashSecret(c) })),
        now,
      );
      await recordAudit(trx, actor, now, 'auth.two_factor_enabled', 'user', account.id, {
        twoFactor: { from: false, to: true },
      });
    });
    return codes;
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
