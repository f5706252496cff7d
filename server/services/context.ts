/**
 * What a service needs to know about the caller and its surroundings; services never see `req`/`res`.
 */
import type { Clock } from '../clock.js';
import type { Database } from '../repositories/db.js';

/** Who is acting: the authenticated key's tenant, user and key, and the request id for the audit trail. */
export interface Actor {
  tenantId: string;
  userId: string | null;
  apiKeyId: string | null;
  requestId: string | null;
}

/** Shared dependencies of every service. */
export interface ServiceDeps {
  db: Database;
  clock: Clock;
}

/** An actor for work the system does on its own (CLI bootstrap, importer): no user, no key. */
export function systemActor(tenantId: string, requestId: string | null = null): Actor {
  return { tenantId, userId: null, apiKeyId: null, requestId };
}
