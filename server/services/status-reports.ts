/**
 * Status reports (docs/resources.md, Status reports): how a project stood on a date. Submitting one is how
 * a project's current state moves: in one transaction the report is stored and, when it is not older than the
 * project's newest report, its values are applied to the project through the one versioned write path (audit row,
 * `project.status_changed`, `budget.overrun_detected`, exactly as a PATCH); an older report is history only.
 */

import { v7 as uuidv7 } from 'uuid';
import { daysBetween } from '../dates.js';
import type { Page, PageRequest } from '../repositories/lists.js';
import { projects } from '../repositories/projects.js';
import {
  findStatusReport,
  insertStatusReport,
  latestStatusReport,
  listStatusReports,
  type StatusReportFilter,
  type StatusReportRecord,
  type StoredStatusReport,
  statusReportHistory,
} from '../repositories/status-reports.js';
import { findTenant } from '../repositories/tenants.js';
import type { ListFilter, Schema } from '../schemas.js';
import { diff, recordAudit } from './audit.js';
import type { Actor, ServiceDeps } from './context.js';
import { businessRule, notFound } from './errors.js';
import { costVarianceOf, type ProjectService, type ProjectUpdateInput } from './projects.js';
import { inWrite, type WriteContext } from './versioned.js';

export type { StatusReportRecord } from '../repositories/status-reports.js';

/** Body of POST /projects/{id}/status-reports (spec `StatusReportCreate`). */
export type StatusReportInput = Schema<'StatusReportCreate'>;

/** Where a report came from: `api`, or `import:<file>` for a dataset import (spec `StatusReport.source`). */
export type StatusReportSource = 'api' | `import:${string}`;

/** The report as the API shows it: the stored fields plus the two figures computed against its baseline. */
export function withFigures(report: StoredStatusReport): StatusReportRecord {
  return {
    ...report,
    scheduleSlipDays:
      report.forecastEndDate === null ? null : daysBetween(report.baselineEndDate, report.forecastEndDate),
    costVariance: costVarianceOf(report.baselineBudget, report.forecastCost),
  };
}

/** The project fields a report moves: its status, and each forecast, cost and progress it gives (null: not reported). */
function projectChangesOf(input: StatusReportInput): ProjectUpdateInput {
  const changes: ProjectUpdateInput = { status: input.status };
  if (input.forecastEndDate != null) changes.forecastEndDate = input.forecastEndDate;
  if (input.forecastCost != null) changes.forecastCost = input.forecastCost;
  if (input.actualCost != null) changes.actualCost = input.actualCost;
  if (input.progress != null) changes.progress = input.progress;
  return changes;
}

/** Status report use cases. */
export class StatusReportService {
  private readonly deps: ServiceDeps;
  private readonly projectService: ProjectService;

  /** @param options.projects the project service: a report moves its project through the one write path. */
  constructor(options: ServiceDeps & { projects: ProjectService }) {
    this.deps = options;
    this.projectService = options.projects;
  }

  /**
   * Submits a report of the project (source `api`). See {@link StatusReportService.submitIn}.
   * @throws AppError 404 unknown project; 409 `invalid_transition`; 422 `asOf` after today.
   */
  async submit(actor: Actor, projectId: string, input: StatusReportInput): Promise<StatusReportRecord> {
    return inWrite(this.deps, actor, (w) => this.submitIn(w, projectId, input, 'api'));
  }

