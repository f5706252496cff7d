/**
 * Webhook endpoints (DESIGN.md, Events and webhooks; issue 5): registration, changes, secret rotation, test
 * deliveries, the fan-out of outbox events to deliveries, and the target-address policy shared with the worker.
 */
import { randomBytes } from 'node:crypto';
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { v7 as uuidv7 } from 'uuid';
import type { Executor, Page, PageRequest } from '../repositories/common.js';
import type { EventRecord } from '../repositories/events.js';
import {
  currentSecret,
  type DeliveryRecord,
  type DeliveryStatus,
  enabledWebhooks,
  failPendingDeliveries,
  findDelivery,
  insertDeliveries,
  listDeliveries,
  type WebhookEndpointFields,
  type WebhookEndpointRecord,
  webhookEndpoints,
} from '../repositories/webhooks.js';
import type { Schema } from '../schemas.js';
import { checkIfMatch } from './concurrency.js';
import { type Actor, type ServiceDeps, systemActor } from './context.js';
import { AppError, businessRule } from './errors.js';
import { setDeliveryEnqueuer } from './events.js';
import {
  createRecord,
  deleteRecord,
  getRecord,
  inWrite,
  updateRecord,
  type VersionedKind,
  type WriteContext,
} from './versioned.js';

type WebhookEventFilter = Schema<'WebhookEventFilter'>;

const WEBHOOK: VersionedKind<WebhookEndpointRecord, WebhookEndpointFields> = {
  table: webhookEndpoints,
  resourceType: 'webhook',
  noun: 'webhook endpoint',
};

/** How long the previous secret stays valid after a rotation (spec: rotateWebhookSecret). */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Body of POST /webhooks (spec `WebhookEndpointCreate`). */
export type WebhookCreateInput = Schema<'WebhookEndpointCreate'>;

/** Body of PATCH /webhooks/{id} (spec `WebhookEndpointUpdate`). */
export type WebhookUpdateInput = Schema<'WebhookEndpointUpdate'>;

/** An endpoint with its secret: the answer of create and rotate, the only two that show it. */
export type WebhookWithSecret = Schema<'WebhookEndpointWithSecret'>;

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks; spec: 24–64 bytes). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

// ---------------------------------------------------------------------------------------------- target policy

/**
 * Why an address may not be a webhook target, or null when it may. Only globally routable unicast addresses
 * pass: loopback, private (RFC 1918), link-local (169.254.0.0/16, so the cloud metadata address 169.254.169.254),
 * unique-local (fc00::/7, so fd00:ec2::254), CGNAT (100.64.0.0/10), unspecified, multicast, broadcast, reserved,
 * and the IPv6 forms that embed an IPv4 address (mapped, 6to4, Teredo, NAT64) are refused. IPv4-mapped IPv6
 * addresses are judged as the IPv4 address they carry. Classification by `ipaddr.js`.
 */
export function refusedAddress(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'not an IP address';
  }
  const range = ip.range();
  return range === 'unicast' ? null : range;
}

/** Thrown when a target resolves to an address the policy refuses (carried into the attempt's `error`). */
export class RefusedTargetError extends Error {
  readonly code = 'EREFUSEDTARGET';
}

/**
 * The refusal, without the address or its range: a tenant must not learn how internal names resolve (the detail
 * goes to the server log at delivery time, never into API answers).
 */
function refusedMessage(host: string): string {
  return `${host} does not resolve to public addresses only; webhook targets must be public`;
}

/**
 * A `lookup` for node:http(s) that refuses hosts resolving (any of their addresses) to a refused address: the
 * delivery-time check runs in the very lookup the connection uses, so DNS rebinding between a check and the
 * connect cannot get through.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, '', 0);
      return;
    }
    for (const { address } of addresses) {
      const range = refusedAddress(address);
      if (range) {
        callback(new RefusedTargetError(refusedMessage(hostname)), '', 0);
        return;
      }
    }
    const [first] = addresses;
    if (!first)
      callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    else if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  });
};

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Delivery-time check of a URL whose host is an IP literal (no lookup happens for those).
 * @throws RefusedTargetError when refused.
 */
export function checkLiteralTarget(url: URL, allowPrivate: boolean): void {
  if (allowPrivate) return;
  if (url.protocol !== 'https:') throw new RefusedTargetError('plain http targets are not allowed');
  const host = hostOf(url);
  if (!ipaddr.isValid(host)) return;
  const range = refusedAddress(host);
  if (range) throw new RefusedTargetError(refusedMessage(host));
}

const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * The registration-time check of a target URL (create and PATCH): https (http only when private targets are
 * allowed), and a host whose every address is public unless private targets are allowed.
 * @throws AppError 422 `validation_failed` naming `/url`.
 */
export async function assertAllowedTarget(raw: string, allowPrivate: boolean): Promise<void> {
  const refuse = (message: string) => businessRule(message, [{ location: 'body', path: '/url', message }]);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('url is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('url must use https.');
  if (allowPrivate) return;
  if (url.protocol !== 'https:') throw refuse('url must use https.');
  const host = hostOf(url);
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      const found = await Promise.race([
        dns.promises.lookup(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS).unref(),
        ),
      ]);
      addresses = found.map((a) => a.address);
    } catch {
      // The same answer as for a private address: whether an internal name exists is not for tenants to learn.
      throw refuse(`url ${refusedMessage(host)}.`);
    }
  }
  if (addresses.some((address) => refusedAddress(address) !== null))
    throw refuse(`url ${refusedMessage(host)}.`);
}

