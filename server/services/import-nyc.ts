/**
 * Importer for the NYC capital projects dataset (`datasets/nyc-capital-projects-2019-09-01.csv`): every CSV row is a
 * status report of the project its PID names, submitted through {@link StatusReportService} with its own date (issue
 * 10), so each report is kept, the newest one moves the project, and every change has its audit row and events.
 *
 * Every mapping decision is one entry of {@link MAPPING} (CSV column → Meridian field, and the rule); an import
 * counts the rows each decision affected and returns the table with its counts ({@link ImportReport.mapping}), which
 * `npm run cli -- import` prints. Nothing is invented: a value the CSV lacks is null (or, for the project, left as it
 * is), never a default.
 *
 * Exactly once: the rows of one PID are replayed in date order; each row is one transaction that stores the report
 * (and creates or updates the project) and writes the PID's checkpoint (the date of the last report applied), so a
 * crash leaves either both or neither, and a second run skips every row at or before its PID's checkpoint. The
 * checkpoint store is injected ({@link ImportOptions.checkpoints}); the crash test injects one that fails between
 * report and checkpoint.
 */
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { decodeHTML } from 'entities';
import { daysBetween } from '../dates.js';
import { getCheckpoint, setCheckpoint } from '../repositories/checkpoints.js';
import type { Executor } from '../repositories/common.js';
import { findProjectByCode, type ProjectRecord, type ProjectStatus } from '../repositories/projects.js';
import type { Actor, BaseDeps } from './context.js';
import { AppError } from './errors.js';
import type { ProjectService, ProjectUpdateInput } from './projects.js';
import type { StatusReportInput, StatusReportService } from './status-reports.js';
import { inWrite } from './versioned.js';

/** The checkpoint source of this dataset (per tenant and PID code). */
export const NYC_SOURCE = 'nyc-capital-projects';

/** One decision of the mapping: what a CSV column becomes, and when. `nulls` names the field it leaves null. */
export interface MappingRule {
  id: string;
  column: string;
  field: string;
  rule: string;
  /** The Meridian field this decision leaves null (for the "fields null by reason" summary). */
  nulls?: string;
  /** True for the decisions that skip a row. */
  skips?: boolean;
}

/**
 * THE MAPPING, in one place. Status health: against the project's baseline (`endDate`, `budget`), a forecast finish
 * more than 180 days late or a forecast cost more than 10 % over is OFF_TRACK; any slip or overrun below that is
 * AT_RISK; none is ON_TRACK.
 */
