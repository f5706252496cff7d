/**
 * What the agents read (docs/agents.md, "Agents", Memory: page or stream through records, never load a tenant
 * twice): each table of the tenant, or of one project, in pages of a bounded size, ordered by an index so each page
 * is one index range
 * (keyset pagination on the row value `(created_at, id)`, or `(project_id, created_at, id)` for milestones, which is
 * how their index is laid out). Rows become records through the tables' own mappers (the SQLite/Postgres
 * normalisation lives there once). An agent run calls each scan at most once.
 */
import type { Knex } from 'knex';
import { type AllocationRecord, allocations } from './allocations.js';
import { type IssueRecord, issues } from './issues.js';
import { type MilestoneRecord, milestones } from './milestones.js';
import { type ProjectRecord, projects } from './projects.js';
import { type ResourceRecord, resources } from './resources.js';
import { type RiskRecord, risks } from './risks.js';
import type { Executor } from './sql.js';
import { settingsOf } from './tenants.js';
import type { VersionedRecord, VersionedTable } from './versioned-table.js';

/** Rows per page of a scan. */
export const SCAN_PAGE_SIZE = 1_000;

/** What a scan is restricted to: the whole tenant, or one project's records. */
export interface ScanScope {
  tenantId: string;
  /** Only this project's records (its own row, for projects). */
  projectId?: string | undefined;
}

async function* scan<R extends VersionedRecord>(
  db: Executor,
  // biome-ignore lint/suspicious/noExplicitAny: a scan works over any versioned table's mapper
  table: VersionedTable<R, any>,
  scope: ScanScope,
  keyColumns: readonly string[],
  restrict: (query: Knex.QueryBuilder) => void,
  pageSize: number,
): AsyncGenerator<R[]> {
  let after: unknown[] | null = null;
  const qualified = keyColumns.map((c) => table.col(c));
  for (;;) {
    const query = table.query(db, scope.tenantId);
    restrict(query);
    if (after) {
      query.andWhereRaw(
        `(${qualified.join(', ')}) > (${qualified.map(() => '?').join(', ')})`,
        after as Knex.Value[],
      );
    }
    const rows = (await query.orderBy(qualified.map((column) => ({ column }))).limit(pageSize)) as Record<
      string,
      unknown
    >[];
    if (rows.length === 0) return;
    yield rows.map(table.toRecord);
    if (rows.length < pageSize) return;
    // SQLite's driver is synchronous: let timers (the job's heartbeat) run between pages.
    await new Promise((resolve) => setImmediate(resolve));
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = keyColumns.map((c) => last[c]);
  }
}

/** The scope's projects (one project, or every project of the tenant), a page at a time. */
export function scanProjects(
  db: Executor,
  scope: ScanScope,
  pageSize = SCAN_PAGE_SIZE,
): AsyncGenerator<ProjectRecord[]> {
  return scan(
    db,
    projects,
    scope,
    ['created_at', 'id'],
    (q) => {
      if (scope.projectId) q.andWhere(projects.col('id'), scope.projectId);
    },
    pageSize,
  );
}

/** The scope's milestones, a page at a time. */
export function scanMilestones(
  db: Executor,
  scope: ScanScope,
  pageSize = SCAN_PAGE_SIZE,
): AsyncGenerator<MilestoneRecord[]> {
  return scan(
    db,
    milestones,
    scope,
    ['project_id', 'created_at', 'id'],
    (q) => {
      if (scope.projectId) q.andWhere(milestones.col('project_id'), scope.projectId);
    },
    pageSize,
  );
}

/** The scope's risks, a page at a time. */
export function scanRisks(
  db: Executor,
  scope: ScanScope,
  pageSize = SCAN_PAGE_SIZE,
): AsyncGenerator<RiskRecord[]> {
  return scan(
    db,
    risks,
    scope,
    ['created_at', 'id'],
    (q) => {
      if (scope.projectId) q.andWhere(risks.col('project_id'), scope.projectId);
    },
    pageSize,
  );
}

/** The scope's issues, a page at a time. */
export function scanIssues(
  db: Executor,
  scope: ScanScope,
  pageSize = SCAN_PAGE_SIZE,
): AsyncGenerator<IssueRecord[]> {
  return scan(
    db,
    issues,
    scope,
    ['created_at', 'id'],
    (q) => {
      if (scope.projectId) q.andWhere(issues.col('project_id'), scope.projectId);
    },
    pageSize,
  );
}

/**
 * The allocations the capacity analysis needs, a page at a time: every allocation of the tenant overlapping
 * [from, to]; for one project, every allocation (on any project) of the resources allocated to that project in the
 * window, since a person's utilisation counts all their work.
 */
export function scanAllocations(
  db: Executor,
  scope: ScanScope,
  window: { from: string; to: string },
  pageSize = SCAN_PAGE_SIZE,
): AsyncGenerator<AllocationRecord[]> {
  return scan(
    db,
    allocations,
    scope,
    ['created_at', 'id'],
    (q) => {
      q.andWhere(allocations.col('end_date'), '>=', window.from).andWhere(
        allocations.col('start_date'),
        '<=',
        window.to,
      );
      if (scope.projectId) {
        q.whereIn(
          allocations.col('resource_id'),
          db('allocations as a2')
            .select('a2.resource_id')
            .where({ 'a2.tenant_id': scope.tenantId, 'a2.project_id': scope.projectId })
            .andWhere('a2.end_date', '>=', window.from)
            .andWhere('a2.start_date', '<=', window.to),
        );
      }
    },
    pageSize,
  );
}

/** Resources of the tenant (all, or those with these ids), a page at a time. */
export function scanResources(
  db: Executor,
  scope: ScanScope,
  ids?: readonly string[],
  pageSize = SCAN_PAGE_SIZE,
): AsyncGenerator<ResourceRecord[]> {
  return scan(
    db,
    resources,
    { tenantId: scope.tenantId },
    ['created_at', 'id'],
    (q) => {
      if (ids) q.whereIn(resources.col('id'), ids.length > 0 ? [...ids] : ['']);
    },
    pageSize,
  );
}

/** The tenant's currency and time zone. */
export async function tenantSettings(
  db: Executor,
  tenantId: string,
): Promise<{ currency: string; timezone: string; llmEnabled: boolean } | null> {
  const row = (await db('tenants').where({ id: tenantId }).first('currency', 'timezone', 'settings')) as
    | { currency: string; timezone: string; settings: unknown }
    | undefined;
  return row
    ? { currency: row.currency, timezone: row.timezone, llmEnabled: settingsOf(row.settings).llmEnabled }
    : null;
}