  /**
   * Stores a report inside the caller's write and, when its `asOf` is on or after the newest report's, applies it to
   * the project (status; forecastEndDate, forecastCost, actualCost and progress when given) as a PATCH would. The
   * project row is locked first, so concurrent reports of one project decide "newest" one after the other. The
   * report keeps the baseline (endDate, budget) as it stood at `asOf`: the project's when the report is the newest,
   * else the baseline of the nearest earlier report (the project's when there is none). Audit rows:
   * `status_report.created`, and `project.updated` when the report changed the project.
   * @throws AppError 404 unknown project; 409 `invalid_transition` (the report would move a COMPLETED or CANCELLED
   *   project other than by a reopen; nothing is stored); 422 `asOf` after today in the tenant's time zone.
   */
  async submitIn(
    w: WriteContext,
    projectId: string,
    input: StatusReportInput,
    source: StatusReportSource,
  ): Promise<StatusReportRecord> {
    const { trx, actor } = w;
    const project = await projects.find(trx, actor.tenantId, projectId, { forUpdate: true });
    if (!project) throw notFound('project', projectId);
    // The authenticated request already holds the tenant's time zone (docs/design.md, The request pipeline: the
    // tenant is not read twice).
    const timeZone = actor.timeZone ?? (await findTenant(trx, actor.tenantId))?.timezone ?? 'UTC';
    const today = this.deps.calendar.today(timeZone, this.deps.clock.now());
    if (input.asOf > today) {
      throw businessRule(`asOf (${input.asOf}) is after today (${today}) in the tenant's time zone.`, [
        { location: 'body', path: '/asOf', message: 'must not be after today' },
      ]);
    }
    const newest = await latestStatusReport(trx, actor.tenantId, projectId);
    const applied = newest === null || input.asOf >= newest.asOf;
    const earlier = applied ? null : await latestStatusReport(trx, actor.tenantId, projectId, input.asOf);
    const report: StoredStatusReport = {
      id: uuidv7(),
      projectId,
      asOf: input.asOf,
      status: input.status,
      phase: input.phase ?? null,
      forecastEndDate: input.forecastEndDate ?? null,
      forecastCost: input.forecastCost ?? null,
      actualCost: input.actualCost ?? null,
      progress: input.progress ?? null,
      summary: input.summary ?? null,
      source,
      budgetChangeLatest: input.budgetChangeLatest ?? null,
      budgetChangeTotal: input.budgetChangeTotal ?? null,
      scheduleChangeLatestDays: input.scheduleChangeLatestDays ?? null,
      scheduleChangeTotalDays: input.scheduleChangeTotalDays ?? null,
      baselineEndDate: earlier?.baselineEndDate ?? project.endDate,
      baselineBudget: earlier ? earlier.baselineBudget : project.budget,
      applied,
      createdAt: w.now,
    };
    // Apply first: an invalid transition throws before anything of the report is written.
    if (applied) await this.projectService.updateIn(w, projectId, projectChangesOf(input));
    await insertStatusReport(trx, actor.tenantId, report);
    const { id, createdAt, ...fields } = report;
    await recordAudit(trx, actor, w.now, 'status_report.created', 'status_report', id, diff({}, fields));
    return withFigures(report);
  }

  /** One report of the caller's tenant. @throws AppError 404 when unknown in this tenant. */
  async get(actor: Actor, id: string): Promise<StatusReportRecord> {
    const report = await findStatusReport(this.deps.db.knex, actor.tenantId, id);
    if (!report) throw notFound('status report', id);
    return withFigures(report);
  }

  /** A page of one project's reports, newest first. @throws AppError 404 when the project is unknown. */
  async listForProject(
    actor: Actor,
    projectId: string,
    filter: ListFilter<'listProjectStatusReports'>,
    page: PageRequest,
  ): Promise<Page<StatusReportRecord>> {
    if (!(await projects.exists(this.deps.db.knex, actor.tenantId, projectId)))
      throw notFound('project', projectId);
    return this.list(actor, { ...filter, projectId }, page);
  }

  /** A page of the tenant's reports across projects, newest first. */
  async list(actor: Actor, filter: StatusReportFilter, page: PageRequest): Promise<Page<StatusReportRecord>> {
    const result = await listStatusReports(this.deps.db.knex, actor.tenantId, filter, page);
    return { items: result.items.map(withFigures), total: result.total };
  }

  /**
   * Every report of a project in `asOf` order (oldest first; same date by submission): the project's history, for
   * the agents. An unknown project has no reports (empty list).
   */
  async history(tenantId: string, projectId: string): Promise<StatusReportRecord[]> {
    return (await statusReportHistory(this.deps.db.knex, tenantId, projectId)).map(withFigures);
  }
}
