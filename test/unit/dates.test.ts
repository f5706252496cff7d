/**
 * The date module (server/dates.ts): day arithmetic on `YYYY-MM-DD` dates across leap years and daylight saving
 * changes, and "today" in time zones east and west of UTC around local midnight and DST transitions.
 */
import { expect } from 'chai';
import {
  addDays,
  addMonths,
  dateOf,
  dayNumber,
  daysBetween,
  daysInMonth,
  isCalendarDate,
  isoWeekday,
  todayIn,
  utcDate,
  ZonedCalendar,
} from '../../server/dates.js';

describe('dates', () => {
  describe('daysBetween', () => {
    it('counts whole days, positive when the second date is later', () => {
      expect(daysBetween('2026-05-01', '2026-05-15')).to.equal(14);
      expect(daysBetween('2026-05-15', '2026-05-01')).to.equal(-14);
      expect(daysBetween('2026-05-15', '2026-05-15')).to.equal(0);
    });

    it('counts 29 February in leap years only (2000 and 2024 are leap, 1900, 2023 and 2100 are not)', () => {
      expect(daysBetween('2024-02-28', '2024-03-01')).to.equal(2);
      expect(daysBetween('2023-02-28', '2023-03-01')).to.equal(1);
      expect(daysBetween('2000-02-28', '2000-03-01')).to.equal(2);
      expect(daysBetween('1900-02-28', '1900-03-01')).to.equal(1);
      expect(daysBetween('2100-02-28', '2100-03-01')).to.equal(1);
      expect(daysBetween('2024-01-01', '2025-01-01')).to.equal(366);
      expect(daysBetween('2023-01-01', '2024-01-01')).to.equal(365);
    });

    it('is not shifted by daylight saving changes (dates have no time zone)', () => {
      // New York springs forward on 2026-03-08 and falls back on 2026-11-01; Sydney on 2026-04-05 and 2026-10-04.
      expect(daysBetween('2026-03-07', '2026-03-09')).to.equal(2);
      expect(daysBetween('2026-10-31', '2026-11-02')).to.equal(2);
      expect(daysBetween('2026-04-04', '2026-04-06')).to.equal(2);
      expect(daysBetween('2026-01-01', '2026-12-31')).to.equal(364);
    });
  });

  describe('addDays', () => {
    it('moves across month, year and leap-day boundaries, both ways', () => {
      expect(addDays('2024-02-28', 1)).to.equal('2024-02-29');
      expect(addDays('2023-02-28', 1)).to.equal('2023-03-01');
      expect(addDays('2025-12-31', 1)).to.equal('2026-01-01');
      expect(addDays('2026-01-01', -1)).to.equal('2025-12-31');
      expect(addDays('2026-03-07', 2)).to.equal('2026-03-09');
      expect(addDays('2026-05-15', 89)).to.equal('2026-08-12');
      expect(addDays('2026-05-15', 0)).to.equal('2026-05-15');
    });

    it('is the inverse of daysBetween', () => {
      for (const [date, days] of [
        ['2024-02-29', 365],
        ['2026-03-08', -400],
        ['1999-12-31', 1],
      ] as const) {
        expect(daysBetween(date, addDays(date, days))).to.equal(days);
      }
    });
  });

  describe('addMonths', () => {
    it('keeps the day of the month when the target month has it', () => {
      expect(addMonths('2026-01-15', 1)).to.equal('2026-02-15');
      expect(addMonths('2026-11-30', 2)).to.equal('2027-01-30');
      expect(addMonths('2026-03-31', -3)).to.equal('2025-12-31');
      expect(addMonths('2026-05-15', 0)).to.equal('2026-05-15');
      expect(addMonths('2026-05-15', 24)).to.equal('2028-05-15');
    });

    it('clamps to the last day of a shorter month, counting leap years', () => {
      expect(addMonths('2024-01-31', 1)).to.equal('2024-02-29');
      expect(addMonths('2023-01-31', 1)).to.equal('2023-02-28');
      expect(addMonths('2100-01-31', 1)).to.equal('2100-02-28');
      expect(addMonths('2000-01-31', 1)).to.equal('2000-02-29');
      expect(addMonths('2024-02-29', 12)).to.equal('2025-02-28');
      expect(addMonths('2026-05-31', -1)).to.equal('2026-04-30');
    });
  });

  describe('daysInMonth and isCalendarDate', () => {
    it('knows the length of each month', () => {
      expect(daysInMonth(2024, 2)).to.equal(29);
      expect(daysInMonth(2026, 2)).to.equal(28);
      expect(daysInMonth(2026, 4)).to.equal(30);
      expect(daysInMonth(2026, 12)).to.equal(31);
    });

    it('accepts real dates only, written YYYY-MM-DD', () => {
      expect(isCalendarDate('2024-02-29')).to.equal(true);
      expect(isCalendarDate('2023-02-29')).to.equal(false);
      expect(isCalendarDate('2019-02-30')).to.equal(false);
      expect(isCalendarDate('2026-13-01')).to.equal(false);
      expect(isCalendarDate('2026-5-1')).to.equal(false);
      expect(isCalendarDate('2026-05-01T00:00:00Z')).to.equal(false);
    });
  });

  describe('day numbers', () => {
    it('count days since 1970-01-01 both ways, and dateOf inverts them across leap days and centuries', () => {
      expect(dayNumber('1970-01-01')).to.equal(0);
      expect(dayNumber('1969-12-31')).to.equal(-1);
      expect(dayNumber('2000-03-01') - dayNumber('2000-02-28')).to.equal(2);
      expect(dayNumber('2100-03-01') - dayNumber('2100-02-28')).to.equal(1);
      for (const date of [
        '0001-01-01',
        '1600-02-29',
        '1900-03-01',
        '2024-02-29',
        '2026-12-31',
        '9999-12-31',
      ]) {
        expect(dateOf(dayNumber(date))).to.equal(date);
      }
      expect(dateOf(dayNumber('2024-02-28') + 1)).to.equal('2024-02-29');
    });

    it('agree with the JavaScript calendar on every day of four years', () => {
      for (let ms = Date.UTC(2023, 0, 1); ms <= Date.UTC(2026, 11, 31); ms += 86_400_000) {
        const date = new Date(ms).toISOString().slice(0, 10);
        expect(dayNumber(date)).to.equal(ms / 86_400_000);
        expect(dateOf(ms / 86_400_000)).to.equal(date);
      }
    });

    it('give the ISO weekday, Monday 1 to Sunday 7', () => {
      expect(isoWeekday(dayNumber('1970-01-01'))).to.equal(4);
      expect(isoWeekday(dayNumber('2026-06-01'))).to.equal(1);
      expect(isoWeekday(dayNumber('2026-06-07'))).to.equal(7);
      expect(isoWeekday(dayNumber('1969-12-28'))).to.equal(7);
    });
  });

  describe('utcDate', () => {
    it('is the UTC date of an instant', () => {
      expect(utcDate(new Date('2026-05-15T23:59:59.999Z'))).to.equal('2026-05-15');
      expect(utcDate(new Date('2026-05-16T00:00:00.000Z'))).to.equal('2026-05-16');
    });
  });

  describe('ZonedCalendar.today', () => {
    const calendar = new ZonedCalendar();
    const today = (zone: string, instant: string) => calendar.today(zone, new Date(instant));

    it('turns the date at local midnight, west of UTC', () => {
      // New York, winter (UTC−5): midnight is 05:00Z.
      expect(today('America/New_York', '2026-01-15T04:59:59Z')).to.equal('2026-01-14');
      expect(today('America/New_York', '2026-01-15T05:00:00Z')).to.equal('2026-01-15');
      // Pago Pago (UTC−11): still yesterday for most of the UTC day.
      expect(today('Pacific/Pago_Pago', '2026-01-15T10:59:59Z')).to.equal('2026-01-14');
      expect(today('Pacific/Pago_Pago', '2026-01-15T11:00:00Z')).to.equal('2026-01-15');
    });

    it('turns the date at local midnight, east of UTC (including half-hour and +14 zones)', () => {
      // Tokyo (UTC+9): midnight is 15:00Z the day before.
      expect(today('Asia/Tokyo', '2026-01-14T14:59:59Z')).to.equal('2026-01-14');
      expect(today('Asia/Tokyo', '2026-01-14T15:00:00Z')).to.equal('2026-01-15');
      // Kolkata (UTC+5:30).
      expect(today('Asia/Kolkata', '2026-01-14T18:29:59Z')).to.equal('2026-01-14');
      expect(today('Asia/Kolkata', '2026-01-14T18:30:00Z')).to.equal('2026-01-15');
      // Kiritimati (UTC+14): already tomorrow at 10:00Z.
      expect(today('Pacific/Kiritimati', '2026-01-14T09:59:59Z')).to.equal('2026-01-14');
      expect(today('Pacific/Kiritimati', '2026-01-14T10:00:00Z')).to.equal('2026-01-15');
    });

    it('follows daylight saving changes west of UTC (New York, spring forward and fall back)', () => {
      // 2026-03-08 starts in EST (midnight 05:00Z); the next day starts in EDT (midnight 04:00Z).
      expect(today('America/New_York', '2026-03-08T04:59:59Z')).to.equal('2026-03-07');
      expect(today('America/New_York', '2026-03-08T05:00:00Z')).to.equal('2026-03-08');
      expect(today('America/New_York', '2026-03-09T03:59:59Z')).to.equal('2026-03-08');
      expect(today('America/New_York', '2026-03-09T04:00:00Z')).to.equal('2026-03-09');
      // 2026-11-01 starts in EDT (04:00Z); the next day starts in EST (05:00Z).
      expect(today('America/New_York', '2026-11-01T04:00:00Z')).to.equal('2026-11-01');
      expect(today('America/New_York', '2026-11-02T04:59:59Z')).to.equal('2026-11-01');
      expect(today('America/New_York', '2026-11-02T05:00:00Z')).to.equal('2026-11-02');
    });

    it('follows daylight saving changes east of UTC (Sydney, southern hemisphere)', () => {
      // Sydney leaves DST on 2026-04-05 (UTC+11 → +10) and enters it on 2026-10-04 (UTC+10 → +11).
      expect(today('Australia/Sydney', '2026-04-04T12:59:59Z')).to.equal('2026-04-04');
      expect(today('Australia/Sydney', '2026-04-04T13:00:00Z')).to.equal('2026-04-05');
      expect(today('Australia/Sydney', '2026-04-05T13:59:59Z')).to.equal('2026-04-05');
      expect(today('Australia/Sydney', '2026-04-05T14:00:00Z')).to.equal('2026-04-06');
      expect(today('Australia/Sydney', '2026-10-03T14:00:00Z')).to.equal('2026-10-04');
      expect(today('Australia/Sydney', '2026-10-04T12:59:59Z')).to.equal('2026-10-04');
      expect(today('Australia/Sydney', '2026-10-04T13:00:00Z')).to.equal('2026-10-05');
    });

    it('gives 29 February in a leap year and UTC as is', () => {
      expect(today('UTC', '2024-02-29T23:59:59Z')).to.equal('2024-02-29');
      expect(today('America/Los_Angeles', '2024-03-01T07:59:59Z')).to.equal('2024-02-29');
    });

    it('answers the same from its kept formatter, and refuses an unknown time zone', () => {
      const first = today('Europe/Berlin', '2026-06-30T22:00:00Z');
      expect(first).to.equal('2026-07-01');
      expect(today('Europe/Berlin', '2026-06-30T22:00:00Z')).to.equal(first);
      expect(() => calendar.today('Mars/Olympus_Mons', new Date())).to.throw(RangeError);
    });

    it('agrees with todayIn, the one-off form', () => {
      const instant = new Date('2026-03-01T02:00:00Z');
      expect(todayIn('America/New_York', instant)).to.equal(calendar.today('America/New_York', instant));
      expect(todayIn('Asia/Tokyo', instant)).to.equal('2026-03-01');
    });
  });
});
