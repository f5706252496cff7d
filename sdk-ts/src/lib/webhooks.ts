/**
 * Webhook verification per Standard Webhooks v1 (https://www.standardwebhooks.com/, the spec's "Webhooks" section):
 * `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")>`
 * entries, where the key is the base64-decoded part of the endpoint's `whsec_…` secret.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '../generated/webhooks.js';
import { WebhookVerificationError } from './errors.js';

/** Request headers as Node (`IncomingHttpHeaders`), Express or the Fetch API (`Headers`) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The raw request body, exactly as received: verify before any JSON parsing or re-serialising. */
export type WebhookBody = string | Uint8Array;

/** Options of {@link Webhooks.verify} and {@link Webhooks.unwrap}. */
export interface VerifyOptions {
  /** Largest accepted distance between `webhook-timestamp` and `now`, in seconds (default 300, the spec's 5 minutes). */
  toleranceSeconds?: number;
  /** The current time (a `Date` or milliseconds since the epoch); defaults to the clock. For tests. */
  now?: Date | number;
}

/** Default timestamp tolerance in seconds: Meridian's spec says to reject timestamps more than 5 minutes off. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Verifies and parses Meridian webhook deliveries. Use the `webhooks` instance exported by the package (also
 * `client.webhooks`); it needs no API key.
 */
export class Webhooks {
  /**
   * Checks a delivery's signature and timestamp.
   *
   * @param rawBody - the request body exactly as received (string or bytes).
   * @param headers - the request headers; `webhook-id`, `webhook-timestamp` and `webhook-signature` are read.
   * @param secret - the endpoint's secret, `whsec_<base64>` (the prefix is optional). During the 24 hours after a
   *   rotation Meridian sends two signatures; one matching either secret passes.
   * @throws {@link WebhookVerificationError} when a header is missing, the timestamp is more than
   *   `toleranceSeconds` from now (either way), the secret is not base64, or no `v1` signature matches
   *   (compared in constant time).
   */
  verify(rawBody: WebhookBody, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): void {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures) {
      throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
    }
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const nowMs = options.now === undefined ? Date.now() : Number(options.now);
    const nowSeconds = Math.floor(nowMs / 1000);
    const ts = Number(timestamp);
    if (ts < nowSeconds - tolerance) throw new WebhookVerificationError('webhook timestamp too old');
    if (ts > nowSeconds + tolerance) throw new WebhookVerificationError('webhook timestamp too new');

    const expected = hmac(secret, id, timestamp, rawBody);
    for (const entry of signatures.split(' ')) {
      const comma = entry.indexOf(',');
      if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
      const given = Buffer.from(entry.slice(comma + 1), 'base64');
      if (given.length === expected.length && timingSafeEqual(given, expected)) return;
    }
    throw new WebhookVerificationError('no matching webhook signature');
  }

  /**
   * Verifies a delivery (as {@link Webhooks.verify}) and returns its parsed payload, typed from the spec's
   * `webhooks` section as a union discriminated by `event`:
   *
   * ```ts
   * const event = webhooks.unwrap(rawBody, req.headers, process.env.MERIDIAN_WEBHOOK_SECRET!);
   * if (event.event === 'risk.created') console.log(event.data.risk.severity);
   * ```
   *
   * @throws {@link WebhookVerificationError} as `verify`, or when the body is not JSON.
   */
  unwrap(
    rawBody: WebhookBody,
    headers: WebhookHeaders,
    secret: string,
    options: VerifyOptions = {},
  ): WebhookEvent {
    this.verify(rawBody, headers, secret, options);
    const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
    try {
      return JSON.parse(text) as WebhookEvent;
    } catch (error) {
      throw new WebhookVerificationError('webhook body is not JSON', { cause: error });
    }
  }

  /**
   * Signs a payload as Meridian does: returns the three `webhook-*` headers. For testing your receiver.
   *
   * @param options.id - the event id (default: a random one); `options.timestamp` - Unix seconds (default: now).
   */
  sign(
    rawBody: WebhookBody,
    secret: string,
    options: { id?: string; timestamp?: number } = {},
  ): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
    const id = options.id ?? `msg_${randomUUID().replaceAll('-', '')}`;
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const signature = hmac(secret, id, timestamp, rawBody).toString('base64');
    return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
  }
}

/** The package's webhook helper (also reachable as `client.webhooks` and `Meridian.webhooks`). */
export const webhooks = new Webhooks();

function hmac(secret: string, id: string, timestamp: string, body: WebhookBody): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!encoded || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new WebhookVerificationError('webhook secret is not whsec_<base64>');
  }
  return createHmac('sha256', Buffer.from(encoded, 'base64'))
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest();
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || key.toLowerCase() !== name) continue;
    // Node joins repeated headers itself; an array (e.g. from a framework) holds separate values: join them as
    // the signature header's space-separated list.
    return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}
