import type { Knex } from 'knex';

// When `milestone.missed` was announced for a milestone (null: never). The event is sent once per milestone: a
// milestone reopened by hand is not announced again by the sweep (spec, webhooks `milestone.missed`).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('milestones', (t) => {
    t.string('missed_event_at', 30).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('milestones', (t) => {
    t.dropColumn('missed_event_at');
  });
}
