/**
 * Standard Webhooks signing (docs/webhooks.md, Events and webhooks): the `webhook-signature` header of a delivery.
 */
import { createHmac } from 'node:crypto';
import type { DeliveryTarget } from './deliveries.js';

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>` with the key the
 * base64-decoded part of the `whsec_` secret; during a rotation's overlap a second, space-separated signature made
 * with the previous secret.
 * @param timestamp unix seconds (the `webhook-timestamp` header).
 */
export function signatureHeader(
  secrets: DeliveryTarget['secrets'],
  now: Date,
  msgId: string,
  timestamp: number,
  body: string,
): string {
  const sign = (secret: string) =>
    `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
      .update(`${msgId}.${timestamp}.${body}`)
      .digest('base64')}`;
  const signatures = [sign(secrets.secret)];
  if (
    secrets.previousSecret &&
    secrets.previousSecretExpiresAt &&
    secrets.previousSecretExpiresAt > now.toISOString()
  ) {
    signatures.push(sign(secrets.previousSecret));
  }
  return signatures.join(' ');
}
