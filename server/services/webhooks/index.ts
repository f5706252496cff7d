/**
 * Webhooks (docs/webhooks.md, "Events and webhooks"), one feature folder; Ghost's webhooks service index and
 * cal.com's `modules/webhooks/` are the models:
 *
 * - endpoints.ts: the webhook endpoint service (registration, changes, deletion, secret rotation, the deliveries
 *   list and test deliveries);
 * - outbox.ts: the transactional outbox (an event, its deliveries and their jobs in the change's transaction);
 * - deliveries.ts: delivery state as the delivery job settles it, the 5-day rule, endpoints disabled by Meridian;
 * - targets.ts: where webhooks may be sent (the address policy, at registration and in the connection's lookup);
 * - secrets.ts: the signing secrets sealed at rest (AES-256-GCM under MERIDIAN_SECRET_KEY) and their re-sealing;
 * - signing.ts, transport.ts, delivery-outcome.ts: the signature, one HTTP attempt, and what its answer means;
 * - delivery-job.ts: the `webhook.delivery` job kind (listed by server/jobs/registry.ts) and a runner of it alone.
 *
 * This module wires the parts for one app ({@link buildWebhooks}) and is what the rest of the server, the tests and
 * the benchmarks import. The services of other features emit events through ./outbox.ts, imported directly.
 */
import type { ServiceDeps } from '../context.js';
import { DeliveryService } from './deliveries.js';
import { WebhookService } from './endpoints.js';

export {
  DeliveryService,
  type DeliveryTarget,
  DISABLE_AFTER_FAILING_MS,
  failureWindow,
  type SettledAttempt,
  WEBHOOK_ENDPOINT,
} from './deliveries.js';
export {
  DELIVERY_RETENTION_MS,
  type DeliveryConfig,
  type DeliveryParts,
  DeliveryWorker,
  type DeliveryWorkerOptions,
  webhookDeliveryJob,
} from './delivery-job.js';
export {
  breakerDelayMs,
  type DeliveryOutcome,
  DISABLE_AFTER_TIMEOUTS,
  deliveryOutcome,
  MAX_BREAKER_DELAY_MS,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
  UNHEALTHY_AFTER_TIMEOUTS,
} from './delivery-outcome.js';
export {
  newSecret,
  SECRET_OVERLAP_MS,
  type WebhookCreateInput,
  WebhookService,
  type WebhookUpdateInput,
  type WebhookWithSecret,
} from './endpoints.js';
export { EventOutbox, type EventType, subscribes, WEBHOOK_DELIVERY_JOB } from './outbox.js';
export { openSecrets, type ResealReport, resealAllSecrets, sealSecret, secretContext } from './secrets.js';
export { signatureHeader } from './signing.js';
export {
  assertAllowedTarget,
  checkLiteralTarget,
  guardedLookup,
  RefusedTargetError,
  refusedAddress,
} from './targets.js';
export { type AttemptResponse, sendAttempt } from './transport.js';

/** The services of the webhooks feature in one app. */
export interface Webhooks {
  /** The webhook endpoint service (the Webhooks tag of the API). */
  webhooks: WebhookService;
  /** Delivery state for the delivery job kind. */
  deliveries: DeliveryService;
}

/**
 * Builds the webhook services of one app over its shared dependencies (the app's job queue and event outbox).
 * @param options.allowPrivate whether targets may resolve to private addresses (`MERIDIAN_WEBHOOK_ALLOW_PRIVATE`).
 */
export function buildWebhooks(deps: ServiceDeps, options: { allowPrivate: boolean }): Webhooks {
  return {
    webhooks: new WebhookService({ ...deps, allowPrivate: options.allowPrivate }),
    deliveries: new DeliveryService(deps),
  };
}
