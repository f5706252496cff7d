import type { Knex } from 'knex';

// The allocation-conflict sweep reads a tenant's allocations ordered by resource, start date and id: with the id in
// the index the order comes from it, without a sort (test/integration/query-plans.test.ts). Replaces (tenant_id,
// resource_id, start_date), which it covers.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('allocations', (t) => {
    t.index(['tenant_id', 'resource_id', 'start_date', 'id']);
  });
  await knex.schema.alterTable('allocations', (t) => {
    t.dropIndex(['tenant_id', 'resource_id', 'start_date']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('allocations', (t) => {
    t.index(['tenant_id', 'resource_id', 'start_date']);
  });
  await knex.schema.alterTable('allocations', (t) => {
    t.dropIndex(['tenant_id', 'resource_id', 'start_date', 'id']);
  });
}
