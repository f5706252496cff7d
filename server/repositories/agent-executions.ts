/**
 * The agent_executions table (migration `create_agent_executions`): rows ⇄ the API's `AgentExecution`. While an
 * execution is RUNNING its progress comes from its job row (the job runner records `{ stage, percent }` there with
 * each heartbeat), so a list or a poll joins `jobs` on the primary key.
 *
 * Every status change is conditioned on the status it leaves, so a terminal execution is never reopened and a
 * settlement that lost its race changes nothing.
 */
import type { Knex } from 'knex';
import type { ListFilter, Schema } from '../schemas.js';
import type { JobProgress } from './jobs.js';
import type { Page, PageRequest } from './lists.js';
import { whereAnyOf } from './lists.js';
import type { Executor } from './sql.js';
import { parseJson, toCount } from './values.js';

/** An execution as the API shows it (spec `AgentExecution`). */
export type ExecutionRecord = Schema<'AgentExecution'>;

/** Execution statuses (spec `ExecutionStatus`). */
export type ExecutionStatus = Schema<'ExecutionStatus'>;

/** A new execution (PENDING, no attempt yet). */
export interface NewExecution {
  id: string;
  tenantId: string;
  agentId: Schema<'AgentId'>;
  scope: string;
  depth: Schema<'AgentDepth'>;
  asOf: string;
  jobId: string;
  createdAt: string;
}

/**
 * Filters and order of GET /agents/executions: `sort` `createdAt` (oldest first, the default) or `-createdAt`
 * (newest first), then id.
 */
export type ExecutionFilter = ListFilter<'listAgentExecutions'>;

type Row = Record<string, unknown>;

function progressOf(row: Row): ExecutionRecord['progress'] {
  if (row.status !== 'RUNNING') return null;
  const job = parseJson<JobProgress | null>(row.job_progress, null);
  if (!job) return { percent: 0, stage: 'starting' };
  const percent = Math.max(0, Math.min(100, Math.round(job.percent ?? 0)));
  return { percent, stage: job.stage };
}

function toExecution(row: Row): ExecutionRecord {
  const status = row.status as ExecutionStatus;
  return {
    executionId: row.id as string,
    agentId: row.agent_id as Schema<'AgentId'>,
    scope: row.scope as string,
    depth: row.depth as Schema<'AgentDepth'>,
    asOf: row.as_of as string,
    status,
    attempts: Number(row.attempts),
    progress: progressOf(row),
    output:
      status === 'COMPLETED' ? withEngine(parseJson<Schema<'AgentOutput'> | null>(row.output, null)) : null,
    error:
      status === 'FAILED'
        ? {
            code: (row.error_code as string | null) ?? 'internal_error',
            message: (row.error_message as string) ?? '',
          }
        : null,
    createdAt: row.created_at as string,
    startedAt: (row.started_at as string | null) ?? null,
    completedAt: (row.completed_at as string | null) ?? null,
    updatedAt: row.updated_at as string,
  };
}

function selectExecutions(db: Executor): Knex.QueryBuilder {
  return db('agent_executions as e')
    .leftJoin('jobs as j', 'j.id', 'e.job_id')
    .select('e.*', 'j.progress as job_progress');
}

/** Inserts a PENDING execution. */
export async function insertExecution(db: Executor, e: NewExecution): Promise<void> {
  await db('agent_executions').insert({
    id: e.id,
    tenant_id: e.tenantId,
    agent_id: e.agentId,
    scope: e.scope,
    depth: e.depth,
    as_of: e.asOf,
    status: 'PENDING',
    attempts: 0,
    job_id: e.jobId,
    created_at: e.createdAt,
    updated_at: e.createdAt,
  });
}

