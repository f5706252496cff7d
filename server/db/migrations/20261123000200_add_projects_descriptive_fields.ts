import type { Knex } from 'knex';

// What kind of project it is and who runs it (docs/resources.md, "Projects' descriptive fields"): the NYC dataset's
// Category, Borough, Managing Agency and Client Agency, kept as reported (a list stays as written, e.g. "Manhattan,
// Bronx"). Nullable columns: SQLite adds them in place, no rebuild. The filters of GET /projects read
// `project_facets` (next migration), not these.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.string('category', 200).nullable();
    t.string('borough', 200).nullable();
    t.string('managing_agency', 200).nullable();
    t.string('client_agency', 200).nullable();
  });
}

// Down drops the columns with plain ALTER TABLE … DROP COLUMN (SQLite ≥ 3.35 does it in place), never Knex's
// dropColumn, which rebuilds the table on SQLite inside the migration transaction (knex #6213).
export async function down(knex: Knex): Promise<void> {
  for (const column of ['category', 'borough', 'managing_agency', 'client_agency']) {
    await knex.raw('ALTER TABLE projects DROP COLUMN ??', [column]);
  }
}
