/**
 * Reading the NYC capital projects CSV (docs/resources.md, Status reports: the NYC importer): the file's rows with the
 * 1-based line each starts on, and each row parsed into the values the mapping (./mapping.ts) decides on. A cell
 * that is empty or does not parse becomes null, and the row says so, so the mapping can count why; a row without a
 * usable PID or report date is skipped with the decision that skips it.
 */
import { parse } from 'csv-parse/sync';
import { decodeHTML } from 'entities';
import { isCalendarDate } from '../../dates.js';
import type { MappingId } from './mapping.js';

/** One CSV row: its cells by column name. */
export type Cell = Record<string, string | undefined>;

/** A row of the file with the 1-based line it starts on. */
export interface CsvRecord {
  record: Cell;
  info: { lines: number };
}

/** A row that cannot be used, with the mapping decision that skips it and why. */
export interface SkippedRow {
  line: number;
  pid: string;
  skip: MappingId;
  detail: string;
}

/** One CSV row, parsed; a cell that is empty or does not parse is null (the mapping counts why). */
export interface ParsedRow {
  line: number;
  pid: string;
  asOf: string;
  name: string | null;
  description: string | null;
  category: string | null;
  borough: string | null;
  managingAgency: string | null;
  clientAgency: string | null;
  tags: string[];
  phase: string | null;
  designStart: string | null;
  forecastCompletion: string | null;
  budgetForecast: number | null;
  budgetForecastInvalid: boolean;
  budgetChangeLatest: number | null;
  budgetChangeTotal: number | null;
  scheduleChangeLatest: number | null;
  scheduleChangeTotal: number | null;
}

/** `MM/DD/YYYY` (optionally followed by a time) → `YYYY-MM-DD`, or an error message. */
export function parseUsDate(value: string): string | Error {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})(?: \d{1,2}:\d{2}:\d{2} [AP]M)?$/.exec(value.trim());
  if (!m) return new Error(`"${value}" is not a MM/DD/YYYY date`);
  const iso = `${m[3]}-${m[1]}-${m[2]}`;
  if (!isCalendarDate(iso)) return new Error(`"${value}" is not a real date`);
  return iso;
}

const text = (cells: Cell, column: string): string | null => (cells[column] ?? '').trim() || null;

function optionalDate(cells: Cell, column: string): string | null {
  const raw = text(cells, column);
  if (raw === null) return null;
  const d = parseUsDate(raw);
  return d instanceof Error ? null : d;
}

function optionalNumber(cells: Cell, column: string, integer = false): number | null {
  const raw = text(cells, column);
  if (raw === null) return null;
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) return null;
  return n;
}

/**
 * The rows of the CSV text (a UTF-8 byte order mark and empty lines ignored), each with its line.
 * @throws Error when the file is not CSV with the dataset's header (the PID and Date Reported As Of columns).
 */
export function readCsv(csvText: string | Buffer): CsvRecord[] {
  const records = parse(csvText, {
    columns: true,
    info: true,
    bom: true,
    skip_empty_lines: true,
  }) as CsvRecord[];
  const head = records[0]?.record;
  if (head && !('PID' in head && 'Date Reported As Of' in head)) {
    throw new Error('not the NYC capital projects CSV: the PID and Date Reported As Of columns are missing');
  }
  return records;
}

/** A row's values as the mapping reads them, or the decision that skips the row (no usable PID or report date). */
export function parseRow(cells: Cell, line: number): ParsedRow | SkippedRow {
  const pid = (cells.PID ?? '').trim();
  if (!/^\d+$/.test(pid)) return { line, pid, skip: 'skipBadPid', detail: `PID "${pid}"` };
  const asOf = parseUsDate(cells['Date Reported As Of'] ?? '');
  if (asOf instanceof Error) return { line, pid, skip: 'skipBadDate', detail: asOf.message };
  const name = text(cells, 'Project Name');
  const rawBudget = text(cells, 'Budget Forecast');
  const budget = rawBudget === null ? null : Number(rawBudget);
  const budgetValid = budget !== null && Number.isFinite(budget) && budget >= 0;
  const descriptive = {
    category: text(cells, 'Category'),
    borough: text(cells, 'Borough'),
    managingAgency: text(cells, 'Managing Agency'),
    clientAgency: text(cells, 'Client Agency'),
  };
  const tags = [
    ...new Set(Object.values(descriptive).filter((t): t is string => t !== null && t.length <= 50)),
  ];
  const clip = (v: string | null) => (v !== null && v.length <= 200 ? v : null);
  return {
    line,
    pid,
    asOf,
    name: name !== null && name.length <= 200 ? name : null,
    description: decodeHTML(text(cells, 'Description') ?? '').slice(0, 10_000) || null,
    category: clip(descriptive.category),
    borough: clip(descriptive.borough),
    managingAgency: clip(descriptive.managingAgency),
    clientAgency: clip(descriptive.clientAgency),
    tags: tags.slice(0, 20),
    phase: text(cells, 'Current Phase')?.slice(0, 100) ?? null,
    designStart: optionalDate(cells, 'Design Start'),
    forecastCompletion: optionalDate(cells, 'Forecast Completion'),
    budgetForecast: budgetValid ? budget : null,
    budgetForecastInvalid: rawBudget !== null && !budgetValid,
    budgetChangeLatest: optionalNumber(cells, 'Latest Budget Changes'),
    budgetChangeTotal: optionalNumber(cells, 'Total Budget Changes'),
    scheduleChangeLatest: optionalNumber(cells, 'Latest Schedule Changes', true),
    scheduleChangeTotal: optionalNumber(cells, 'Total Schedule Changes', true),
  };
}
