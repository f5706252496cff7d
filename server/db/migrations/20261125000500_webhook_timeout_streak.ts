import type { Knex } from 'knex';

// The circuit breaker of webhook endpoints (docs/webhooks.md, "Events and webhooks": "Circuit breaker"): how many
// delivery attempts to the endpoint timed out in a row (reset by any answer). Bookkeeping, not a field of the API's
// record; added in place (ALTER TABLE … ADD COLUMN on both databases).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_endpoints', (t) => {
    t.integer('timeout_streak').notNullable().defaultTo(0);
  });
}

// Plain ALTER TABLE … DROP COLUMN (in place on SQLite ≥ 3.35), never Knex's dropColumn, which rebuilds the table and
// could cascade into its deliveries (knex #6213).
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_endpoints DROP COLUMN timeout_streak');
}
