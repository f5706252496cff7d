import type { Knex } from 'knex';

// An endpoint's health as the API shows it (`WebhookEndpoint.health`; docs/webhooks.md, "Endpoint health"): the
// last attempt's time, outcome and status, and the failures in a row since the last success, kept as each attempt
// settles. Endpoints show none until their next attempt. Added in place (ALTER TABLE … ADD COLUMN on both databases).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_endpoints', (t) => {
    t.string('last_attempt_at', 30).nullable();
    t.boolean('last_attempt_succeeded').nullable();
    t.integer('last_response_status').nullable();
    t.integer('failure_streak').notNullable().defaultTo(0);
  });
}

// Plain ALTER TABLE … DROP COLUMN (in place on SQLite ≥ 3.35), never Knex's dropColumn, which rebuilds the table.
export async function down(knex: Knex): Promise<void> {
  for (const column of [
    'last_attempt_at',
    'last_attempt_succeeded',
    'last_response_status',
    'failure_streak',
  ])
    await knex.raw(`ALTER TABLE webhook_endpoints DROP COLUMN ${column}`);
}
