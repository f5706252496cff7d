/**
 * Unit tests of the over-allocation sweep with hand-computed periods (spec `listAllocationConflicts`).
 */
import { expect } from 'chai';
import { dateOf, dayNumber } from '../../server/dates.js';
import {
  type AllocationConflict,
  findConflicts,
  type SweepAllocation,
} from '../../server/services/allocation-conflicts.js';

const R1 = '00000000-0000-7000-8000-000000000001';
const R2 = '00000000-0000-7000-8000-000000000002';

let seq = 0;
/** An allocation of `resourceId` in June 2026 from day `from` to day `to` (inclusive). */
function alloc(resourceId: string, from: number, to: number, percent: number, id?: string): SweepAllocation {
  seq++;
  return {
    id: id ?? `a${String(seq).padStart(4, '0')}`,
    resourceId,
    projectId: `p${seq}`,
    startDate: `2026-06-${String(from).padStart(2, '0')}`,
    endDate: `2026-06-${String(to).padStart(2, '0')}`,
    allocationPercent: percent,
  };
}

/** A conflict as `start..end total excess [ids]` for compact expectations. */
function brief(c: AllocationConflict): string {
  return `${c.startDate.slice(8)}..${c.endDate.slice(8)} ${c.totalPercent} +${c.excessPercent} [${c.allocations
    .map((a) => a.allocationId)
    .join(',')}]`;
}

