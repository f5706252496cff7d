import type { Knex } from 'knex';

// One row per (tenant, source): the fingerprint of the last data file imported completely (its SHA-256 and the
// importer's version), so a start with the same file and the same importer skips reading it
// (docs/deploy.md, "Restarts").
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('import_fingerprints', (t) => {
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('source', 64).notNullable();
    t.string('fingerprint', 128).notNullable();
    t.string('imported_at', 32).notNullable();
    t.primary(['tenant_id', 'source']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('import_fingerprints');
}
