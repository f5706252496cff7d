/**
 * Audit log rows: appended in the transaction of the mutation they record; this module has no update or
 * delete path on purpose (append-only, docs/design.md).
 */
import type { ListFilter } from '../schemas.js';
import type { Page, PageRequest, SortField } from './lists.js';
import { paginate, sortOrder } from './lists.js';
import type { Executor } from './sql.js';
import { insertRow } from './sql.js';

/** One change of one field: its value before and after (any JSON value). */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** An audit-log entry as the API shows it. */
export interface AuditEntry {
  id: string;
  occurredAt: string;
  /** Who acted; `via` says how they authenticated (`api_key`, `console`) or null for the system. */
  actor: { userId: string | null; apiKeyId: string | null; via: 'api_key' | 'console' | null };
  action: string;
  resourceType: string;
  resourceId: string;
  changes: Record<string, FieldChange>;
  requestId: string | null;
}

/** Appends one audit row. */
export async function appendAudit(db: Executor, tenantId: string, entry: AuditEntry): Promise<void> {
  await insertRow(db, 'audit_logs', {
    id: entry.id,
    tenant_id: tenantId,
    occurred_at: entry.occurredAt,
    actor_user_id: entry.actor.userId,
    actor_api_key_id: entry.actor.apiKeyId,
    actor_via: entry.actor.via,
    action: entry.action,
    resource_type: entry.resourceType,
    resource_id: entry.resourceId,
    changes: JSON.stringify(entry.changes),
    request_id: entry.requestId,
  });
}

/** The audit rows of one record, oldest first (used by tests and, later, GET /audit-logs). */
export async function listAuditForResource(
  db: Executor,
  tenantId: string,
  resourceType: string,
  resourceId: string,
): Promise<AuditEntry[]> {
  const rows = await db('audit_logs')
    .where({ tenant_id: tenantId, resource_type: resourceType, resource_id: resourceId })
    .orderBy([{ column: 'occurred_at' }, { column: 'id' }]);
  return rows.map(toEntry);
}

/**
 * Filters of GET /audit-logs: exact matches; `actorId` matches the user or the key; since ≤ occurredAt < until;
 * `sort` `occurredAt` (oldest first, the default) or `-occurredAt` (newest first; spec `AuditLogSort`).
 */
export type AuditFilter = ListFilter<'listAuditLogs'>;

/** What GET /audit-logs sorts by: the (tenant, occurred_at, id) index, walked either way. */
const AUDIT_SORTS: Record<string, SortField> = { occurredAt: { sql: 'occurred_at' } };

function toEntry(row: Record<string, unknown>): AuditEntry {
  return {
    id: row.id as string,
    occurredAt: row.occurred_at as string,
    actor: {
      userId: (row.actor_user_id as string | null) ?? null,
      apiKeyId: (row.actor_api_key_id as string | null) ?? null,
      // Rows written before `actor_via` existed were all written with keys (or by the system).
      via: (row.actor_via as 'api_key' | 'console' | null) ?? (row.actor_api_key_id ? 'api_key' : null),
    },
    action: row.action as string,
    resourceType: row.resource_type as string,
    resourceId: row.resource_id as string,
    changes: JSON.parse(row.changes as string) as Record<string, FieldChange>,
    requestId: (row.request_id as string | null) ?? null,
  };
}

/** A page of the tenant's audit entries, ordered by occurredAt then id (ascending, or descending for `-occurredAt`). */
export async function listAudit(
  db: Executor,
  tenantId: string,
  filter: AuditFilter,
  page: PageRequest,
): Promise<Page<AuditEntry>> {
  const query = db('audit_logs').where('tenant_id', tenantId).select('*');
  if (filter.action) query.andWhere('action', filter.action);
  if (filter.resourceType) query.andWhere('resource_type', filter.resourceType);
  if (filter.resourceId) query.andWhere('resource_id', filter.resourceId);
  if (filter.actorId) {
    const actorId = filter.actorId;
    query.andWhere((q) => q.where('actor_user_id', actorId).orWhere('actor_api_key_id', actorId));
  }
  // Instants are stored as ISO-8601 UTC text of one fixed shape, so text comparison is time comparison.
  if (filter.since) query.andWhere('occurred_at', '>=', filter.since);
  if (filter.until) query.andWhere('occurred_at', '<', filter.until);
  return paginate(query, page, toEntry, sortOrder(db, filter.sort ?? 'occurredAt', AUDIT_SORTS, 'id'));
}
