/**
 * The secret box (server/crypto/secret-box.ts; docs/webhooks.md, "Events and webhooks": "Secrets at rest"):
 * AES-256-GCM round trips, context binding, the previous key during a rotation, and the key configuration.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config.js';
import { isSealed, newSecretKey, parseSecretKey, SecretBox } from '../../server/crypto/secret-box.js';

const keyA = parseSecretKey(newSecretKey(), 'A');
const keyB = parseSecretKey(newSecretKey(), 'B');

describe('secret box', () => {
  it('seals a secret so that it opens only with the same context, and never shows it', () => {
    const box = new SecretBox({ current: keyA, previous: null });
    const sealed = box.seal('whsec_c2VjcmV0', 'webhook_endpoints:1');
    expect(sealed).to.match(/^enc:v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]+$/);
    expect(sealed).to.not.contain('whsec_');
    expect(isSealed(sealed)).to.equal(true);
    expect(box.open(sealed, 'webhook_endpoints:1')).to.equal('whsec_c2VjcmV0');
    // A fresh IV each time.
    expect(box.seal('whsec_c2VjcmV0', 'webhook_endpoints:1')).to.not.equal(sealed);
    // Copied to another row, or tampered with: refused.
    expect(() => box.open(sealed, 'webhook_endpoints:2')).to.throw();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(() => box.open(tampered, 'webhook_endpoints:1')).to.throw();
  });

  it('opens values of the previous key during a rotation and reseals them under the current one', () => {
    const old = new SecretBox({ current: keyA, previous: null });
    const sealed = old.seal('whsec_x', 'c');
    const rotating = new SecretBox({ current: keyB, previous: keyA });
    expect(rotating.open(sealed, 'c')).to.equal('whsec_x');
    expect(rotating.isCurrent(sealed)).to.equal(false);
    const resealed = rotating.reseal(sealed, 'c');
    expect(rotating.isCurrent(resealed)).to.equal(true);
    expect(rotating.reseal(resealed, 'c')).to.equal(resealed);
    // Once the previous key is dropped, only values under the current key open.
    const after = new SecretBox({ current: keyB, previous: null });
    expect(after.open(resealed, 'c')).to.equal('whsec_x');
    expect(() => after.open(sealed, 'c')).to.throw(
      /neither MERIDIAN_SECRET_KEY nor MERIDIAN_SECRET_KEY_PREVIOUS/,
    );
    // A value stored before encryption opens as it is and is sealed by a reseal.
    expect(after.open('whsec_plain', 'c')).to.equal('whsec_plain');
    expect(after.reseal('whsec_plain', 'c')).to.match(/^enc:v1:/);
  });

  it('refuses to work without a key, and keys that are not base64 of 32 bytes', () => {
    expect(() => new SecretBox(null).seal('x', 'c')).to.throw(/MERIDIAN_SECRET_KEY/);
    expect(() => parseSecretKey('c2hvcnQ=', 'MERIDIAN_SECRET_KEY')).to.throw(/base64 of 32/);
    expect(() => parseSecretKey('not base64 at all!', 'MERIDIAN_SECRET_KEY')).to.throw(/base64 of 32/);
    expect(parseSecretKey(Buffer.alloc(32, 7).toString('base64url'), 'K')).to.have.length(32);
  });

  it('takes MERIDIAN_SECRET_KEY(_PREVIOUS); requires it in production; otherwise keeps a local key file', () => {
    const current = newSecretKey();
    const previous = newSecretKey();
    const configured = loadConfig({
      NODE_ENV: 'production',
      MERIDIAN_SQLITE_FILE: 'meridian.sqlite',
      MERIDIAN_PUBLIC_URL: 'https://pmo.example.com',
      MERIDIAN_SECRET_KEY: current,
      MERIDIAN_SECRET_KEY_PREVIOUS: previous,
    });
    expect(configured.secretKeys.current.toString('base64')).to.equal(current);
    expect(configured.secretKeys.previous?.toString('base64')).to.equal(previous);
    expect(configured.localSecretKeyFile).to.equal(null);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://x',
        MERIDIAN_PUBLIC_URL: 'https://a.example',
      }),
    ).to.throw(/needs MERIDIAN_SECRET_KEY: /);
    expect(() => loadConfig({ MERIDIAN_SECRET_KEY: 'short' })).to.throw(/base64 of 32/);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-key-'));
    try {
      const file = path.join(dir, 'data', 'secret.key');
      const first = loadConfig({ MERIDIAN_SECRET_KEY_FILE: file });
      expect(first.localSecretKeyFile).to.equal(file);
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
      // Kept: the next start reads the same key.
      expect(
        loadConfig({ MERIDIAN_SECRET_KEY_FILE: file }).secretKeys.current.equals(first.secretKeys.current),
      ).to.equal(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
