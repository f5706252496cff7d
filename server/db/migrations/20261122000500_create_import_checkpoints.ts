import type { Knex } from 'knex';

// One row per (tenant, source, external id): the date of the last report applied, so a second import of the
// same file skips what it has already replayed (the importer is idempotent on the project code).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('import_checkpoints', (t) => {
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('source', 64).notNullable();
    t.string('external_id', 64).notNullable();
    t.string('last_reported_on', 10).notNullable();
    t.primary(['tenant_id', 'source', 'external_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('import_checkpoints');
}
