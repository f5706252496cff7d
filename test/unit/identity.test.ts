import { expect } from 'chai';
import { API_KEY_PATTERN, generateApiKey, hashApiKey } from '../../server/services/identity/index.js';

describe('API keys (docs/design.md: mk_live_ + base62, SHA-256 at rest)', () => {
  it('generates well-formed, distinct keys', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey()));
    expect(keys.size).to.equal(200);
    for (const k of keys) {
      expect(k).to.match(API_KEY_PATTERN);
      expect(k).to.have.length(48);
    }
  });
  it('hashes with SHA-256 (FIPS 180-2 test vector "abc")', () => {
    expect(hashApiKey('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
