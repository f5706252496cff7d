import type { Knex } from 'knex';

// Quota leased in batches (docs/design.md, "Limits"): the statement that takes units of a key's window
// (repositories/rate-limits.ts) may grant several at once to one API process, and reports how many through RETURNING,
// which sees only the row as written — so the row carries the count granted by its last statement. Postgres only,
// like the table.
function isPostgres(knex: Knex): boolean {
  return (knex.client as { config: { client?: unknown } }).config.client === 'pg';
}

export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('ALTER TABLE rate_limit_buckets ADD COLUMN granted integer NOT NULL DEFAULT 0');
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('ALTER TABLE rate_limit_buckets DROP COLUMN granted');
}
