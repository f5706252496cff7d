/**
 * Audit trail: every mutation appends one row, in its own transaction (DESIGN.md, Audit log).
 */
import { v7 as uuidv7 } from 'uuid';
import { type AuditEntry, appendAudit, type FieldChange } from '../repositories/audit.js';
import type { Executor } from '../repositories/common.js';
import type { Actor } from './context.js';

/**
 * The fields whose values differ between `before` and `after`, as `{ field: { from, to } }`. Values are
 * compared by their JSON text, so arrays and nulls compare by content.
 */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const key of Object.keys(after)) {
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
    actor: { userId: actor.userId, apiKeyId: actor.apiKeyId },
    action,
    resourceType,
    resourceId,
    changes,
    requestId: actor.requestId,
  };
  await appendAudit(trx, actor.tenantId, entry);
}