describe('conflicts: the sweep (hand-computed)', () => {
  it('finds nothing for touching intervals: one ends on the 10th, the other starts on the 11th', () => {
    expect(findConflicts([alloc(R1, 1, 10, 60), alloc(R1, 11, 20, 50)])).to.deep.equal([]);
  });

  it('finds the 10th alone when both intervals include the 10th', () => {
    const a = alloc(R1, 1, 10, 60, 'A');
    const b = alloc(R1, 10, 20, 50, 'B');
    expect(findConflicts([b, a])).to.deep.equal([
      {
        resourceId: R1,
        startDate: '2026-06-10',
        endDate: '2026-06-10',
        totalPercent: 110,
        excessPercent: 10,
        allocations: [
          {
            allocationId: 'A',
            projectId: a.projectId,
            allocationPercent: 60,
            startDate: '2026-06-01',
            endDate: '2026-06-10',
          },
          {
            allocationId: 'B',
            projectId: b.projectId,
            allocationPercent: 50,
            startDate: '2026-06-10',
            endDate: '2026-06-20',
          },
        ],
      },
    ]);
  });

  it('finds the overlap of an allocation nested in another', () => {
    const out = findConflicts([alloc(R1, 1, 30, 80, 'A'), alloc(R1, 10, 15, 40, 'B')]);
    expect(out.map(brief)).to.deep.equal(['10..15 120 +20 [A,B]']);
  });

  it('splits a three-way overlap into maximal periods with different totals', () => {
    // A 60 % 1–30, B 50 % 5–20, C 30 % 10–25, D 20 % 21–22:
    // 1–4 60 | 5–9 110 {A,B} | 10–20 140 {A,B,C} | 21–22 110 {A,C,D} | 23–25 90 | 26–30 60
    const input = [
      alloc(R1, 1, 30, 60, 'A'),
      alloc(R1, 5, 20, 50, 'B'),
      alloc(R1, 10, 25, 30, 'C'),
      alloc(R1, 21, 22, 20, 'D'),
    ];
    expect(findConflicts(input).map(brief)).to.deep.equal([
      '05..09 110 +10 [A,B]',
      '10..20 140 +40 [A,B,C]',
      '21..22 110 +10 [A,C,D]',
    ]);
  });

  it('keeps adjacent periods with the same total apart when their allocations differ', () => {
    const input = [alloc(R1, 1, 10, 60, 'A'), alloc(R1, 1, 5, 50, 'B'), alloc(R1, 6, 10, 50, 'C')];
    expect(findConflicts(input).map(brief)).to.deep.equal(['01..05 110 +10 [A,B]', '06..10 110 +10 [A,C]']);
  });

  it('finds no conflict for a resource at exactly 100 %, including 33.3 + 33.4 + 33.3', () => {
    expect(findConflicts([alloc(R1, 1, 30, 60), alloc(R1, 1, 30, 40)])).to.deep.equal([]);
    expect(
      findConflicts([alloc(R1, 1, 30, 33.3), alloc(R1, 1, 30, 33.4), alloc(R1, 1, 30, 33.3)]),
    ).to.deep.equal([]);
    expect(findConflicts([alloc(R1, 1, 30, 100)])).to.deep.equal([]);
    const tiny = findConflicts([alloc(R1, 1, 30, 60.1, 'A'), alloc(R1, 1, 30, 40, 'B')]);
    expect(tiny.map(brief)).to.deep.equal(['01..30 100.1 +0.1 [A,B]']);
  });

  it('treats two resources independently and orders by resourceId, then startDate', () => {
    // Same dates and percentages on both resources: R1's pair sums to 100, R2's to 110.
    const input = [
      alloc(R2, 15, 20, 60, 'E'),
      alloc(R2, 1, 5, 60, 'C'),
      alloc(R1, 1, 5, 60, 'A'),
      alloc(R2, 15, 20, 50, 'F'),
      alloc(R1, 1, 5, 40, 'B'),
      alloc(R2, 1, 5, 50, 'D'),
    ];
    const out = findConflicts(input);
    expect(out.map((c) => `${c.resourceId.slice(-1)} ${brief(c)}`)).to.deep.equal([
      '2 01..05 110 +10 [C,D]',
      '2 15..20 110 +10 [E,F]',
    ]);
    const both = findConflicts([...input, alloc(R1, 3, 3, 1, 'G')]);
    expect(both.map((c) => `${c.resourceId.slice(-1)} ${brief(c)}`)).to.deep.equal([
      '1 03..03 101 +1 [A,B,G]',
      '2 01..05 110 +10 [C,D]',
      '2 15..20 110 +10 [E,F]',
    ]);
  });

  it('clips periods to the window and keeps the allocations’ whole dates', () => {
    const input = [alloc(R1, 1, 30, 60, 'A'), alloc(R1, 5, 20, 50, 'B'), alloc(R1, 10, 25, 30, 'C')];
    const out = findConflicts(input, { from: '2026-06-07', to: '2026-06-15' });
    expect(out.map(brief)).to.deep.equal(['07..09 110 +10 [A,B]', '10..15 140 +40 [A,B,C]']);
    expect(out[0]?.allocations[0]).to.include({ startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(findConflicts(input, { from: '2026-06-21' })).to.deep.equal([]);
    expect(findConflicts(input, { to: '2026-06-05' }).map(brief)).to.deep.equal(['05..05 110 +10 [A,B]']);
  });

  it('agrees with a day-by-day brute force on 200 random schedules', () => {
    const rand = random(42);
    for (let round = 0; round < 200; round++) {
      const input: SweepAllocation[] = [];
      for (let i = 0, n = 1 + rand(8); i < n; i++) {
        const from = 1 + rand(30);
        input.push(alloc(rand(2) ? R1 : R2, from, from + rand(31 - from), 10 * (1 + rand(10)), `x${i}`));
      }
      expect(findConflicts(input).map(brief), JSON.stringify(input)).to.deep.equal(
        bruteForce(input).map(brief),
      );
    }
  });

  it('sweeps 10,000 allocations of 100 resources over ten years (time printed, not asserted)', () => {
    const rand = random(7);
    const base = dayNumber('2026-01-01');
    const input: SweepAllocation[] = [];
    for (let i = 0; i < 10_000; i++) {
      const start = base + rand(3650);
      input.push({
        id: `z${i}`,
        resourceId: `00000000-0000-7000-8000-${String(rand(100)).padStart(12, '0')}`,
        projectId: 'p',
        startDate: dateOf(start),
        endDate: dateOf(start + rand(180)),
        allocationPercent: 10 + rand(60),
      });
    }
    findConflicts(input.slice(0, 500)); // warm-up
    const t0 = process.hrtime.bigint();
    const out = findConflicts(input);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    console.log(`      conflict sweep: 10,000 allocations → ${out.length} conflicts in ${ms.toFixed(1)} ms`);
    expect(out.length).to.be.greaterThan(0);
  });
});

/** A seeded generator of integers in [0, n) (mulberry32), so runs are repeatable. */
function random(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** The definition, day by day: group consecutive over-booked days with the same set of allocations. */
function bruteForce(input: SweepAllocation[]): AllocationConflict[] {
  const out: AllocationConflict[] = [];
  for (const resourceId of [...new Set(input.map((a) => a.resourceId))].sort()) {
    const mine = input.filter((a) => a.resourceId === resourceId);
    let open: AllocationConflict | null = null;
    let openKey = '';
    for (let day = dayNumber('2026-05-31'); day <= dayNumber('2026-07-01'); day++) {
      const date = dateOf(day);
      const set = mine
        .filter((a) => a.startDate <= date && a.endDate >= date)
        .sort((x, y) =>
          x.startDate < y.startDate ? -1 : x.startDate > y.startDate ? 1 : x.id < y.id ? -1 : 1,
        );
      const total = set.reduce((n, a) => n + a.allocationPercent, 0);
      const key = set.map((a) => a.id).join(',');
      if (total > 100 && open && key === openKey) {
        open.endDate = date;
        continue;
      }
      open = null;
      if (total > 100) {
        openKey = key;
        open = {
          resourceId,
          startDate: date,
          endDate: date,
          totalPercent: total,
          excessPercent: total - 100,
          allocations: set.map((a) => ({
            allocationId: a.id,
            projectId: a.projectId,
            allocationPercent: a.allocationPercent,
            startDate: a.startDate,
            endDate: a.endDate,
          })),
        };
        out.push(open);
      }
    }
  }
  return out;
}
