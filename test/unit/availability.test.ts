/**
 * Unit tests of resource availability with hand-computed numbers (spec `getResourceAvailability`).
 * Calendar used throughout: June 2026, Monday the 1st (Mon 1, 8, 15, 22, 29; Sun 7, 14, 21, 28).
 */
import { expect } from 'chai';
import { dateOf, dayNumber, isoWeekday } from '../../server/dates.js';
import {
  assertRange,
  computeAvailability,
  periodsOf,
  round2,
  workingDaysIn,
} from '../../server/services/availability.js';
import type { AppError } from '../../server/services/errors.js';

const d = dayNumber;

describe('availability: calendar helpers', () => {
  it('numbers days and weekdays (1970-01-01 a Thursday, 2026-06-01 a Monday)', () => {
    expect(dayNumber('1970-01-01')).to.equal(0);
    expect(isoWeekday(0)).to.equal(4);
    expect(isoWeekday(d('2026-06-01'))).to.equal(1);
    expect(isoWeekday(d('2026-06-07'))).to.equal(7);
    expect(isoWeekday(d('1969-12-29'))).to.equal(1);
    expect(dateOf(d('2028-02-29'))).to.equal('2028-02-29');
  });

  it('counts Mondays to Fridays in closed ranges', () => {
    expect(workingDaysIn(d('2026-06-01'), d('2026-06-07'))).to.equal(5);
    expect(workingDaysIn(d('2026-06-06'), d('2026-06-07'))).to.equal(0);
    expect(workingDaysIn(d('2026-06-03'), d('2026-06-16'))).to.equal(10);
    expect(workingDaysIn(d('2026-06-05'), d('2026-06-08'))).to.equal(2);
    expect(workingDaysIn(d('2026-06-01'), d('2026-06-30'))).to.equal(22);
    expect(workingDaysIn(d('2026-06-10'), d('2026-06-09'))).to.equal(0);
    expect(workingDaysIn(d('2028-01-01'), d('2028-12-31'))).to.equal(260);
  });

  it('cuts a range into ISO weeks clipped at both ends, or days', () => {
    const weeks = periodsOf(d('2026-06-03'), d('2026-06-16'), 'week').map(
      ([a, b]) => `${dateOf(a)}/${dateOf(b)}`,
    );
    expect(weeks).to.deep.equal(['2026-06-03/2026-06-07', '2026-06-08/2026-06-14', '2026-06-15/2026-06-16']);
    const sunMon = periodsOf(d('2026-06-07'), d('2026-06-08'), 'week').map(
      ([a, b]) => `${dateOf(a)}/${dateOf(b)}`,
    );
    expect(sunMon).to.deep.equal(['2026-06-07/2026-06-07', '2026-06-08/2026-06-08']);
    expect(periodsOf(d('2026-06-01'), d('2026-06-03'), 'day')).to.have.length(3);
    expect(periodsOf(d('2028-01-01'), d('2028-12-31'), 'week')).to.have.length(53);
  });

  it('rounds half away from zero to 2 decimals without binary noise or -0', () => {
    expect([1.005, 2.675, 13.332, 26.668, -0.8000000000000007, -0.001, 0].map(round2)).to.deep.equal([
      1.01, 2.68, 13.33, 26.67, -0.8, 0, 0,
    ]);
    expect(Object.is(round2(-0.001), 0)).to.equal(true);
  });
});

describe('availability: range rules', () => {
  const code = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return `${(err as AppError).status} ${(err as AppError).code}`;
    }
    return 'ok';
  };
  it('accepts one day and exactly 366 days (a leap year), refuses to < from and 367 days with 422', () => {
    expect(code(() => assertRange('2026-06-01', '2026-06-01'))).to.equal('ok');
    expect(code(() => assertRange('2028-01-01', '2028-12-31'))).to.equal('ok');
    expect(code(() => assertRange('2027-01-01', '2028-01-01'))).to.equal('ok');
    expect(code(() => assertRange('2027-01-01', '2028-01-02'))).to.equal('422 validation_failed');
    expect(code(() => assertRange('2026-06-02', '2026-06-01'))).to.equal('422 validation_failed');
  });
});

