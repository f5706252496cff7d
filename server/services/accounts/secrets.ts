/**
 * Random secrets a person or browser holds (session ids, console access tokens, one-time link tokens, recovery
 * codes) and their stored form: SHA-256 as lowercase hex (docs/accounts.md, "What is stored"). Each has at least
 * 112 bits of entropy, so a fast hash suffices (NIST SP 800-63B §5.1.2.2: look-up secrets of 112 bits or more
 * need no password hashing scheme).
 */
import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 of a secret as lowercase hex: what the database stores. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** 32 random bytes as base64url (256 bits): session ids and one-time link tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from `alphabet` (rejection sampling: no character is likelier). */
function randomChars(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

/** The prefix of every console access token (docs/accounts.md, "Console access tokens"). */
export const CONSOLE_TOKEN_PREFIX = 'mt_';
/** The shape of a console access token: `mt_` + 40 base62 characters (≈ 238 bits). */
export const CONSOLE_TOKEN_PATTERN = /^mt_[0-9A-Za-z]{40}$/;

/** A new console access token. */
export function generateConsoleToken(): string {
  return `${CONSOLE_TOKEN_PREFIX}${randomChars(BASE62, 40)}`;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** A recovery code: four groups of six characters of a 31-letter alphabet without look-alikes (≈ 119 bits). */
export function generateRecoveryCode(): string {
  const chars = randomChars(RECOVERY_ALPHABET, 24);
  return [0, 6, 12, 18].map((i) => chars.slice(i, i + 6)).join('-');
}

/** A recovery code as typed (any case, spaces or dashes anywhere) in the form it was issued, or null. */
export function normalizeRecoveryCode(typed: string): string | null {
  const chars = typed.toLowerCase().replace(/[\s-]/g, '');
  if (chars.length !== 24 || [...chars].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
  return [0, 6, 12, 18].map((i) => chars.slice(i, i + 6)).join('-');
}
