import type { Knex } from 'knex';

// Instants are stored as ISO-8601 UTC text (`2026-11-22T10:00:00.000Z`) and dates as `YYYY-MM-DD` text on
// both databases, so values round-trip byte for byte and sort lexicographically (docs/toolchain.md: never a JS
// Date into SQLite). JSON values are text for the same reason.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tenants', (t) => {
    t.string('id', 36).primary();
    t.string('name', 200).notNullable();
    t.enu('plan', ['FREE', 'TEAM', 'ENTERPRISE']).notNullable().defaultTo('FREE');
    t.string('currency', 3).notNullable().defaultTo('USD');
    t.string('timezone', 64).notNullable().defaultTo('UTC');
    t.integer('rate_limit_per_minute').nullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
  await knex.schema.createTable('users', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('name', 200).notNullable();
    t.string('email', 320).nullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['tenant_id', 'created_at', 'id']);
  });
  await knex.schema.createTable('api_keys', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('user_id', 36).notNullable().references('id').inTable('users');
    t.string('name', 200).notNullable();
    t.string('prefix', 32).notNullable();
    t.string('key_hash', 64).notNullable().unique();
    t.text('scopes').notNullable();
    t.string('expires_at', 30).nullable();
    t.string('last_used_at', 30).nullable();
    t.string('revoked_at', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.index(['tenant_id', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
  await knex.schema.dropTable('users');
  await knex.schema.dropTable('tenants');
}
