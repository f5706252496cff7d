import type { Knex } from 'knex';

// Agent executions (docs/agents.md, "Agents"): the user-facing record of one agent run. The work itself is
// a job of the job runner (`job_id`, kind `agent.execution`); the execution keeps what outlives the job (jobs are
// pruned 7 days after they finish): status, attempts, times, output and error.
//
// - `status`: PENDING → RUNNING → COMPLETED | FAILED (the seed's states); back to PENDING while a retry waits.
// - `attempts`: how many times a worker started the run.
// - `output`: the AgentOutput as JSON text (COMPLETED only); `error_code`/`error_message` (FAILED only).
// - While RUNNING, progress is read from the job row (the runner records it with each heartbeat).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('agent_executions', (t) => {
    t.string('id', 36).primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('agent_id', 40).notNullable();
    t.string('scope', 60).notNullable();
    t.string('depth', 10).notNullable();
    t.string('as_of', 10).notNullable();
    t.enu('status', ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED']).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('job_id', 36).nullable();
    t.text('output').nullable();
    t.string('error_code', 40).nullable();
    t.text('error_message').nullable();
    t.string('created_at', 30).notNullable();
    t.string('started_at', 30).nullable();
    t.string('completed_at', 30).nullable();
    t.string('updated_at', 30).notNullable();
    t.index(['tenant_id', 'created_at', 'id']);
    t.index(['tenant_id', 'agent_id', 'created_at', 'id']);
    t.index(['tenant_id', 'status', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('agent_executions');
}
