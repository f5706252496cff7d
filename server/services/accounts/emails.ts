/**
 * Sign-in addresses (docs/accounts.md, "Accounts"): unique per deployment and compared case-insensitively, so
 * stored and looked up in one normal form.
 */

/** At most this many characters (RFC 5321 §4.5.3.1: 64 for the local part, 255 for the domain, and the @). */
export const EMAIL_MAX_LENGTH = 320;

/** The normal form of an email address: Unicode NFKC, surrounding spaces removed, lower case. */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/** Whether `email` looks like an address (one @, something on each side, no spaces): the rest is the mail's. */
export function isEmailLike(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@]+$/.test(email.trim());
}
