/**
 * Instants as the API reads them (docs/design.md, Conventions: "Instants"): RFC 3339 `date-time`
 * (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, `T` or a space between date and time, case-insensitive `T`/`Z`),
 * with two refusals beyond RFC 3339's grammar:
 * - a leap second (`…:60`): JavaScript's `Date` and both databases' text order have no 61st second, so it is
 *   refused rather than silently moved to the next minute;
 * - an instant whose UTC year is outside 0001–9999 (`9999-12-31T23:59:59-14:00` is year 10000 in UTC): it has no
 *   RFC 3339 form in UTC, and every instant is answered in UTC.
 *
 * The request validator checks every `format: date-time` input with {@link isInstant}; services that turn an input
 * into a stored instant use {@link instantInput}, so the rule holds even for a caller that skipped the validator.
 */
import { AppError, type FieldError } from './errors.js';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** What {@link isInstant} and {@link instantInput} say of a refused value (the problem's field message). */
export const INSTANT_RULE =
  'must be an RFC 3339 date-time between years 0001 and 9999 in UTC, without a leap second (e.g. 2025-06-02T14:30:00Z)';

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The instant `text` names, in ms since the epoch, or null when it is not an RFC 3339 date-time, names a leap
 * second, or falls outside years 0001–9999 in UTC.
 */
export function parseInstant(text: string): number | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, millis);
  const ms = local.getTime() - offsetMinutes * 60_000;
  const utcYear = new Date(ms).getUTCFullYear();
  return utcYear >= 1 && utcYear <= 9999 ? ms : null;
}

/** Whether `text` is an instant the API accepts (the `date-time` format of the request validator). */
export function isInstant(text: string): boolean {
  return parseInstant(text) !== null;
}

/**
 * An input instant normalised to UTC (`YYYY-MM-DDTHH:MM:SS.sssZ`), the form stored and compared.
 * @param field where the value came from, named in the problem (e.g. `{ location: 'body', path: '/expiresAt' }`).
 * @throws AppError 400 `validation_failed` naming `field` when {@link parseInstant} refuses the value.
 */
export function instantInput(text: string, field: Omit<FieldError, 'message'>): string {
  const ms = parseInstant(text);
  if (ms === null) {
    throw new AppError(
      'validation_failed',
      `The request is invalid: ${field.location} ${field.path} ${INSTANT_RULE}.`,
      {
        errors: [{ ...field, message: INSTANT_RULE }],
      },
    );
  }
  return new Date(ms).toISOString();
}
