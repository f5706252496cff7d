/**
 * Status reports table: rows ⇄ the stored part of the API's `StatusReport` (the service adds the two figures
 * computed at read time, `scheduleSlipDays` and `costVariance`). Append-only: reports are inserted, never updated.
 */
import type { Knex } from 'knex';
import type { ListFilter, Schema } from '../schemas.js';
import { type Page, type PageRequest, paginate, whereAnyOf } from './lists.js';
import { indexRecord } from './search.js';
import type { Executor } from './sql.js';
import { toBoolean } from './values.js';
import { type Column, column } from './versioned-table.js';

/** A status report as the API shows it (spec `StatusReport`). */
export type StatusReportRecord = Schema<'StatusReport'>;

/** What the table stores of a report: everything but the figures computed from it at read time. */
export type StoredStatusReport = Omit<StatusReportRecord, 'scheduleSlipDays' | 'costVariance'>;

/** The columns of the stored fields (id and createdAt are mapped apart). */
const FIELDS: {
  [K in Exclude<keyof StoredStatusReport, 'id' | 'createdAt' | 'applied'>]-?: Column<StoredStatusReport[K]>;
} = {
  projectId: column.text('project_id'),
  asOf: column.text('as_of'),
  status: column.text<Schema<'ProjectStatus'>>('status'),
  phase: column.optionalText('phase'),
  forecastEndDate: column.optionalText('forecast_end_date'),
  forecastCost: column.optionalNumber('forecast_cost'),
  actualCost: column.optionalNumber('actual_cost'),
  progress: column.optionalNumber('progress'),
  summary: column.optionalText('summary'),
  source: column.text('source'),
  budgetChangeLatest: column.optionalNumber('budget_change_latest'),
  budgetChangeTotal: column.optionalNumber('budget_change_total'),
  scheduleChangeLatestDays: column.optionalNumber('schedule_change_latest_days'),
  scheduleChangeTotalDays: column.optionalNumber('schedule_change_total_days'),
  baselineEndDate: column.text('baseline_end_date'),
  baselineBudget: column.optionalNumber('baseline_budget'),
};

const TABLE = 'status_reports';

function toStored(row: Record<string, unknown>): StoredStatusReport {
  const out: Record<string, unknown> = { id: row.id };
  for (const [key, col] of Object.entries(FIELDS) as [string, Column<unknown>][])
    out[key] = col.read(row[col.name]);
  out.applied = toBoolean(row.applied);
  out.createdAt = row.created_at;
  return out as StoredStatusReport;
}

/** Newest first: `asOf` descending, then `createdAt` descending, then `id` (spec, listProjectStatusReports). */
const NEWEST_FIRST = [
  { column: 'as_of', order: 'desc' },
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/** Inserts one report (the caller's transaction) and returns it as stored. */
export async function insertStatusReport(
  db: Executor,
  tenantId: string,
  report: StoredStatusReport,
): Promise<StoredStatusReport> {
  const row: Record<string, unknown> = {
    id: report.id,
    tenant_id: tenantId,
    applied: report.applied,
    created_at: report.createdAt,
  };
  for (const [key, col] of Object.entries(FIELDS) as [keyof StoredStatusReport, Column<unknown>][]) {
    row[col.name] = col.write(report[key]);
  }
  await db(TABLE).insert(row);
  // The Ask agent's full-text index over report summaries, in the report's transaction (./search.ts).
  await indexRecord(db, 'status_report', tenantId, report.id);
  return report;
}

/** One report of the tenant, or null. */
export async function findStatusReport(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<StoredStatusReport | null> {
  const row = (await db(TABLE).where({ tenant_id: tenantId, id }).first()) as
    | Record<string, unknown>
    | undefined;
  return row ? toStored(row) : null;
}

/** Filters of the report lists: one project, and an inclusive `asOf` range (`YYYY-MM-DD`). */
export type StatusReportFilter = ListFilter<'listStatusReports'>;

function filtered(db: Executor, tenantId: string, filter: StatusReportFilter): Knex.QueryBuilder {
  const query = db(TABLE).where('tenant_id', tenantId).select('*');
  if (filter.projectId !== undefined) query.andWhere('project_id', filter.projectId);
  whereAnyOf(query, 'id', filter.id);
  if (filter.since !== undefined) query.andWhere('as_of', '>=', filter.since);
  if (filter.until !== undefined) query.andWhere('as_of', '<=', filter.until);
  return query;
}

/**
 * A page of the tenant's reports, newest first. Served by the (tenant, project, as_of, created_at, id) index with
 * a project, else by (tenant, as_of, created_at, id), read backwards: no sort.
 */
export function listStatusReports(
  db: Executor,
  tenantId: string,
  filter: StatusReportFilter,
  page: PageRequest,
): Promise<Page<StoredStatusReport>> {
  return paginate(filtered(db, tenantId, filter), page, toStored, NEWEST_FIRST);
}

/** Every report of a project, oldest first (`asOf`, then `createdAt`, then `id`): its history. */
export async function statusReportHistory(
  db: Executor,
  tenantId: string,
  projectId: string,
): Promise<StoredStatusReport[]> {
  const rows = (await filtered(db, tenantId, { projectId }).orderBy([
    { column: 'as_of', order: 'asc' },
    { column: 'created_at', order: 'asc' },
    { column: 'id', order: 'asc' },
  ])) as Record<string, unknown>[];
  return rows.map(toStored);
}

/**
 * The newest report of a project dated on or before `asOf` (all of them when `asOf` is undefined), or null: what
 * decides whether a new report is the newest, and the baseline a back-dated report is judged against.
 */
export async function latestStatusReport(
  db: Executor,
  tenantId: string,
  projectId: string,
  asOf?: string,
): Promise<StoredStatusReport | null> {
  const row = (await filtered(db, tenantId, { projectId, until: asOf })
    .orderBy(NEWEST_FIRST.map((k) => ({ ...k })))
    .first()) as Record<string, unknown> | undefined;
  return row ? toStored(row) : null;
}

/**
 * The tenant's reports (or one project's) dated on or before `until`, a page at a time, in (project, asOf, createdAt,
 * id) order — each project's history oldest first — by keyset pages along the (tenant, project, as_of, created_at, id)
 * index: what an agent run reads, once, without holding the rows of a page longer than the page.
 */
export async function* scanStatusReports(
  db: Executor,
  scope: { tenantId: string; projectId?: string | undefined },
  until: string,
  pageSize = 1_000,
): AsyncGenerator<StoredStatusReport[]> {
  const keys = ['project_id', 'as_of', 'created_at', 'id'] as const;
  let after: unknown[] | null = null;
  for (;;) {
    const query = filtered(db, scope.tenantId, { projectId: scope.projectId, until });
    if (after)
      query.andWhereRaw(`(${keys.join(', ')}) > (${keys.map(() => '?').join(', ')})`, after as Knex.Value[]);
    const rows = (await query.orderBy(keys.map((column) => ({ column }))).limit(pageSize)) as Record<
      string,
      unknown
    >[];
    if (rows.length === 0) return;
    yield rows.map(toStored);
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = keys.map((k) => last[k]);
    // SQLite's driver is synchronous: let timers (a job's heartbeat) run between pages.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
