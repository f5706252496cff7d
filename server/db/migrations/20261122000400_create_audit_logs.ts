import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_logs', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('occurred_at', 30).notNullable();
    t.string('actor_user_id', 36).nullable();
    t.string('actor_api_key_id', 36).nullable();
    t.string('action', 64).notNullable();
    t.string('resource_type', 32).notNullable();
    t.string('resource_id', 36).notNullable();
    t.text('changes').notNullable();
    t.string('request_id', 128).nullable();
    t.index(['tenant_id', 'occurred_at', 'id']);
    t.index(['tenant_id', 'resource_type', 'resource_id']);
    t.index(['tenant_id', 'action', 'occurred_at']);
    t.index(['tenant_id', 'actor_user_id', 'occurred_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_logs');
}