export const MAPPING = [
  {
    id: 'pid',
    column: 'PID',
    field: 'project `code`',
    rule: '`NYC-<PID>`: the project all reports of the PID belong to',
  },
  {
    id: 'asOf',
    column: 'Date Reported As Of',
    field: 'report `asOf`',
    rule: 'MM/DD/YYYY (time of day dropped) → YYYY-MM-DD; reports are replayed in this order',
  },
  { id: 'source', column: '(file name)', field: 'report `source`', rule: '`import:<file name>`' },
  {
    id: 'name',
    column: 'Project Name',
    field: 'project `name`',
    rule: "the newest report's name (empty: unchanged)",
  },
  {
    id: 'description',
    column: 'Description',
    field: 'project `description`',
    rule: "HTML entities decoded; the newest report's",
  },
  {
    id: 'descriptionNull',
    column: 'Description',
    field: 'project `description`',
    rule: 'empty cell: unchanged (null for a new project)',
  },
  {
    id: 'descriptive',
    column: 'Category, Borough, Managing Agency, Client Agency',
    field: 'project `category`, `borough`, `managingAgency`, `clientAgency`',
    rule: 'verbatim (lists stay comma-separated; filtered item by item); also the project `tags` (cells of ≤ 50 characters)',
  },
  {
    id: 'boroughNull',
    column: 'Borough',
    field: 'project `borough`',
    rule: 'empty cell',
    nulls: 'project borough',
  },
  {
    id: 'clientAgencyNull',
    column: 'Client Agency',
    field: 'project `clientAgency`',
    rule: 'empty cell',
    nulls: 'project clientAgency',
  },
  {
    id: 'baselineStart',
    column: 'Design Start',
    field: 'project `startDate`',
    rule: 'the first Design Start the PID reports (counted on the report that creates the project)',
  },
  {
    id: 'baselineStartLater',
    column: 'Design Start',
    field: 'project `startDate`',
    rule: 'the first report has none: the first one a later report of the PID gives',
  },
  {
    id: 'startMoved',
    column: 'Design Start',
    field: 'project `startDate`',
    rule: 'a later report with another Design Start moves startDate',
  },
  {
    id: 'startKept',
    column: 'Design Start',
    field: 'project `startDate`',
    rule: 'a later Design Start after the baseline finish: startDate kept (a start after the end is refused)',
  },
  {
    id: 'baselineEnd',
    column: 'Forecast Completion',
    field: 'project `endDate` (baseline finish)',
    rule: 'the first Forecast Completion the PID reports',
  },
  {
    id: 'baselineEndLater',
    column: 'Forecast Completion',
    field: 'project `endDate`',
    rule: 'the first report has none: the first one a later report of the PID gives',
  },
  {
    id: 'forecastEnd',
    column: 'Forecast Completion',
    field: "report `forecastEndDate` (and the project's)",
    rule: 'as reported',
  },
  {
    id: 'forecastEndNull',
    column: 'Forecast Completion',
    field: 'report `forecastEndDate`',
    rule: 'empty cell: not reported (the project keeps its forecast)',
    nulls: 'report forecastEndDate',
  },
  {
    id: 'baselineBudget',
    column: 'Budget Forecast',
    field: 'project `budget` (baseline)',
    rule: 'the first Budget Forecast (≥ 0) the PID reports',
  },
  {
    id: 'baselineBudgetLater',
    column: 'Budget Forecast',
    field: 'project `budget`',
    rule: 'the first report has none: the first one a later report of the PID gives',
  },
  {
    id: 'baselineBudgetNull',
    column: 'Budget Forecast',
    field: 'project `budget`',
    rule: 'the PID never reports a Budget Forecast ≥ 0',
    nulls: 'project budget',
  },
  {
    id: 'forecastCost',
    column: 'Budget Forecast',
    field: "report `forecastCost` (and the project's)",
    rule: 'as reported',
  },
  {
    id: 'forecastCostNull',
    column: 'Budget Forecast',
    field: 'report `forecastCost`',
    rule: 'empty cell: not reported',
    nulls: 'report forecastCost',
  },
  {
    id: 'forecastCostInvalid',
    column: 'Budget Forecast',
    field: 'report `forecastCost`',
    rule: 'not an amount ≥ 0 (a negative forecast): not reported',
    nulls: 'report forecastCost',
  },
  {
    id: 'phase',
    column: 'Current Phase',
    field: 'report `phase`',
    rule: 'verbatim (free text: Design, Construction Procurement, Construction, IT, Close-Out, Scoping/Planning)',
  },
  {
    id: 'phaseNull',
    column: 'Current Phase',
    field: 'report `phase`',
    rule: 'empty cell',
    nulls: 'report phase',
  },
  {
    id: 'statusPlanned',
    column: 'Current Phase',
    field: 'report `status` PLANNED',
    rule: 'Scoping/Planning',
  },
  {
    id: 'statusOnTrack',
    column: 'Current Phase, Forecast Completion, Budget Forecast',
    field: 'report `status` ON_TRACK',
    rule: 'any other phase (or none), no slip and no overrun',
  },
  {
    id: 'statusAtRisk',
    column: 'Current Phase, Forecast Completion, Budget Forecast',
    field: 'report `status` AT_RISK',
    rule: 'any other phase (or none), a slip ≤ 180 days or an overrun ≤ 10 %',
  },
  {
    id: 'statusOffTrack',
    column: 'Current Phase, Forecast Completion, Budget Forecast',
    field: 'report `status` OFF_TRACK',
    rule: 'any other phase (or none), a slip > 180 days or an overrun > 10 %',
  },
  {
    id: 'statusUnchanged',
    column: 'Current Phase, Forecast Completion, Budget Forecast',
    field: "report `status` = the project's",
    rule: 'no phase that decides it and neither forecast reported: nothing to judge health on',
  },
  {
    id: 'budgetChangeLatest',
    column: 'Latest Budget Changes',
    field: 'report `budgetChangeLatest`',
    rule: 'as reported',
  },
  {
    id: 'budgetChangeLatestNull',
    column: 'Latest Budget Changes',
    field: 'report `budgetChangeLatest`',
    rule: 'empty cell (or not a number)',
    nulls: 'report budgetChangeLatest',
  },
  {
    id: 'budgetChangeTotal',
    column: 'Total Budget Changes',
    field: 'report `budgetChangeTotal`',
    rule: 'as reported',
  },
  {
    id: 'budgetChangeTotalNull',
    column: 'Total Budget Changes',
    field: 'report `budgetChangeTotal`',
    rule: 'empty cell (or not a number)',
    nulls: 'report budgetChangeTotal',
  },
  {
    id: 'scheduleChangeLatest',
    column: 'Latest Schedule Changes',
    field: 'report `scheduleChangeLatestDays`',
    rule: 'as reported (days)',
  },
  {
    id: 'scheduleChangeLatestNull',
    column: 'Latest Schedule Changes',
    field: 'report `scheduleChangeLatestDays`',
    rule: 'empty cell (or not a whole number)',
    nulls: 'report scheduleChangeLatestDays',
  },
  {
    id: 'scheduleChangeTotal',
    column: 'Total Schedule Changes',
    field: 'report `scheduleChangeTotalDays`',
    rule: 'as reported (days)',
  },
  {
    id: 'scheduleChangeTotalNull',
    column: 'Total Schedule Changes',
    field: 'report `scheduleChangeTotalDays`',
    rule: 'empty cell (or not a whole number)',
    nulls: 'report scheduleChangeTotalDays',
  },
  {
    id: 'actualCostNull',
    column: '(none)',
    field: 'report `actualCost`; project `actualCost` stays null',
    rule: 'the CSV has no actual cost',
    nulls: 'report actualCost',
  },
  {
    id: 'progressNull',
    column: '(none)',
    field: 'report `progress`; project `progress` stays null',
    rule: 'the CSV has no percent complete',
    nulls: 'report progress',
  },
  {
    id: 'summaryNull',
    column: '(none)',
    field: 'report `summary`',
    rule: 'the CSV has no narrative per report',
    nulls: 'report summary',
  },
  { id: 'skipBadPid', column: 'PID', field: '(row skipped)', rule: 'missing or not a number', skips: true },
  {
    id: 'skipBadDate',
    column: 'Date Reported As Of',
    field: '(row skipped)',
    rule: 'not a MM/DD/YYYY date',
    skips: true,
  },
  {
    id: 'skipNoStart',
    column: 'Design Start',
    field: '(row skipped)',
    rule: 'the PID never reports a Design Start: a project needs a start date and none is invented',
    skips: true,
  },
  {
    id: 'skipNoEnd',
    column: 'Forecast Completion',
    field: '(row skipped)',
    rule: 'the PID never reports a Forecast Completion: a project needs a finish date and none is invented',
    skips: true,
  },
  {
    id: 'skipEndBeforeStart',
    column: 'Design Start, Forecast Completion',
    field: '(row skipped)',
    rule: "the PID's first Forecast Completion is before its first Design Start",
    skips: true,
  },
  {
    id: 'skipNoName',
    column: 'Project Name',
    field: '(row skipped)',
    rule: 'the PID never reports a Project Name (or only ones over 200 characters)',
    skips: true,
  },
  {
    id: 'skipRefused',
    column: '(any)',
    field: '(row skipped)',
    rule: 'the service refused the report (e.g. the status of a project someone CANCELLED): nothing stored, tried again by the next run',
    skips: true,
  },
] as const satisfies readonly MappingRule[];

