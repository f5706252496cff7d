/**
 * The first bytes of a webhook receiver's answer (docs/webhooks.md, "Events and webhooks": "Response excerpts"):
 * at most 1,024 bytes of UTF-8 text, cut before a character the limit would split; binary bodies flagged.
 */
import { expect } from 'chai';
import { bodyExcerpt, EXCERPT_BYTES } from '../../server/services/webhooks/body-excerpt.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('bodyExcerpt', () => {
  it('keeps a short text body whole', () => {
    expect(bodyExcerpt(bytes('{"ok":true}'), false)).to.deep.equal({
      responseBodyExcerpt: '{"ok":true}',
      responseBodyTruncated: false,
      responseBodyBinary: false,
    });
  });

  it('has no excerpt for an empty body', () => {
    expect(bodyExcerpt(new Uint8Array(), false).responseBodyExcerpt).to.equal(null);
  });

  it('keeps 1,024 bytes of a longer body and says it was truncated', () => {
    const got = bodyExcerpt(bytes('a'.repeat(2000)), false);
    expect(got.responseBodyExcerpt).to.equal('a'.repeat(EXCERPT_BYTES));
    expect(got.responseBodyTruncated).to.equal(true);
  });

  for (const [name, char] of [
    ['2-byte', 'é'],
    ['3-byte', '€'],
    ['4-byte', '😀'],
  ] as const) {
    it(`cuts before a ${name} character the limit would split, never inside it`, () => {
      for (let pad = 0; pad < 4; pad++) {
        const text = 'x'.repeat(pad) + char.repeat(600);
        const got = bodyExcerpt(bytes(text), false);
        const excerpt = got.responseBodyExcerpt as string;
        expect(got.responseBodyBinary).to.equal(false);
        expect(got.responseBodyTruncated).to.equal(true);
        expect(text.startsWith(excerpt)).to.equal(true);
        const size = bytes(excerpt).length;
        expect(size).to.be.at.most(EXCERPT_BYTES);
        expect(size).to.be.greaterThan(EXCERPT_BYTES - bytes(char).length);
      }
    });
  }

  it('flags bytes that are not UTF-8, or hold a NUL, as binary without an excerpt', () => {
    for (const body of [
      Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a),
      bytes('ab\u0000cd'),
      Uint8Array.of(0xc3),
    ])
      expect(bodyExcerpt(body, false)).to.deep.equal({
        responseBodyExcerpt: null,
        responseBodyTruncated: false,
        responseBodyBinary: true,
      });
  });

  it('marks a body cut short after its first bytes as truncated', () => {
    expect(bodyExcerpt(bytes('partial'), true)).to.include({
      responseBodyExcerpt: 'partial',
      responseBodyTruncated: true,
    });
  });
});
