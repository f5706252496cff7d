/**
 * Webhook endpoints (docs/webhooks.md, "Events and webhooks"): registration, changes, deletion, secret rotation, the
 * deliveries list and test deliveries. Where targets may point is ./targets.ts; the fan-out of events to deliveries
 * is ./outbox.ts; delivery state as the delivery job settles it is ./deliveries.ts.
 */
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Page, PageRequest } from '../../repositories/lists.js';
import type { Executor } from '../../repositories/sql.js';
import {
  type DeliveryRecord,
  findDelivery,
  listDeliveries,
  pendingDeliveryIds,
  reopenDelivery,
} from '../../repositories/webhook-deliveries.js';
import {
  currentSecret,
  healthOf,
  storedSecrets,
  type WebhookEndpointFields,
  type WebhookEndpointRecord,
  webhookEndpoints,
} from '../../repositories/webhook-endpoints.js';
import type { ListFilter, Schema } from '../../schemas.js';
import { recordAudit } from '../audit.js';
import { checkIfMatch } from '../concurrency.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import {
  createRecord,
  deleteRecord,
  getRecord,
  inWrite,
  updateRecord,
  type WriteContext,
} from '../versioned.js';
import { failPending, WEBHOOK_ENDPOINT as WEBHOOK } from './deliveries.js';
import { UNHEALTHY_AFTER_TIMEOUTS } from './delivery-outcome.js';
import { WEBHOOK_DELIVERY_JOB } from './outbox.js';
import { openSecrets, type ResealReport, resealAllSecrets, sealSecret } from './secrets.js';
import { assertAllowedTarget } from './targets.js';

type WebhookEventFilter = Schema<'WebhookEventFilter'>;

/** How long the previous secret stays valid after a rotation (spec: rotateWebhookSecret). */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Body of POST /webhooks (spec `WebhookEndpointCreate`). */
export type WebhookCreateInput = Schema<'WebhookEndpointCreate'>;

/** Body of PATCH /webhooks/{id} (spec `WebhookEndpointUpdate`). */
export type WebhookUpdateInput = Schema<'WebhookEndpointUpdate'>;

/** An endpoint's current secret revealed on demand (spec `WebhookSecret`). */
export type RevealedSecret = Schema<'WebhookSecret'>;

/** An endpoint with its secret: the answer of create and rotate, the only two that show it. */
export type WebhookWithSecret = Schema<'WebhookEndpointWithSecret'>;

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks; spec: 24–64 bytes). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A `*` filter stands for every kind: store it alone. */
function normaliseEvents(events: WebhookEventFilter[]): WebhookEventFilter[] {
  return events.includes('*') ? ['*'] : events;
}

/** An endpoint as the API shows it: its record and its `health`. */
export type WebhookEndpoint = Schema<'WebhookEndpoint'>;

/** The health of an endpoint no delivery has been attempted to. */
const NO_ATTEMPTS: Schema<'WebhookEndpointHealth'> = {
  lastAttemptAt: null,
  lastAttemptSucceeded: null,
  lastResponseStatus: null,
  consecutiveFailures: 0,
  failingSince: null,
  unhealthy: false,
};

/**
 * Endpoints with their `health` (docs/webhooks.md, "Endpoint health"), read in one statement: `unhealthy` from
 * {@link UNHEALTHY_AFTER_TIMEOUTS} attempts in a row that timed out (the circuit breaker).
 */
async function withHealth(db: Executor, records: WebhookEndpointRecord[]): Promise<WebhookEndpoint[]> {
  const stored = await healthOf(
    db,
    records.map((r) => r.id),
  );
  return records.map((record) => {
    const h = stored.get(record.id);
    if (!h) return { ...record, health: NO_ATTEMPTS };
    const { timeoutStreak, ...shown } = h;
    return { ...record, health: { ...shown, unhealthy: timeoutStreak >= UNHEALTHY_AFTER_TIMEOUTS } };
  });
}

/** One endpoint with its `health`. */
async function oneWithHealth(db: Executor, record: WebhookEndpointRecord): Promise<WebhookEndpoint> {
  const [webhook] = await withHealth(db, [record]);
  return webhook ?? { ...record, health: NO_ATTEMPTS };
}

/** Webhook endpoint use cases. */
export class WebhookService {
  private readonly deps: ServiceDeps;
  private readonly policy: { allowPrivate: boolean };

  /**
   * @param options.allowPrivate whether targets may resolve to private addresses (`MERIDIAN_WEBHOOK_ALLOW_PRIVATE`).
   */
  constructor(options: ServiceDeps & { allowPrivate: boolean }) {
    this.deps = options;
    this.policy = { allowPrivate: options.allowPrivate };
  }

