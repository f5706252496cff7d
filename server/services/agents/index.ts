/**
 * Agent runs (docs/agents.md, Agents): the catalogue, executions stored in the database and run by the
 * job runner (kind `agent.execution`, ./execution-job.ts), and the six analyses.
 *
 * - `run` stores a PENDING execution and enqueues its job in one transaction (with its audit row), so a run that was
 *   accepted is never lost; in-process workers are woken when it commits.
 * - A worker `start`s the execution (RUNNING, attempts = the job's attempt), `execute`s it outside any transaction
 *   (reading the snapshot, analysing, reporting progress on the job) and settles it with `complete` or `fail` in
 *   the transaction that settles the job, conditioned on its lease: `agent.execution_completed` is emitted there,
 *   through the outbox, exactly once per execution.
 * - Output is a function of the records and the request (`agentId`, `scope`, `depth`, `asOf`): no clock, no
 *   randomness, stable orderings (ties broken by id).
 */
import { v7 as uuidv7 } from 'uuid';
import { addDays } from '../../dates.js';
import { tenantSettings } from '../../repositories/agent-data.js';
import {
  type ExecutionFilter,
  type ExecutionRecord,
  findExecution,
  findExecutionForRun,
  insertExecution,
  listExecutions,
  markCompleted,
  markFailed,
  markPending,
  markRunning,
} from '../../repositories/agent-executions.js';
import type { Page, PageRequest } from '../../repositories/lists.js';
import { projects } from '../../repositories/projects.js';
import type { Executor } from '../../repositories/sql.js';
import { scanStatusReports } from '../../repositories/status-reports.js';
import type { Schema } from '../../schemas.js';
import { recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { businessRule, notFound } from '../errors.js';
import type { LanguageModel } from '../llm/model.js';
import type { MilestoneService } from '../milestones.js';
import { withFigures } from '../status-reports.js';
import { inWrite } from '../versioned.js';
import { budgetHealth } from './analyses/budget.js';
import { resourceCapacity } from './analyses/capacity.js';
import { portfolioHealth } from './analyses/portfolio-health.js';
import { riskAssessment } from './analyses/risk.js';
import { scheduleHealth } from './analyses/schedule.js';
import type { Analysis } from './analyses/shared.js';
import { statusReport } from './analyses/status-report-quality.js';
import { AGENTS, type AgentDefinition, type AgentDepth, type AgentId, agentDefinition } from './catalogue.js';
import { CitationBuilder } from './citations.js';
import { loadPortfolio, type Portfolio, type Progress, type ReportSource } from './portfolio.js';
import { withModelProse } from './prose.js';

export type { ExecutionRecord };

/** The job kind that runs one execution; its payload is `{ executionId }` and its `ref` the execution id. */
export const AGENT_EXECUTION_JOB = 'agent.execution';

/** Body of POST /agents/run (spec `AgentRunRequest`). */
export type AgentRunInput = Schema<'AgentRunRequest'>;

/** An execution's output (spec `AgentOutput`). */
export type AgentOutput = Schema<'AgentOutput'>;

/** Why an execution failed (spec `ExecutionError`). */
export type ExecutionError = Schema<'ExecutionError'>;

const ANALYSES: Record<AgentId, Analysis> = {
  'portfolio-health': portfolioHealth,
  'schedule-health': scheduleHealth,
  'budget-health': budgetHealth,
  'risk-assessment': riskAssessment,
  'resource-capacity': resourceCapacity,
  'status-report': statusReport,
};

/**
 * The output of an agent over a snapshot: a pure function (the same snapshot gives the same output), its citations
 * numbered once for the whole output.
 */
export function analyse(agentId: AgentId, portfolio: Portfolio): AgentOutput {
  const cite = new CitationBuilder();
  const result = ANALYSES[agentId](portfolio, cite);
  return {
    asOf: portfolio.asOf,
    summary: result.summary,
    findings: result.findings,
    metrics: result.metrics,
    citations: cite.all(),
    ...(result.heatMap ? { heatMap: result.heatMap } : {}),
    ...(result.report ? { report: result.report } : {}),
    engine: 'embedded',
  };
}

/** Days the capacity analysis looks ahead from asOf: 90, or 365 at deep depth. */
export function horizonDays(depth: AgentDepth): number {
  return depth === 'deep' ? 365 : 90;
}

/** `project:<uuid>` → the uuid (lower case); `all` → null. */
export function projectOfScope(scope: string): string | null {
  return scope.startsWith('project:') ? scope.slice('project:'.length).toLowerCase() : null;
}

/** What the worker needs to run an execution. */
export interface StartedExecution {
  tenantId: string;
  execution: ExecutionRecord;
}

/** What an execution's handler may do while it runs. */
export interface RunContext {
  /** Records the stage and percent on the job (and extends its lease). */
  progress: Progress;
  /** Aborted when the job's lease is lost: stop. */
  signal: AbortSignal;
}

/** Options of {@link AgentService}: the app's dependencies, the milestone service and the run settings. */
export interface AgentServiceOptions extends ServiceDeps {
  /** The milestone service: `schedule-health` marks overdue milestones MISSED through it first. */
  milestones: MilestoneService;
  /**
   * Pause after each stage of a run, in ms (env `MERIDIAN_AGENT_STAGE_DELAY_MS`, default 0): makes progress visible
   * in demonstrations and gives crash tests a run to kill mid-way. Never needed in production.
   */
  stageDelayMs?: number;
  /**
   * The configured language model (docs/agents.md, Bring your own model), or null: with one, and the tenant's
   * `settings.llmEnabled`, the model writes the output's prose (agents/prose.ts); metrics and findings stay
   * computed.
   */
  model?: LanguageModel | null;
}

/**
 * The status-report history as the agents read it (docs/resources.md, Status reports): every report of the scope dated
 * on or before asOf, each project's oldest first, with its slip and cost variance against the baseline of its date.
 */
export const statusReportHistory: ReportSource = async function* (db, scope, asOf) {
  for await (const page of scanStatusReports(db, scope, asOf)) {
    yield page.map((stored) => {
      const r = withFigures(stored);
      return {
        id: r.id,
        projectId: r.projectId,
        asOf: r.asOf,
        status: r.status,
        phase: r.phase,
        forecastEndDate: r.forecastEndDate,
        forecastCost: r.forecastCost,
        actualCost: r.actualCost,
        progress: r.progress,
        summary: r.summary,
        scheduleSlipDays: r.scheduleSlipDays,
        costVariance: r.costVariance,
      };
    });
  }
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Agent use cases: the catalogue, runs and their executions. */
export class AgentService {
  private readonly deps: ServiceDeps;
  private readonly milestones: MilestoneService;
  private readonly options: Pick<AgentServiceOptions, 'stageDelayMs' | 'model'>;

  constructor(options: AgentServiceOptions) {
    this.deps = options;
    this.milestones = options.milestones;
    this.options = options;
  }

  /** A page of the catalogue (the same for every tenant). */
  catalogue(page: PageRequest): Page<AgentDefinition> {
    return { items: AGENTS.slice(page.offset, page.offset + page.limit), total: AGENTS.length };
  }

  /**
   * Starts a run: a PENDING execution and its job, in one transaction with the audit row.
   * @throws AppError 422 when `scope` names no project of the tenant or `asOf` is after the tenant's today.
   */
  async run(actor: Actor, input: AgentRunInput): Promise<ExecutionRecord> {
    const scope = input.scope ?? 'all';
    const projectId = projectOfScope(scope);
    const depth = input.depth ?? 'standard';
    const settings = await tenantSettings(this.deps.db.knex, actor.tenantId);
    if (!settings) throw notFound('tenant', actor.tenantId);
    const today = this.deps.calendar.today(settings.timezone, this.deps.clock.now());
    const asOf = input.asOf ?? today;
    if (asOf > today) {
      throw businessRule(`asOf (${asOf}) is after today in your tenant's time zone (${today}).`, [
        { location: 'body', path: '/asOf', message: `must be on or before ${today}` },
      ]);
    }
    return inWrite(this.deps, actor, async (w) => {
      if (projectId && !(await projects.exists(w.trx, actor.tenantId, projectId))) {
        throw businessRule(`scope names project ${projectId}, which is not a project of your tenant.`, [
          { location: 'body', path: '/scope', message: 'must name a project of your tenant' },
        ]);
      }
      const id = uuidv7();
      const normalised = projectId ? `project:${projectId}` : 'all';
      const jobId = await this.deps.jobs.enqueue(w.trx, {
        kind: AGENT_EXECUTION_JOB,
        payload: { executionId: id },
        ref: id,
        tenantId: actor.tenantId,
      });
      await insertExecution(w.trx, {
        id,
        tenantId: actor.tenantId,
        agentId: input.agentId,
        scope: normalised,
        depth,
        asOf,
        jobId,
        createdAt: w.now,
      });
      await recordAudit(w.trx, actor, w.now, 'agent_execution.created', 'agent_execution', id, {
        agentId: { from: null, to: input.agentId },
        scope: { from: null, to: normalised },
        depth: { from: null, to: depth },
        asOf: { from: null, to: asOf },
      });
      return (await findExecution(w.trx, actor.tenantId, id)) as ExecutionRecord;
    });
  }

  /** A page of the tenant's executions. */
  list(actor: Actor, filter: ExecutionFilter, page: PageRequest): Promise<Page<ExecutionRecord>> {
    return listExecutions(this.deps.db.knex, actor.tenantId, filter, page);
  }

  /** One execution of the tenant. @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<ExecutionRecord> {
    const execution = await findExecution(this.deps.db.knex, actor.tenantId, id);
    if (!execution) throw notFound('agent execution', id);
    return execution;
  }

  // ------------------------------------------------------------------------------------------------- the worker

  /**
   * Marks an execution RUNNING for attempt `attempt`. Null when it is gone or already COMPLETED/FAILED (the job
   * has nothing left to do).
   */
  async start(executionId: string, attempt: number): Promise<StartedExecution | null> {
    const now = this.deps.clock.now().toISOString();
    if (!(await markRunning(this.deps.db.knex, executionId, attempt, now))) return null;
    return findExecutionForRun(this.deps.db.knex, executionId);
  }

  /**
   * Runs the analysis of a started execution: `schedule-health` first marks overdue milestones MISSED through the
   * sweep's path; then the snapshot is read (each table once, in pages) and analysed. Returns the output, or an
   * error when the scope's project no longer exists. Writes nothing else.
   */
  async execute(
    started: StartedExecution,
    ctx: RunContext,
  ): Promise<{ output: AgentOutput } | { error: ExecutionError }> {
    const { tenantId, execution } = started;
    const definition = agentDefinition(execution.agentId);
    const delay = this.options.stageDelayMs ?? 0;
    const progress: Progress = async (stage, percent) => {
      await ctx.progress(stage, percent);
      await sleep(delay, ctx.signal);
    };
    await progress('starting', 0);
    const settings = await tenantSettings(this.deps.db.knex, tenantId);
    const projectId = projectOfScope(execution.scope);
    if (!settings || (projectId && !(await projects.exists(this.deps.db.knex, tenantId, projectId)))) {
      return {
        error: {
          code: 'scope_not_found',
          message: 'The project of the scope no longer exists in your tenant.',
        },
      };
    }
    if (execution.agentId === 'schedule-health') {
      await progress('marking overdue milestones missed', 3);
      await this.milestones.markOverdueMissed(tenantId, settings.timezone, projectId);
    }
    const days = horizonDays(execution.depth);
    const portfolio = await loadPortfolio(
      this.deps.db.knex,
      {
        tenantId,
        currency: settings.currency,
        projectId,
        asOf: execution.asOf,
        depth: execution.depth,
        reads: definition.reads,
        horizon: { from: execution.asOf, to: addDays(execution.asOf, days - 1), days },
        // The history feeds the trends of deep runs only.
        reports: execution.depth === 'deep' ? statusReportHistory : undefined,
      },
      progress,
    );
    if (ctx.signal.aborted) throw new Error('lease lost');
    await progress('analysing', 70);
    let output = analyse(execution.agentId, portfolio);
    if (this.options.model && settings.llmEnabled) {
      await progress('writing prose', 85);
      output = await withModelProse(this.options.model, execution.agentId, output);
    }
    await progress('writing output', 95);
    return { output };
  }

  /** COMPLETED with its output, and `agent.execution_completed`, in the settling transaction. */
  async complete(trx: Executor, executionId: string, output: AgentOutput): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    if (await markCompleted(trx, executionId, output, now)) await this.#announce(trx, executionId, now);
  }

  /** FAILED with its error, and `agent.execution_completed` (status FAILED), in the settling transaction. */
  async fail(trx: Executor, executionId: string, error: ExecutionError): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    if (await markFailed(trx, executionId, error, now)) await this.#announce(trx, executionId, now);
  }

  /** Back to PENDING while a retry waits, in the transaction that re-queues the job. */
  async requeue(trx: Executor, executionId: string): Promise<void> {
    await markPending(trx, executionId, this.deps.clock.now().toISOString());
  }

  async #announce(trx: Executor, executionId: string, now: string): Promise<void> {
    const found = await findExecutionForRun(trx, executionId);
    if (!found) return;
    const { tenantId, execution } = found;
    await this.deps.events.emit(
      trx,
      tenantId,
      'agent.execution_completed',
      { executionId, agentId: execution.agentId, status: execution.status, execution },
      now,
    );
  }
}
