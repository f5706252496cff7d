/**
 * Importer for the NYC capital projects dataset (`datasets/nyc-capital-projects-2019-09-01.csv`).
 *
 * It replays the status reports in date order through {@link ProjectService}, so every change has its audit
 * row (and, later, its events). THE MAPPING, in one place:
 *
 * | CSV column                | Meridian                                                                       |
 * |---------------------------|--------------------------------------------------------------------------------|
 * | `PID`                     | `code` = `NYC-<PID>` (the idempotency key of the import)                       |
 * | `Project Name`            | `name` (create; later reports rename)                                          |
 * | `Description`             | `description`, HTML entities decoded (create; later reports update)            |
 * | `Category`, `Borough`, `Managing Agency`, `Client Agency` | `tags` (non-empty, distinct, ≤ 50 chars each)  |
 * | `Design Start`            | `startDate` (create; later reports update it when it stays ≤ `endDate`)       |
 * | first `Forecast Completion` | `endDate` (the baseline finish)                                              |
 * | later `Forecast Completion` | `forecastEndDate`                                                            |
 * | first `Budget Forecast`   | `budget` (the baseline); while no baseline exists, the first reported one     |
 * | later `Budget Forecast`   | `forecastCost` (estimate at completion)                                        |
 * | `Current Phase`           | `status`: Scoping/Planning → PLANNED; Close-Out → COMPLETED; Design,           |
 * |                           | Construction Procurement, Construction, IT → schedule/cost health (below);     |
 * |                           | empty → status unchanged                                                       |
 * | `Date Reported As Of`     | replay order; the per-project checkpoint that makes a second run a no-op       |
 *
 * Health of an active phase, from the report's forecast against the baseline: ON_TRACK when the forecast finish
 * is not after `endDate` and the forecast cost is not above `budget`; OFF_TRACK when the finish slips more than
 * 180 days or the cost overruns by more than 10 %; AT_RISK otherwise. The latest/total change columns are not
 * imported: they are derivable from the replayed history.
 *
 * Rows are checked before anything is written. A row that cannot be applied (no PID, bad report date, a first
 * report without Design Start or Forecast Completion, or with Forecast Completion before Design Start; any value
 * that does not parse) is reported with its line and reason and skipped. A later report with some empty cells is
 * applied for the cells it has; the empty ones keep their values and the row is listed as partial. Nothing is
 * invented: no default date or budget is ever filled in.
 */

import { parse } from 'csv-parse/sync';
import { decodeHTML } from 'entities';
import { getCheckpoint, setCheckpoint } from '../repositories/checkpoints.js';
import type { ProjectRecord, ProjectStatus } from '../repositories/projects.js';
import type { Actor, BaseDeps } from './context.js';
import { AppError } from './errors.js';
import { canTransition, daysBetween, type ProjectService, type ProjectUpdateInput } from './projects.js';

/** The source name used for checkpoints. */
export const NYC_SOURCE = 'nyc-capital-projects';

/** A row that was skipped or only partly applied, with its 1-based line in the file. */
export interface ImportNote {
  line: number;
  pid: string;
  reason: string;
}

/** What an import did. */
export interface ImportReport {
  rowsRead: number;
  projectsCreated: number;
  /** Later reports that changed at least one field. */
  rowsUpdated: number;
  /** Later reports that matched the project as it already was. */
  rowsUnchanged: number;
  /** Reports at or before the project's checkpoint (imported by an earlier run). */
  rowsAlreadyImported: number;
  skipped: ImportNote[];
  partial: ImportNote[];
}

interface ParsedRow {
  line: number;
  pid: string;
  reportedOn: string;
  name: string;
  description: string | null;
  tags: string[];
  phase: string | null;
  designStart: string | null;
  forecastCompletion: string | null;
  budgetForecast: number | null;
}

type Cell = Record<string, string | undefined>;

const SLIP_OFF_TRACK_DAYS = 180;
const OVERRUN_OFF_TRACK = 0.1;