describe('availability: hours (hand-computed)', () => {
  it('clips partial weeks at both ends (Wed 3rd to Tue 16th, 37.5 h/week at 50 %)', () => {
    const r = computeAvailability({
      from: '2026-06-03',
      to: '2026-06-16',
      granularity: 'week',
      capacityHoursPerWeek: 37.5,
      allocations: [{ startDate: '2026-06-01', endDate: '2026-06-30', allocationPercent: 50 }],
    });
    // 7.5 h per working day: Wed–Fri 3 days, a full week 5, Mon–Tue 2.
    expect(r.periods).to.deep.equal([
      {
        start: '2026-06-03',
        end: '2026-06-07',
        workingDays: 3,
        capacityHours: 22.5,
        allocatedHours: 11.25,
        availableHours: 11.25,
        utilisationPercent: 50,
      },
      {
        start: '2026-06-08',
        end: '2026-06-14',
        workingDays: 5,
        capacityHours: 37.5,
        allocatedHours: 18.75,
        availableHours: 18.75,
        utilisationPercent: 50,
      },
      {
        start: '2026-06-15',
        end: '2026-06-16',
        workingDays: 2,
        capacityHours: 15,
        allocatedHours: 7.5,
        availableHours: 7.5,
        utilisationPercent: 50,
      },
    ]);
    expect(r.totals).to.deep.equal({
      capacityHours: 75,
      allocatedHours: 37.5,
      availableHours: 37.5,
      utilisationPercent: 50,
    });
  });

  it('gives a weekend-only range zero capacity and zero utilisation, even when fully allocated', () => {
    const r = computeAvailability({
      from: '2026-06-06',
      to: '2026-06-07',
      granularity: 'week',
      capacityHoursPerWeek: 40,
      allocations: [{ startDate: '2026-06-01', endDate: '2026-06-30', allocationPercent: 100 }],
    });
    expect(r.periods).to.deep.equal([
      {
        start: '2026-06-06',
        end: '2026-06-07',
        workingDays: 0,
        capacityHours: 0,
        allocatedHours: 0,
        availableHours: 0,
        utilisationPercent: 0,
      },
    ]);
    expect(r.totals).to.deep.equal({
      capacityHours: 0,
      allocatedHours: 0,
      availableHours: 0,
      utilisationPercent: 0,
    });
  });

  it('sums two overlapping allocations, one starting mid-week, into an over-allocation', () => {
    // 40 h/week = 8 h/day. A 60 % for both weeks; B 70 % from Wed 3rd to Thu 11th.
    // Week 1: A 0.6×8×5 = 24, B 0.7×8×3 (Wed–Fri) = 16.8 → 40.8 of 40.
    // Week 2: A 24, B 0.7×8×4 (Mon–Thu) = 22.4 → 46.4 of 40.
    const r = computeAvailability({
      from: '2026-06-01',
      to: '2026-06-14',
      granularity: 'week',
      capacityHoursPerWeek: 40,
      allocations: [
        { startDate: '2026-06-01', endDate: '2026-06-14', allocationPercent: 60 },
        { startDate: '2026-06-03', endDate: '2026-06-11', allocationPercent: 70 },
        { startDate: '2026-05-01', endDate: '2026-05-31', allocationPercent: 100 }, // before the range
        { startDate: '2026-06-15', endDate: '2026-07-31', allocationPercent: 100 }, // after the range
      ],
    });
    expect(r.periods.map((p) => [p.start, p.end, p.workingDays])).to.deep.equal([
      ['2026-06-01', '2026-06-07', 5],
      ['2026-06-08', '2026-06-14', 5],
    ]);
    expect(
      r.periods.map((p) => [p.capacityHours, p.allocatedHours, p.availableHours, p.utilisationPercent]),
    ).to.deep.equal([
      [40, 40.8, -0.8, 102],
      [40, 46.4, -6.4, 116],
    ]);
    expect(r.totals).to.deep.equal({
      capacityHours: 80,
      allocatedHours: 87.2,
      availableHours: -7.2,
      utilisationPercent: 109,
    });
  });

  it('reports per day with day granularity (Fri 5th to Mon 8th)', () => {
    // Fri and Mon: 8 h capacity, 0.6×8 + 0.7×8 = 10.4 allocated; Sat and Sun: nothing.
    const r = computeAvailability({
      from: '2026-06-05',
      to: '2026-06-08',
      granularity: 'day',
      capacityHoursPerWeek: 40,
      allocations: [
        { startDate: '2026-06-01', endDate: '2026-06-14', allocationPercent: 60 },
        { startDate: '2026-06-03', endDate: '2026-06-11', allocationPercent: 70 },
      ],
    });
    expect(
      r.periods.map((p) => [p.start, p.end, p.workingDays, p.capacityHours, p.allocatedHours]),
    ).to.deep.equal([
      ['2026-06-05', '2026-06-05', 1, 8, 10.4],
      ['2026-06-06', '2026-06-06', 0, 0, 0],
      ['2026-06-07', '2026-06-07', 0, 0, 0],
      ['2026-06-08', '2026-06-08', 1, 8, 10.4],
    ]);
    expect(r.periods.map((p) => [p.availableHours, p.utilisationPercent])).to.deep.equal([
      [-2.4, 130],
      [0, 0],
      [0, 0],
      [-2.4, 130],
    ]);
    expect(r.totals).to.deep.equal({
      capacityHours: 16,
      allocatedHours: 20.8,
      availableHours: -4.8,
      utilisationPercent: 130,
    });
  });

  it('rounds only at output: 33.33 % of a 40 h week is 13.33 booked, 26.67 free', () => {
    const r = computeAvailability({
      from: '2026-06-01',
      to: '2026-06-07',
      granularity: 'week',
      capacityHoursPerWeek: 40,
      allocations: [{ startDate: '2026-06-01', endDate: '2026-06-07', allocationPercent: 33.33 }],
    });
    expect(r.totals).to.deep.equal({
      capacityHours: 40,
      allocatedHours: 13.33,
      availableHours: 26.67,
      utilisationPercent: 33.33,
    });
  });

  it('answers zero utilisation for a resource with zero capacity', () => {
    const r = computeAvailability({
      from: '2026-06-01',
      to: '2026-06-07',
      granularity: 'week',
      capacityHoursPerWeek: 0,
      allocations: [{ startDate: '2026-06-01', endDate: '2026-06-07', allocationPercent: 50 }],
    });
    expect(r.totals).to.deep.equal({
      capacityHours: 0,
      allocatedHours: 0,
      availableHours: 0,
      utilisationPercent: 0,
    });
  });

  it('covers a whole leap year in 53 clipped weeks whose working days sum to 260', () => {
    const r = computeAvailability({
      from: '2028-01-01',
      to: '2028-12-31',
      granularity: 'week',
      capacityHoursPerWeek: 40,
      allocations: [],
    });
    expect(r.periods).to.have.length(53);
    expect(r.periods[0]).to.include({ start: '2028-01-01', end: '2028-01-02', workingDays: 0 });
    expect(r.periods.at(-1)).to.include({ start: '2028-12-25', end: '2028-12-31', workingDays: 5 });
    expect(r.periods.reduce((n, p) => n + p.workingDays, 0)).to.equal(260);
    expect(r.totals).to.deep.equal({
      capacityHours: 2080,
      allocatedHours: 0,
      availableHours: 2080,
      utilisationPercent: 0,
    });
  });
});
