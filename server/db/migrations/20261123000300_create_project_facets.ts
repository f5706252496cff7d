import type { Knex } from 'knex';

// The filter index of a project's descriptive fields (category, borough, managingAgency, clientAgency): one row per
// item of each field's comma-separated list, lower-cased, so `borough=Brooklyn` finds "Brooklyn" and
// "Brooklyn, Queens" through the primary key (tenant first, like every list query). Written by the project service
// in the transaction that changes the fields.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('project_facets', (t) => {
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('project_id', 36).notNullable().references('id').inTable('projects');
    t.string('facet', 32).notNullable();
    t.string('value', 200).notNullable();
    t.primary(['tenant_id', 'facet', 'value', 'project_id']);
    t.index(['tenant_id', 'project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('project_facets');
}
