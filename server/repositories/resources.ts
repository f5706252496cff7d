/**
 * Resources (people). Maps rows to the API's `Resource` shape: skills are JSON text, `active` is 0/1 on SQLite and
 * true/false on Postgres, doubles may come back as strings from pg.
 */
import type { Executor, Page, PageRequest } from './common.js';
import { paginate, parseJson, toColumnValues, toNumberOrNull, updateVersionedRow } from './common.js';

/** A resource as stored and as the API shows it. */
export interface ResourceRecord {
  id: string;
  name: string;
  email: string | null;
  role: string | null;
  skills: string[];
  capacityHoursPerWeek: number;
  costRatePerHour: number | null;
  active: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The writable columns of a resource (camelCase). */
export type ResourceFields = Omit<ResourceRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

const COLUMNS: Record<keyof ResourceFields, string> = {
  name: 'name',
  email: 'email',
  role: 'role',
  skills: 'skills',
  capacityHoursPerWeek: 'capacity_hours_per_week',
  costRatePerHour: 'cost_rate_per_hour',
  active: 'active',
};

type ResourceRow = Record<string, unknown>;

/** SQLite answers 0/1 (or '0'/'1' through some drivers), Postgres true/false. */
function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

function toRecord(row: ResourceRow): ResourceRecord {
  return {
    id: row.id as string,
    name: row.name as string,
    email: (row.email as string | null) ?? null,
    role: (row.role as string | null) ?? null,
    skills: parseJson<string[]>(row.skills, []),
    capacityHoursPerWeek: toNumberOrNull(row.capacity_hours_per_week) ?? 0,
    costRatePerHour: toNumberOrNull(row.cost_rate_per_hour),
    active: toBoolean(row.active),
    version: Number(row.version),
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

function toColumns(fields: Partial<ResourceFields>): Record<string, unknown> {
  return toColumnValues(COLUMNS, fields, ['skills']);
}

function isPostgres(db: Executor): boolean {
  const client = (db.client as { config?: { client?: unknown } }).config?.client;
  return client === 'pg' || client === 'postgres' || client === 'postgresql';
}

/** Inserts a resource; returns it as stored. */
export async function insertResource(
  db: Executor,
  tenantId: string,
  id: string,
  fields: ResourceFields,
  now: string,
): Promise<ResourceRecord> {
  await db('resources').insert({
    id,
    tenant_id: tenantId,
    ...toColumns(fields),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const created = await findResource(db, tenantId, id);
  if (!created) throw new Error(`resource ${id} vanished after insert`);
  return created;
}

/** One resource of the tenant, or null. */
export async function findResource(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<ResourceRecord | null> {
  const row = (await db('resources').where({ tenant_id: tenantId, id }).first()) as ResourceRow | undefined;
  return row ? toRecord(row) : null;
}

/** Filters of GET /resources: role exact, skill contained in `skills` (exact element), active flag. */
export interface ResourceFilter {
  role?: string | undefined;
  skill?: string | undefined;
  active?: boolean | undefined;
}

/** A page of the tenant's resources, ordered by createdAt then id. */
export async function listResources(
  db: Executor,
  tenantId: string,
  filter: ResourceFilter,
  page: PageRequest,
): Promise<Page<ResourceRecord>> {
  const query = db('resources').where('tenant_id', tenantId).select('*');
  if (filter.role !== undefined) query.andWhere('role', filter.role);
  if (filter.active !== undefined) query.andWhere('active', filter.active);
  if (filter.skill !== undefined) {
    // An element of the JSON array, compared exactly (a substring LIKE would match "steel" inside "stainless-steel"
    // and is case-insensitive on SQLite).
    if (isPostgres(db)) query.andWhereRaw('(skills)::jsonb @> ?::jsonb', [JSON.stringify([filter.skill])]);
    else
      query.andWhereRaw('exists (select 1 from json_each(resources.skills) where json_each.value = ?)', [
        filter.skill,
      ]);
  }
  return paginate<ResourceRow, ResourceRecord>(query, page, toRecord);
}

/** Writes the fields and bumps `version` if the stored version is still `expectedVersion`. */
export async function updateResource(
  db: Executor,
  tenantId: string,
  id: string,
  expectedVersion: number,
  fields: Partial<ResourceFields>,
  now: string,
): Promise<boolean> {
  return updateVersionedRow(db, 'resources', tenantId, id, expectedVersion, toColumns(fields), now);
}

/** Whether the tenant has a resource with this id (projectManagerId, ownerId and assigneeId must name one). */
export async function resourceExists(db: Executor, tenantId: string, id: string): Promise<boolean> {
  return (await db('resources').where({ tenant_id: tenantId, id }).first('id')) !== undefined;
}
