/**
 * Issues table: rows ⇄ the API's `Issue`.
 */
import type { ListFilter, Schema } from '../schemas.js';
import type { Page, PageRequest } from './lists.js';
import { type SortField, sortOrder } from './lists.js';
import type { Executor } from './sql.js';
import { column, VersionedTable } from './versioned-table.js';

/** An issue as stored and as the API shows it. */
export type IssueRecord = Schema<'Issue'>;

/** The writable fields of an issue. */
export type IssueFields = Omit<IssueRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

/** The issues table. */
export const issues = new VersionedTable<IssueRecord, IssueFields>({
  table: 'issues',
  fields: {
    projectId: column.text('project_id'),
    title: column.text('title'),
    description: column.optionalText('description'),
    status: column.text<Schema<'IssueStatus'>>('status'),
    priority: column.text<Schema<'IssuePriority'>>('priority'),
    assigneeId: column.optionalText('assignee_id'),
    dueDate: column.optionalText('due_date'),
    resolvedAt: column.optionalText('resolved_at'),
  },
});

/**
 * Filters of GET /issues: each given one restricts to exact matches (seed rule 1); `sort` (spec `IssueSort`;
 * default `createdAt`).
 */
export type IssueFilter = ListFilter<'listIssues'>;

/** What GET /issues sorts by (spec `IssueSort`), each served by an index; priority by rank, not alphabetically. */
const ISSUE_SORTS: Record<string, SortField> = {
  createdAt: { sql: issues.col('created_at') },
  priority: {
    sql: `CASE ${issues.col('priority')} WHEN 'LOW' THEN 1 WHEN 'MEDIUM' THEN 2 WHEN 'HIGH' THEN 3 WHEN 'CRITICAL' THEN 4 END`,
  },
};

/** A page of the tenant's issues, ordered by `filter.sort` (createdAt by default) then id. */
export function listIssues(
  db: Executor,
  tenantId: string,
  filter: IssueFilter,
  page: PageRequest,
): Promise<Page<IssueRecord>> {
  return issues.list(
    db,
    tenantId,
    page,
    (q) =>
      issues.whereEquals(q, {
        project_id: filter.projectId,
        status: filter.status,
        priority: filter.priority,
        assignee_id: filter.assigneeId,
        id: filter.id,
      }),
    sortOrder(db, filter.sort ?? 'createdAt', ISSUE_SORTS, issues.col('id')),
  );
}
