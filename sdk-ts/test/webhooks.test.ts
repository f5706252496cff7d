/**
 * webhooks.verify / unwrap / sign (and client.webhooks.*) per Standard Webhooks v1: the reference test vector, a
 * cross-check against the `standardwebhooks` npm package, tampering, timestamps and rotated secrets. The helpers are
 * asynchronous (Web Crypto), so each check awaits.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { Meridian, type WebhookEvent, WebhookVerificationError, webhooks } from '../src/index.js';
import { rejection } from './helpers.js';

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
  const refused = (promise: Promise<unknown>, message: RegExp) =>
    rejection(promise, WebhookVerificationError).then((error) => expect(error.message).to.match(message));

  it('passes the Standard Webhooks reference test vector', async () => {
    await webhooks.verify(VECTOR.payload, vectorHeaders, VECTOR.secret, atVectorTime);
    const signed = await webhooks.sign(VECTOR.payload, VECTOR.secret, {
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
    });
    expect(signed['webhook-signature']).to.equal(VECTOR.signature);
  });

  it('accepts the secret without its whsec_ prefix, bytes bodies, Headers objects and array header values', async () => {
    const bare = VECTOR.secret.slice('whsec_'.length);
    await webhooks.verify(VECTOR.payload, vectorHeaders, bare, atVectorTime);
    await webhooks.verify(
      Buffer.from(VECTOR.payload),
      new Headers(vectorHeaders),
      VECTOR.secret,
      atVectorTime,
    );
    await webhooks.verify(
      new TextEncoder().encode(VECTOR.payload),
      { ...vectorHeaders, 'Webhook-Signature': [VECTOR.signature], 'webhook-signature': undefined },
      VECTOR.secret,
      atVectorTime,
    );
  });

  it('agrees with the standardwebhooks npm package both ways', async () => {
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
    expect(await webhooks.unwrap(body, headers, secret)).to.deep.equal(event);

    // Signed by the SDK, verified by the reference library.
    const ours = await webhooks.sign(body, secret, { id, timestamp: Math.floor(now.getTime() / 1000) });
    expect(ours['webhook-signature']).to.equal(headers['webhook-signature']);
    expect(reference.verify(body, { ...ours })).to.deep.equal(event);
  });

  it('rejects a tampered body, a wrong secret, a wrong id and a malformed signature', async () => {
    const reject = (body: string, headers: Record<string, string>, secret = VECTOR.secret) =>
      refused(webhooks.verify(body, headers, secret, atVectorTime), /no matching webhook signature/);
    await reject('{"test": 2432232315}', vectorHeaders);
    await reject(VECTOR.payload, vectorHeaders, newSecret());
    await reject(VECTOR.payload, { ...vectorHeaders, 'webhook-id': 'msg_other' });
    await reject(VECTOR.payload, { ...vectorHeaders, 'webhook-signature': 'v1,' });
    await reject(VECTOR.payload, { ...vectorHeaders, 'webhook-signature': 'v1,not*base64' });
    await reject(VECTOR.payload, {
      ...vectorHeaders,
      'webhook-signature': 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
    await reject(VECTOR.payload, {
      ...vectorHeaders,
      'webhook-signature': 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('rejects missing headers and a secret that is not base64', async () => {
    const { 'webhook-signature': _, ...noSignature } = vectorHeaders;
    await refused(webhooks.verify(VECTOR.payload, noSignature, VECTOR.secret, atVectorTime), /missing/);
    await refused(
      webhooks.verify(VECTOR.payload, vectorHeaders, 'whsec_not base64!', atVectorTime),
      /secret/,
    );
  });

  it('rejects timestamps more than toleranceSeconds (default 300) old or in the future', async () => {
    const at = (offsetSeconds: number, toleranceSeconds?: number) =>
      webhooks.verify(VECTOR.payload, vectorHeaders, VECTOR.secret, {
        now: new Date((VECTOR.timestamp + offsetSeconds) * 1000),
        ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
      });
    await at(300);
    await at(-300);
    await refused(at(301), /too old/);
    await refused(at(-301), /too new/);
    await at(3600, 3600);
    await refused(at(61, 60), /too old/);
    // With the real clock, the 2021 vector is far too old.
    await refused(webhooks.verify(VECTOR.payload, vectorHeaders, VECTOR.secret), /too old/);
  });

  it('accepts either of two signatures after a secret rotation (old and new secret)', async () => {
    const oldSecret = newSecret();
    const rotated = newSecret();
    const body = JSON.stringify(event);
    const ts = Math.floor(Date.now() / 1000);
    const a = await webhooks.sign(body, oldSecret, { id: 'msg_rot', timestamp: ts });
    const b = await webhooks.sign(body, rotated, { id: 'msg_rot', timestamp: ts });
    const headers = { ...a, 'webhook-signature': `${a['webhook-signature']} ${b['webhook-signature']}` };
    await webhooks.verify(body, headers, oldSecret);
    await webhooks.verify(body, headers, rotated);
    await refused(webhooks.verify(body, headers, newSecret()), /no matching/);
  });

  it('client.webhooks.unwrap() returns the typed event, narrowed by `event`', async () => {
    const secret = newSecret();
    const body = JSON.stringify(event);
    const client = new Meridian({ apiKey: 'mk_live_test' });
    const parsed: WebhookEvent = await client.webhooks.unwrap(
      body,
      await client.webhooks.sign(body, secret),
      secret,
    );
    if (parsed.event === 'risk.created') expect(parsed.data.riskId).to.equal(event.data.riskId);
    else expect.fail(`unexpected event ${parsed.event}`);
    await refused(webhooks.unwrap('not json', await webhooks.sign('not json', secret), secret), /not JSON/);
  });
});
