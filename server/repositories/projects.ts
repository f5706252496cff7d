/**
 * Projects table: rows ⇄ the API's `Project` (its `currency` joined from the tenant).
 */
import type { Schema } from '../schemas.js';
import type { Executor, Page, PageRequest } from './common.js';
import { column, VersionedTable } from './common.js';

/** Project statuses (spec `ProjectStatus`). */
export type ProjectStatus = Schema<'ProjectStatus'>;

/** A project as stored and as the API shows it (without the detail view's additions). */
export type ProjectRecord = Schema<'Project'>;

/** The writable fields of a project. */
export type ProjectFields = Omit<ProjectRecord, 'id' | 'currency' | 'version' | 'createdAt' | 'updatedAt'>;

/** The projects table. */
export const projects = new VersionedTable<ProjectRecord, ProjectFields>({
  table: 'projects',
  fields: {
    code: column.optionalText('code'),
    name: column.text('name'),
    description: column.optionalText('description'),
    status: column.text<ProjectStatus>('status'),
    startDate: column.text('start_date'),
    endDate: column.text('end_date'),
    forecastEndDate: column.optionalText('forecast_end_date'),
    budget: column.optionalNumber('budget'),
    forecastCost: column.optionalNumber('forecast_cost'),
    actualCost: column.number('actual_cost'),
    projectManagerId: column.optionalText('project_manager_id'),
    progress: column.number('progress'),
    tags: column.json<string[]>('tags', []),
  },
  joined: { currency: column.text('currency') },
  select: (query) =>
    query
      .join('tenants', 'tenants.id', 'projects.tenant_id')
      .select('projects.*', 'tenants.currency as currency'),
});

/** One project of the tenant by its external `code`, or null. */
export function findProjectByCode(
  db: Executor,
  tenantId: string,
  code: string,
): Promise<ProjectRecord | null> {
  return projects.findBy(db, tenantId, { code });
}

/** Filters of GET /projects (seed rule 1: exact match). */
export interface ProjectFilter {
  status?: ProjectStatus | undefined;
}

/** A page of the tenant's projects, ordered by createdAt then id. */
export function listProjects(
  db: Executor,
  tenantId: string,
  filter: ProjectFilter,
  page: PageRequest,
): Promise<Page<ProjectRecord>> {
  return projects.list(db, tenantId, page, (q) => projects.whereEquals(q, { status: filter.status }));
}
