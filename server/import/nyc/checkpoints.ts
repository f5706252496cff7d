/**
 * The NYC importer's checkpoints (docs/resources.md, Status reports: exactly once): per tenant and PID, the date of
 * the last report applied, written in the transaction of the row that applied it, so a rerun skips every row at or
 * before it. The store is injected ({@link CheckpointStore}); the crash test injects one that fails between a
 * report and its checkpoint.
 */
import { getCheckpoint, setCheckpoint } from '../../repositories/checkpoints.js';
import type { Executor } from '../../repositories/sql.js';

/** The checkpoint source of this dataset (per tenant and PID code). */
export const NYC_SOURCE = 'nyc-capital-projects';

/** Reads and writes the per-PID checkpoint; injected so a test can fail between a report and its checkpoint. */
export interface CheckpointStore {
  get(db: Executor, tenantId: string, source: string, externalId: string): Promise<string | null>;
  /** Called inside the row's transaction, after its report is stored. */
  set(db: Executor, tenantId: string, source: string, externalId: string, reportedOn: string): Promise<void>;
}

/** The checkpoints table (server/repositories/checkpoints.ts). */
export const checkpointTable: CheckpointStore = { get: getCheckpoint, set: setCheckpoint };
