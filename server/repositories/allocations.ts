/**
 * Allocations table. Maps rows to the API's `Allocation` shape. Dates are inclusive `YYYY-MM-DD` text, so an
 * allocation overlaps [from, to] exactly when `end_date >= from AND start_date <= to` (text order is date order).
 */
import type { Executor, Page, PageRequest } from './common.js';
import { paginate, toColumnValues, toNumberOrNull, updateVersionedRow } from './common.js';

/** An allocation as stored and as the API shows it. */
export interface AllocationRecord {
  id: string;
  resourceId: string;
  projectId: string;
  startDate: string;
  endDate: string;
  allocationPercent: number;
  role: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The writable columns of an allocation (camelCase). */
export type AllocationFields = Omit<AllocationRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

const COLUMNS: Record<keyof AllocationFields, string> = {
  resourceId: 'resource_id',
  projectId: 'project_id',
  startDate: 'start_date',
  endDate: 'end_date',
  allocationPercent: 'allocation_percent',
  role: 'role',
};

type AllocationRow = Record<string, unknown>;

function toRecord(row: AllocationRow): AllocationRecord {
  return {
    id: row.id as string,
    resourceId: row.resource_id as string,
    projectId: row.project_id as string,
    startDate: row.start_date as string,
    endDate: row.end_date as string,
    allocationPercent: toNumberOrNull(row.allocation_percent) ?? 0,
    role: (row.role as string | null) ?? null,
    version: Number(row.version),
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

function toColumns(fields: Partial<AllocationFields>): Record<string, unknown> {
  return toColumnValues(COLUMNS, fields);
}

/** Inserts an allocation; returns it as stored. */
export async function insertAllocation(
  db: Executor,
  tenantId: string,
  id: string,
  fields: AllocationFields,
  now: string,
): Promise<AllocationRecord> {
  await db('allocations').insert({
    id,
    tenant_id: tenantId,
    ...toColumns(fields),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const created = await findAllocation(db, tenantId, id);
  if (!created) throw new Error(`allocation ${id} vanished after insert`);
  return created;
}

/** One allocation of the tenant, or null. */
export async function findAllocation(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<AllocationRecord | null> {
  const row = (await db('allocations').where({ tenant_id: tenantId, id }).first()) as
    | AllocationRow
    | undefined;
  return row ? toRecord(row) : null;
}

/** Filters of GET /allocations: resourceId and projectId exact; from/to keep allocations overlapping the range. */
export interface AllocationFilter {
  resourceId?: string | undefined;
  projectId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function filtered(db: Executor, tenantId: string, filter: AllocationFilter) {
  const query = db('allocations').where('tenant_id', tenantId).select('*');
  if (filter.resourceId) query.andWhere('resource_id', filter.resourceId);
  if (filter.projectId) query.andWhere('project_id', filter.projectId);
  if (filter.from) query.andWhere('end_date', '>=', filter.from);
  if (filter.to) query.andWhere('start_date', '<=', filter.to);
  return query;
}

/** A page of the tenant's allocations, ordered by createdAt then id. */
export async function listAllocations(
  db: Executor,
  tenantId: string,
  filter: AllocationFilter,
  page: PageRequest,
): Promise<Page<AllocationRecord>> {
  return paginate<AllocationRow, AllocationRecord>(filtered(db, tenantId, filter), page, toRecord);
}

/**
 * Every allocation matching the filter, unpaginated, ordered by resource then start date (the input of the
 * conflict sweep and of availability; the sweep needs all of them at once).
 */
export async function listAllAllocations(
  db: Executor,
  tenantId: string,
  filter: AllocationFilter,
): Promise<AllocationRecord[]> {
  const rows: AllocationRow[] = await filtered(db, tenantId, filter).orderBy([
    { column: 'resource_id', order: 'asc' },
    { column: 'start_date', order: 'asc' },
    { column: 'id', order: 'asc' },
  ]);
  return rows.map(toRecord);
}

/** Writes the fields and bumps `version` if the stored version is still `expectedVersion`. */
export async function updateAllocation(
  db: Executor,
  tenantId: string,
  id: string,
  expectedVersion: number,
  fields: Partial<AllocationFields>,
  now: string,
): Promise<boolean> {
  return updateVersionedRow(db, 'allocations', tenantId, id, expectedVersion, toColumns(fields), now);
}

/** Deletes the allocation if the stored version is still `expectedVersion`; false when another write got there. */
export async function deleteAllocation(
  db: Executor,
  tenantId: string,
  id: string,
  expectedVersion: number,
): Promise<boolean> {
  const deleted = await db('allocations')
    .where({ tenant_id: tenantId, id, version: expectedVersion })
    .delete();
  return deleted === 1;
}
