/**
 * Import fingerprints: per (tenant, source), the fingerprint of the last data file imported completely
 * (docs/deploy.md, "Restarts").
 */
import type { Executor } from './sql.js';

/** The recorded fingerprint of `source` in the tenant, or null when none was recorded. */
export async function getImportFingerprint(
  db: Executor,
  tenantId: string,
  source: string,
): Promise<string | null> {
  const row = await db('import_fingerprints').where({ tenant_id: tenantId, source }).first();
  return row ? (row.fingerprint as string) : null;
}

/** Records `fingerprint` as the last complete import of `source` (insert or replace); `at` is an ISO instant. */
export async function setImportFingerprint(
  db: Executor,
  tenantId: string,
  source: string,
  fingerprint: string,
  at: string,
): Promise<void> {
  await db('import_fingerprints')
    .insert({ tenant_id: tenantId, source, fingerprint, imported_at: at })
    .onConflict(['tenant_id', 'source'])
    .merge({ fingerprint, imported_at: at });
}
