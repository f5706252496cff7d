import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';

// The job runner's table (docs/design.md, "Job runner"): durable background work in our own database, one
// row per job, claimed by workers under a lease (Oban and Solid Queue keep theirs the same way).
//
// - `status`: PENDING (waiting for `run_at`), RUNNING (claimed; `lease_owner` holds it until `lease_until`, which
//   the worker extends while it runs), and the terminal COMPLETED, FAILED (gave up, `last_error` says why) and
//   CANCELLED (nothing left to do). A RUNNING job whose lease has expired is claimable again: its worker died.
// - `attempt` counts claims, so an attempt cut short by a dead worker counts too.
// - `ref` names the record the job works on (a webhook delivery's id), so the record's owner can cancel it.
// - `progress` is JSON `{ stage, percent }` written by the handler while it runs.
//
// Webhook deliveries become jobs of kind `webhook.delivery`: every PENDING delivery gets its job here, due at its
// `next_attempt_at`. The deliveries' own `lease_owner`/`lease_until` columns are no longer used; they stay, since
// rebuilding `webhook_deliveries` on SQLite could cascade into its attempts (docs/toolchain.md, knex #6213).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.string('id', 36).primary();
    t.string('kind', 100).notNullable();
    t.text('payload').notNullable();
    t.enu('status', ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED']).notNullable();
    t.integer('attempt').notNullable().defaultTo(0);
    t.string('run_at', 30).notNullable();
    t.string('lease_owner', 100).nullable();
    t.string('lease_until', 30).nullable();
    t.string('ref', 100).nullable();
    t.text('progress').nullable();
    t.text('last_error').nullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.string('finished_at', 30).nullable();
    t.index(['kind', 'status', 'run_at']);
    t.index(['kind', 'ref']);
    t.index(['status', 'finished_at']);
  });
  const pending = (await knex('webhook_deliveries')
    .where({ status: 'PENDING' })
    .select('id', 'attempt_count', 'next_attempt_at', 'created_at')) as {
    id: string;
    attempt_count: number | string;
    next_attempt_at: string | null;
    created_at: string;
  }[];
  const now = new Date().toISOString();
  for (let i = 0; i < pending.length; i += 200) {
    await knex('jobs').insert(
      pending.slice(i, i + 200).map((d) => ({
        id: uuidv7(),
        kind: 'webhook.delivery',
        payload: JSON.stringify({ deliveryId: d.id }),
        status: 'PENDING',
        attempt: Number(d.attempt_count),
        run_at: d.next_attempt_at ?? now,
        ref: d.id,
        created_at: d.created_at,
        updated_at: now,
      })),
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('jobs');
}
