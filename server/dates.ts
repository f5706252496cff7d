/**
 * Calendar dates: the one place Meridian does day arithmetic and finds "today" in a tenant's time zone.
 *
 * A date is a `YYYY-MM-DD` string (spec `format: date`; docs/design.md, Conventions on the wire). Arithmetic counts
 * days of the proleptic Gregorian calendar (day numbers since 1970-01-01), so daylight saving time never shifts a
 * difference or a sum: dates have no time zone. Only "today" depends on one (the tenant's IANA `timezone`), and it
 * is read through a {@link ZonedCalendar}.
 */

/**
 * Days since 1970-01-01 of a `YYYY-MM-DD` date (proleptic Gregorian, no time zone involved). Integer arithmetic
 * (H. Hinnant's days_from_civil) rather than Date.parse: the allocation-conflict sweep converts every allocation's
 * dates.
 */
export function dayNumber(date: string): number {
  let y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The `YYYY-MM-DD` date of a day number (civil_from_days, the inverse of {@link dayNumber}). */
export function dateOf(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/** ISO weekday of a day number: Monday 1 … Sunday 7 (1970-01-01 was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** Whether `value` is a real calendar date written `YYYY-MM-DD` (so `2019-02-30` is not). */
export function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && dateOf(dayNumber(value)) === value;
}

/** The UTC date (`YYYY-MM-DD`) of an instant. */
export function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * Whole days from date `a` to date `b` (`b − a`: positive when `b` is later), e.g. a project's slip from `endDate`
 * to `forecastEndDate`.
 */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

/** The date `days` days after `date` (before it when negative). */
export function addDays(date: string, days: number): string {
  return dateOf(dayNumber(date) + days);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Days in a month (`month` 1–12) of a year, leap years counted. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (MONTH_DAYS[month - 1] as number);
}

/**
 * The date `months` calendar months after `date` (before it when negative). A day the target month lacks is
 * clamped to its last day, as calendars do: 2024-01-31 + 1 month = 2024-02-29, 2023-01-31 + 1 month = 2023-02-28.
 */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  const day = Math.min(d, daysInMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Today's date in IANA time zones. Building an `Intl.DateTimeFormat` costs hundreds of µs, so an instance keeps one
 * formatter per time zone it has been asked about. One instance is built per app by `buildServices` and shared by
 * the services in `ServiceDeps.calendar` (docs/design.md, The request pipeline: formatters are built once per time
 * zone, and every cache is held by an object built in `buildServices`, never by a module).
 */
export class ZonedCalendar {
  readonly #formats = new Map<string, Intl.DateTimeFormat>();

  /**
   * The date (`YYYY-MM-DD`) in `timeZone` at the instant `now`.
   * @throws RangeError for an unknown time zone (the spec only accepts IANA names).
   */
  today(timeZone: string, now: Date): string {
    let format = this.#formats.get(timeZone);
    if (!format) {
      // en-CA writes dates as YYYY-MM-DD.
      format = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      this.#formats.set(timeZone, format);
    }
    return format.format(now);
  }
}

/**
 * Today's date (`YYYY-MM-DD`) in an IANA time zone, for a one-off caller (the CLI, a test). It builds a formatter
 * on every call: services use the app's {@link ZonedCalendar} instead.
 * @throws RangeError for an unknown time zone.
 */
export function todayIn(timeZone: string, now: Date): string {
  return new ZonedCalendar().today(timeZone, now);
}

/** The English month names in lower case, January first (index + 1 is the month number). */
export const MONTH_NAMES: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
