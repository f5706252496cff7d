/**
 * Issues table. Maps rows to the API's `Issue` shape.
 */
import type { Executor, Page, PageRequest } from './common.js';
import { paginate, toColumnValues, updateVersionedRow } from './common.js';

export type IssueStatus = 'OPEN' | 'IN_PROGRESS' | 'RESOLVED' | 'CLOSED';
export type IssuePriority = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

/** An issue as stored and as the API shows it. */
export interface IssueRecord {
  id: string;
  projectId: string;
  title: string;
  description: string | null;
  status: IssueStatus;
  priority: IssuePriority;
  assigneeId: string | null;
  dueDate: string | null;
  resolvedAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The writable columns of an issue (camelCase). */
export type IssueFields = Omit<IssueRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

const COLUMNS: Record<keyof IssueFields, string> = {
  projectId: 'project_id',
  title: 'title',
  description: 'description',
  status: 'status',
  priority: 'priority',
  assigneeId: 'assignee_id',
  dueDate: 'due_date',
  resolvedAt: 'resolved_at',
};

type Row = Record<string, unknown>;

function toRecord(row: Row): IssueRecord {
  return {
    id: row.id as string,
    projectId: row.project_id as string,
    title: row.title as string,
    description: (row.description as string | null) ?? null,
    status: row.status as IssueStatus,
    priority: row.priority as IssuePriority,
    assigneeId: (row.assignee_id as string | null) ?? null,
    dueDate: (row.due_date as string | null) ?? null,
    resolvedAt: (row.resolved_at as string | null) ?? null,
    version: Number(row.version),
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

function toColumns(fields: Partial<IssueFields>): Record<string, unknown> {
  return toColumnValues(COLUMNS, fields);
}

/** Inserts an issue; returns it as stored. */
export async function insertIssue(
  db: Executor,
  tenantId: string,
  id: string,
  fields: IssueFields,
  now: string,
): Promise<IssueRecord> {
  await db('issues').insert({
    id,
    tenant_id: tenantId,
    ...toColumns(fields),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const created = await findIssue(db, tenantId, id);
  if (!created) throw new Error(`issue ${id} vanished after insert`);
  return created;
}

/** One issue of the tenant, or null. */
export async function findIssue(db: Executor, tenantId: string, id: string): Promise<IssueRecord | null> {
  const row = (await db('issues').where({ tenant_id: tenantId, id }).first()) as Row | undefined;
  return row ? toRecord(row) : null;
}

/** Filters of GET /issues: each given one restricts to exact matches (seed rule 1). */
export interface IssueFilter {
  projectId?: string | undefined;
  status?: IssueStatus | undefined;
  priority?: IssuePriority | undefined;
  assigneeId?: string | undefined;
}

/** A page of the tenant's issues, ordered by createdAt then id. */
export async function listIssues(
  db: Executor,
  tenantId: string,
  filter: IssueFilter,
  page: PageRequest,
): Promise<Page<IssueRecord>> {
  const query = db('issues').where('tenant_id', tenantId).select('*');
  if (filter.projectId) query.andWhere('project_id', filter.projectId);
  if (filter.status) query.andWhere('status', filter.status);
  if (filter.priority) query.andWhere('priority', filter.priority);
  if (filter.assigneeId) query.andWhere('assignee_id', filter.assigneeId);
  return paginate<Row, IssueRecord>(query, page, toRecord);
}

/** Writes the fields and bumps `version` if the stored version is still `expectedVersion`. */
export async function updateIssue(
  db: Executor,
  tenantId: string,
  id: string,
  expectedVersion: number,
  fields: Partial<IssueFields>,
  now: string,
): Promise<boolean> {
  return updateVersionedRow(db, 'issues', tenantId, id, expectedVersion, toColumns(fields), now);
}