  /** @throws AppError 422 for a refused URL. */
  async create(actor: Actor, input: WebhookCreateInput): Promise<WebhookWithSecret> {
    // DNS outside the transaction: the SQLite pool has one connection, never hold it while resolving.
    await assertAllowedTarget(input.url, this.policy.allowPrivate);
    const secret = newSecret();
    const fields: WebhookEndpointFields = {
      url: input.url,
      description: input.description ?? null,
      events: normaliseEvents(input.events),
      enabled: input.enabled ?? true,
      disabledReason: null,
    };
    // The secret is a hidden column: never in the record, so never in an audit row (readable by every admin key);
    // stored sealed under MERIDIAN_SECRET_KEY (./secrets.ts).
    const id = uuidv7();
    const sealed = sealSecret(this.deps.secrets, id, secret);
    const webhook = await inWrite(this.deps, actor, (w) =>
      createRecord(w, WEBHOOK, id, fields, { secret: sealed }),
    );
    return { ...webhook, health: NO_ATTEMPTS, secret };
  }

  /** @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<WebhookEndpoint> {
    return oneWithHealth(this.deps.db.knex, await getRecord(this.deps.db.knex, actor, WEBHOOK, id));
  }

  /** A page of the tenant's endpoints, each with its health. */
  async list(actor: Actor, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    const found = await webhookEndpoints.list(this.deps.db.knex, actor.tenantId, page);
    return { ...found, items: await withHealth(this.deps.db.knex, found.items) };
  }

  /**
   * Partial update. `enabled: true` re-enables (clearing `disabledReason` and the failure window); disabling
   * fails the endpoint's pending deliveries (spec `WebhookDeliveryStatus`).
   * @throws AppError 404; 412 If-Match mismatch; 422 refused URL; 409 concurrent write.
   */
  async update(
    actor: Actor,
    id: string,
    input: WebhookUpdateInput,
    ifMatch?: string,
  ): Promise<WebhookEndpoint> {
    if (input.url !== undefined) {
      // 404 and 412 come before the (slow) address check.
      const current = await this.get(actor, id);
      checkIfMatch(ifMatch, current.version);
      await assertAllowedTarget(input.url, this.policy.allowPrivate);
    }
    return inWrite(this.deps, actor, async (w) => {
      const { before, after, changed } = await updateRecord(w, WEBHOOK, {
        id,
        ifMatch,
        apply: (current) => {
          const next = webhookEndpoints.fieldsOf(current);
          if (input.url !== undefined) next.url = input.url;
          if (input.description !== undefined) next.description = input.description;
          if (input.events !== undefined) next.events = normaliseEvents(input.events);
          if (input.enabled !== undefined) {
            next.enabled = input.enabled;
            if (input.enabled) next.disabledReason = null;
          }
          return next;
        },
        // Re-enabling restarts the 5-day failure window and the circuit breaker's count.
        hidden: (was, next) =>
          !was.enabled && next.enabled ? { failing_since: null, timeout_streak: 0, failure_streak: 0 } : {},
      });
      if (changed && before.enabled && !after.enabled) await failPending(w.trx, this.deps.jobs, id, w.now);
      return oneWithHealth(w.trx, after);
    });
  }

  /** Deletes an endpoint; its pending deliveries (and their jobs) go with it. @throws AppError 404; 412; 409. */
  async delete(actor: Actor, id: string, ifMatch?: string): Promise<void> {
    await inWrite(this.deps, actor, async (w) => {
      // The deliveries go by ON DELETE CASCADE; their jobs live in the jobs table and are cancelled here.
      const pending = await pendingDeliveryIds(w.trx, id);
      await deleteRecord(w, WEBHOOK, id, ifMatch);
      await this.deps.jobs.cancel(w.trx, WEBHOOK_DELIVERY_JOB, pending);
    });
  }

  /**
   * Issues a new secret; the previous one keeps signing (as a second signature) for 24 hours.
   * @throws AppError 404; 409 concurrent write.
   */
  async rotateSecret(actor: Actor, id: string): Promise<WebhookWithSecret> {
    const expiresAt = new Date(this.deps.clock.now().getTime() + SECRET_OVERLAP_MS).toISOString();
    const secret = newSecret();
    return inWrite(this.deps, actor, async (w: WriteContext) => {
      const { after } = await updateRecord(w, WEBHOOK, {
        id,
        apply: (current) => webhookEndpoints.fieldsOf(current),
        // The stored current secret becomes the previous one as it is (sealed for this very row).
        hidden: async () => ({
          previous_secret: await currentSecret(w.trx, actor.tenantId, id),
          previous_secret_expires_at: expiresAt,
          secret: sealSecret(this.deps.secrets, id, secret),
        }),
        audit: {
          action: 'webhook.secret_rotated',
          changes: { previousSecretExpiresAt: { from: null, to: expiresAt } },
        },
      });
      return { ...(await oneWithHealth(w.trx, after)), secret };
    });
  }

