/**
 * The reads of the Ask agent (services/ask/): the tenant's records filtered the way the intent rules ask, in a
 * deterministic order. Full-text search is in ./search.ts.
 */
import type { Knex } from 'knex';
import { type AllocationRecord, allocations } from './allocations.js';
import { type IssueRecord, issues } from './issues.js';
import { type MilestoneRecord, milestones } from './milestones.js';
import { facetKey, type ProjectRecord, type ProjectStatus, projects } from './projects.js';
import { type ResourceRecord, resources } from './resources.js';
import { type RiskRecord, risks } from './risks.js';
import type { Executor } from './sql.js';
import { isPostgres } from './sql.js';
import type { VersionedRecord, VersionedTable } from './versioned-table.js';

async function select<R extends VersionedRecord, F extends object>(
  table: VersionedTable<R, F>,
  db: Executor,
  tenantId: string,
  filter: (query: Knex.QueryBuilder) => void,
  order: readonly string[],
): Promise<R[]> {
  const query = table.query(db, tenantId);
  filter(query);
  const rows = (await query.orderBy(
    [...order, 'id'].map((column) => ({ column: table.col(column), order: 'asc' as const })),
  )) as Record<string, unknown>[];
  return rows.map(table.toRecord);
}

function whereIn(query: Knex.QueryBuilder, column: string, values: readonly string[] | undefined): void {
  if (values !== undefined) query.whereIn(column, [...values]);
}

/** How projects are filtered: every given condition must hold. */
export interface ProjectQuery {
  ids?: readonly string[] | undefined;
  /** Managed by one of these resources (`projectManagerId`). */
  managerIds?: readonly string[] | undefined;
  statuses?: readonly ProjectStatus[] | undefined;
  /** `forecastCost` above `budget` (both known). */
  overBudget?: boolean | undefined;
  /** `forecastEndDate` after `endDate` (forecast known). */
  late?: boolean | undefined;
  /**
   * Facet filters, all of which must hold: a descriptive field (`project_facets`, matched item by item and
   * case-insensitively; `agency` is the managing or the client agency) or `tags` (exact), having one of the values.
   */
  facets?: readonly { field: string; values: readonly string[] }[] | undefined;
  /** A money field at least `min` and/or at most `max` (a null value never qualifies). */
  money?: { field: 'budget' | 'forecastCost' | 'actualCost'; min?: number; max?: number } | undefined;
  /** Projects with a status report dated within [from, to] (of one of `statuses`, when given). */
  reported?: { from: string; to: string; statuses?: readonly string[] | undefined } | undefined;
}

const MONEY_COLUMNS = { budget: 'budget', forecastCost: 'forecast_cost', actualCost: 'actual_cost' } as const;

/** The tenant's projects matching the query, by name then id. */
export function findProjects(db: Executor, tenantId: string, q: ProjectQuery): Promise<ProjectRecord[]> {
  return select(
    projects,
    db,
    tenantId,
    (query) => {
      whereIn(query, projects.col('id'), q.ids);
      whereIn(query, projects.col('project_manager_id'), q.managerIds);
      whereIn(query, projects.col('status'), q.statuses);
      if (q.overBudget) {
        query
          .whereNotNull(projects.col('budget'))
          .whereNotNull(projects.col('forecast_cost'))
          .andWhereRaw('projects.forecast_cost > projects.budget');
      }
      if (q.late) {
        query
          .whereNotNull(projects.col('forecast_end_date'))
          .andWhereRaw('projects.forecast_end_date > projects.end_date');
      }
      if (q.money) {
        const column = projects.col(MONEY_COLUMNS[q.money.field]);
        query.whereNotNull(column);
        if (q.money.min !== undefined) query.where(column, '>=', q.money.min);
        if (q.money.max !== undefined) query.where(column, '<=', q.money.max);
      }
      if (q.reported) {
        const reports = db('status_reports')
          .select('project_id')
          .where('tenant_id', tenantId)
          .whereBetween('as_of', [q.reported.from, q.reported.to]);
        if (q.reported.statuses) reports.whereIn('status', [...q.reported.statuses]);
        query.whereIn(projects.col('id'), reports);
      }
      for (const { field, values } of q.facets ?? []) {
        if (field === 'tags') {
          query.andWhere((any) => {
            for (const tag of values) {
              if (isPostgres(db))
                any.orWhereRaw('(projects.tags)::jsonb @> ?::jsonb', [JSON.stringify([tag])]);
              else
                any.orWhereRaw('exists (select 1 from json_each(projects.tags) where json_each.value = ?)', [
                  tag,
                ]);
            }
          });
        } else {
          // A semi-join on the facets' primary key (tenant, facet, value, project): an equality on its prefix, so
          // the plan is an index range scan whatever the table statistics say.
          query.whereIn(
            projects.col('id'),
            db('project_facets')
              .select('project_id')
              .where('tenant_id', tenantId)
              .whereIn('facet', field === 'agency' ? ['managingAgency', 'clientAgency'] : [field])
              .whereIn(
                'value',
                values.map((v) => facetKey(v)),
              ),
          );
        }
      }
    },
    ['name'],
  );
}

