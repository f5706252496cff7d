import type { Knex } from 'knex';

// Allocations of a resource to a project over an inclusive date range (YYYY-MM-DD text). The service checks the
// rules first (422 with the field); the CHECKs keep any other writer honest on both databases.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('allocations', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('resource_id', 36).notNullable().references('id').inTable('resources');
    t.string('project_id', 36).notNullable().references('id').inTable('projects');
    t.string('start_date', 10).notNullable();
    t.string('end_date', 10).notNullable();
    t.double('allocation_percent').notNullable();
    t.string('role', 100).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.check('?? >= ??', ['end_date', 'start_date'], 'allocations_dates_check');
    t.check(
      '?? >= 1 and ?? <= 100',
      ['allocation_percent', 'allocation_percent'],
      'allocations_percent_check',
    );
    // Tenant first for every list filter: the default order, resourceId (+ dates, also the conflict sweep and
    // availability), projectId (+ dates, also the project's team).
    t.index(['tenant_id', 'created_at', 'id']);
    t.index(['tenant_id', 'resource_id', 'start_date']);
    t.index(['tenant_id', 'project_id', 'start_date']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('allocations');
}
