/**
 * Over-allocation conflicts (spec `listAllocationConflicts`; docs/design.md, Resources): pure functions, no database.
 *
 * A conflict is a maximal period in which one resource's overlapping allocations sum to more than 100 %. A new
 * period starts whenever the set of overlapping allocations changes, so two adjacent conflicts never have the same
 * set. Computed with a sweep over interval endpoints: each allocation gives a +percent event on its start day and a
 * −percent event on the day after its end (dates are inclusive), the events are sorted, and the running total is
 * read between consecutive event days. Cost O(n log n) in the number of allocations plus the size of the output,
 * never proportional to the number of days spanned.
 */
import { dateOf, dayNumber } from './availability.js';

/** An allocation as the sweep needs it (spec `ConflictingAllocation` plus its resource). */
export interface SweepAllocation {
  id: string;
  resourceId: string;
  projectId: string;
  startDate: string;
  endDate: string;
  allocationPercent: number;
}

/** One allocation involved in a conflict (spec `ConflictingAllocation`): whole dates, not clipped. */
export interface ConflictingAllocation {
  allocationId: string;
  projectId: string;
  allocationPercent: number;
  startDate: string;
  endDate: string;
}

/** A maximal over-allocated period of one resource (spec `AllocationConflict`). */
export interface AllocationConflict {
  resourceId: string;
  startDate: string;
  endDate: string;
  totalPercent: number;
  excessPercent: number;
  allocations: ConflictingAllocation[];
}

/** Optional clipping window: only periods overlapping [from, to], clipped to it. */
export interface ConflictWindow {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * Percentages are summed as integers of millionths of a percent, so that 33.3 + 33.4 + 33.3 is exactly 100 (no
 * conflict) however the events are ordered; allocationPercent has at most a few decimals in practice.
 */
const SCALE = 1_000_000;
const LIMIT = 100 * SCALE;

interface Event {
  day: number;
  delta: number;
  index: number;
}

function involved(a: SweepAllocation): ConflictingAllocation {
  return {
    allocationId: a.id,
    projectId: a.projectId,
    allocationPercent: a.allocationPercent,
    startDate: a.startDate,
    endDate: a.endDate,
  };
}

/** The conflicts of one resource's allocations, ordered by startDate. */
function sweepResource(
  resourceId: string,
  allocations: readonly SweepAllocation[],
  windowFirst: number,
  windowLast: number,
): AllocationConflict[] {
  const events: Event[] = [];
  allocations.forEach((a, index) => {
    const first = dayNumber(a.startDate);
    const last = dayNumber(a.endDate);
    if (last < windowFirst || first > windowLast) return;
    const scaled = Math.round(a.allocationPercent * SCALE);
    events.push({ day: first, delta: scaled, index }, { day: last + 1, delta: -scaled, index });
  });
  events.sort((x, y) => x.day - y.day);

  const out: AllocationConflict[] = [];
  const active = new Set<number>();
  let total = 0;
  for (let i = 0; i < events.length; ) {
    const day = (events[i] as Event).day;
    // Apply every event of this day before reading the total: an allocation ending on the 10th (event on the
    // 11th) and one starting on the 11th never count together.
    for (; i < events.length && (events[i] as Event).day === day; i++) {
      const e = events[i] as Event;
      total += e.delta;
      if (e.delta > 0) active.add(e.index);
      else active.delete(e.index);
    }
    if (total <= LIMIT || i >= events.length) continue;
    const start = Math.max(day, windowFirst);
    const end = Math.min((events[i] as Event).day - 1, windowLast);
    if (end < start) continue;
    const list = [...active]
      .map((index) => allocations[index] as SweepAllocation)
      .sort((x, y) =>
        x.startDate < y.startDate
          ? -1
          : x.startDate > y.startDate
            ? 1
            : x.id < y.id
              ? -1
              : x.id > y.id
                ? 1
                : 0,
      );
    out.push({
      resourceId,
      startDate: dateOf(start),
      endDate: dateOf(end),
      totalPercent: total / SCALE,
      excessPercent: (total - LIMIT) / SCALE,
      allocations: list.map(involved),
    });
  }
  return out;
}

/**
 * Every maximal period in which one resource's overlapping allocations sum above 100 %, ordered by resourceId then
 * startDate, clipped to the window. A resource at exactly 100 % has no conflict.
 */
export function findConflicts(
  allocations: readonly SweepAllocation[],
  window: ConflictWindow = {},
): AllocationConflict[] {
  const windowFirst = window.from ? dayNumber(window.from) : Number.NEGATIVE_INFINITY;
  const windowLast = window.to ? dayNumber(window.to) : Number.POSITIVE_INFINITY;
  const byResource = new Map<string, SweepAllocation[]>();
  for (const a of allocations) {
    const list = byResource.get(a.resourceId);
    if (list) list.push(a);
    else byResource.set(a.resourceId, [a]);
  }
  const out: AllocationConflict[] = [];
  for (const resourceId of [...byResource.keys()].sort()) {
    out.push(...sweepResource(resourceId, byResource.get(resourceId) ?? [], windowFirst, windowLast));
  }
  return out;
}
