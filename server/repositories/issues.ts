/**
 * Issues table: rows ⇄ the API's `Issue`.
 */
import type { Schema } from '../schemas.js';
import type { Executor, Page, PageRequest } from './common.js';
import { column, VersionedTable } from './common.js';

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

/** Filters of GET /issues: each given one restricts to exact matches (seed rule 1). */
export interface IssueFilter {
  projectId?: string | undefined;
  status?: Schema<'IssueStatus'> | undefined;
  priority?: Schema<'IssuePriority'> | undefined;
  assigneeId?: string | undefined;
}

/** A page of the tenant's issues, ordered by createdAt then id. */
export function listIssues(
  db: Executor,
  tenantId: string,
  filter: IssueFilter,
  page: PageRequest,
): Promise<Page<IssueRecord>> {
  return issues.list(db, tenantId, page, (q) =>
    issues.whereEquals(q, {
      project_id: filter.projectId,
      status: filter.status,
      priority: filter.priority,
      assignee_id: filter.assigneeId,
    }),
  );
}