/** One execution of the tenant, or null. */
export async function findExecution(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<ExecutionRecord | null> {
  const row = (await selectExecutions(db).where({ 'e.tenant_id': tenantId, 'e.id': id }).first()) as
    | Row
    | undefined;
  return row ? toExecution(row) : null;
}

/** One execution by id whatever its tenant (the worker, which learns the tenant from it), with its tenant id. */
export async function findExecutionForRun(
  db: Executor,
  id: string,
): Promise<{ tenantId: string; execution: ExecutionRecord } | null> {
  const row = (await selectExecutions(db).where('e.id', id).first()) as Row | undefined;
  return row ? { tenantId: row.tenant_id as string, execution: toExecution(row) } : null;
}

/** A page of the tenant's executions matching the filter, by createdAt then id in the filter's order. */
export async function listExecutions(
  db: Executor,
  tenantId: string,
  filter: ExecutionFilter,
  page: PageRequest,
): Promise<Page<ExecutionRecord>> {
  const where: Record<string, string> = { tenant_id: tenantId };
  if (filter.agentId !== undefined) where.agent_id = filter.agentId;
  const [countRow] = await whereAnyOf(db('agent_executions').where(where), 'status', filter.status).count({
    n: '*',
  });
  const order = filter.sort === '-createdAt' ? 'desc' : 'asc';
  const rows = (await selectExecutions(db)
    .where(Object.fromEntries(Object.entries(where).map(([k, v]) => [`e.${k}`, v])))
    .modify((q) => whereAnyOf(q, 'e.status', filter.status))
    .orderBy([
      { column: 'e.created_at', order },
      { column: 'e.id', order },
    ])
    .limit(page.limit)
    .offset(page.offset)) as Row[];
  return { items: rows.map(toExecution), total: toCount((countRow as { n: unknown } | undefined)?.n) };
}

/**
 * Marks an execution RUNNING for attempt `attempt` (a worker claimed its job); `started_at` keeps the first start.
 * False when it is terminal already (nothing to run).
 */
export async function markRunning(db: Executor, id: string, attempt: number, now: string): Promise<boolean> {
  const changed = await db('agent_executions')
    .where('id', id)
    .whereIn('status', ['PENDING', 'RUNNING'])
    .update({
      status: 'RUNNING',
      attempts: attempt,
      started_at: db.raw('COALESCE(started_at, ?)', [now]),
      updated_at: now,
    });
  return changed === 1;
}

/** Back to PENDING while a retry waits (the attempt failed; attempts left). */
export async function markPending(db: Executor, id: string, now: string): Promise<void> {
  await db('agent_executions')
    .where('id', id)
    .whereIn('status', ['PENDING', 'RUNNING'])
    .update({ status: 'PENDING', updated_at: now });
}

/** COMPLETED with its output; false when the execution was terminal already. */
export async function markCompleted(
  db: Executor,
  id: string,
  output: unknown,
  now: string,
): Promise<boolean> {
  const changed = await db('agent_executions')
    .where('id', id)
    .whereIn('status', ['PENDING', 'RUNNING'])
    .update({
      status: 'COMPLETED',
      output: JSON.stringify(output),
      error_code: null,
      error_message: null,
      completed_at: now,
      updated_at: now,
    });
  return changed === 1;
}

/** FAILED with its error; false when the execution was terminal already. */
export async function markFailed(
  db: Executor,
  id: string,
  error: { code: string; message: string },
  now: string,
): Promise<boolean> {
  const changed = await db('agent_executions')
    .where('id', id)
    .whereIn('status', ['PENDING', 'RUNNING'])
    .update({
      status: 'FAILED',
      output: null,
      error_code: error.code,
      error_message: error.message.slice(0, 2000),
      completed_at: now,
      updated_at: now,
    });
  return changed === 1;
}

/** An output stored without an `engine` field was written by the embedded engine: it is shown as `embedded`. */
function withEngine(output: Schema<'AgentOutput'> | null): Schema<'AgentOutput'> | null {
  return output && !output.engine ? { ...output, engine: 'embedded' } : output;
}
