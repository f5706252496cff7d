/**
 * The rows behind a project's `team`: its allocations with their resource's name and role.
 */
import type { Executor } from './common.js';

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

/** Every allocation of the project (tenant-scoped), oldest start first. */
export async function teamAllocations(
  db: Executor,
  tenantId: string,
  projectId: string,
): Promise<TeamAllocationRow[]> {
  const rows = (await db('allocations as a')
    .join('resources as r', function joinResource() {
      this.on('r.id', '=', 'a.resource_id').andOn('r.tenant_id', '=', 'a.tenant_id');
    })
    .where({ 'a.tenant_id': tenantId, 'a.project_id': projectId })
    .orderBy([{ column: 'a.start_date' }, { column: 'a.created_at' }, { column: 'a.id' }])
    .select(
      'a.resource_id',
      'r.name as resource_name',
      'r.role as resource_role',
      'a.role',
      'a.start_date',
      'a.end_date',
      'a.allocation_percent',
      'a.created_at',
    )) as Record<string, unknown>[];
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