/**
 * The values of the tenant's project facets as written in the projects (the vocabulary of facet filters): each item
 * of the descriptive fields' comma-separated lists, and each tag; one per field and lower-cased value, sorted.
 */
export async function projectFacetValues(
  db: Executor,
  tenantId: string,
): Promise<{ field: string; value: string }[]> {
  const rows = (await db('projects')
    .where('tenant_id', tenantId)
    .distinct('category', 'borough', 'managing_agency', 'client_agency')) as Record<string, string | null>[];
  const tagRows = isPostgres(db)
    ? (
        (await db.raw(
          'SELECT DISTINCT jsonb_array_elements_text((tags)::jsonb) AS tag FROM projects WHERE tenant_id = ?',
          [tenantId],
        )) as { rows: { tag: string }[] }
      ).rows
    : ((await db.raw(
        'SELECT DISTINCT json_each.value AS tag FROM projects, json_each(projects.tags) WHERE projects.tenant_id = ?',
        [tenantId],
      )) as { tag: string }[]);
  const seen = new Map<string, { field: string; value: string }>();
  const add = (field: string, value: string) => {
    const item = value.trim();
    const key = `${field}:${facetKey(item)}`;
    if (item && !seen.has(key)) seen.set(key, { field, value: item });
  };
  const columns: [string, string][] = [
    ['category', 'category'],
    ['borough', 'borough'],
    ['managingAgency', 'managing_agency'],
    ['clientAgency', 'client_agency'],
  ];
  for (const row of rows) {
    for (const [field, col] of columns) for (const item of (row[col] ?? '').split(',')) add(field, item);
  }
  for (const { tag } of tagRows) add('tags', String(tag));
  return [...seen.values()].sort((a, b) => (a.field + a.value < b.field + b.value ? -1 : 1));
}

/** How risks are filtered. */
export interface RiskQuery {
  ids?: readonly string[] | undefined;
  ownerIds?: readonly string[] | undefined;
  projectIds?: readonly string[] | undefined;
  statuses?: readonly string[] | undefined;
  severities?: readonly string[] | undefined;
}

/** The tenant's risks matching the query, by project then title. */
export function findRisks(db: Executor, tenantId: string, q: RiskQuery): Promise<RiskRecord[]> {
  return select(
    risks,
    db,
    tenantId,
    (query) => {
      whereIn(query, risks.col('id'), q.ids);
      whereIn(query, risks.col('owner_id'), q.ownerIds);
      whereIn(query, risks.col('project_id'), q.projectIds);
      whereIn(query, risks.col('status'), q.statuses);
      whereIn(query, risks.col('severity'), q.severities);
    },
    ['project_id', 'title'],
  );
}

