/**
 * `resource-capacity` (docs/agents.md, Agents): over-allocated people and periods (the conflicts service's sweep,
 * ../../conflicts.ts, the same as GET /allocations/conflicts) and utilisation per person and per role over the
 * horizon: allocated working days ÷ available working days × 100. Inactive people are left out.
 */
import { dayNumber } from '../../../dates.js';
import { type AllocationConflict, findConflicts } from '../../allocation-conflicts.js';
import { workingDaysIn } from '../../availability.js';
import type { CitationBuilder } from '../citations.js';
import { percent, plural, round } from '../measures.js';
import type { AllocationFacts, Portfolio, ResourceFacts } from '../portfolio.js';
import { type AnalysisResult, type Draft, listing, projectIndex, renderFindings, top } from './shared.js';

/** Utilisation below which a person counts as under-utilised (%). */
export const UNDER_UTILISED = 50;

/** A person's load over the horizon. */
export interface Load {
  id: string;
  resource: ResourceFacts;
  allocations: AllocationFacts[];
  /** Allocated working days (Σ percent × overlapping working days ÷ 100). */
  allocatedDays: number;
  /** Working days in the horizon. */
  availableDays: number;
  utilisation: number;
  /** The highest total allocation (%) on any day of the horizon; null without allocations. */
  peak: number | null;
  conflicts: AllocationConflict[];
}

/** The highest total of overlapping allocations on any day of [first, last] (day numbers); null for none. */
function peakOf(allocations: readonly AllocationFacts[], first: number, last: number): number | null {
  const events: [number, number][] = [];
  for (const a of allocations) {
    const from = Math.max(first, dayNumber(a.startDate));
    const to = Math.min(last, dayNumber(a.endDate));
    if (to < from) continue;
    events.push([from, a.allocationPercent], [to + 1, -a.allocationPercent]);
  }
  if (events.length === 0) return null;
  // Ends before starts on the same day: an allocation ending on the 10th and one starting on the 11th never overlap.
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let total = 0;
  let peak = 0;
  for (const [, delta] of events) {
    total += delta;
    peak = Math.max(peak, total);
  }
  return peak;
}

/**
 * Each active person's load over the horizon and the over-allocation conflicts within it (clipped to it). Pure;
 * used by portfolio-health and the status report too.
 */
export function loadsOf(portfolio: Portfolio): Load[] {
  const first = dayNumber(portfolio.horizon.from);
  const last = dayNumber(portfolio.horizon.to);
  const available = workingDaysIn(first, last);
  const active = [...portfolio.resources.values()]
    .filter((r) => r.active)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const activeIds = new Set(active.map((r) => r.id));
  const byResource = new Map<string, AllocationFacts[]>();
  for (const a of portfolio.allocations) {
    if (!activeIds.has(a.resourceId)) continue;
    const list = byResource.get(a.resourceId) ?? [];
    list.push(a);
    byResource.set(a.resourceId, list);
  }
  const conflicts = findConflicts([...byResource.values()].flat(), {
    from: portfolio.horizon.from,
    to: portfolio.horizon.to,
  });
  const conflictsOf = new Map<string, AllocationConflict[]>();
  for (const c of conflicts) {
    const list = conflictsOf.get(c.resourceId) ?? [];
    list.push(c);
    conflictsOf.set(c.resourceId, list);
  }
  return active.map((resource) => {
    const allocations = byResource.get(resource.id) ?? [];
    let allocatedDays = 0;
    for (const a of allocations) {
      const days = workingDaysIn(
        Math.max(first, dayNumber(a.startDate)),
        Math.min(last, dayNumber(a.endDate)),
      );
      allocatedDays += (a.allocationPercent * days) / 100;
    }
    return {
      id: resource.id,
      resource,
      allocations,
      allocatedDays,
      availableDays: available,
      utilisation: available > 0 ? (allocatedDays / available) * 100 : 0,
      peak: peakOf(allocations, first, last),
      conflicts: conflictsOf.get(resource.id) ?? [],
    };
  });
}

