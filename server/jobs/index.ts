/**
 * Background work (docs/design.md, "Job runner"; Oban and Rails' Solid Queue are the models): the durable queue in
 * our own database (./queue.ts), the runner that claims and settles its jobs (./runner.ts), the registry of the
 * kinds the application runs (./registry.ts: webhook deliveries and agent executions, each defined by its feature)
 * and the periodic sweeps (./sweeps.ts).
 *
 * The entry points (`npm start`, `npm run worker`), the tests and the benchmarks import this module. Services
 * import ./queue.ts alone (they enqueue in their transactions), so nothing below the registry depends on it.
 */
export type { Commit, Job, JobContext, JobKind, JobProgress, JobRecord, JobResult } from './queue.js';
export { JobQueue } from './queue.js';
export { createJobRunner, jobKinds } from './registry.js';
export { JOB_RETENTION_MS, JobRunner, type JobRunnerOptions } from './runner.js';
export { SWEEP_INTERVAL_MS, startSweeps } from './sweeps.js';
