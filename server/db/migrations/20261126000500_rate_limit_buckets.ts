import type { Knex } from 'knex';

// The shared rate-limit window in per-second buckets (docs/design.md, "Limits"): one row per key (a tenant, a
// client address) holding a ring of 61 slots — requests counted and the instant of the last one, per second — checked
// and counted by one statement per request (repositories/rate-limits.ts). It replaces `rate_limit_hits`, a row per
// request that every request counted under an advisory lock: a cost that grew with traffic. Postgres only: the
// embedded SQLite default keeps the window in process memory, so on SQLite this migration only drops the old log.
// Half-full pages leave room for HOT updates (the row is rewritten on every request): no index but the key's, so the
// periodic prune of stale keys reads the whole table, one row per key.
function isPostgres(knex: Knex): boolean {
  return (knex.client as { config: { client?: unknown } }).config.client === 'pg';
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_hits');
  if (!isPostgres(knex)) return;
  await knex.raw(`CREATE TABLE rate_limit_buckets (
    key varchar(200) PRIMARY KEY,
    counts integer[] NOT NULL,
    lasts bigint[] NOT NULL,
    last_at bigint NOT NULL,
    taken boolean NOT NULL
  ) WITH (fillfactor = 50)`);
}

export async function down(knex: Knex): Promise<void> {
  if (isPostgres(knex)) await knex.schema.dropTable('rate_limit_buckets');
  await knex.schema.createTable('rate_limit_hits', (t) => {
    t.bigIncrements('id').primary();
    t.string('key', 200).notNullable();
    t.bigInteger('at').notNullable();
    t.index(['key', 'at']);
    t.index(['at']);
  });
}
