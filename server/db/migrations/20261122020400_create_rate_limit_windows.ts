import type { Knex } from 'knex';

// Fixed-window request counters shared by every API process of a Postgres deployment (the embedded SQLite default
// counts in process memory instead). One row per (key, window start in epoch ms).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_windows', (t) => {
    t.string('key', 200).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('hits').notNullable();
    t.primary(['key', 'window_start']);
    t.index(['window_start']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_windows');
}
