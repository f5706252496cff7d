/**
 * Availability of one resource over a date range (spec `getResourceAvailability`; docs/design.md, Resources): pure
 * functions over calendar days, no database and no clock.
 *
 * Rules: a working day is Monday to Friday and has capacityHoursPerWeek / 5 hours of capacity; weekends have none.
 * An allocation covering a working day books allocationPercent / 100 of that day's capacity. Periods are ISO weeks
 * (Monday to Sunday) clipped to the range, or single days. Values are computed unrounded and rounded to two
 * decimals only in the output, so totals are not sums of rounded periods.
 */
import { dateOf, dayNumber, isoWeekday } from '../dates.js';
import type { Schema } from '../schemas.js';
import { businessRule } from './errors.js';

/** The longest range accepted, in days counted inclusively (a leap year). */
export const MAX_RANGE_DAYS = 366;

/** The day numbers of server/dates.ts, re-exported for the allocation-conflict sweep, which reads them from here. */
export { dateOf, dayNumber };

/** Number of Mondays to Fridays in the day numbers [first, last] (0 when last < first); O(1). */
export function workingDaysIn(first: number, last: number): number {
  if (last < first) return 0;
  const length = last - first + 1;
  const fullWeeks = Math.floor(length / 7);
  let count = fullWeeks * 5;
  for (let day = first + fullWeeks * 7; day <= last; day++) if (isoWeekday(day) <= 5) count++;
  return count;
}

/** The part of an allocation that matters to availability. */
export interface AllocationSpan {
  startDate: string;
  endDate: string;
  allocationPercent: number;
}

/** Hours of one period (spec `AvailabilityPeriod`). */
export type AvailabilityPeriod = Schema<'AvailabilityPeriod'>;

/** Sums over the range (spec `AvailabilityTotals`). */
export type AvailabilityTotals = Schema<'AvailabilityTotals'>;

/** Periods of ISO weeks or single days (spec `AvailabilityGranularity`). */
export type Granularity = Schema<'AvailabilityGranularity'>;

/** Input of {@link computeAvailability}. */
export interface AvailabilityInput {
  from: string;
  to: string;
  granularity: Granularity;
  capacityHoursPerWeek: number;
  /** The resource's allocations; those not overlapping the range are ignored. */
  allocations: readonly AllocationSpan[];
}

/** Output of {@link computeAvailability}: consecutive periods covering [from, to] and their totals. */
export interface AvailabilityReport {
  periods: AvailabilityPeriod[];
  totals: AvailabilityTotals;
}

/** Rounds half away from zero to two decimals, absorbing binary noise (1.005 → 1.01) and never giving -0. */
export function round2(n: number): number {
  const r = (Math.sign(n) * Math.round(Math.abs(n) * 100 + 1e-9)) / 100;
  return r === 0 ? 0 : r;
}

/**
 * Checks an availability range: `to` not before `from`, at most {@link MAX_RANGE_DAYS} days inclusive.
 * @throws AppError 422 `validation_failed` naming the `to` query parameter.
 */
export function assertRange(from: string, to: string): void {
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) {
    throw businessRule(`to (${to}) is before from (${from}).`, [
      { location: 'query', path: 'to', message: 'must be on or after from' },
    ]);
  }
  if (days > MAX_RANGE_DAYS) {
    throw businessRule(
      `The range ${from}..${to} spans ${days} days; at most ${MAX_RANGE_DAYS} are allowed.`,
      [{ location: 'query', path: 'to', message: `at most ${MAX_RANGE_DAYS} days from from, inclusive` }],
    );
  }
}

/** The [start, end] day numbers of the periods covering [first, last]: ISO weeks clipped to the range, or days. */
export function periodsOf(first: number, last: number, granularity: Granularity): [number, number][] {
  const out: [number, number][] = [];
  for (let start = first; start <= last; ) {
    const end = granularity === 'day' ? start : Math.min(last, start + (7 - isoWeekday(start)));
    out.push([start, end]);
    start = end + 1;
  }
  return out;
}

interface Span {
  first: number;
  last: number;
  percent: number;
}

/**
 * Allocated percent-days of the spans over [first, last]: Σ allocationPercent × working days of the overlap.
 * Multiplied by capacityHoursPerWeek / 500 it gives hours.
 */
function percentDays(spans: readonly Span[], first: number, last: number): number {
  let sum = 0;
  for (const s of spans) {
    sum += s.percent * workingDaysIn(Math.max(first, s.first), Math.min(last, s.last));
  }
  return sum;
}

function hours(workingDays: number, allocatedPercentDays: number, capacityHoursPerWeek: number) {
  const dayHours = capacityHoursPerWeek / 5;
  const capacityHours = dayHours * workingDays;
  const allocatedHours = (dayHours * allocatedPercentDays) / 100;
  return {
    capacityHours: round2(capacityHours),
    allocatedHours: round2(allocatedHours),
    availableHours: round2(capacityHours - allocatedHours),
    utilisationPercent: capacityHours > 0 ? round2((allocatedHours / capacityHours) * 100) : 0,
  };
}

/**
 * Capacity, allocated and available hours per period and in total. Cost: O(periods × allocations overlapping
 * the range), with periods ≤ 366.
 * @throws AppError 422 when the range is invalid (see {@link assertRange}).
 */
export function computeAvailability(input: AvailabilityInput): AvailabilityReport {
  assertRange(input.from, input.to);
  const first = dayNumber(input.from);
  const last = dayNumber(input.to);
  const spans: Span[] = [];
  for (const a of input.allocations) {
    const s = { first: dayNumber(a.startDate), last: dayNumber(a.endDate), percent: a.allocationPercent };
    if (s.last >= first && s.first <= last) spans.push(s);
  }
  const periods = periodsOf(first, last, input.granularity).map(([start, end]) => {
    const workingDays = workingDaysIn(start, end);
    return {
      start: dateOf(start),
      end: dateOf(end),
      workingDays,
      ...hours(workingDays, percentDays(spans, start, end), input.capacityHoursPerWeek),
    };
  });
  const totals = hours(
    workingDaysIn(first, last),
    percentDays(spans, first, last),
    input.capacityHoursPerWeek,
  );
  return { periods, totals };
}
