/**
 * Projects table: rows ⇄ the API's `Project` (its `currency` joined from the tenant).
 */

import type { Knex } from 'knex';
import type { ListFilter, Schema } from '../schemas.js';
import type { Page, PageRequest, SortField } from './lists.js';
import { ListShape, singleValue, sortOrder } from './lists.js';
import type { Executor } from './sql.js';
import { isPostgres } from './sql.js';
import { column, VersionedTable } from './versioned-table.js';

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
  // A scalar subquery, not a join: the same one index seek per row, but SQLite (3.50, better-sqlite3 13) runs a
  // GET by id with the join in ≈ 30–40 µs and with the subquery in ≈ 5 µs (bench/results/profiles.md).
  select: (query) =>
    query.select('projects.*', (sub: Knex.QueryBuilder) =>
      sub
        .select('tenants.currency')
        .from('tenants')
        .whereRaw('tenants.id = projects.tenant_id')
        .as('currency'),
    ),
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

/** The `project_facets` name of a project's tags (GET /projects?tag=…). */
export const TAG_FACET = 'tag';

/**
 * Rewrites the filter rows (`project_facets`) of one project from its descriptive fields and its tags; called in
 * the transaction that writes them.
 */
export async function writeProjectFacets(
  db: Executor,
  tenantId: string,
  projectId: string,
  fields: Pick<ProjectRecord, Facet | 'tags'>,
): Promise<void> {
  await db('project_facets').where({ tenant_id: tenantId, project_id: projectId }).delete();
  const rows: { tenant_id: string; project_id: string; facet: string; value: string }[] = FACETS.flatMap(
    (facet) =>
      facetItems(fields[facet]).map((value) => ({
        tenant_id: tenantId,
        project_id: projectId,
        facet,
        value,
      })),
  );
  const tags = [...new Set(fields.tags.map(facetKey))].filter((v) => v.length > 0);
  for (const value of tags)
    rows.push({ tenant_id: tenantId, project_id: projectId, facet: TAG_FACET, value });
  if (rows.length > 0) await db('project_facets').insert(rows);
}

/**
 * Query of GET /projects: `status` exact (seed rule 1); the descriptive fields and `tag` by item, `q` as a
 * case-insensitive substring of name, code or description, and the order (spec `ProjectSort`; default
 * `createdAt`).
 */
export type ProjectFilter = ListFilter<'listProjects'>;

/**
 * What GET /projects sorts by (spec `ProjectSort`), each served by an index of migration 20261124000300. Names
 * compare lower-cased, and on Postgres in the "C" collation, so both databases give the same order whatever their
 * locale; unknown forecast end dates and budgets come last.
 */
const PROJECT_SORTS: Record<string, SortField> = {
  createdAt: { sql: projects.col('created_at') },
  name: {
    sql: { sqlite: `lower(${projects.col('name')})`, postgres: `lower(${projects.col('name')}) COLLATE "C"` },
  },
  endDate: { sql: projects.col('end_date') },
  forecastEndDate: { sql: projects.col('forecast_end_date'), nullable: true },
  budget: { sql: projects.col('budget'), nullable: true },
};

/** The shortest `q` a trigram index can serve (shorter ones are matched row by row within the tenant). */
export const TRIGRAM_MIN_LENGTH = 3;

/** `text` as a LIKE pattern that matches it anywhere, its wildcards escaped (escape character `\`). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** How `q` is matched on this database, and the value that binds (see {@link whereContains}). */
type ContainsForm = 'ilike' | 'like' | 'fts';

/** The form and bound value of a `q` of `text` ({@link whereContains}). */
function containsValue(db: Executor, text: string): { form: ContainsForm; value: string } {
  if (isPostgres(db)) return { form: 'ilike', value: containsPattern(text) };
  if ([...text].length < TRIGRAM_MIN_LENGTH) return { form: 'like', value: containsPattern(text) };
  // An FTS5 string in double quotes is one phrase: every character literal, `"` written twice.
  return { form: 'fts', value: `"${text.replaceAll('"', '""')}"` };
}

