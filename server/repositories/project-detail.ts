/**
 * The project detail view's rows in one statement per request (docs/design.md, "The request pipeline"): the project
 * with its tenant's currency, its milestones and its allocations (with their resource's name and role), the two
 * lists aggregated to JSON by the database — `json_group_array` on SQLite, `json_agg` on Postgres — by correlated
 * subqueries without bound parameters, so the statement binds tenant and id only and its text is built once. The
 * resource's fields come from scalar subqueries, not a join: SQLite re-plans a join with bound parameters on every run
 * (bench/results/profiles.md).
 */
import type { Knex } from 'knex';
import { inDueOrder, type MilestoneRecord, milestones } from './milestones.js';
import { type ProjectRecord, projects } from './projects.js';
import { type Executor, isPostgres, runSql, sqlOnce } from './sql.js';
import { type TeamAllocationRow, toTeamAllocations } from './team.js';

/** What the detail view reads of a project. */
export interface ProjectDetailRows {
  project: ProjectRecord;
  /** By due date, then id. */
  milestones: MilestoneRecord[];
  /** Oldest start first. */
  allocations: TeamAllocationRow[];
}

/** A JSON array of one object per row, in the dialect of `db`: `pairs` alternate key literals and expressions. */
function jsonArray(db: Executor, pairs: [string, string][], from: string): string {
  const body = pairs.map(([key, expr]) => `'${key}', ${expr}`).join(', ');
  return isPostgres(db)
    ? `(SELECT coalesce(json_agg(json_build_object(${body})), '[]'::json) FROM ${from})`
    : `(SELECT json_group_array(json_object(${body})) FROM ${from})`;
}

const resourceField = (field: string) =>
  `(SELECT r.${field} FROM resources r WHERE r.id = a.resource_id AND r.tenant_id = a.tenant_id)`;

/** The detail view's statement: tenant and id bound, in that order. */
const detailSql = sqlOnce((db: Executor, tenantId: string, id: string): Knex.QueryBuilder => {
  const milestonesJson = jsonArray(
    db,
    milestones.ownColumns.map((c) => [c, `m.${c}`]),
    'milestones m WHERE m.tenant_id = projects.tenant_id AND m.project_id = projects.id',
  );
  const teamJson = jsonArray(
    db,
    [
      ['id', 'a.id'],
      ['resource_id', 'a.resource_id'],
      ['resource_name', resourceField('name')],
      ['resource_role', resourceField('role')],
      ['role', 'a.role'],
      ['start_date', 'a.start_date'],
      ['end_date', 'a.end_date'],
      ['allocation_percent', 'a.allocation_percent'],
      ['created_at', 'a.created_at'],
    ],
    'allocations a WHERE a.tenant_id = projects.tenant_id AND a.project_id = projects.id',
  );
  return projects
    .query(db, tenantId)
    .andWhere(projects.col('id'), id)
    .select(db.raw(`${milestonesJson} AS detail_milestones`), db.raw(`${teamJson} AS detail_team`));
});

/** pg parses `json` columns; better-sqlite3 gives the text. */
function parsed(value: unknown): Record<string, unknown>[] {
  return (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as Record<string, unknown>[];
}

/** The project `id` of the tenant with its milestones and allocations, or null when the tenant has no such project. */
export async function projectDetailRows(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<ProjectDetailRows | null> {
  const [row] = await runSql(db, detailSql(db, tenantId, id), [tenantId, id]);
  if (!row) return null;
  return {
    project: projects.toRecord(row),
    milestones: inDueOrder(parsed(row.detail_milestones)),
    allocations: toTeamAllocations(parsed(row.detail_team)),
  };
}