/** How issues are filtered. */
export interface IssueQuery {
  ids?: readonly string[] | undefined;
  assigneeIds?: readonly string[] | undefined;
  projectIds?: readonly string[] | undefined;
  statuses?: readonly string[] | undefined;
  priorities?: readonly string[] | undefined;
}

/** The tenant's issues matching the query, by project then title. */
export function findIssues(db: Executor, tenantId: string, q: IssueQuery): Promise<IssueRecord[]> {
  return select(
    issues,
    db,
    tenantId,
    (query) => {
      whereIn(query, issues.col('id'), q.ids);
      whereIn(query, issues.col('assignee_id'), q.assigneeIds);
      whereIn(query, issues.col('project_id'), q.projectIds);
      whereIn(query, issues.col('status'), q.statuses);
      whereIn(query, issues.col('priority'), q.priorities);
    },
    ['project_id', 'title'],
  );
}

/** How milestones are filtered; `missedBy` keeps MISSED ones and PENDING ones due before that date. */
export interface MilestoneQuery {
  ids?: readonly string[] | undefined;
  projectIds?: readonly string[] | undefined;
  missedBy?: string | undefined;
}

/** The tenant's milestones matching the query, by due date then name. */
export function findMilestones(
  db: Executor,
  tenantId: string,
  q: MilestoneQuery,
): Promise<MilestoneRecord[]> {
  return select(
    milestones,
    db,
    tenantId,
    (query) => {
      whereIn(query, milestones.col('id'), q.ids);
      whereIn(query, milestones.col('project_id'), q.projectIds);
      if (q.missedBy !== undefined) {
        const by = q.missedBy;
        query.andWhere((w) =>
          w
            .where(milestones.col('status'), 'MISSED')
            .orWhere((p) =>
              p.where(milestones.col('status'), 'PENDING').andWhere(milestones.col('due_date'), '<', by),
            ),
        );
      }
    },
    ['due_date', 'name'],
  );
}

/** The tenant's resources with these ids, by name. */
export function findResources(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<ResourceRecord[]> {
  return select(resources, db, tenantId, (query) => whereIn(query, resources.col('id'), ids), ['name']);
}

/** The tenant's allocations, optionally of some projects or resources, by start date. */
export function findAllocations(
  db: Executor,
  tenantId: string,
  q: {
    projectIds?: readonly string[] | undefined;
    resourceIds?: readonly string[] | undefined;
    ids?: readonly string[] | undefined;
  },
): Promise<AllocationRecord[]> {
  return select(
    allocations,
    db,
    tenantId,
    (query) => {
      whereIn(query, allocations.col('id'), q.ids);
      whereIn(query, allocations.col('project_id'), q.projectIds);
      whereIn(query, allocations.col('resource_id'), q.resourceIds);
    },
    ['start_date'],
  );
}

/** The date of the tenant's newest status report, or null when it has none. */
export async function latestReportDate(db: Executor, tenantId: string): Promise<string | null> {
  const row = (await db('status_reports').where('tenant_id', tenantId).max('as_of as latest').first()) as
    | { latest: string | null }
    | undefined;
  return row?.latest ?? null;
}

/** The kinds of record a tenant may have none of, and so whose absence an answer states. */
export type RecordKind = 'milestones' | 'risks' | 'issues' | 'resources' | 'allocations';

/** Which of these kinds of record the tenant has at least one of (one indexed probe per table). */
export async function recordKindsPresent(
  db: Executor,
  tenantId: string,
  kinds: readonly RecordKind[],
): Promise<Set<RecordKind>> {
  const present = new Set<RecordKind>();
  for (const kind of kinds) {
    if (await db(kind).where('tenant_id', tenantId).first('id')) present.add(kind);
  }
  return present;
}

/** The ids of the tenant's projects that have a milestone of this name. */
export async function projectsWithMilestoneNamed(
  db: Executor,
  tenantId: string,
  name: string,
): Promise<string[]> {
  const rows = (await db('milestones').where({ tenant_id: tenantId, name }).distinct('project_id')) as {
    project_id: string;
  }[];
  return rows.map((r) => r.project_id);
}