/** The resource-capacity analysis. */
export function resourceCapacity(portfolio: Portfolio, cite: CitationBuilder): AnalysisResult {
  const { depth } = portfolio;
  const projects = projectIndex(portfolio);
  const projectName = (id: string) => projects.get(id)?.name ?? 'another project';
  const loads = loadsOf(portfolio);
  const over = loads.filter((l) => l.conflicts.length > 0);
  const periods = over.reduce((s, l) => s + l.conflicts.length, 0);
  const peakAll = loads.reduce<number | null>(
    (m, l) => (l.peak === null ? m : Math.max(m ?? 0, l.peak)),
    null,
  );
  const allocated = loads.filter((l) => l.allocatedDays > 0);
  const totalAllocated = loads.reduce((s, l) => s + l.allocatedDays, 0);
  const totalAvailable = loads.reduce((s, l) => s + l.availableDays, 0);
  const under = loads.filter((l) => l.utilisation < UNDER_UTILISED);
  const roles = new Map<string, Load[]>();
  for (const l of loads) {
    const role = l.resource.role ?? 'unassigned';
    const list = roles.get(role) ?? [];
    list.push(l);
    roles.set(role, list);
  }
  const averageUtilisation = totalAvailable > 0 ? round((totalAllocated / totalAvailable) * 100, 1) : null;
  const metrics: Record<string, number | null> = {
    horizonDays: portfolio.horizon.days,
    resources: loads.length,
    allocatedResources: allocated.length,
    overAllocatedResources: over.length,
    overAllocationPeriods: periods,
    peakAllocationPercent: peakAll === null ? null : round(peakAll, 2),
    averageUtilisation,
    underUtilisedResources: under.length,
    roles: roles.size,
  };
  const window = `${portfolio.horizon.from} to ${portfolio.horizon.to}`;
  const base =
    `${plural(loads.length, 'person', 'people')} over ${window}: ${over.length} over-allocated in ${plural(periods, 'period')}` +
    `${peakAll !== null && over.length > 0 ? ` (peak ${round(peakAll, 1)} %)` : ''}; average utilisation ` +
    `${averageUtilisation === null ? 'unknown' : percent(averageUtilisation)}; ${under.length} below ${UNDER_UTILISED} %`;
  if (depth === 'quick') return { summary: `${base}.`, findings: [], metrics };
  const worst = top(over, (l) => Math.max(...l.conflicts.map((c) => c.totalPercent)), 3);
  const summary =
    base +
    (worst.length > 0
      ? `. Most over-allocated: ${listing(
          worst.map(
            (l) =>
              `${l.resource.name} ${round(Math.max(...l.conflicts.map((c) => c.totalPercent)), 1)} % ${cite.cite(personSource(l))}`,
          ),
        )}.`
      : '.');

  function personSource(l: Load) {
    return {
      type: 'resource' as const,
      id: l.resource.id,
      title: l.resource.name,
      excerpt: `role ${l.resource.role ?? 'unassigned'}; utilisation ${percent(l.utilisation)} from ${window}`,
    };
  }
  const allocationSource = (a: AllocationFacts) => ({
    type: 'allocation' as const,
    id: a.id,
    title: `${projectName(a.projectId)} allocation`,
    field: 'allocationPercent',
    excerpt: `${a.allocationPercent} % from ${a.startDate} to ${a.endDate}`,
  });

  const drafts: Draft[] = [];
  for (const l of over) {
    const peakOf = Math.max(...l.conflicts.map((c) => c.totalPercent));
    const byId = new Map(l.allocations.map((a) => [a.id, a]));
    const shown = l.conflicts.slice(0, 3);
    drafts.push({
      severity: peakOf >= 150 ? 'HIGH' : 'MEDIUM',
      category: 'capacity',
      title: `${l.resource.name} is over-allocated (up to ${round(peakOf, 1)} %)`,
      recommendation:
        'Rebalance: move or shorten one of the overlapping allocations, or add a person with the same role.',
      rank: peakOf,
      key: l.id,
      detail: (g) =>
        `${l.resource.name} ${g.cite(personSource(l))}: ${listing(
          shown.map(
            (c) =>
              `${c.startDate} to ${c.endDate} at ${round(c.totalPercent, 1)} % (${listing(
                c.allocations.map((x) => {
                  const a = byId.get(x.allocationId);
                  return `${projectName(x.projectId)} ${x.allocationPercent} %${a ? ` ${g.cite(allocationSource(a))}` : ''}`;
                }),
              )})`,
          ),
        )}${l.conflicts.length > shown.length ? `, and ${l.conflicts.length - shown.length} more periods` : ''}.`,
    });
  }
  if (roles.size > 0) {
    const ordered = [...roles.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    drafts.push({
      severity: 'INFO',
      category: 'capacity',
      title: `Utilisation by role over ${window}`,
      recommendation:
        'Hire or re-assign where a role runs above 100 %; free capacity where it runs below 50 %.',
      rank: roles.size,
      key: 'roles',
      detail: (g) =>
        `${listing(
          ordered.map(([role, people]) => {
            const allocatedDays = people.reduce((s, l) => s + l.allocatedDays, 0);
            const availableDays = people.reduce((s, l) => s + l.availableDays, 0);
            const busiest = top(people, (l) => l.utilisation, 1)[0] as Load;
            return `${role} ${percent(availableDays > 0 ? (allocatedDays / availableDays) * 100 : 0)} over ${plural(people.length, 'person', 'people')} (busiest ${busiest.resource.name} ${percent(busiest.utilisation)} ${g.cite(personSource(busiest))})`;
          }),
        )}.`,
    });
  }
  if (depth === 'deep' && under.length > 0) {
    const shown = top(under, (l) => -l.utilisation, 10);
    drafts.push({
      severity: 'INFO',
      category: 'capacity',
      title: `${plural(under.length, 'person', 'people')} below ${UNDER_UTILISED} % utilisation`,
      recommendation:
        'Offer their capacity to the over-allocated roles or to projects that are short of people.',
      rank: under.length,
      key: 'under',
      detail: (g) =>
        `${listing(shown.map((l) => `${l.resource.name} ${percent(l.utilisation)} ${g.cite(personSource(l))}`))}${
          under.length > shown.length ? `, and ${under.length - shown.length} more` : ''
        }.`,
    });
  }
  return { summary, findings: renderFindings(cite, drafts), metrics };
}
