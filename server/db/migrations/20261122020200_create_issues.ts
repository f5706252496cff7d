import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('issues', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('project_id', 36).notNullable().references('id').inTable('projects');
    t.string('title', 200).notNullable();
    t.text('description').nullable();
    t.enu('status', ['OPEN', 'IN_PROGRESS', 'RESOLVED', 'CLOSED']).notNullable();
    t.enu('priority', ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']).notNullable();
    t.string('assignee_id', 36).nullable();
    t.string('due_date', 10).nullable();
    t.string('resolved_at', 30).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    // Tenant first, one index per list filter (projectId, status, priority, assigneeId).
    t.index(['tenant_id', 'created_at', 'id']);
    t.index(['tenant_id', 'project_id', 'created_at']);
    t.index(['tenant_id', 'status', 'created_at']);
    t.index(['tenant_id', 'priority', 'created_at']);
    t.index(['tenant_id', 'assignee_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('issues');
}
