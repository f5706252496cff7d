import type { Knex } from 'knex';

// Fair claims (docs/design.md, "Job runner": "Fairness"): a job names the tenant it works for (`tenant_id`) and the
// group it shares a cap with (`group_key`: a webhook delivery's endpoint), so a claim can leave out the jobs of a
// tenant or an endpoint that already has its cap of jobs running. Existing jobs keep both null (no cap applies to
// them); every job enqueued from now on carries them. Added in place (ALTER TABLE … ADD COLUMN on both databases).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.string('tenant_id', 36).nullable();
    t.string('group_key', 100).nullable();
    t.index(['kind', 'status', 'tenant_id'], 'jobs_kind_status_tenant');
    t.index(['kind', 'status', 'group_key'], 'jobs_kind_status_group');
  });
}

// Plain ALTER TABLE … DROP COLUMN (in place on SQLite ≥ 3.35), never Knex's dropColumn, which rebuilds the table.
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.dropIndex(['kind', 'status', 'tenant_id'], 'jobs_kind_status_tenant');
    t.dropIndex(['kind', 'status', 'group_key'], 'jobs_kind_status_group');
  });
  await knex.raw('ALTER TABLE jobs DROP COLUMN tenant_id');
  await knex.raw('ALTER TABLE jobs DROP COLUMN group_key');
}
