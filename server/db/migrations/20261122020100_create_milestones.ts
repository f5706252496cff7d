import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('milestones', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('project_id', 36).notNullable().references('id').inTable('projects');
    t.string('name', 200).notNullable();
    t.text('description').nullable();
    t.string('due_date', 10).notNullable();
    t.enu('status', ['PENDING', 'COMPLETED', 'MISSED']).notNullable();
    t.string('completed_at', 30).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    // Lists are per project (status filter); the detail view orders by due date; the missed-milestone sweep
    // looks for PENDING milestones past their due date.
    t.index(['tenant_id', 'project_id', 'created_at', 'id']);
    t.index(['tenant_id', 'project_id', 'due_date']);
    t.index(['status', 'due_date']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('milestones');
}