/** `MM/DD/YYYY` (optionally followed by a time) → `YYYY-MM-DD`, or an error message. */
export function parseUsDate(value: string): string | Error {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})(?: \d{1,2}:\d{2}:\d{2} [AP]M)?$/.exec(value.trim());
  if (!m) return new Error(`"${value}" is not a MM/DD/YYYY date`);
  const iso = `${m[3]}-${m[1]}-${m[2]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso)
    return new Error(`"${value}" is not a real date`);
  return iso;
}

function parseRow(cells: Cell, line: number): ParsedRow | ImportNote {
  const pid = (cells.PID ?? '').trim();
  const bad = (reason: string): ImportNote => ({ line, pid, reason });
  if (!/^\d+$/.test(pid)) return bad(`PID "${pid}" is missing or not a number`);
  const reported = parseUsDate(cells['Date Reported As Of'] ?? '');
  if (reported instanceof Error) return bad(`Date Reported As Of: ${reported.message}`);
  const name = (cells['Project Name'] ?? '').trim();
  if (!name) return bad('Project Name is empty');
  if (name.length > 200) return bad('Project Name is longer than 200 characters');
  const optionalDate = (column: string): string | null | ImportNote => {
    const raw = (cells[column] ?? '').trim();
    if (!raw) return null;
    const d = parseUsDate(raw);
    return d instanceof Error ? bad(`${column}: ${d.message}`) : d;
  };
  const designStart = optionalDate('Design Start');
  if (designStart !== null && typeof designStart === 'object') return designStart;
  const forecastCompletion = optionalDate('Forecast Completion');
  if (forecastCompletion !== null && typeof forecastCompletion === 'object') return forecastCompletion;
  const rawBudget = (cells['Budget Forecast'] ?? '').trim();
  let budgetForecast: number | null = null;
  if (rawBudget) {
    budgetForecast = Number(rawBudget);
    if (!Number.isFinite(budgetForecast) || budgetForecast < 0)
      return bad(`Budget Forecast "${rawBudget}" is not an amount ≥ 0`);
  }
  const description = decodeHTML((cells.Description ?? '').trim()) || null;
  const tags = [
    ...new Set(
      ['Category', 'Borough', 'Managing Agency', 'Client Agency'].map((c) => (cells[c] ?? '').trim()),
    ),
  ]
    .filter((t) => t.length > 0 && t.length <= 50)
    .slice(0, 20);
  return {
    line,
    pid,
    reportedOn: reported,
    name,
    description,
    tags,
    phase: (cells['Current Phase'] ?? '').trim() || null,
    designStart,
    forecastCompletion,
    budgetForecast,
  };
}

/**
 * The status a report implies (see the mapping above), or null when the phase is empty or unknown.
 * `endDate`/`budget` are the baseline; `forecastEnd`/`forecastCost` the report's forecast.
 */
export function statusForReport(
  phase: string | null,
  baseline: { endDate: string; budget: number | null },
  forecast: { endDate: string | null; cost: number | null },
): ProjectStatus | null {
  switch (phase) {
    case 'Scoping/Planning':
      return 'PLANNED';
    case 'Close-Out':
      return 'COMPLETED';
    case 'Design':
    case 'Construction Procurement':
    case 'Construction':
    case 'IT': {
      const slip = forecast.endDate ? daysBetween(baseline.endDate, forecast.endDate) : 0;
      const overrun =
        baseline.budget && forecast.cost !== null ? (forecast.cost - baseline.budget) / baseline.budget : 0;
      if (slip <= 0 && overrun <= 0) return 'ON_TRACK';
      if (slip > SLIP_OFF_TRACK_DAYS || overrun > OVERRUN_OFF_TRACK) return 'OFF_TRACK';
      return 'AT_RISK';
    }
    default:
      return null;
  }
}

/** Options of {@link importNycCapitalProjects}. */
export interface ImportOptions {
  /** Called after each row with (rows done, rows total). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Imports the CSV text into the actor's tenant. Idempotent: a second run of the same file changes nothing.
 * @throws Error only when the file is not CSV with the dataset's header; bad rows are reported, not thrown.
 */
export async function importNycCapitalProjects(
  deps: BaseDeps,
  projects: ProjectService,
  actor: Actor,
  csvText: string | Buffer,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const records = parse(csvText, { columns: true, info: true, bom: true, skip_empty_lines: true }) as {
    record: Cell;
    info: { lines: number };
  }[];
  const first = records[0]?.record;
  if (first && !('PID' in first && 'Date Reported As Of' in first)) {
    throw new Error('not the NYC capital projects CSV: the PID and Date Reported As Of columns are missing');
  }
  const report: ImportReport = {
    rowsRead: records.length,
    projectsCreated: 0,
    rowsUpdated: 0,
    rowsUnchanged: 0,
    rowsAlreadyImported: 0,
    skipped: [],
    partial: [],
  };
  const rows: ParsedRow[] = [];
  for (const { record, info } of records) {
    const parsed = parseRow(record, info.lines);
    if ('reason' in parsed) report.skipped.push(parsed);
    else rows.push(parsed);
  }
  // Replay order: report date, then PID, then file order (stable sort).
  rows.sort((a, b) => a.reportedOn.localeCompare(b.reportedOn) || Number(a.pid) - Number(b.pid));

  let done = report.skipped.length;
  const progress = () => options.onProgress?.(++done, records.length);
  for (const row of rows) {
    const code = `NYC-${row.pid}`;
    const checkpoint = await getCheckpoint(deps.db.knex, actor.tenantId, NYC_SOURCE, code);
    if (checkpoint !== null && row.reportedOn <= checkpoint) {
      report.rowsAlreadyImported++;
      progress();
      continue;
    }
    const existing = await projects.findByCode(actor, code);
    const outcome = existing
      ? await applyUpdate(projects, actor, existing, row, report)
      : await applyCreate(projects, actor, code, row, report);
    if (outcome !== 'skipped') {
      await setCheckpoint(deps.db.knex, actor.tenantId, NYC_SOURCE, code, row.reportedOn);
    }
    progress();
  }
  return report;
}

async function applyCreate(
  projects: ProjectService,
  actor: Actor,
  code: string,
  row: ParsedRow,
  report: ImportReport,
): Promise<'created' | 'skipped'> {
  const skip = (reason: string) => {
    report.skipped.push({ line: row.line, pid: row.pid, reason });
    return 'skipped' as const;
  };
  if (!row.designStart) return skip('first report of the project has no Design Start (needed for startDate)');
  if (!row.forecastCompletion)
    return skip('first report of the project has no Forecast Completion (needed for endDate)');
  if (row.forecastCompletion < row.designStart) {
    return skip(`Forecast Completion ${row.forecastCompletion} is before Design Start ${row.designStart}`);
  }
  const status =
    statusForReport(
      row.phase,
      { endDate: row.forecastCompletion, budget: row.budgetForecast },
      { endDate: null, cost: null },
    ) ?? 'PLANNED';
  await projects.create(actor, {
    code,
    name: row.name,
    description: row.description,
    startDate: row.designStart,
    endDate: row.forecastCompletion,
    budget: row.budgetForecast,
    status,
    tags: row.tags,
  });
  if (row.budgetForecast === null) {
    report.partial.push({ line: row.line, pid: row.pid, reason: 'no Budget Forecast: budget left empty' });
  }
  report.projectsCreated++;
  return 'created';
}

async function applyUpdate(
  projects: ProjectService,
  actor: Actor,
  project: ProjectRecord,
  row: ParsedRow,
  report: ImportReport,
): Promise<'updated' | 'unchanged'> {
  const missing: string[] = [];
  const patch: ProjectUpdateInput = { name: row.name, description: row.description, tags: row.tags };
  if (row.designStart === null) missing.push('Design Start');
  else if (row.designStart <= project.endDate) patch.startDate = row.designStart;
  else
    missing.push(
      `Design Start ${row.designStart} after endDate ${project.endDate} (kept ${project.startDate})`,
    );
  if (row.forecastCompletion === null) missing.push('Forecast Completion');
  else patch.forecastEndDate = row.forecastCompletion;
  let budget = project.budget;
  if (row.budgetForecast === null) missing.push('Budget Forecast');
  else if (budget === null) patch.budget = budget = row.budgetForecast;
  else patch.forecastCost = row.budgetForecast;
  if (row.phase === null) missing.push('Current Phase');
  else {
    const status = statusForReport(
      row.phase,
      { endDate: project.endDate, budget },
      {
        endDate: patch.forecastEndDate ?? project.forecastEndDate,
        cost: patch.forecastCost ?? project.forecastCost,
      },
    );
    if (status === null) missing.push(`Current Phase "${row.phase}" is not a known phase`);
    else if (!canTransition(project.status, status)) {
      missing.push(
        `status ${project.status} → ${status} is not an allowed transition (kept ${project.status})`,
      );
    } else patch.status = status;
  }
  if (missing.length > 0) {
    report.partial.push({ line: row.line, pid: row.pid, reason: `not applied: ${missing.join('; ')}` });
  }
  try {
    const updated = await projects.update(actor, project.id, patch);
    if (updated.version === project.version) {
      report.rowsUnchanged++;
      return 'unchanged';
    }
    report.rowsUpdated++;
    return 'updated';
  } catch (err) {
    if (err instanceof AppError) throw new Error(`line ${row.line} (PID ${row.pid}): ${err.message}`);
    throw err;
  }
}
