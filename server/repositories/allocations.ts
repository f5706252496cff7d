/**
 * Allocations table: rows ⇄ the API's `Allocation`. Dates are inclusive `YYYY-MM-DD` text, so an allocation overlaps
 * [from, to] exactly when `end_date >= from AND start_date <= to` (text order is date order).
 */
import type { Knex } from 'knex';
import type { Schema } from '../schemas.js';
import type { Executor, Page, PageRequest } from './common.js';
import { column, VersionedTable } from './common.js';

/** An allocation as stored and as the API shows it. */
export type AllocationRecord = Schema<'Allocation'>;

/** The writable fields of an allocation. */
export type AllocationFields = Omit<AllocationRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

/** The allocations table. */
export const allocations = new VersionedTable<AllocationRecord, AllocationFields>({
  table: 'allocations',
  fields: {
    resourceId: column.text('resource_id'),
    projectId: column.text('project_id'),
    startDate: column.text('start_date'),
    endDate: column.text('end_date'),
    allocationPercent: column.number('allocation_percent'),
    role: column.optionalText('role'),
  },
});

/** Filters of GET /allocations: resourceId and projectId exact; from/to keep allocations overlapping the range. */
export interface AllocationFilter {
  resourceId?: string | undefined;
  projectId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function applyFilter(query: Knex.QueryBuilder, filter: AllocationFilter): void {
  allocations.whereEquals(query, {
    resource_id: filter.resourceId || undefined,
    project_id: filter.projectId || undefined,
  });
  if (filter.from) query.andWhere('end_date', '>=', filter.from);
  if (filter.to) query.andWhere('start_date', '<=', filter.to);
}

/** A page of the tenant's allocations, ordered by createdAt then id. */
export async function listAllocations(
  db: Executor,
  tenantId: string,
  filter: AllocationFilter,
  page: PageRequest,
): Promise<Page<AllocationRecord>> {
  return allocations.list(db, tenantId, page, (q) => applyFilter(q, filter));
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
  const query = allocations.query(db, tenantId);
  applyFilter(query, filter);
  const rows: Record<string, unknown>[] = await query.orderBy([
    { column: 'resource_id', order: 'asc' },
    { column: 'start_date', order: 'asc' },
    { column: 'id', order: 'asc' },
  ]);
  return rows.map(allocations.toRecord);
}
