import type { Knex } from 'knex';

// Status reports (docs/resources.md, "Status reports"): how a project stood on a date. Append-only (no version, no
// update). The baseline the report is judged against (`baseline_end_date`, `baseline_budget`) is stored with it, as
// it stood at that date, so `scheduleSlipDays` and `costVariance` are computed at read time from the report alone.
// The NYC dataset's change columns are kept as reported (`budget_change_*` in money, `schedule_change_*` in days).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('status_reports', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('project_id', 36).notNullable().references('id').inTable('projects');
    t.string('as_of', 10).notNullable();
    t.enu('status', [
      'PLANNED',
      'ON_TRACK',
      'AT_RISK',
      'OFF_TRACK',
      'ON_HOLD',
      'COMPLETED',
      'CANCELLED',
    ]).notNullable();
    t.string('phase', 100).nullable();
    t.string('forecast_end_date', 10).nullable();
    t.double('forecast_cost').nullable();
    t.double('actual_cost').nullable();
    t.integer('progress').nullable();
    t.text('summary').nullable();
    t.string('source', 200).notNullable();
    t.double('budget_change_latest').nullable();
    t.double('budget_change_total').nullable();
    t.integer('schedule_change_latest_days').nullable();
    t.integer('schedule_change_total_days').nullable();
    t.string('baseline_end_date', 10).notNullable();
    t.double('baseline_budget').nullable();
    t.boolean('applied').notNullable();
    t.string('created_at', 30).notNullable();
    t.check('?? >= 0 and ?? <= 100', ['progress', 'progress'], 'status_reports_progress_check');
    // Newest first (asOf desc, createdAt desc, id desc) per project and across the tenant, read backwards along
    // these indexes; `since`/`until` are ranges on as_of.
    t.index(['tenant_id', 'project_id', 'as_of', 'created_at', 'id']);
    t.index(['tenant_id', 'as_of', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('status_reports');
}
