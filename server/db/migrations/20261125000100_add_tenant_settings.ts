import type { Knex } from 'knex';

// Tenant settings (docs/agents.md, "Bring your own model"): a JSON object as text (as every JSON value here, so it
// round-trips byte for byte on both databases). Today it holds `llmEnabled` (false: this tenant's records are never
// sent to a model); an empty object means every default.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenants', (t) => {
    t.text('settings').notNullable().defaultTo('{}');
  });
}

// Down drops the column with plain ALTER TABLE … DROP COLUMN (SQLite ≥ 3.35 does it in place), never Knex's
// dropColumn, which rebuilds the table on SQLite and fails on the tables that reference tenants (knex #6213).
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE tenants DROP COLUMN settings');
}
