/**
 * webhooks.verify / unwrap / sign per Standard Webhooks v1: the reference test vector, a cross-check against the
 * `standardwebhooks` npm package, tampering, timestamps and rotated secrets.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { Meridian, type WebhookEvent, WebhookVerificationError, webhooks } from '../src/index.js';

// The Standard Webhooks reference vector (standard-webhooks/standard-webhooks, libraries' test suites).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const vectorHeaders = {
  'webhook-id': VECTOR.id,
  'webhook-timestamp': String(VECTOR.timestamp),
  'webhook-signature': VECTOR.signature,
};
const atVectorTime = { now: VECTOR.timestamp * 1000 };
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const event = {
  id: '019512b2-e506-77fc-8b2d-9d8f2a4b6c2b',
  event: 'risk.created',
  tenantId: '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f10',
  timestamp: '2025-06-02T14:30:00Z',
  data: {
    riskId: '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f12',
    projectId: '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f10',
    risk: {},
  },
};

describe('sdk-ts webhooks (Standard Webhooks v1)', () => {
  it('passes the Standard Webhooks reference test vector', () => {
    expect(() => webhooks.verify(VECTOR.payload, vectorHeaders, VECTOR.secret, atVectorTime)).to.not.throw();
    const signed = webhooks.sign(VECTOR.payload, VECTOR.secret, {
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
    });
    expect(signed['webhook-signature']).to.equal(VECTOR.signature);
  });

  it('accepts the secret without its whsec_ prefix, bytes bodies, Headers objects and array header values', () => {
    const bare = VECTOR.secret.slice('whsec_'.length);
    webhooks.verify(VECTOR.payload, vectorHeaders, bare, atVectorTime);
    webhooks.verify(Buffer.from(VECTOR.payload), new Headers(vectorHeaders), VECTOR.secret, atVectorTime);
    webhooks.verify(
      new TextEncoder().encode(VECTOR.payload),
      { ...vectorHeaders, 'Webhook-Signature': [VECTOR.signature], 'webhook-signature': undefined },
      VECTOR.secret,
      atVectorTime,
    );
  });

  it('agrees with the standardwebhooks npm package both ways', () => {
    const secret = newSecret();
    const reference = new Webhook(secret);
    const body = JSON.stringify(event);
    const now = new Date();
    const id = 'msg_cross_check';

    // Signed by the reference library, verified by the SDK.
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': reference.sign(id, now, body),
    };
    const unwrapped = webhooks.unwrap(body, headers, secret);
    expect(unwrapped).to.deep.equal(event);

    // Signed by the SDK, verified by the reference library.
    const ours = webhooks.sign(body, secret, { id, timestamp: Math.floor(now.getTime() / 1000) });
    expect(ours['webhook-signature']).to.equal(headers['webhook-signature']);
    expect(reference.verify(body, ours)).to.deep.equal(event);
  });

  it('rejects a tampered body, a wrong secret, a wrong id and a malformed signature', () => {
    const reject = (body: string, headers: Record<string, string>, secret = VECTOR.secret) =>
      expect(() => webhooks.verify(body, headers, secret, atVectorTime)).to.throw(
        WebhookVerificationError,
        /no matching webhook signature/,
      );
    reject('{"test": 2432232315}', vectorHeaders);
    reject(VECTOR.payload, vectorHeaders, newSecret());
    reject(VECTOR.payload, { ...vectorHeaders, 'webhook-id': 'msg_other' });
    reject(VECTOR.payload, { ...vectorHeaders, 'webhook-signature': 'v1,' });
    reject(VECTOR.payload, {
      ...vectorHeaders,
      'webhook-signature': 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
    reject(VECTOR.payload, {
      ...vectorHeaders,
      'webhook-signature': 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('rejects missing headers and a secret that is not base64', () => {
    const { 'webhook-signature': _, ...noSignature } = vectorHeaders;
    expect(() => webhooks.verify(VECTOR.payload, noSignature, VECTOR.secret, atVectorTime)).to.throw(
      WebhookVerificationError,
      /missing/,
    );
    expect(() => webhooks.verify(VECTOR.payload, vectorHeaders, 'whsec_not base64!', atVectorTime)).to.throw(
      WebhookVerificationError,
      /secret/,
    );
  });

  it('rejects timestamps more than toleranceSeconds (default 300) old or in the future', () => {
    const at = (offsetSeconds: number, toleranceSeconds?: number) => () =>
      webhooks.verify(VECTOR.payload, vectorHeaders, VECTOR.secret, {
        now: new Date((VECTOR.timestamp + offsetSeconds) * 1000),
        ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
      });
    expect(at(300)).to.not.throw();
    expect(at(-300)).to.not.throw();
    expect(at(301)).to.throw(WebhookVerificationError, /too old/);
    expect(at(-301)).to.throw(WebhookVerificationError, /too new/);
    expect(at(3600, 3600)).to.not.throw();
    expect(at(61, 60)).to.throw(WebhookVerificationError, /too old/);
    // With the real clock, the 2021 vector is far too old.
    expect(() => webhooks.verify(VECTOR.payload, vectorHeaders, VECTOR.secret)).to.throw(/too old/);
  });

  it('accepts either of two signatures after a secret rotation (old and new secret)', () => {
    const oldSecret = newSecret();
    const rotated = newSecret();
    const body = JSON.stringify(event);
    const ts = Math.floor(Date.now() / 1000);
    const a = webhooks.sign(body, oldSecret, { id: 'msg_rot', timestamp: ts });
    const b = webhooks.sign(body, rotated, { id: 'msg_rot', timestamp: ts });
    const headers = { ...a, 'webhook-signature': `${a['webhook-signature']} ${b['webhook-signature']}` };
    webhooks.verify(body, headers, oldSecret);
    webhooks.verify(body, headers, rotated);
    expect(() => webhooks.verify(body, headers, newSecret())).to.throw(WebhookVerificationError);
  });

  it('unwrap() returns the typed event, narrowed by `event`; the client exposes the same helper', () => {
    const secret = newSecret();
    const body = JSON.stringify(event);
    const client = new Meridian({ apiKey: 'mk_live_test' });
    const parsed: WebhookEvent = client.webhooks.unwrap(body, webhooks.sign(body, secret), secret);
    expect(Meridian.webhooks).to.equal(webhooks);
    if (parsed.event === 'risk.created') expect(parsed.data.riskId).to.equal(event.data.riskId);
    else expect.fail(`unexpected event ${parsed.event}`);
    expect(() => webhooks.unwrap('not json', webhooks.sign('not json', secret), secret)).to.throw(
      WebhookVerificationError,
      /not JSON/,
    );
  });
});
