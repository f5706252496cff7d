/**
 * The rows behind a project's `team`: its allocations with their resource's name and role.
 */

import { type Executor, runSql, sqlOnce } from './sql.js';
import { compareKeys } from './values.js';

/** One allocation of a project, with the resource it allocates. */
export interface TeamAllocationRow {
  resourceId: string;
  resourceName: string;
  resourceRole: string | null;
  role: string | null;
  startDate: string;
  endDate: string;
  allocationPercent: number;
  createdAt: string;
}

/** The SQL of {@link teamAllocations} (built once): tenant and project bound. */
const teamSql = sqlOnce((db: Executor, tenantId: string, projectId: string) => {
  const resource = (field: string) =>
    db.raw(`(SELECT r.${field} FROM resources r WHERE r.id = a.resource_id AND r.tenant_id = a.tenant_id)`);
  return db('allocations as a')
    .where({ 'a.tenant_id': tenantId, 'a.project_id': projectId })
    .select(
      'a.id',
      'a.resource_id',
      resource('name').wrap('', ' AS resource_name'),
      resource('role').wrap('', ' AS resource_role'),
      'a.role',
      'a.start_date',
      'a.end_date',
      'a.allocation_percent',
      'a.created_at',
    );
});

/** Every allocation of the project (tenant-scoped), oldest start first. */
export async function teamAllocations(
  db: Executor,
  tenantId: string,
  projectId: string,
): Promise<TeamAllocationRow[]> {
  // The resource's fields by scalar subqueries and the order here, not a join and ORDER BY: SQLite re-plans a
  // join or an ordered statement with bound parameters on every run (≈ 23 µs against ≈ 10 µs;
  // bench/results/profiles.md).
  // A project has a handful of allocations; dates, instants and ids are ASCII, so JavaScript's string order is
  // SQLite's BINARY order.
  const rows = (await runSql(db, teamSql(db, tenantId, projectId), [tenantId, projectId])).sort((x, y) =>
    compareKeys(
      [x.start_date, x.created_at, x.id] as string[],
      [y.start_date, y.created_at, y.id] as string[],
    ),
  );
  return rows.map((row) => ({
    resourceId: row.resource_id as string,
    resourceName: row.resource_name as string,
    resourceRole: (row.resource_role as string | null) ?? null,
    role: (row.role as string | null) ?? null,
    startDate: row.start_date as string,
    endDate: row.end_date as string,
    allocationPercent: Number(row.allocation_percent),
    createdAt: row.created_at as string,
  }));
}