/** The id of a mapping decision. */
export type MappingId = (typeof MAPPING)[number]['id'];

/** A row that was skipped, with its 1-based line in the file. */
export interface ImportNote {
  line: number;
  pid: string;
  reason: string;
}

/** One line of the mapping table with the rows it affected in this run. */
export type MappingCount = MappingRule & { rows: number };

/** What an import did. */
export interface ImportReport {
  /** The report `source` (`import:<file name>`). */
  source: string;
  rowsRead: number;
  projectsCreated: number;
  /** Reports stored by this run (each CSV row that became a report). */
  reportsStored: number;
  /** Of those, the ones older than a report the project already had (kept as history only). */
  reportsHistoryOnly: number;
  /** Rows at or before their PID's checkpoint: stored by an earlier run, skipped. */
  rowsAlreadyImported: number;
  /** Rows skipped, each with its line and reason. */
  skipped: ImportNote[];
  /** Skipped rows counted by reason (the `rule` of the mapping decision). */
  skippedByReason: Record<string, number>;
  /** Fields left null, counted by field and reason. */
  nullFields: { field: string; reason: string; rows: number }[];
  /** The mapping table with the rows each decision affected in this run. */
  mapping: MappingCount[];
}

/** Reads and writes the per-PID checkpoint; injected so a test can fail between a report and its checkpoint. */
export interface CheckpointStore {
  get(db: Executor, tenantId: string, source: string, externalId: string): Promise<string | null>;
  /** Called inside the row's transaction, after its report is stored. */
  set(db: Executor, tenantId: string, source: string, externalId: string, reportedOn: string): Promise<void>;
}

