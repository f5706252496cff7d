import type { Knex } from 'knex';

// Sliding-window rate limits (docs/design.md, "Limits"): a log of the requests let through, one row per request,
// shared by every API process of a Postgres deployment (the embedded SQLite default keeps the log in process memory).
// The fixed one-minute counters it replaces let twice the limit through across a minute boundary.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_hits', (t) => {
    t.bigIncrements('id').primary();
    t.string('key', 200).notNullable();
    // Epoch milliseconds on the server's (injected) clock.
    t.bigInteger('at').notNullable();
    t.index(['key', 'at']);
    t.index(['at']);
  });
  await knex.schema.dropTable('rate_limit_windows');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_hits');
  await knex.schema.createTable('rate_limit_windows', (t) => {
    t.string('key', 200).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('hits').notNullable();
    t.primary(['key', 'window_start']);
    t.index(['window_start']);
  });
}
