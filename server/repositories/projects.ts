/**
 * Projects table. Maps rows to the API's `Project` shape (camelCase, ISO dates, numbers).
 */
import type { Executor, Page, PageRequest } from './common.js';
import { paginate, parseJson, toColumnValues, toNumberOrNull, updateVersionedRow } from './common.js';

/** Project statuses (DESIGN.md, Resources). */
export type ProjectStatus =
  | 'PLANNED'
  | 'ON_TRACK'
  | 'AT_RISK'
  | 'OFF_TRACK'
  | 'ON_HOLD'
  | 'COMPLETED'
  | 'CANCELLED';

/** A project as stored and as the API shows it (without the detail view's additions). */
export interface ProjectRecord {
  id: string;
  code: string | null;
  name: string;
  description: string | null;
  status: ProjectStatus;
  startDate: string;
  endDate: string;
  forecastEndDate: string | null;
  budget: number | null;
  forecastCost: number | null;
  actualCost: number;
  currency: string;
  projectManagerId: string | null;
  progress: number;
  tags: string[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The writable columns of a project (camelCase). */
export type ProjectFields = Omit<ProjectRecord, 'id' | 'currency' | 'version' | 'createdAt' | 'updatedAt'>;

interface ProjectRow {
  id: string;
  tenant_id: string;
  code: string | null;
  name: string;
  description: string | null;
  status: ProjectStatus;
  start_date: string;
  end_date: string;
  forecast_end_date: string | null;
  budget: unknown;
  forecast_cost: unknown;
  actual_cost: unknown;
  project_manager_id: string | null;
  progress: number;
  tags: string;
  version: number;
  created_at: string;
  updated_at: string;
  currency: string;
}

const COLUMNS: Record<keyof ProjectFields, string> = {
  code: 'code',
  name: 'name',
  description: 'description',
  status: 'status',
  startDate: 'start_date',
  endDate: 'end_date',
  forecastEndDate: 'forecast_end_date',
  budget: 'budget',
  forecastCost: 'forecast_cost',
  actualCost: 'actual_cost',
  projectManagerId: 'project_manager_id',
  progress: 'progress',
  tags: 'tags',
};

function toRecord(row: ProjectRow): ProjectRecord {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    status: row.status,
    startDate: row.start_date,
    endDate: row.end_date,
    forecastEndDate: row.forecast_end_date,
    budget: toNumberOrNull(row.budget),
    forecastCost: toNumberOrNull(row.forecast_cost),
    actualCost: toNumberOrNull(row.actual_cost) ?? 0,
    currency: row.currency,
    projectManagerId: row.project_manager_id,
    progress: Number(row.progress),
    tags: parseJson<string[]>(row.tags, []),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(fields: Partial<ProjectFields>): Record<string, unknown> {
  return toColumnValues(COLUMNS, fields, ['tags']);
}

function baseQuery(db: Executor, tenantId: string) {
  return db('projects')
    .join('tenants', 'tenants.id', 'projects.tenant_id')
    .where('projects.tenant_id', tenantId)
    .select('projects.*', 'tenants.currency as currency');
}

/** Inserts a project; returns it as stored. */
export async function insertProject(
  db: Executor,
  tenantId: string,
  id: string,
  fields: ProjectFields,
  now: string,
): Promise<ProjectRecord> {
  await db('projects').insert({
    id,
    tenant_id: tenantId,
    ...toColumns(fields),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const created = await findProject(db, tenantId, id);
  if (!created) throw new Error(`project ${id} vanished after insert`);
  return created;
}

/** One project of the tenant, or null. */
export async function findProject(db: Executor, tenantId: string, id: string): Promise<ProjectRecord | null> {
  const row = (await baseQuery(db, tenantId).andWhere('projects.id', id).first()) as ProjectRow | undefined;
  return row ? toRecord(row) : null;
}

/** One project of the tenant by its external `code`, or null. */
export async function findProjectByCode(
  db: Executor,
  tenantId: string,
  code: string,
): Promise<ProjectRecord | null> {
  const row = (await baseQuery(db, tenantId).andWhere('projects.code', code).first()) as
    | ProjectRow
    | undefined;
  return row ? toRecord(row) : null;
}

/** Filters of GET /projects (seed rule 1: exact match). */
export interface ProjectFilter {
  status?: ProjectStatus | undefined;
}

/** A page of the tenant's projects, ordered by createdAt then id. */
export async function listProjects(
  db: Executor,
  tenantId: string,
  filter: ProjectFilter,
  page: PageRequest,
): Promise<Page<ProjectRecord>> {
  const query = baseQuery(db, tenantId);
  if (filter.status) query.andWhere('projects.status', filter.status);
  return paginate<ProjectRow, ProjectRecord>(query, page, toRecord, ['projects.created_at', 'projects.id']);
}

/**
 * Writes the given fields and bumps `version`, only if the stored version is still `expectedVersion`
 * (optimistic concurrency). Returns false when another write got there first.
 */
export async function updateProject(
  db: Executor,
  tenantId: string,
  id: string,
  expectedVersion: number,
  fields: Partial<ProjectFields>,
  now: string,
): Promise<boolean> {
  return updateVersionedRow(db, 'projects', tenantId, id, expectedVersion, toColumns(fields), now);
}

/** Whether the tenant has a project with this id (reference checks: 422 when not). */
export async function projectExists(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const row = await db('projects').where({ tenant_id: tenantId, id }).first('id');
  return row !== undefined;
}
