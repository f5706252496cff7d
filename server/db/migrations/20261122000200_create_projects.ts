import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('code', 64).nullable();
    t.string('name', 200).notNullable();
    t.text('description').nullable();
    t.enu('status', [
      'PLANNED',
      'ON_TRACK',
      'AT_RISK',
      'OFF_TRACK',
      'ON_HOLD',
      'COMPLETED',
      'CANCELLED',
    ]).notNullable();
    t.string('start_date', 10).notNullable();
    t.string('end_date', 10).notNullable();
    t.string('forecast_end_date', 10).nullable();
    t.double('budget').nullable();
    t.double('forecast_cost').nullable();
    t.double('actual_cost').notNullable().defaultTo(0);
    t.string('project_manager_id', 36).nullable();
    t.integer('progress').notNullable().defaultTo(0);
    t.text('tags').notNullable().defaultTo('[]');
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['tenant_id', 'code']);
    // Tenant first: every list query is `WHERE tenant_id = ? [AND status = ?] ORDER BY created_at, id`.
    t.index(['tenant_id', 'created_at', 'id']);
    t.index(['tenant_id', 'status', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('projects');
}