// ---------------------------------------------------------------------------------------------- fan-out

type Wake = () => void;
const wakeups = new Set<Wake>();

/** Subscribes an in-process worker to "deliveries were queued" (after the queuing transaction commits). */
export function onDeliveriesQueued(wake: Wake): () => void {
  wakeups.add(wake);
  return () => wakeups.delete(wake);
}

function wakeAfterCommit(trx: Executor): void {
  const wakeAll = () => {
    for (const wake of wakeups) wake();
  };
  const committed = (trx as { executionPromise?: Promise<unknown> }).executionPromise;
  // A rolled-back transaction queued nothing: the rejection is the caller's to handle, not ours.
  if (committed) committed.then(wakeAll, () => undefined);
  else wakeAll();
}

/** Whether an endpoint's `events` filter takes an event kind. */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/**
 * The outbox fan-out (registered with `setDeliveryEnqueuer`): one PENDING delivery, due at once, per enabled
 * endpoint of the event's tenant that subscribes to its kind, in the transaction that writes the event.
 */
export async function enqueueDeliveries(trx: Executor, event: EventRecord): Promise<void> {
  const endpoints = (await enabledWebhooks(trx, event.tenantId)).filter((w) =>
    subscribes(w.events, event.type),
  );
  if (endpoints.length === 0) return;
  await insertDeliveries(
    trx,
    endpoints.map((w) => ({
      id: uuidv7(),
      tenantId: event.tenantId,
      webhookId: w.id,
      eventId: event.id,
      eventType: event.type,
      payload: null,
      nextAttemptAt: event.occurredAt,
      createdAt: event.occurredAt,
    })),
  );
  wakeAfterCommit(trx);
}

// The enqueuer is stateless (everything it needs is in the transaction and the event), so registering it when
// this module loads is safe however many apps a process builds.
setDeliveryEnqueuer(enqueueDeliveries);

/**
 * Disables an endpoint on Meridian's own initiative (410 Gone, 5 days of failures) and fails its pending
 * deliveries, in the caller's transaction; audited as `webhook.updated` by the system. No-op when already disabled.
 */
export async function disableEndpoint(
  trx: Executor,
  tenantId: string,
  webhookId: string,
  reason: string,
  now: string,
): Promise<void> {
  const { changed } = await updateRecord({ trx, actor: systemActor(tenantId), now }, WEBHOOK, {
    id: webhookId,
    apply: (current) => {
      const fields = webhookEndpoints.fieldsOf(current);
      return current.enabled ? { ...fields, enabled: false, disabledReason: reason } : fields;
    },
  }).catch((err: unknown) => {
    // Deleted meanwhile: nothing left to disable.
    if (err instanceof AppError && err.code === 'not_found') return { changed: false };
    throw err;
  });
  if (changed) await failPendingDeliveries(trx, webhookId, now);
}

// ---------------------------------------------------------------------------------------------- service

/** A `*` filter stands for every kind: store it alone. */
function normaliseEvents(events: WebhookEventFilter[]): WebhookEventFilter[] {
  return events.includes('*') ? ['*'] : events;
}

/** Webhook endpoint use cases. */
export class WebhookService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly policy: { allowPrivate: boolean },
  ) {}

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
    // The secret is a hidden column: never in the record, so never in an audit row (readable by every admin key).
    const webhook = await inWrite(this.deps, actor, (w) =>
      createRecord(w, WEBHOOK, uuidv7(), fields, { secret }),
    );
    return { ...webhook, secret };
  }

  /** @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<WebhookEndpointRecord> {
    return getRecord(this.deps.db.knex, actor, WEBHOOK, id);
  }

  /** A page of the tenant's endpoints. */
  async list(actor: Actor, page: PageRequest): Promise<Page<WebhookEndpointRecord>> {
    return webhookEndpoints.list(this.deps.db.knex, actor.tenantId, page);
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
  ): Promise<WebhookEndpointRecord> {
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
        // Re-enabling restarts the 5-day failure window.
        hidden: (was, next) => (!was.enabled && next.enabled ? { failing_since: null } : {}),
      });
      if (changed && before.enabled && !after.enabled) await failPendingDeliveries(w.trx, id, w.now);
      return after;
    });
  }

  /** Deletes an endpoint; its pending deliveries go with it. @throws AppError 404; 412; 409. */
  async delete(actor: Actor, id: string, ifMatch?: string): Promise<void> {
    await inWrite(this.deps, actor, (w) => deleteRecord(w, WEBHOOK, id, ifMatch));
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
        hidden: async () => ({
          previous_secret: await currentSecret(w.trx, actor.tenantId, id),
          previous_secret_expires_at: expiresAt,
          secret,
        }),
        audit: {
          action: 'webhook.secret_rotated',
          changes: { previousSecretExpiresAt: { from: null, to: expiresAt } },
        },
      });
      return { ...after, secret };
    });
  }

  /** A page of an endpoint's deliveries with their attempts. @throws AppError 404. */
  async deliveries(
    actor: Actor,
    id: string,
    filter: { status?: DeliveryStatus | undefined },
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
      await insertDeliveries(trx, [
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
      wakeAfterCommit(trx);
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
