/**
 * A project's team (spec `TeamMember`): its allocations aggregated per resource.
 */
import type { TeamAllocationRow } from '../repositories/team.js';

/** One member of the team. */
export interface TeamMember {
  resourceId: string;
  name: string;
  /** The role of the latest allocation (by start date), else the resource's own role, else null. */
  role: string | null;
  /** Sum of the member's allocations to the project that are active on `today` (0 when none is). */
  allocationPercent: number;
  /** Earliest start and latest end of the member's allocations to the project. */
  startDate: string;
  endDate: string;
}

/**
 * Aggregates allocations (ordered by start date) into team members, ordered by name then resource id.
 * @param today `YYYY-MM-DD` in the tenant's time zone.
 */
export function teamOf(rows: readonly TeamAllocationRow[], today: string): TeamMember[] {
  const byResource = new Map<string, TeamMember>();
  for (const row of rows) {
    const active = row.startDate <= today && today <= row.endDate ? row.allocationPercent : 0;
    const member = byResource.get(row.resourceId);
    if (!member) {
      byResource.set(row.resourceId, {
        resourceId: row.resourceId,
        name: row.resourceName,
        role: row.role ?? row.resourceRole,
        allocationPercent: active,
        startDate: row.startDate,
        endDate: row.endDate,
      });
      continue;
    }
    member.allocationPercent += active;
    if (row.endDate > member.endDate) member.endDate = row.endDate;
    // Rows come by start date, so a later row is the latest allocation.
    member.role = row.role ?? row.resourceRole;
  }
  return [...byResource.values()]
    .map((m) => ({ ...m, allocationPercent: Math.round(m.allocationPercent * 100) / 100 }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.resourceId.localeCompare(b.resourceId));
}
