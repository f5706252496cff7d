/**
 * The time words of the Ask agent (docs/agents.md, Ask: the words PMOs use): "this week", "next month", "last
 * quarter", "since March", "in 2019" read as a period of calendar dates relative to a reference date — the tenant's
 * today in its time zone, or the data's latest status report date when the data is historical (see
 * {@link referenceDate}). Pure; dates are `YYYY-MM-DD` through server/dates.ts.
 */
import {
  addDays,
  addMonths,
  dateOf,
  dayNumber,
  daysBetween,
  daysInMonth,
  isoWeekday,
  MONTH_NAMES,
} from '../../dates.js';

/** A period of calendar dates, both ends included, and the words that named it. */
export interface Period {
  from: string;
  to: string;
  /** The words of the question, e.g. "next month". */
  words: string;
}

/** The date questions are answered against, and why. */
export interface Reference {
  date: string;
  /**
   * `today`: the tenant's date today. `data`: the latest status report's date, because the data stops more than
   * {@link HISTORICAL_AFTER_DAYS} days before today (an imported historical data set).
   */
  basis: 'today' | 'data';
}

/** Data whose newest status report is older than this many days is historical (docs/agents.md, Ask). */
export const HISTORICAL_AFTER_DAYS = 90;

/** The reference date: today, or the data's latest report date when that is long past. */
export function referenceDate(today: string, latestReport: string | null): Reference {
  if (latestReport && daysBetween(latestReport, today) > HISTORICAL_AFTER_DAYS) {
    return { date: latestReport, basis: 'data' };
  }
  return { date: today, basis: 'today' };
}

const MONTH_RX = `(${MONTH_NAMES.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')})`;

/** Every expression that names a period: their words are time, never search terms (./vocabulary.ts). */
export const PERIOD_RX = new RegExp(
  `\\b(?:this|next|last|previous|past|coming) (?:week|month|quarter|year)\\b|\\b(?:today|tomorrow|yesterday)\\b|\\bsince ${MONTH_RX}\\b|\\bin ${MONTH_RX}(?: (\\d{4}))?\\b|\\bin (\\d{4})\\b|\\b(?:the )?(?:last|past|next) (\\d{1,3}) (days?|weeks?|months?)\\b|\\bq([1-4])(?: (\\d{4}))?\\b`,
);

function monthIndex(word: string): number {
  return MONTH_NAMES.findIndex((m) => m.startsWith(word.slice(0, 3)));
}

function monthStart(date: string): string {
  return `${date.slice(0, 8)}01`;
}

function monthEnd(date: string): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  return `${date.slice(0, 8)}${String(daysInMonth(y, m)).padStart(2, '0')}`;
}

function quarterStart(date: string): string {
  const m = Number(date.slice(5, 7));
  return `${date.slice(0, 5)}${String(Math.floor((m - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
}

/**
 * The period a question names, relative to `reference`, or null. Weeks run Monday to Sunday (ISO 8601); "since
 * March" runs from the latest 1 March on or before the reference date to the reference date; "last 30 days" ends on
 * the reference date, "next 2 weeks" starts on it.
 * @param text the question through `normalise` (./text.ts).
 */
export function periodIn(text: string, reference: string): Period | null {
  const m = PERIOD_RX.exec(text);
  if (!m) return null;
  const said = m[0];
  const day = dayNumber(reference);
  const weekStart = dateOf(day - (isoWeekday(day) - 1));
  const period = (from: string, to: string): Period => ({ from, to, words: said });
  const unit = /\b(week|month|quarter|year)\b/.exec(said)?.[1];
  const shift = /^(?:next|coming)/.test(said) ? 1 : /^(?:last|previous|past)/.test(said) ? -1 : 0;
  if (/^(?:this|next|last|previous|past|coming) (?:week|month|quarter|year)$/.test(said)) {
    if (unit === 'week') {
      const from = addDays(weekStart, 7 * shift);
      return period(from, addDays(from, 6));
    }
    if (unit === 'month') {
      const from = addMonths(monthStart(reference), shift);
      return period(from, monthEnd(from));
    }
    if (unit === 'quarter') {
      const from = addMonths(quarterStart(reference), 3 * shift);
      return period(from, addDays(addMonths(from, 3), -1));
    }
    const year = Number(reference.slice(0, 4)) + shift;
    return period(`${year}-01-01`, `${year}-12-31`);
  }
  if (said === 'today') return period(reference, reference);
  if (said === 'tomorrow') return period(addDays(reference, 1), addDays(reference, 1));
  if (said === 'yesterday') return period(addDays(reference, -1), addDays(reference, -1));
  if (said.startsWith('since')) {
    const month = monthIndex(m[1] as string) + 1;
    let year = Number(reference.slice(0, 4));
    if (month > Number(reference.slice(5, 7))) year -= 1;
    return period(`${year}-${String(month).padStart(2, '0')}-01`, reference);
  }
  if (m[2]) {
    const month = monthIndex(m[2]) + 1;
    let year = m[3] ? Number(m[3]) : Number(reference.slice(0, 4));
    if (!m[3] && month > Number(reference.slice(5, 7))) year -= 1;
    const from = `${year}-${String(month).padStart(2, '0')}-01`;
    return period(from, monthEnd(from));
  }
  if (m[4]) return period(`${m[4]}-01-01`, `${m[4]}-12-31`);
  if (m[5]) {
    const n = Number(m[5]);
    const span = (m[6] as string).startsWith('day') ? n : (m[6] as string).startsWith('week') ? 7 * n : 0;
    const forward = /\bnext\b/.test(said);
    if (span > 0) {
      return forward
        ? period(reference, addDays(reference, span))
        : period(addDays(reference, -span), reference);
    }
    return forward ? period(reference, addMonths(reference, n)) : period(addMonths(reference, -n), reference);
  }
  const quarter = Number(m[7]);
  const year = m[8] ? Number(m[8]) : Number(reference.slice(0, 4));
  const from = `${year}-${String((quarter - 1) * 3 + 1).padStart(2, '0')}-01`;
  return period(from, addDays(addMonths(from, 3), -1));
}

/** How an answer states the period and its reference: "“next month” (2019-10-01 to 2019-10-31, …)". */
export function describePeriod(p: Period, ref: Reference, timeZone: string): string {
  const span = p.from === p.to ? p.from : `${p.from} to ${p.to}`;
  const basis =
    ref.basis === 'data'
      ? `relative to ${ref.date}, the date of the latest status report, because the data is historical`
      : `relative to today, ${ref.date} in ${timeZone}`;
  return `“${p.words}” is read as ${span}, ${basis}.`;
}
