/**
 * Secrets encrypted at rest (docs/webhooks.md, "Events and webhooks": "Secrets at rest"): AES-256-GCM through
 * `node:crypto` under a 32-byte key (`MERIDIAN_SECRET_KEY`, base64), with a previous key
 * (`MERIDIAN_SECRET_KEY_PREVIOUS`) still accepted for reading during a key rotation. Webhook signing secrets are
 * stored this way; any other secret Meridian must be able to read back (an OIDC client secret) uses the same box.
 *
 * Stored form: `enc:v1:<key id>:<base64url of 12-byte IV ‖ ciphertext ‖ 16-byte tag>`. The key id is the first 8
 * base64url characters of SHA-256 of the key, so a value names the key that sealed it without revealing it. The
 * `context` (e.g. `webhook_endpoints:<id>`) is bound as additional authenticated data: a value copied to another
 * row does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Prefix of a sealed value. */
export const SEALED_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Length of a key in bytes (AES-256). */
export const SECRET_KEY_BYTES = 32;

/** The keys of a {@link SecretBox}: the one that seals, and one more that may still open older values. */
export interface SecretKeys {
  current: Buffer;
  previous: Buffer | null;
}

/** A new key as `MERIDIAN_SECRET_KEY` takes it: base64 of 32 random bytes. */
export function newSecretKey(): string {
  return randomBytes(SECRET_KEY_BYTES).toString('base64');
}

/**
 * Reads a key written as base64 (standard or URL-safe alphabet) of exactly 32 bytes.
 * @throws Error naming `name` when the text is not that.
 */
export function parseSecretKey(text: string, name: string): Buffer {
  const trimmed = text.trim();
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (bytes.length !== SECRET_KEY_BYTES)
    throw new Error(
      `${name} must be base64 of ${SECRET_KEY_BYTES} random bytes (e.g. openssl rand -base64 32), got ${bytes.length} bytes`,
    );
  return bytes;
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

/** Whether `value` is in the sealed form (as opposed to a plaintext value stored before encryption). */
export function isSealed(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

/** Seals and opens secrets under the configured keys; built once per app (no module-level key). */
export class SecretBox {
  readonly #keys: Map<string, Buffer>;
  readonly #current: { id: string; key: Buffer } | null;

  /** @param keys null when none is configured: then every seal and open throws. */
  constructor(keys: SecretKeys | null) {
    this.#keys = new Map();
    this.#current = null;
    if (!keys) return;
    this.#current = { id: keyId(keys.current), key: keys.current };
    this.#keys.set(this.#current.id, keys.current);
    if (keys.previous) this.#keys.set(keyId(keys.previous), keys.previous);
  }

  #currentKey(): { id: string; key: Buffer } {
    if (!this.#current)
      throw new Error(
        'no secret key is configured (MERIDIAN_SECRET_KEY): secrets cannot be sealed or opened',
      );
    return this.#current;
  }

  /** Encrypts `plaintext` under the current key, bound to `context`. */
  seal(plaintext: string, context: string): string {
    const { id, key } = this.#currentKey();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${id}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /**
   * Decrypts a sealed value under whichever configured key sealed it. A value that is not sealed (stored before
   * encryption, awaiting the migration or `secrets rotate`) is returned as it is.
   * @throws Error when the key that sealed it is not configured, or the value or its context does not match.
   */
  open(value: string, context: string): string {
    if (!isSealed(value)) return value;
    this.#currentKey();
    const [id = '', payload = ''] = value.slice(SEALED_PREFIX.length).split(':');
    const key = this.#keys.get(id);
    if (!key)
      throw new Error(
        `a secret is sealed under key ${id}, which is neither MERIDIAN_SECRET_KEY nor MERIDIAN_SECRET_KEY_PREVIOUS`,
      );
    const bytes = Buffer.from(payload, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('a sealed secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }

  /** Whether `value` is sealed under the current key (else `secrets rotate` re-seals it). */
  isCurrent(value: string): boolean {
    return isSealed(value) && value.startsWith(`${SEALED_PREFIX}${this.#currentKey().id}:`);
  }

  /** `value` sealed under the current key: opened (under any configured key, or as plaintext) and sealed again. */
  reseal(value: string, context: string): string {
    return this.isCurrent(value) ? value : this.seal(this.open(value, context), context);
  }
}
