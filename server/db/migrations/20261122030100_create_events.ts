import type { Knex } from 'knex';

// The transactional outbox (docs/webhooks.md, Events): an event row is written in the same transaction as the change that
// causes it, so a crash between the change and its delivery loses nothing. `payload` is the JSON body delivered to
// webhook endpoints, `{ id, event, tenantId, timestamp, data }`, stored as text so every delivery sends the same bytes.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('type', 64).notNullable();
    t.text('payload').notNullable();
    t.string('occurred_at', 30).notNullable();
    t.index(['tenant_id', 'occurred_at', 'id']);
    t.index(['tenant_id', 'type', 'occurred_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('events');
}
