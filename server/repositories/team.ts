/**
 * The rows behind a project's `team`: its allocations with their resource's name and role.
 */

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

/**
 * Allocation rows (as ./project-detail.ts names them) as team
 * rows, oldest start first. A project has a handful of allocations; dates, instants and ids are ASCII, so
 * JavaScript's string order is SQLite's BINARY order.
 */
export function toTeamAllocations(rows: Record<string, unknown>[]): TeamAllocationRow[] {
  const sorted = [...rows].sort((x, y) =>
    compareKeys(
      [x.start_date, x.created_at, x.id] as string[],
      [y.start_date, y.created_at, y.id] as string[],
    ),
  );
  return sorted.map((row) => ({
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
