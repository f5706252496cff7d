import type { Knex } from 'knex';

// Resources (people) as docs/design.md describes them. Projects and risks reference them (projectManagerId, ownerId)
// from the start, so the reference checks are real; the Resources API itself comes with the portfolio issue.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('resources', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('name', 200).notNullable();
    t.string('email', 320).nullable();
    t.string('role', 100).nullable();
    t.text('skills').notNullable().defaultTo('[]');
    t.double('capacity_hours_per_week').notNullable().defaultTo(40);
    t.double('cost_rate_per_hour').nullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.index(['tenant_id', 'created_at', 'id']);
    t.index(['tenant_id', 'role', 'created_at']);
    t.index(['tenant_id', 'active', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('resources');
}
