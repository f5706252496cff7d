/**
 * Standard Webhooks signing (checked against the reference `standardwebhooks` library) and Retry-After parsing.
 */
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import {
  MAX_RETRY_AFTER_MS,
  newSecret,
  retryAfterMs,
  signatureHeader,
} from '../../server/services/webhooks/index.js';

describe('webhook signing', () => {
  const body = JSON.stringify({ id: 'evt', event: 'risk.created', data: { title: 'Crane “failure” ✓' } });
  const now = new Date();
  const ts = Math.floor(now.getTime() / 1000);

  it('makes whsec_ secrets of 32 random bytes', () => {
    const a = newSecret();
    expect(a).to.match(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(a.slice(6), 'base64')).to.have.length(32);
    expect(newSecret()).to.not.equal(a);
  });

  it('signs exactly as the library does, and the library verifies it', () => {
    const secret = newSecret();
    const header = signatureHeader(
      { secret, previousSecret: null, previousSecretExpiresAt: null },
      now,
      'msg_1',
      ts,
      body,
    );
    const wh = new Webhook(secret);
    expect(header).to.equal(wh.sign('msg_1', new Date(ts * 1000), body));
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': header };
    expect(wh.verify(body, headers)).to.deep.equal(JSON.parse(body));
    expect(() => wh.verify(`${body} `, headers)).to.throw();
    expect(() => new Webhook(newSecret()).verify(body, headers)).to.throw();
  });

  it('adds the previous secret’s signature until the overlap ends, and each secret verifies', () => {
    const secret = newSecret();
    const previousSecret = newSecret();
    const during = signatureHeader(
      { secret, previousSecret, previousSecretExpiresAt: new Date(now.getTime() + 1).toISOString() },
      now,
      'msg_2',
      ts,
      body,
    );
    expect(during.split(' ')).to.have.length(2);
    const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(ts), 'webhook-signature': during };
    expect(new Webhook(secret).verify(body, headers)).to.be.an('object');
    expect(new Webhook(previousSecret).verify(body, headers)).to.be.an('object');
    const after = signatureHeader(
      { secret, previousSecret, previousSecretExpiresAt: now.toISOString() },
      now,
      'msg_2',
      ts,
      body,
    );
    expect(after.split(' ')).to.have.length(1);
    expect(() =>
      new Webhook(previousSecret).verify(body, { ...headers, 'webhook-signature': after }),
    ).to.throw();
  });
});

describe('Retry-After', () => {
  const now = new Date('2026-03-01T12:00:00.000Z');
  it('reads delay-seconds and HTTP dates, bounded to [0, 1 h]', () => {
    expect(retryAfterMs('7', now)).to.equal(7_000);
    expect(retryAfterMs(' 0 ', now)).to.equal(0);
    expect(retryAfterMs('86400', now)).to.equal(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('Sun, 01 Mar 2026 12:02:00 GMT', now)).to.equal(120_000);
    expect(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now)).to.equal(0);
    expect(retryAfterMs(undefined, now)).to.equal(null);
    expect(retryAfterMs('soon', now)).to.equal(null);
    expect(retryAfterMs('-5', now)).to.equal(null);
  });
});