/**
 * Restricts `query` to projects whose name, code or description contains the text of `value` ({@link containsValue}),
 * ignoring case (migration 20261124000200). Postgres (`ilike`): `ILIKE` over the three fields joined by line feeds,
 * served by the pg_trgm GIN index on that expression. SQLite (`fts`): a phrase of the trigram FTS5 table
 * (case-insensitive), joined back through `project_search`; text shorter than three characters (`like`) has no
 * trigram, so it is matched with LIKE (ASCII case folding) over the tenant's projects.
 */
function whereContains(
  query: Knex.QueryBuilder,
  tenantId: Knex.Value,
  form: ContainsForm,
  value: Knex.Value,
): void {
  if (form === 'ilike') {
    // The expression of the GIN index, exactly (fields joined by line feeds).
    const [name, code, description] = ['name', 'code', 'description'].map((c) => projects.col(c));
    query.andWhereRaw(
      `(${name} || chr(10) || coalesce(${code}, '') || chr(10) || coalesce(${description}, '')) ILIKE ?`,
      [value],
    );
    return;
  }
  const columns = ['name', 'code', 'description'].map((c) => projects.col(c));
  if (form === 'like') {
    query.andWhere((or) => {
      for (const col of columns) or.orWhereRaw(`${col} LIKE ? ESCAPE '\\'`, [value]);
    });
    return;
  }
  query.whereIn(projects.col('id'), (sub) =>
    sub
      .select('s.project_id')
      .from('project_search_fts')
      .join('project_search as s', 's.id', 'project_search_fts.rowid')
      .whereRaw('project_search_fts MATCH ?', [value])
      .andWhere('s.tenant_id', tenantId),
  );
}

/**
 * A page of the tenant's projects in the order of `filter.sort` (createdAt then id by default). Each descriptive
 * filter and `tag` is an EXISTS on the primary key of `project_facets` (tenant, facet, value, project), so the page
 * still walks the index of its order and no such filter scans the tenant's projects' text; `q` goes through the
 * trigram index ({@link whereContains}). The SQL is built once per shape (which filters, how many values, the sort;
 * ./lists.ts `ListShape`).
 */
export function listProjects(
  db: Executor,
  tenantId: string,
  filter: ProjectFilter,
  page: PageRequest,
): Promise<Page<ProjectRecord>> {
  const facets: [string, string | undefined][] = [
    ...FACETS.map((facet): [string, string | undefined] => [facet, filter[facet]]),
    [TAG_FACET, filter.tag],
  ];
  const sort = filter.sort ?? 'createdAt';
  const shape = new ListShape('projects', tenantId);
  shape.part(sort);
  const status = shape.addAll('status', filter.status);
  const ids = shape.addAll('id', filter.id);
  const facetAt: [string, number][] = [];
  for (const [facet, value] of facets)
    if (value !== undefined) facetAt.push([facet, shape.add(facet, facetKey(value))]);
  const contains = filter.q === undefined ? undefined : containsValue(db, filter.q);
  const containsAt = contains && shape.add(`q ${contains.form}`, contains.value);
  const pick = (values: readonly Knex.Value[], at: number[], given: unknown) =>
    given === undefined ? undefined : at.map((i) => values[i] as string);
  return projects.listShaped(
    db,
    page,
    shape,
    (q, v) => {
      projects.whereEquals(q, { status: pick(v, status, filter.status), id: pick(v, ids, filter.id) });
      for (const [facet, at] of facetAt) {
        q.whereExists((sub) =>
          sub
            .select(db.raw('1'))
            .from('project_facets as f')
            .where('f.tenant_id', v[0] as Knex.Value)
            .andWhere('f.facet', facet)
            .andWhere('f.value', v[at] as Knex.Value)
            .andWhereRaw('f.project_id = projects.id'),
        );
      }
      if (contains && containsAt !== undefined)
        whereContains(q, v[0] as Knex.Value, contains.form, v[containsAt] as Knex.Value);
    },
    sortOrder(db, sort, PROJECT_SORTS, projects.col('id')),
    countedFilter(filter, facets),
  );
}

/** One `status` alone: the total is kept in list_counts (migration 20261125000100; docs/design.md, "List totals"). */
function countedFilter(
  filter: ProjectFilter,
  facets: readonly [string, string | undefined][],
): { field: string; value: string } | undefined {
  const status = singleValue(filter.status);
  const alone =
    filter.q === undefined && filter.id === undefined && facets.every(([, value]) => value === undefined);
  return status !== undefined && alone ? { field: 'status', value: status } : undefined;
}
