import type { Knex } from 'knex';

// Tenant settings (issue 12): a JSON object as text (as every JSON value here, so it round-trips byte for byte on
// both databases). Today it holds `llmEnabled` (false: this tenant's records are never sent to a model); an empty
// object means every default.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenants', (t) => {
    t.text('settings').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenants', (t) => {
    t.dropColumn('settings');
  });
}
