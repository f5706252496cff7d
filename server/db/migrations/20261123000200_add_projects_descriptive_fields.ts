import type { Knex } from 'knex';

// What kind of project it is and who runs it (issue 10): the NYC dataset's Category, Borough, Managing Agency and
// Client Agency, kept as reported (a list stays as written, e.g. "Manhattan, Bronx"). Nullable columns: SQLite adds
// them in place, no rebuild. The filters of GET /projects read `project_facets` (next migration), not these.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.string('category', 200).nullable();
    t.string('borough', 200).nullable();
    t.string('managing_agency', 200).nullable();
    t.string('client_agency', 200).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('category');
    t.dropColumn('borough');
    t.dropColumn('managing_agency');
    t.dropColumn('client_agency');
  });
}
