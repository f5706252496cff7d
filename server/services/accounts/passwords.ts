/**
 * Passwords (docs/accounts.md, "Passwords"): NIST SP 800-63B §3.1.1.2 rules (at least 15 characters when the
 * password is the only factor, 8 with a second factor, at most 128; any Unicode, normalised NFKC, each code point
 * one character; no composition rules; refused when on a list of common or breached passwords, here the 49,000 of
 * `@zxcvbn-ts/language-common`), hashed with Argon2id at the OWASP Password Storage Cheat Sheet's parameters
 * (19 MiB, 2 iterations, 1 lane) and re-hashed at sign-in when those parameters change.
 */

import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';
import { AppError } from '../errors.js';

/** Argon2id parameters (OWASP Password Storage Cheat Sheet, Argon2id, first configuration). */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;
/** Fewest characters of a password that is the only factor (NIST SP 800-63B §3.1.1.2). */
export const MIN_LENGTH_SINGLE_FACTOR = 15;
/** Fewest characters of a password used with a second factor (NIST SP 800-63B §3.1.1.2). */
export const MIN_LENGTH_WITH_SECOND_FACTOR = 8;
/** Most characters of a password. */
export const MAX_LENGTH = 128;

/** Hashes and checks passwords; one per app (the common-password set is built once, here, not at module level). */
export class PasswordHasher {
  readonly #common: Set<string>;
  #dummy: Promise<string> | null = null;

  constructor() {
    this.#common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }

  /**
   * The password in its stored form (NFKC), after checking it against the rules.
   * @param withSecondFactor whether the account has (or is enrolling) a second factor: then 8 characters suffice.
   * @throws AppError 422 `validation_failed` naming `path` when it is too short, too long or a common password.
   */
  accept(password: string, withSecondFactor: boolean, path = '/password'): string {
    const normalized = password.normalize('NFKC');
    const length = [...normalized].length;
    const min = withSecondFactor ? MIN_LENGTH_WITH_SECOND_FACTOR : MIN_LENGTH_SINGLE_FACTOR;
    const refuse = (message: string) =>
      new AppError('validation_failed', `The password is not accepted: it ${message}.`, {
        status: 422,
        errors: [{ location: 'body', path, message }],
      });
    if (length < min)
      throw refuse(
        `must have at least ${min} characters${withSecondFactor ? '' : ` (${MIN_LENGTH_WITH_SECOND_FACTOR} once two-factor sign-in is on)`}; it has ${length}`,
      );
    if (length > MAX_LENGTH) throw refuse(`must have at most ${MAX_LENGTH} characters; it has ${length}`);
    if (this.#common.has(normalized.toLowerCase()))
      throw refuse('is on a list of common or breached passwords; choose another');
    return normalized;
  }

  /** The Argon2id PHC string of an accepted password. */
  async hash(password: string): Promise<string> {
    return argon2.hash(password.normalize('NFKC'), ARGON2_OPTIONS);
  }

  /**
   * Whether `password` matches `stored`. With `stored` null (no such account, or no password), a dummy hash is
   * verified instead, so the answer takes the same time either way (docs/accounts.md, "Sign-in throttling"), and
   * the result is false.
   */
  async verify(stored: string | null, password: string): Promise<boolean> {
    const hash = stored ?? (await this.#dummyHash());
    try {
      const ok = await argon2.verify(hash, password.normalize('NFKC'));
      return ok && stored !== null;
    } catch {
      return false;
    }
  }

  /** Whether a stored hash was made with other parameters than {@link ARGON2_OPTIONS} (re-hash it at sign-in). */
  needsRehash(stored: string): boolean {
    try {
      return argon2.needsRehash(stored, ARGON2_OPTIONS);
    } catch {
      return true;
    }
  }

  #dummyHash(): Promise<string> {
    this.#dummy ??= argon2.hash('meridian dummy password for unknown accounts', ARGON2_OPTIONS);
    return this.#dummy;
  }
}
