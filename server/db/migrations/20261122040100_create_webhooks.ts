import type { Knex } from 'knex';

// Webhook endpoints, their deliveries (one per event and endpoint) and every HTTP attempt of a delivery
// (docs/webhooks.md, Events and webhooks).
//
// - The signing secret is kept in clear because every delivery needs it to compute the HMAC; it is never returned
//   except by create and rotate. After a rotation the previous secret is kept with its expiry (24 h) and deliveries
//   carry both signatures until then.
// - `failing_since` is the first failed attempt since the endpoint's last success: the 5-day disable rule.
// - A delivery is claimed by a worker through `lease_owner`/`lease_until`; a worker that dies leaves a lease that
//   expires, and the delivery is claimed again. Due deliveries are found by (status, next_attempt_at).
// - `payload` on a delivery is only set for test deliveries (POST /webhooks/{id}/test); event deliveries send the
//   outbox row's `payload`, so every attempt sends the same bytes.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('url', 2048).notNullable();
    t.text('description').nullable();
    t.text('events').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason').nullable();
    t.string('secret', 128).notNullable();
    t.string('previous_secret', 128).nullable();
    t.string('previous_secret_expires_at', 30).nullable();
    t.string('failing_since', 30).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['tenant_id', 'created_at', 'id']);
    t.index(['tenant_id', 'enabled']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('webhook_id', 36)
      .notNullable()
      .references('id')
      .inTable('webhook_endpoints')
      .onDelete('CASCADE');
    t.string('event_id', 36).notNullable();
    t.string('event_type', 64).notNullable();
    t.text('payload').nullable();
    t.enu('status', ['PENDING', 'SUCCEEDED', 'FAILED']).notNullable();
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.string('next_attempt_at', 30).nullable();
    t.string('lease_owner', 100).nullable();
    t.string('lease_until', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['status', 'next_attempt_at']);
    t.index(['tenant_id', 'webhook_id', 'created_at', 'id']);
    t.index(['webhook_id', 'status']);
  });
  await knex.schema.createTable('webhook_delivery_attempts', (t) => {
    t.string('id', 36).primary();
    t.string('delivery_id', 36)
      .notNullable()
      .references('id')
      .inTable('webhook_deliveries')
      .onDelete('CASCADE');
    t.string('attempted_at', 30).notNullable();
    t.integer('status_code').nullable();
    t.integer('duration_ms').notNullable();
    t.text('error').nullable();
    t.index(['delivery_id', 'attempted_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_delivery_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_endpoints');
}