  /**
   * GET /webhooks/{id}/secret (docs/webhooks.md, "Events and webhooks": "Revealing a secret"): the current secret,
   * opened from its sealed storage, and when the previous one stops signing (null when none signs any more).
   * Audited as `webhook.secret_revealed` on the endpoint, in the transaction that reads it; the audit row holds no
   * secret. The secret is never logged.
   * @throws AppError 404 for an unknown endpoint; Error when the secret is sealed under a key not configured.
   */
  async revealSecret(actor: Actor, id: string): Promise<RevealedSecret> {
    return inWrite(this.deps, actor, async ({ trx, now }) => {
      const stored = await storedSecrets(trx, actor.tenantId, id);
      if (!stored) throw notFound('webhook endpoint', id);
      const { secret } = openSecrets(this.deps.secrets, id, { ...stored, previousSecret: null });
      const expiresAt = stored.previousSecretExpiresAt;
      const previousSecretExpiresAt =
        stored.previousSecret !== null && expiresAt !== null && expiresAt > now ? expiresAt : null;
      await recordAudit(trx, actor, now, 'webhook.secret_revealed', 'webhook', id, {});
      return { webhookId: id, secret, previousSecretExpiresAt };
    });
  }

  /**
   * Seals every tenant's endpoint secrets under the current key (`npm run cli -- secrets rotate`; ./secrets.ts).
   * @throws Error when a secret is sealed under a key that is not configured.
   */
  resealSecrets(): Promise<ResealReport> {
    return resealAllSecrets(this.deps);
  }

  /** A page of an endpoint's deliveries with their attempts. @throws AppError 404. */
  async deliveries(
    actor: Actor,
    id: string,
    filter: ListFilter<'listWebhookDeliveries'>,
    page: PageRequest,
  ): Promise<Page<DeliveryRecord>> {
    await this.get(actor, id);
    return listDeliveries(this.deps.db.knex, actor.tenantId, id, filter, page);
  }

  /**
   * Queues a signed `project.status_changed` delivery with sample data to this endpoint only, whatever its
   * filter. @throws AppError 404; 409 when the endpoint is disabled.
   */
  async sendTest(actor: Actor, id: string): Promise<DeliveryRecord> {
    return inWrite(this.deps, actor, async ({ trx, now }) => {
      const webhook = await getRecord(trx, actor, WEBHOOK, id);
      if (!webhook.enabled) {
        throw new AppError(
          'conflict',
          'The webhook endpoint is disabled; re-enable it with PATCH { "enabled": true } first.',
        );
      }
      const eventId = uuidv7();
      const payload = JSON.stringify({
        id: eventId,
        event: 'project.status_changed',
        tenantId: actor.tenantId,
        timestamp: now,
        data: sampleStatusChange(now),
      });
      const deliveryId = uuidv7();
      await this.deps.events.queue(trx, [
        {
          id: deliveryId,
          tenantId: actor.tenantId,
          webhookId: id,
          eventId,
          eventType: 'project.status_changed',
          payload,
          nextAttemptAt: now,
          createdAt: now,
        },
      ]);
      return (await findDelivery(trx, actor.tenantId, deliveryId)) as DeliveryRecord;
    });
  }

  /**
   * POST /webhooks/{id}/deliveries/{deliveryId}/resend: the delivery becomes PENDING with a new attempt due now
   * (a scheduled retry is replaced), signed when it is sent with the endpoint's secrets of that moment. Audited as
   * `webhook.delivery_resent` on the endpoint.
   * @throws AppError 404 for an unknown endpoint or a delivery not of this endpoint; 409 when the endpoint is
   *   disabled.
   */
  async resendDelivery(actor: Actor, id: string, deliveryId: string): Promise<DeliveryRecord> {
    return inWrite(this.deps, actor, async ({ trx, now }) => {
      const webhook = await getRecord(trx, actor, WEBHOOK, id);
      const delivery = await findDelivery(trx, actor.tenantId, deliveryId);
      if (!delivery || delivery.webhookId !== id) throw notFound('webhook delivery', deliveryId);
      if (!webhook.enabled) {
        throw new AppError(
          'conflict',
          'The webhook endpoint is disabled; re-enable it with PATCH { "enabled": true } first.',
        );
      }
      await reopenDelivery(trx, deliveryId, now);
      await this.deps.events.requeue(trx, { id: deliveryId, tenantId: actor.tenantId, webhookId: id }, now);
      await recordAudit(trx, actor, now, 'webhook.delivery_resent', 'webhook', id, {
        deliveryId: { from: null, to: deliveryId },
        status: { from: delivery.status, to: 'PENDING' },
      });
      return (await findDelivery(trx, actor.tenantId, deliveryId)) as DeliveryRecord;
    });
  }
}

/** The sample `data` of a test delivery: a made-up project moving from ON_TRACK to AT_RISK. */
function sampleStatusChange(now: string): Record<string, unknown> {
  const projectId = '00000000-0000-7000-8000-000000000000';
  return {
    projectId,
    previousStatus: 'ON_TRACK',
    status: 'AT_RISK',
    project: {
      id: projectId,
      code: 'TEST-0001',
      name: 'Sample project (test delivery from POST /webhooks/{id}/test)',
      description: 'Sample data: this project does not exist.',
      status: 'AT_RISK',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      forecastEndDate: '2027-02-28',
      budget: 1000000,
      forecastCost: 1100000,
      actualCost: 400000,
      currency: 'USD',
      projectManagerId: null,
      progress: 40,
      tags: ['sample'],
      version: 2,
      createdAt: now,
      updatedAt: now,
    },
  };
}
