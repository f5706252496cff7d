import type { Knex } from 'knex';

// Idempotency-Key records (docs/design.md): per tenant, kept 24 h. `state` is IN_FLIGHT while the first request runs
// and COMPLETED once its response is stored for replay.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('key', 255).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.enu('state', ['IN_FLIGHT', 'COMPLETED']).notNullable();
    t.integer('response_status').nullable();
    t.text('response_headers').nullable();
    t.text('response_body').nullable();
    t.string('created_at', 30).notNullable();
    t.string('locked_until', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.primary(['tenant_id', 'key']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
