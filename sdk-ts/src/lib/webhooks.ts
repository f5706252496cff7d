/**
 * Webhook verification per Standard Webhooks v1 (https://www.standardwebhooks.com/, the spec's "Webhooks" section):
 * `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")>`
 * entries, where the key is the base64-decoded part of the endpoint's `whsec_…` secret.
 *
 * Built on the Web Crypto API (`globalThis.crypto.subtle`), which Node.js 20+, Deno, Bun and browsers all have, so the
 * helpers are asynchronous; `crypto.subtle.verify` compares signatures in constant time.
 */
import type { WebhookEvent } from '../generated/webhooks.js';
import { WebhookVerificationError } from './errors.js';
import { uuid } from './runtime.js';

/** Request headers as Node (`IncomingHttpHeaders`), Express or the Fetch API (`Headers`) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The raw request body, exactly as received: verify before any JSON parsing or re-serialising. */
export type WebhookBody = string | Uint8Array;

/** Options of {@link verifyWebhook} and {@link unwrapWebhook}. */
export interface VerifyOptions {
  /** Largest accepted distance between `webhook-timestamp` and `now`, in seconds (default 300, the spec's 5 minutes). */
  toleranceSeconds?: number;
  /** The current time (a `Date` or milliseconds since the epoch); defaults to the clock. For tests. */
  now?: Date | number;
}

/** The three headers of a signed delivery (accepted as they are by `verify` and `unwrap`). */
export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** Default timestamp tolerance in seconds: Meridian's spec says to reject timestamps more than 5 minutes off. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

/**
 * Checks a delivery's signature and timestamp.
 *
 * @param rawBody - the request body exactly as received (string or bytes).
 * @param headers - the request headers; `webhook-id`, `webhook-timestamp` and `webhook-signature` are read.
 * @param secret - the endpoint's secret, `whsec_<base64>` (the prefix is optional). During the 24 hours after a
 *   rotation Meridian sends two signatures; one matching either secret passes.
 * @throws {@link WebhookVerificationError} (the promise rejects) when a header is missing, the timestamp is more
 *   than `toleranceSeconds` from now (either way), the secret is not base64, or no `v1` signature matches.
 */
export async function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<void> {
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

  const key = await hmacKey(secret, 'verify');
  const signed = signedContent(id, timestamp, rawBody);
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = fromBase64(entry.slice(comma + 1));
    if (given && (await globalThis.crypto.subtle.verify('HMAC', key, given, signed))) return;
  }
  throw new WebhookVerificationError('no matching webhook signature');
}

/**
 * Verifies a delivery (as {@link verifyWebhook}) and returns its parsed payload, typed from the spec's `webhooks`
 * section as a union discriminated by `event`:
 *
 * ```ts
 * const event = await client.webhooks.unwrap(rawBody, req.headers, process.env.MERIDIAN_WEBHOOK_SECRET!);
 * if (event.event === 'risk.created') console.log(event.data.risk.severity);
 * ```
 *
 * @throws {@link WebhookVerificationError} as `verifyWebhook`, or when the body is not JSON.
 */
export async function unwrapWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  await verifyWebhook(rawBody, headers, secret, options);
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  try {
    return JSON.parse(text) as WebhookEvent;
  } catch (error) {
    throw new WebhookVerificationError('webhook body is not JSON', { cause: error });
  }
}

/**
 * Signs a payload as Meridian does and returns the three `webhook-*` headers. For testing your receiver.
 *
 * @param options.id - the event id (default: a random one); `options.timestamp` - Unix seconds (default: now).
 * @throws {@link WebhookVerificationError} when the secret is not `whsec_<base64>`.
 */
export async function signWebhook(
  rawBody: WebhookBody,
  secret: string,
  options: { id?: string; timestamp?: number } = {},
): Promise<WebhookSignatureHeaders> {
  const id = options.id ?? `msg_${uuid().replaceAll('-', '')}`;
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const key = await hmacKey(secret, 'sign');
  const mac = await globalThis.crypto.subtle.sign('HMAC', key, signedContent(id, timestamp, rawBody));
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${toBase64(mac)}` };
}

/**
 * The webhook helpers as one object (also `client.webhooks.verify/unwrap/sign`, beside the webhook endpoint
 * operations); they need no API key and make no request.
 */
export const webhooks = { verify: verifyWebhook, unwrap: unwrapWebhook, sign: signWebhook } as const;

/** The HMAC-SHA256 key of a `whsec_<base64>` secret. */
function hmacKey(secret: string, use: 'sign' | 'verify') {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const raw = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? fromBase64(encoded) : undefined;
  if (!raw || raw.length === 0) {
    return Promise.reject(new WebhookVerificationError('webhook secret is not whsec_<base64>'));
  }
  return globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [use]);
}

/** `"{id}.{timestamp}.{body}"` as bytes, the body untouched. */
function signedContent(id: string, timestamp: string, body: WebhookBody): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const out = new Uint8Array(prefix.length + bytes.length);
  out.set(prefix);
  out.set(bytes, prefix.length);
  return out;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function toBase64(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)));
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
