/**
 * What each row of the NYC dataset becomes (docs/resources.md, Status reports: the NYC importer): the project a PID's
 * reports plan (its baseline from the first values reported), the status report a row is, and what a newest report
 * changes of its project. Each decision taken is pushed onto the row's tally by its `MAPPING` id (./mapping.ts).
 */
import type { ProjectRecord } from '../../repositories/projects.js';
import type { ProjectCreateInput, ProjectUpdateInput } from '../../services/projects.js';
import type { StatusReportInput } from '../../services/status-reports.js';
import type { ParsedRow } from './csv.js';
import { type MappingId, STATUS_DECISION, statusForReport } from './mapping.js';

/** What a PID's reports say about its project before any is replayed (first values reported, in date order). */
export interface ProjectPlan {
  code: string;
  name: string;
  startDate: string;
  endDate: string;
  budget: number | null;
  startFromLater: boolean;
  endFromLater: boolean;
  budgetFromLater: boolean;
}

/** The project a PID's reports describe, or the reason none can be made (rows in date order). */
export function planProject(
  pid: string,
  rows: ParsedRow[],
): ProjectPlan | { skip: MappingId; detail: string } {
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
 * The project a PID's first stored report creates: the plan's baseline (start, finish, budget), the status that
 * report gives it (no event: a new project has no previous status; PLANNED when the report judges nothing) and the
 * report's description and descriptive fields.
 */
export function newProject(plan: ProjectPlan, row: ParsedRow, tally: MappingId[]): ProjectCreateInput {
  tally.push('baselineStart', 'baselineEnd', plan.budget === null ? 'baselineBudgetNull' : 'baselineBudget');
  if (plan.startFromLater) tally.push('baselineStartLater');
  if (plan.endFromLater) tally.push('baselineEndLater');
  if (plan.budgetFromLater) tally.push('baselineBudgetLater');
  return {
    code: plan.code,
    name: plan.name,
    description: row.description,
    startDate: plan.startDate,
    endDate: plan.endDate,
    budget: plan.budget,
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
  };
}

/** The status report a row is (see `MAPPING`), judged against the project's baseline, counting each decision. */
export function reportInput(row: ParsedRow, project: ProjectRecord, tally: MappingId[]): StatusReportInput {
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
export function descriptivePatch(
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
