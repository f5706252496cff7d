/**
 * Resources (people): rows ⇄ the API's `Resource`. `skills` is JSON text and `active` a boolean on both databases
 * through the table mapper.
 */
import type { ListFilter, Schema } from '../schemas.js';
import type { Page, PageRequest } from './lists.js';
import { type SortField, sortOrder } from './lists.js';
import type { Executor } from './sql.js';
import { isPostgres } from './sql.js';
import { column, VersionedTable } from './versioned-table.js';

/** A resource as stored and as the API shows it. */
export type ResourceRecord = Schema<'Resource'>;

/** The writable fields of a resource. */
export type ResourceFields = Omit<ResourceRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

/** The resources table. */
export const resources = new VersionedTable<ResourceRecord, ResourceFields>({
  table: 'resources',
  fields: {
    name: column.text('name'),
    email: column.optionalText('email'),
    role: column.optionalText('role'),
    skills: column.json<string[]>('skills', []),
    capacityHoursPerWeek: column.number('capacity_hours_per_week'),
    costRatePerHour: column.optionalNumber('cost_rate_per_hour'),
    active: column.boolean('active'),
  },
});

/**
 * Filters of GET /resources: role exact, skill contained in `skills` (exact element), active flag; `sort` (spec
 * `ResourceSort`; default `createdAt`).
 */
export type ResourceFilter = ListFilter<'listResources'>;

/**
 * What GET /resources sorts by (spec `ResourceSort`), each served by an index. Names compare lower-cased, and on
 * Postgres in the "C" collation, so both databases give the same order whatever their locale.
 */
const RESOURCE_SORTS: Record<string, SortField> = {
  createdAt: { sql: resources.col('created_at') },
  name: {
    sql: {
      sqlite: `lower(${resources.col('name')})`,
      postgres: `lower(${resources.col('name')}) COLLATE "C"`,
    },
  },
};

/** A page of the tenant's resources, ordered by `filter.sort` (createdAt by default) then id. */
export function listResources(
  db: Executor,
  tenantId: string,
  filter: ResourceFilter,
  page: PageRequest,
): Promise<Page<ResourceRecord>> {
  return resources.list(
    db,
    tenantId,
    page,
    (query) => {
      resources.whereEquals(query, { role: filter.role, active: filter.active, id: filter.id });
      if (filter.skill === undefined) return;
      // An element of the JSON array, compared exactly (a substring LIKE would match "steel" inside
      // "stainless-steel" and is case-insensitive on SQLite).
      if (isPostgres(db)) query.andWhereRaw('(skills)::jsonb @> ?::jsonb', [JSON.stringify([filter.skill])]);
      else
        query.andWhereRaw('exists (select 1 from json_each(resources.skills) where json_each.value = ?)', [
          filter.skill,
        ]);
    },
    sortOrder(db, filter.sort ?? 'createdAt', RESOURCE_SORTS, resources.col('id')),
  );
}
