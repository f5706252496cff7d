/**
 * Agent executions on the job runner (docs/design.md, "Job runner" and "Agents"): each execution is a
 * job of kind `agent.execution`. A claim starts it (RUNNING, attempts = the job's attempt), the analysis runs
 * outside any transaction with its progress on the job, and the result settles both in one transaction conditioned
 * on the lease: COMPLETED with the output, or FAILED with the error, each emitting `agent.execution_completed`.
 *
 * - A worker that dies mid-run leaves its lease, which expires; the job is claimed again (a new attempt, counted).
 * - An attempt that throws is retried after 5 s, then 30 s (the execution shows PENDING meanwhile); after the third
 *   attempt, or when the third attempt's worker died, the execution is FAILED (`internal_error` / `worker_lost`):
 *   never left RUNNING.
 */
import type { Config } from '../../config.js';
import type { JobKind } from '../../jobs/queue.js';
import { AGENT_EXECUTION_JOB, type AgentService } from './index.js';

/** Attempts of one execution (spec: "up to 3 attempts in all"). */
export const AGENT_MAX_ATTEMPTS = 3;

/** Agent runs one runner works on at once. */
export const AGENT_SLOTS = 4;
/** Agent runs of one tenant running at once, across every runner. */
export const AGENT_PER_TENANT = 2;

/** The configuration an execution needs. */
export type AgentJobConfig = Pick<Config, 'agentLeaseMs'>;

/** The `agent.execution` job kind. */
export function agentExecutionJob(
  agents: AgentService,
  config: AgentJobConfig,
): JobKind<{ executionId: string }> {
  return {
    kind: AGENT_EXECUTION_JOB,
    maxAttempts: AGENT_MAX_ATTEMPTS,
    backoffMs: (attempt) => [5_000, 30_000][attempt - 1] ?? 30_000,
    leaseMs: config.agentLeaseMs,
    // Its own slot pool (never behind deliveries), at most 2 runs of one tenant at once (docs/design.md, "Job
    // runner": "Fairness").
    slots: AGENT_SLOTS,
    perTenant: AGENT_PER_TENANT,
    async perform(job, ctx) {
      const { executionId } = job.payload;
      const started = await agents.start(executionId, job.attempt);
      if (!started) return { status: 'cancelled', reason: 'the execution is no longer pending or running' };
      const result = await agents.execute(started, {
        progress: (stage, percent) => ctx.progress(stage, percent),
        signal: ctx.signal,
      });
      if ('error' in result) {
        return {
          status: 'failed',
          error: result.error.message,
          commit: (trx) => agents.fail(trx, executionId, result.error),
        };
      }
      return { status: 'completed', commit: (trx) => agents.complete(trx, executionId, result.output) };
    },
    async onRetry(trx, job) {
      await agents.requeue(trx, job.payload.executionId);
    },
    async onGiveUp(trx, job) {
      // Claimed beyond the last attempt: the last attempt's worker stopped before it settled.
      const lost = job.attempt > AGENT_MAX_ATTEMPTS;
      await agents.fail(
        trx,
        job.payload.executionId,
        lost
          ? {
              code: 'worker_lost',
              message: `The worker running attempt ${AGENT_MAX_ATTEMPTS} of ${AGENT_MAX_ATTEMPTS} stopped before it finished (its lease expired).`,
            }
          : {
              // The error itself is logged by the runner with the job id; internals never reach the API.
              code: 'internal_error',
              message: `Attempt ${job.attempt} of ${AGENT_MAX_ATTEMPTS} failed on an internal error; quote the execution id to support.`,
            },
      );
    },
  };
}
