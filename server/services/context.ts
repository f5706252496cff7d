/**
 * What a service needs to know about the caller and its surroundings; services never see `req`/`res`.
 */
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { ZonedCalendar } from '../dates.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Database } from '../repositories/db.js';
import type { EventOutbox } from './webhooks/outbox.js';

/** Who is acting: the authenticated key's tenant, user and key, and the request id for the audit trail. */
export interface Actor {
  tenantId: string;
  userId: string | null;
  apiKeyId: string | null;
  requestId: string | null;
  /**
   * How the actor authenticated: `api_key`, or `console` (a console access token or a console session;
   * docs/accounts.md). Absent: `api_key` when `apiKeyId` is set, else the system.
   */
  via?: 'api_key' | 'console';
  /**
   * The tenant's IANA time zone when the caller already holds the tenant (an authenticated request does), so a
   * service need not read the tenant again in the same request (docs/design.md, The request pipeline: a request
   * reads its tenant once); absent → services read it.
   */
  timeZone?: string;
}

/** The database and the clock: what every service, and the entry points that build them, start from. */
export interface BaseDeps {
  db: Database;
  clock: Clock;
}

/**
 * Shared dependencies of every service, built once per app by `buildServices`: besides the database and clock,
 * the job queue, the event outbox, the tenants' calendar and the secret box (state that belongs to one app, so it
 * is injected, never module-level).
 */
export interface ServiceDeps extends BaseDeps {
  jobs: JobQueue;
  events: EventOutbox;
  /** Today in each tenant's time zone, one date formatter per zone for the whole app (server/dates.ts). */
  calendar: ZonedCalendar;
  /** Seals and opens secrets kept at rest (webhook signing secrets; docs/webhooks.md, "Events and webhooks"). */
  secrets: SecretBox;
}

/** An actor for work the system does on its own (CLI bootstrap, importer): no user, no key. */
export function systemActor(tenantId: string, requestId: string | null = null): Actor {
  return { tenantId, userId: null, apiKeyId: null, requestId };
}
