/**
 * The outbox table: one row per event, written in the transaction of the change that caused it.
 */
import type { Executor } from './sql.js';
import { insertRow } from './sql.js';

/** An event as stored: the delivered JSON body is `payload`, byte for byte. */
export interface EventRecord {
  id: string;
  tenantId: string;
  type: string;
  payload: string;
  occurredAt: string;
}

/** Appends an event. */
export async function insertEvent(db: Executor, event: EventRecord): Promise<void> {
  await insertRow(db, 'events', {
    id: event.id,
    tenant_id: event.tenantId,
    type: event.type,
    payload: event.payload,
    occurred_at: event.occurredAt,
  });
}

/** The tenant's events of one type, oldest first (tests and, later, event listings). */
export async function listEvents(db: Executor, tenantId: string, type?: string): Promise<EventRecord[]> {
  const query = db('events').where({ tenant_id: tenantId });
  if (type) query.andWhere({ type });
  const rows = (await query.orderBy([{ column: 'occurred_at' }, { column: 'id' }])) as Record<
    string,
    string
  >[];
  return rows.map((r) => ({
    id: r.id as string,
    tenantId: r.tenant_id as string,
    type: r.type as string,
    payload: r.payload as string,
    occurredAt: r.occurred_at as string,
  }));
}
