import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('risks', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('project_id', 36).notNullable().references('id').inTable('projects');
    t.string('title', 200).notNullable();
    t.text('description').nullable();
    t.integer('likelihood').notNullable();
    t.integer('impact').notNullable();
    t.integer('score').notNullable();
    t.enu('severity', ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']).notNullable();
    t.enu('severity_source', ['DERIVED', 'MANUAL']).notNullable();
    t.enu('status', ['OPEN', 'MITIGATING', 'ACCEPTED', 'CLOSED']).notNullable();
    t.string('owner_id', 36).nullable();
    t.text('mitigation').nullable();
    t.string('due_date', 10).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    // Seed rule 1 filters (projectId, status, severity), each led by the tenant.
    t.index(['tenant_id', 'created_at', 'id']);
    t.index(['tenant_id', 'project_id', 'created_at']);
    t.index(['tenant_id', 'status', 'created_at']);
    t.index(['tenant_id', 'severity', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('risks');
}