/** The checkpoints table (server/repositories/checkpoints.ts). */
export const checkpointTable: CheckpointStore = { get: getCheckpoint, set: setCheckpoint };

/** Options of {@link importNycCapitalProjects}. */
export interface ImportOptions {
  /** The file's name (the report source is `import:<basename>`). */
  fileName: string;
  /** Called after each row with (rows done, rows total). */
  onProgress?: (done: number, total: number) => void;
  /** Where checkpoints live (default: the checkpoints table). */
  checkpoints?: CheckpointStore;
}

/** The services an import goes through. */
export interface ImportServices {
  projects: ProjectService;
  statusReports: StatusReportService;
}

type Cell = Record<string, string | undefined>;

/** One CSV row, parsed; a cell that is empty or does not parse is null (the mapping counts why). */
interface ParsedRow {
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

/** What a PID's reports say about its project before any is replayed (first values reported, in date order). */
interface ProjectPlan {
  code: string;
  name: string;
  startDate: string;
  endDate: string;
  budget: number | null;
  startFromLater: boolean;
  endFromLater: boolean;
  budgetFromLater: boolean;
}

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

/**
 * The status a report implies (see {@link MAPPING}): PLANNED for Scoping/Planning; otherwise its health against the
 * baseline (`endDate`, `budget`) from the forecasts it gives; null when it gives neither forecast (nothing to judge).
 */
export function statusForReport(
  phase: string | null,
  baseline: { endDate: string; budget: number | null },
  forecast: { endDate: string | null; cost: number | null },
): ProjectStatus | null {
  if (phase === 'Scoping/Planning') return 'PLANNED';
  if (forecast.endDate === null && forecast.cost === null) return null;
  const slip = forecast.endDate ? daysBetween(baseline.endDate, forecast.endDate) : 0;
  const overrun =
    baseline.budget && forecast.cost !== null ? (forecast.cost - baseline.budget) / baseline.budget : 0;
  if (slip <= 0 && overrun <= 0) return 'ON_TRACK';
  if (slip > SLIP_OFF_TRACK_DAYS || overrun > OVERRUN_OFF_TRACK) return 'OFF_TRACK';
  return 'AT_RISK';
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

function parseRow(
  cells: Cell,
  line: number,
): ParsedRow | { line: number; pid: string; skip: MappingId; detail: string } {
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

/** The project a PID's reports describe, or the reason none can be made (rows in date order). */
function planProject(pid: string, rows: ParsedRow[]): ProjectPlan | { skip: MappingId; detail: string } {
  const first = <T>(pick: (r: ParsedRow) => T | null): T | null => {
    for (const r of rows) {
      const v = pick(r);
      if (v !== null) return v;
    }
    return null;
  };
  const startDate = first((r) => r.designStart);
  const endDate = first((r) => r.forecastCompletion);
  const name = first((r) => r.name);
  if (startDate === null) return { skip: 'skipNoStart', detail: '' };
  if (endDate === null) return { skip: 'skipNoEnd', detail: '' };
  if (endDate < startDate) return { skip: 'skipEndBeforeStart', detail: `${endDate} < ${startDate}` };
  if (name === null) return { skip: 'skipNoName', detail: '' };
  const head = rows[0] as ParsedRow;
  const budget = first((r) => r.budgetForecast);
  return {
    code: `NYC-${pid}`,
    name,
    startDate,
    endDate,
    budget,
    startFromLater: head.designStart === null,
    endFromLater: head.forecastCompletion === null,
    budgetFromLater: head.budgetForecast === null && budget !== null,
  };
}

/**
 * Imports the CSV text into the actor's tenant: every row of a PID that can have a project becomes one status report
 * (see {@link MAPPING}). Idempotent: a second run of the same file stores nothing and changes nothing.
 * @throws Error when the file is not CSV with the dataset's header; rows that cannot be used are reported, not thrown.
 */
export async function importNycCapitalProjects(
  deps: BaseDeps,
  services: ImportServices,
  actor: Actor,
  csvText: string | Buffer,
  options: ImportOptions,
): Promise<ImportReport> {
  const records = parse(csvText, { columns: true, info: true, bom: true, skip_empty_lines: true }) as {
    record: Cell;
    info: { lines: number };
  }[];
  const head = records[0]?.record;
  if (head && !('PID' in head && 'Date Reported As Of' in head)) {
    throw new Error('not the NYC capital projects CSV: the PID and Date Reported As Of columns are missing');
  }
  const checkpoints = options.checkpoints ?? checkpointTable;
  const source = `import:${path.basename(options.fileName)}` as const;
  const counts = new Map<MappingId, number>(MAPPING.map((m) => [m.id, 0]));
  const count = (id: MappingId, n = 1) => counts.set(id, (counts.get(id) ?? 0) + n);
  const report: Omit<ImportReport, 'skippedByReason' | 'nullFields' | 'mapping'> = {
    source,
    rowsRead: records.length,
    projectsCreated: 0,
    reportsStored: 0,
    reportsHistoryOnly: 0,
    rowsAlreadyImported: 0,
    skipped: [],
  };
  const skip = (line: number, pid: string, id: MappingId, detail = '') => {
    count(id);
    const rule = MAPPING.find((m) => m.id === id)?.rule ?? id;
    report.skipped.push({ line, pid, reason: detail ? `${rule} (${detail})` : rule });
  };

  const byPid = new Map<string, ParsedRow[]>();
  for (const { record, info } of records) {
    const parsed = parseRow(record, info.lines);
    if ('skip' in parsed) skip(parsed.line, parsed.pid, parsed.skip, parsed.detail);
    else byPid.set(parsed.pid, [...(byPid.get(parsed.pid) ?? []), parsed]);
  }
  const plans = new Map<string, ProjectPlan>();
  const rows: ParsedRow[] = [];
  for (const [pid, pidRows] of byPid) {
    pidRows.sort((a, b) => a.asOf.localeCompare(b.asOf) || a.line - b.line);
    const plan = planProject(pid, pidRows);
    if ('skip' in plan) {
      for (const r of pidRows) skip(r.line, pid, plan.skip, plan.detail);
      continue;
    }
    plans.set(pid, plan);
    rows.push(...pidRows);
  }
  // Replay order: report date, then PID, then file order, so events come out in the order things happened.
  rows.sort((a, b) => a.asOf.localeCompare(b.asOf) || Number(a.pid) - Number(b.pid) || a.line - b.line);

  let done = report.skipped.length;
  const progress = () => options.onProgress?.(++done, records.length);
  for (const row of rows) {
    const plan = plans.get(row.pid) as ProjectPlan;
    const checkpoint = await checkpoints.get(deps.db.knex, actor.tenantId, NYC_SOURCE, plan.code);
    if (checkpoint !== null && row.asOf <= checkpoint) {
      report.rowsAlreadyImported++;
      progress();
      continue;
    }
    const tally: MappingId[] = [];
    try {
      const outcome = await inWrite(deps, actor, async (w) => {
        let project = await findProjectByCode(w.trx, actor.tenantId, plan.code);
        const created = project === null;
        if (project === null) {
          project = await services.projects.createIn(w, {
            code: plan.code,
            name: plan.name,
            description: row.description,
            startDate: plan.startDate,
            endDate: plan.endDate,
            budget: plan.budget,
            // The status the first report gives it (no event: a new project has no previous status).
            status:
              statusForReport(
                row.phase,
                { endDate: plan.endDate, budget: plan.budget },
                { endDate: row.forecastCompletion, cost: row.budgetForecast },
              ) ?? 'PLANNED',
            tags: row.tags,
            category: row.category,
            borough: row.borough,
            managingAgency: row.managingAgency,
            clientAgency: row.clientAgency,
          });
          tally.push(
            'baselineStart',
            'baselineEnd',
            plan.budget === null ? 'baselineBudgetNull' : 'baselineBudget',
          );
          if (plan.startFromLater) tally.push('baselineStartLater');
          if (plan.endFromLater) tally.push('baselineEndLater');
          if (plan.budgetFromLater) tally.push('baselineBudgetLater');
        }
        const input = reportInput(row, project, tally);
        const stored = await services.statusReports.submitIn(w, project.id, input, source);
        if (stored.applied) {
          const patch = descriptivePatch(row, project, created, tally);
          if (Object.keys(patch).length > 0) await services.projects.updateIn(w, project.id, patch);
        }
        await checkpoints.set(w.trx, actor.tenantId, NYC_SOURCE, plan.code, row.asOf);
        return { created, applied: stored.applied };
      });
      for (const id of tally) count(id);
      report.reportsStored++;
      if (outcome.created) report.projectsCreated++;
      if (!outcome.applied) report.reportsHistoryOnly++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      skip(row.line, row.pid, 'skipRefused', err.message);
    }
    progress();
  }

  const mapping = MAPPING.map((m) => ({ ...m, rows: counts.get(m.id) ?? 0 }));
  const skippedByReason: Record<string, number> = {};
  for (const m of mapping) if ('skips' in m && m.rows > 0) skippedByReason[m.rule] = m.rows;
  const nullFields = mapping
    .filter((m) => 'nulls' in m && m.rows > 0)
    .map((m) => ({
      field: (m as MappingRule).nulls as string,
      reason: `${m.column}: ${m.rule}`,
      rows: m.rows,
    }));
  return { ...report, skippedByReason, nullFields, mapping };
}

const STATUS_DECISION: Partial<Record<ProjectStatus, MappingId>> = {
  PLANNED: 'statusPlanned',
  ON_TRACK: 'statusOnTrack',
  AT_RISK: 'statusAtRisk',
  OFF_TRACK: 'statusOffTrack',
};

/** The status report a row is (see {@link MAPPING}), judged against the project's baseline, counting each decision. */
function reportInput(row: ParsedRow, project: ProjectRecord, tally: MappingId[]): StatusReportInput {
  const judged = statusForReport(row.phase, project, {
    endDate: row.forecastCompletion,
    cost: row.budgetForecast,
  });
  const status = judged ?? project.status;
  tally.push(judged === null ? 'statusUnchanged' : (STATUS_DECISION[judged] as MappingId));
  tally.push('pid', 'asOf', 'source', 'actualCostNull', 'progressNull', 'summaryNull');
  tally.push(row.phase === null ? 'phaseNull' : 'phase');
  tally.push(row.forecastCompletion === null ? 'forecastEndNull' : 'forecastEnd');
  tally.push(
    row.budgetForecast !== null
      ? 'forecastCost'
      : row.budgetForecastInvalid
        ? 'forecastCostInvalid'
        : 'forecastCostNull',
  );
  tally.push(row.budgetChangeLatest === null ? 'budgetChangeLatestNull' : 'budgetChangeLatest');
  tally.push(row.budgetChangeTotal === null ? 'budgetChangeTotalNull' : 'budgetChangeTotal');
  tally.push(row.scheduleChangeLatest === null ? 'scheduleChangeLatestNull' : 'scheduleChangeLatest');
  tally.push(row.scheduleChangeTotal === null ? 'scheduleChangeTotalNull' : 'scheduleChangeTotal');
  return {
    asOf: row.asOf,
    status,
    phase: row.phase,
    forecastEndDate: row.forecastCompletion,
    forecastCost: row.budgetForecast,
    actualCost: null,
    progress: null,
    summary: null,
    budgetChangeLatest: row.budgetChangeLatest,
    budgetChangeTotal: row.budgetChangeTotal,
    scheduleChangeLatestDays: row.scheduleChangeLatest,
    scheduleChangeTotalDays: row.scheduleChangeTotal,
  };
}

/**
 * What a newest report changes of the project besides its status and forecasts: name, description, the descriptive
 * fields and tags, and a moved Design Start (not past the baseline finish). Empty cells leave fields as they are.
 */
function descriptivePatch(
  row: ParsedRow,
  project: ProjectRecord,
  created: boolean,
  tally: MappingId[],
): ProjectUpdateInput {
  tally.push('descriptive', row.description === null ? 'descriptionNull' : 'description');
  if (row.name !== null) tally.push('name');
  if (row.borough === null) tally.push('boroughNull');
  if (row.clientAgency === null) tally.push('clientAgencyNull');
  if (created) return {};
  const patch: ProjectUpdateInput = {
    tags: row.tags,
    category: row.category,
    borough: row.borough,
    managingAgency: row.managingAgency,
    clientAgency: row.clientAgency,
  };
  if (row.name !== null) patch.name = row.name;
  if (row.description !== null) patch.description = row.description;
  if (row.designStart !== null && row.designStart !== project.startDate) {
    if (row.designStart <= project.endDate) {
      patch.startDate = row.designStart;
      tally.push('startMoved');
    } else tally.push('startKept');
  }
  return patch;
}

/**
 * The import's outcome as text: totals, the mapping table with the rows each decision affected, skipped rows by
 * reason, fields left null by reason, then each skipped row with its line (what `npm run cli -- import` prints).
 */
export function formatImportReport(report: ImportReport): string {
  const lines = [
    `${report.source}: ${report.rowsRead} rows read, ${report.reportsStored} status reports stored ` +
      `(${report.reportsHistoryOnly} as history only), ${report.projectsCreated} projects created, ` +
      `${report.rowsAlreadyImported} already imported, ${report.skipped.length} skipped`,
    '',
    'mapping (rows affected by each decision in this run):',
  ];
  for (const m of report.mapping)
    lines.push(`  ${String(m.rows).padStart(5)}  ${m.column} → ${m.field}: ${m.rule}`);
  lines.push('', 'rows skipped, by reason:');
  for (const [reason, rows] of Object.entries(report.skippedByReason))
    lines.push(`  ${String(rows).padStart(5)}  ${reason}`);
  lines.push('', 'fields left null, by reason:');
  for (const n of report.nullFields) lines.push(`  ${String(n.rows).padStart(5)}  ${n.field} (${n.reason})`);
  if (report.skipped.length > 0) lines.push('');
  for (const note of report.skipped)
    lines.push(`skipped line ${note.line} (PID ${note.pid}): ${note.reason}`);
  return lines.join('\n');
}
