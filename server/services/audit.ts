/**
 * Audit trail: every mutation appends one row, in its own transaction (docs/design.md, Audit log).
 */
import { v7 as uuidv7 } from 'uuid';
import {
  type AuditEntry,
  type AuditFilter,
  appendAudit,
  type FieldChange,
  listAudit,
} from '../repositories/audit.js';
import type { Page, PageRequest } from '../repositories/lists.js';
import type { Executor } from '../repositories/sql.js';
import type { Actor, ServiceDeps } from './context.js';
import { instantInput } from './instants.js';

/**
 * The fields whose values differ between `before` and `after`, as `{ field: { from, to } }`; a field missing on
 * one side counts as null (so `diff({}, x)` records a creation and `diff(x, {})` a deletion). Values are compared
 * by their JSON text, so arrays and nulls compare by content.
 */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}

/** Appends the audit row of one mutation, with the actor and request id. */
export async function recordAudit(
  trx: Executor,
  actor: Actor,
  occurredAt: string,
  action: string,
  resourceType: string,
  resourceId: string,
  changes: Record<string, FieldChange>,
): Promise<void> {
  const entry: AuditEntry = {
    id: uuidv7(),
    occurredAt,
    actor: {
      userId: actor.userId,
      apiKeyId: actor.apiKeyId,
      via: actor.via ?? (actor.apiKeyId === null ? null : 'api_key'),
    },
    action,
    resourceType,
    resourceId,
    changes,
    requestId: actor.requestId,
  };
  await appendAudit(trx, actor.tenantId, entry);
}

/** Reads the audit log (GET /audit-logs). */
export class AuditLogService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * A page of the tenant's audit entries, oldest first. `since`/`until` are RFC 3339 instants in any offset;
   * they are normalised to UTC so the comparison with stored instants is exact (since inclusive, until exclusive).
   */
  async list(actor: Actor, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEntry>> {
    const utc = (instant: string | undefined, name: string) =>
      instant === undefined ? undefined : instantInput(instant, { location: 'query', path: name });
    return listAudit(
      this.deps.db.knex,
      actor.tenantId,
      { ...filter, since: utc(filter.since, 'since'), until: utc(filter.until, 'until') },
      page,
    );
  }
}
