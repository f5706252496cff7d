import type { Knex } from 'knex';

// One index per `sort` of the lists (docs/design.md, "Sorting and searching"), tenant (and parent) first, `id` last
// as the tie-breaker, so every order is a walk of an index (forwards, or backwards for `-field`) and no list sorts
// rows. The ORDER BY the repositories write (repositories/lists.ts, `sortOrder`) repeats each indexed expression
// exactly; test/integration/query-plans.test.ts explains every list with each sort on both databases.
//
// - Names sort case-insensitively and by code point on both databases: `lower(name)`, and on Postgres in the "C"
//   collation (the database's own collation would order differently from SQLite's, and differently per deployment).
// - An issue's priority sorts by rank (LOW < MEDIUM < HIGH < CRITICAL), not alphabetically.
// - Nullable fields (a project's forecastEndDate and budget) put unknowns last in both directions, which takes one
//   index per direction: on Postgres `NULLS LAST` ascending and descending; on SQLite, where NULL is the smallest
//   value, `(col IS NULL)` first.

/** A project's or resource's name as sorted. */
function nameKey(pg: boolean): string {
  return pg ? 'lower(name) COLLATE "C"' : 'lower(name)';
}

/** The rank of an issue's priority. */
const PRIORITY_RANK =
  "CASE priority WHEN 'LOW' THEN 1 WHEN 'MEDIUM' THEN 2 WHEN 'HIGH' THEN 3 WHEN 'CRITICAL' THEN 4 END";

/** The two indexes of a nullable sort column, unknowns last either way. */
function nullsLastIndexes(table: string, column: string, pg: boolean): string[] {
  const name = `${table}_sort_${column}`;
  return pg
    ? [
        `CREATE INDEX ${name}_asc ON ${table} (tenant_id, ${column} ASC NULLS LAST, id ASC)`,
        `CREATE INDEX ${name}_desc ON ${table} (tenant_id, ${column} DESC NULLS LAST, id DESC)`,
      ]
    : [
        `CREATE INDEX ${name}_asc ON ${table} (tenant_id, (${column} IS NULL), ${column}, id)`,
        `CREATE INDEX ${name}_desc ON ${table} (tenant_id, (${column} IS NULL), ${column} DESC, id DESC)`,
      ];
}

/** Every index this migration creates, by name, in order. */
function statements(pg: boolean): string[] {
  return [
    `CREATE INDEX projects_sort_name ON projects (tenant_id, (${nameKey(pg)}), id)`,
    'CREATE INDEX projects_sort_end_date ON projects (tenant_id, end_date, id)',
    ...nullsLastIndexes('projects', 'forecast_end_date', pg),
    ...nullsLastIndexes('projects', 'budget', pg),
    'CREATE INDEX risks_sort_score ON risks (tenant_id, score, id)',
    `CREATE INDEX issues_sort_priority ON issues (tenant_id, (${PRIORITY_RANK}), id)`,
    `CREATE INDEX resources_sort_name ON resources (tenant_id, (${nameKey(pg)}), id)`,
    'CREATE INDEX allocations_sort_start_date ON allocations (tenant_id, start_date, id)',
    // Replaces (tenant_id, project_id, due_date): the same order with the id tie-breaker.
    'CREATE INDEX milestones_sort_due_date ON milestones (tenant_id, project_id, due_date, id)',
  ];
}

const CREATED = [
  'projects_sort_name',
  'projects_sort_end_date',
  'projects_sort_forecast_end_date_asc',
  'projects_sort_forecast_end_date_desc',
  'projects_sort_budget_asc',
  'projects_sort_budget_desc',
  'risks_sort_score',
  'issues_sort_priority',
  'resources_sort_name',
  'allocations_sort_start_date',
  'milestones_sort_due_date',
];

export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.config.client === 'pg';
  for (const sql of statements(pg)) await knex.raw(sql);
  await knex.raw('DROP INDEX IF EXISTS milestones_tenant_id_project_id_due_date_index');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX milestones_tenant_id_project_id_due_date_index ON milestones (tenant_id, project_id, due_date)',
  );
  for (const name of CREATED) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
}
