/**
 * Allocation conflicts: the sweep over interval endpoints (server/services/allocation-conflicts.ts) against the
 * day-by-day application of the definition, on the same allocations in the same run. The issue asks that the sweep's
 * cost grow with the number of allocations, not with the number of days: the second case spans ten times the days of
 * the first with the same allocations, the third has ten times the allocations of the second.
 */
import { Bench } from 'tinybench';
import { dateOf, dayNumber } from '../server/dates.js';
import { findConflicts, type SweepAllocation } from '../server/services/allocation-conflicts.js';

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same input. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function allocations(count: number, resources: number, spanDays: number): SweepAllocation[] {
  const random = rng(42);
  const first = dayNumber('2026-01-01');
  return Array.from({ length: count }, (_, i) => {
    const start = first + Math.floor(random() * spanDays);
    const length = 5 + Math.floor(random() * 60);
    return {
      id: `a${i}`,
      resourceId: `r${i % resources}`,
      projectId: `p${i % 37}`,
      startDate: dateOf(start),
      endDate: dateOf(start + length),
      allocationPercent: 10 + Math.floor(random() * 60),
    };
  });
}

/**
 * The baseline: the definition applied day by day. For each resource and each day of its span, the allocations
 * active that day; consecutive over-booked days with the same set of allocations form one conflict. Same output
 * as the sweep (checked in test/unit/allocation-conflicts.test.ts against the same definition), cost proportional to days.
 */
function dayByDay(input: readonly SweepAllocation[]): { resourceId: string; first: number; last: number; ids: string }[] {
  const byResource = new Map<string, { id: string; first: number; last: number; pct: number }[]>();
  for (const a of input) {
    const list = byResource.get(a.resourceId) ?? [];
    list.push({ id: a.id, first: dayNumber(a.startDate), last: dayNumber(a.endDate), pct: a.allocationPercent });
    byResource.set(a.resourceId, list);
  }
  const out: { resourceId: string; first: number; last: number; ids: string }[] = [];
  for (const [resourceId, list] of byResource) {
    const from = Math.min(...list.map((a) => a.first));
    const to = Math.max(...list.map((a) => a.last));
    let open: { resourceId: string; first: number; last: number; ids: string } | null = null;
    for (let day = from; day <= to; day++) {
      let total = 0;
      const ids: string[] = [];
      for (const a of list) {
        if (a.first <= day && day <= a.last) {
          total += a.pct;
          ids.push(a.id);
        }
      }
      const key = ids.join(',');
      if (total > 100 && open && open.ids === key) open.last = day;
      else if (total > 100) out.push((open = { resourceId, first: day, last: day, ids: key }));
      else open = null;
    }
  }
  return out;
}

/** Runs the cases; returns one row per case with the sweep's and the baseline's mean time and their ratio. */
export async function benchConflicts(): Promise<Record<string, string | number>[]> {
  const rows: Record<string, string | number>[] = [];
  for (const [label, input] of [
    ['2,000 allocations, 50 people, 1 year', allocations(2_000, 50, 365)],
    ['2,000 allocations, 50 people, 10 years', allocations(2_000, 50, 3_650)],
    ['20,000 allocations, 500 people, 10 years', allocations(20_000, 500, 3_650)],
  ] as const) {
    const bench = new Bench({ time: 400, warmupTime: 100 });
    bench.add('sweep', () => {
      findConflicts(input);
    });
    bench.add('day-by-day', () => {
      dayByDay(input);
    });
    await bench.run();
    const [sweep, scan] = bench.tasks.map(
      (t) => (t.result as { latency?: { mean: number } } | undefined)?.latency?.mean ?? Number.NaN,
    );
    rows.push({
      case: label,
      'sweep ms': Number((sweep as number).toFixed(3)),
      'day-by-day ms': Number((scan as number).toFixed(3)),
      'day-by-day / sweep': Number(((scan as number) / (sweep as number)).toFixed(1)),
    });
  }
  return rows;
}
