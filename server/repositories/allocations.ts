/**
 * Allocations table: rows ⇄ the API's `Allocation`. Dates are inclusive `YYYY-MM-DD` text, so an allocation overlaps
 * [from, to] exactly when `end_date >= from AND start_date <= to` (text order is date order).
 */
import type { Knex } from 'knex';
import type { ListFilter, Schema } from '../schemas.js';
import type { Page, PageRequest } from './lists.js';
import { type SortField, sortOrder } from './lists.js';
import type { Executor } from './sql.js';
import { isPostgres } from './sql.js';
import { column, VersionedTable } from './versioned-table.js';

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

/**
 * Filters of GET /allocations: resourceId and projectId exact; from/to keep allocations overlapping the range;
 * `sort`, the order of a page (spec `AllocationSort`; default `createdAt`).
 */
export type AllocationFilter = ListFilter<'listAllocations'>;

/** What GET /allocations sorts by (spec `AllocationSort`), each served by an index. */
const ALLOCATION_SORTS: Record<string, SortField> = {
  createdAt: { sql: allocations.col('created_at') },
  startDate: { sql: allocations.col('start_date') },
};

function applyFilter(db: Executor, query: Knex.QueryBuilder, filter: AllocationFilter): void {
  allocations.whereEquals(query, {
    resource_id: filter.resourceId || undefined,
    project_id: filter.projectId || undefined,
    id: filter.id,
  });
  // On SQLite the date bounds are written `+column`, which keeps them out of index selection (the query planner's
  // documented way to disqualify a term): otherwise the (tenant, start_date, id) index of `sort=startDate` wins for
  // `start_date <= ?` and the rows are then sorted into the list's order, instead of walking the order's index
  // and filtering. Postgres has no unary + on text and plans by cost.
  const col = (name: string) => (isPostgres(db) ? name : `+${name}`);
  if (filter.from) query.andWhereRaw(`${col('end_date')} >= ?`, [filter.from]);
  if (filter.to) query.andWhereRaw(`${col('start_date')} <= ?`, [filter.to]);
}

/** A page of the tenant's allocations, ordered by `filter.sort` (createdAt by default) then id. */
export async function listAllocations(
  db: Executor,
  tenantId: string,
  filter: AllocationFilter,
  page: PageRequest,
): Promise<Page<AllocationRecord>> {
  return allocations.list(
    db,
    tenantId,
    page,
    (q) => applyFilter(db, q, filter),
    sortOrder(db, filter.sort ?? 'createdAt', ALLOCATION_SORTS, allocations.col('id')),
  );
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
  applyFilter(db, query, filter);
  const rows: Record<string, unknown>[] = await query.orderBy([
    { column: 'resource_id', order: 'asc' },
    { column: 'start_date', order: 'asc' },
    { column: 'id', order: 'asc' },
  ]);
  return rows.map(allocations.toRecord);
}
