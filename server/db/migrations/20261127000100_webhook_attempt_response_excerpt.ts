import type { Knex } from 'knex';

// The first bytes of each delivery attempt's response body (docs/webhooks.md, "Events and webhooks": "Response
// excerpts"): at most 1,024 bytes as UTF-8 text, whether the body went on, whether it was binary. Attempts recorded
// before have none (null, false, false). Added in place (ALTER TABLE … ADD COLUMN on both databases).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_delivery_attempts', (t) => {
    t.text('response_body_excerpt').nullable();
    t.boolean('response_body_truncated').notNullable().defaultTo(false);
    t.boolean('response_body_binary').notNullable().defaultTo(false);
  });
}

// Plain ALTER TABLE … DROP COLUMN (in place on SQLite ≥ 3.35), never Knex's dropColumn, which rebuilds the table.
export async function down(knex: Knex): Promise<void> {
  for (const column of ['response_body_excerpt', 'response_body_truncated', 'response_body_binary'])
    await knex.raw(`ALTER TABLE webhook_delivery_attempts DROP COLUMN ${column}`);
}
