/**
 * THE MAPPING of the NYC capital projects dataset (docs/resources.md, Status reports: the NYC importer): every decision
 * about what a CSV column becomes, and when, is one entry of {@link MAPPING}. The importer counts the rows each
 * decision affected and returns the table with its counts, which `npm run cli -- import` prints; the status rule
 * the table states is {@link statusForReport}. Nothing is invented: a value the CSV lacks is null (or, for the
 * project, left as it is), never a default.
 */

import { daysBetween } from '../../dates.js';
import type { ProjectStatus } from '../../repositories/projects.js';

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

/** One line of the mapping table with the rows it affected in this run. */
export type MappingCount = MappingRule & { rows: number };

/** The decision that counts each judged status (see {@link statusForReport}). */
export const STATUS_DECISION: Partial<Record<ProjectStatus, MappingId>> = {
  PLANNED: 'statusPlanned',
  ON_TRACK: 'statusOnTrack',
  AT_RISK: 'statusAtRisk',
  OFF_TRACK: 'statusOffTrack',
};

/** Slip (days) and overrun (fraction of budget) above which a report is OFF_TRACK. */
const SLIP_OFF_TRACK_DAYS = 180;
const OVERRUN_OFF_TRACK = 0.1;

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
