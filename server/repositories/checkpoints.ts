/**
 * Import checkpoints: the last report date applied per (tenant, source, external id).
 */
import type { Executor } from './sql.js';

/** The date (`YYYY-MM-DD`) of the last applied report, or null. */
export async function getCheckpoint(
  db: Executor,
  tenantId: string,
  source: string,
  externalId: string,
): Promise<string | null> {
  const row = await db('import_checkpoints')
    .where({ tenant_id: tenantId, source, external_id: externalId })
    .first();
  return row ? (row.last_reported_on as string) : null;
}

/** Records the date of the last applied report (insert or update). */
export async function setCheckpoint(
  db: Executor,
  tenantId: string,
  source: string,
  externalId: string,
  reportedOn: string,
): Promise<void> {
  await db('import_checkpoints')
    .insert({ tenant_id: tenantId, source, external_id: externalId, last_reported_on: reportedOn })
    .onConflict(['tenant_id', 'source', 'external_id'])
    .merge({ last_reported_on: reportedOn });
}
