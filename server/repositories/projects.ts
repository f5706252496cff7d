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
    actualCost: column.optionalNumber('actual_cost'),
    projectManagerId: column.optionalText('project_manager_id'),
    progress: column.optionalNumber('progress'),
    tags: column.json<string[]>('tags', []),
    category: column.optionalText('category'),
    borough: column.optionalText('borough'),
    managingAgency: column.optionalText('managing_agency'),
    clientAgency: column.optionalText('client_agency'),
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

/** The descriptive fields of a project that GET /projects filters on (an item of their comma-separated lists). */
export const FACETS = ['category', 'borough', 'managingAgency', 'clientAgency'] as const;

/** One of {@link FACETS}. */
export type Facet = (typeof FACETS)[number];

/**
 * How a filter value and the items of a descriptive field are compared: trimmed and lower-cased, so
 * `borough=brooklyn` finds "Brooklyn, Queens" (spec, listProjects).
 */
export function facetKey(value: string): string {
  return value.trim().toLowerCase();
}

/** The items of a descriptive field: its comma-separated parts, as {@link facetKey}s, distinct, empty ones dropped. */
export function facetItems(value: string | null): string[] {
  if (value === null) return [];
  return [...new Set(value.split(',').map(facetKey))].filter((v) => v.length > 0).map((v) => v.slice(0, 200));
}

/**
 * Rewrites the filter rows (`project_facets`) of one project from its descriptive fields; called in the
 * transaction that writes them.
 */
export async function writeProjectFacets(
  db: Executor,
  tenantId: string,
  projectId: string,
  fields: Pick<ProjectRecord, Facet>,
): Promise<void> {
  await db('project_facets').where({ tenant_id: tenantId, project_id: projectId }).delete();
  const rows = FACETS.flatMap((facet) =>
    facetItems(fields[facet]).map((value) => ({ tenant_id: tenantId, project_id: projectId, facet, value })),
  );
  if (rows.length > 0) await db('project_facets').insert(rows);
}

/** Filters of GET /projects: `status` exact (seed rule 1); the descriptive fields by item (spec, listProjects). */
export interface ProjectFilter {
  status?: ProjectStatus | undefined;
  category?: string | undefined;
  borough?: string | undefined;
  managingAgency?: string | undefined;
  clientAgency?: string | undefined;
}

/**
 * A page of the tenant's projects, ordered by createdAt then id. Each descriptive filter is an EXISTS on the
 * primary key of `project_facets` (tenant, facet, value, project), so the page still walks the projects index in
 * order and no filter scans the tenant's projects' text.
 */
export function listProjects(
  db: Executor,
  tenantId: string,
  filter: ProjectFilter,
  page: PageRequest,
): Promise<Page<ProjectRecord>> {
  return projects.list(db, tenantId, page, (q) => {
    projects.whereEquals(q, { status: filter.status });
    for (const facet of FACETS) {
      const value = filter[facet];
      if (value === undefined) continue;
      q.whereExists((sub) =>
        sub
          .select(db.raw('1'))
          .from('project_facets as f')
          .where('f.tenant_id', tenantId)
          .andWhere('f.facet', facet)
          .andWhere('f.value', facetKey(value))
          .andWhereRaw('f.project_id = projects.id'),
      );
    }
  });
}
