/**
 * The job queue: durable background work in our own database (docs/design.md, "Job runner"). Services
 * enqueue jobs in the transaction of the change that needs them; runners (./runner.ts) claim them
 * under a lease, extend the lease while they run, and settle them: completed, retried at a time, failed (given up)
 * or cancelled. The models are Oban and Rails' Solid Queue: one table, one code path on SQLite and Postgres.
 *
 * A job kind is a {@link JobKind}: a name, a handler, how many attempts it gets, its backoff and its lease. The
 * handler does its slow work outside any transaction and returns a {@link JobResult}; the result's `commit`
 * callback runs in the transaction that settles the job, so a job's own records change exactly when the job
 * settles, and not at all when its lease was lost meanwhile.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Clock } from '../clock.js';
import type { Database } from '../repositories/db.js';
import {
  type ClaimCaps,
  cancelJobs,
  claimJobs,
  extendLease,
  findJob,
  insertJobs,
  type JobProgress,
  type JobRecord,
  type JobSettlement,
  pruneJobs,
  settleJob,
} from '../repositories/jobs.js';
import type { Executor } from '../repositories/sql.js';
import { inTransaction } from '../repositories/transactions.js';

export type { ClaimCaps, JobProgress, JobRecord };

/** A claimed job as its handler sees it. */
export interface Job<P> {
  id: string;
  kind: string;
  payload: P;
  /** 1 on the first attempt; an attempt cut short by a dead worker counts. */
  attempt: number;
  /** The record the job works on, if any. */
  ref: string | null;
  createdAt: string;
}

/** What a handler may do while it runs. */
export interface JobContext {
  /** Aborted when the job's lease is lost (another worker may run it now): stop and return anything. */
  signal: AbortSignal;
  /** Extends the lease now (the runner also does so on a timer while the handler runs). */
  heartbeat(): Promise<void>;
  /** Records the stage the job is in (and how far, 0–100), extending the lease. */
  progress(stage: string, percent?: number): Promise<void>;
}

/** Database writes that belong to a job's outcome, run in the transaction that settles it. */
export type Commit = (trx: Executor) => Promise<void>;

/** How a handler ends its attempt. */
export type JobResult =
  | { status: 'completed'; commit?: Commit }
  /** Try again at `runAt` (default: the kind's backoff); beyond the last attempt the job fails instead. */
  | { status: 'retry'; runAt?: string | undefined; error?: string | undefined; commit?: Commit }
  /** Give up now, whatever attempts remain. */
  | { status: 'failed'; error: string; commit?: Commit }
  /** Nothing to do (the record is gone or settled): not counted as work done. */
  | { status: 'cancelled'; reason?: string; commit?: Commit };

/** A kind of job: its name, its handler and its retry policy. */
export interface JobKind<P = unknown> {
  kind: string;
  /** Attempts before the job gives up (a handler's own `failed` ends it sooner). */
  maxAttempts: number;
  /** Delay in ms before attempt `attempt + 1` after attempt `attempt` threw or asked to retry without a time. */
  backoffMs(attempt: number): number;
  /** Lease of a claim in ms; the runner extends it every third of that while the handler runs. */
  leaseMs: number;
  /**
   * Jobs of this kind one runner works on at once (its slot pool; docs/design.md, "Job runner": "Fairness"). Each
   * kind has its own pool, refilled as each job ends, so kinds never wait for each other. Default 10.
   */
  slots?: number;
  /** Jobs of this kind of one tenant RUNNING at once, across every runner (absent or null: no cap). */
  perTenant?: number | null;
  /** Jobs of this kind of one group (a webhook endpoint) RUNNING at once, across every runner (absent: no cap). */
  perGroup?: number | null;
  perform(job: Job<P>, ctx: JobContext): Promise<JobResult>;
  /**
   * Runs in the transaction that fails the job when the runner gives up on its own: the handler threw on the last
   * attempt, or the job's last attempt died with its worker (a lease that expired). The job's records must not be
   * left looking in progress.
   */
  onGiveUp?(trx: Executor, job: Job<P>, error: string): Promise<void>;
  /**
   * Runs in the transaction that puts the job back to PENDING for another attempt (the handler threw, or asked to
   * retry), after the handler's own `commit`: a kind whose records show their state (an agent execution) shows
   * "waiting to be retried" here. `error` is the attempt's, when there is one; `runAt` when the retry is due.
   */
  onRetry?(trx: Executor, job: Job<P>, error: string | null, runAt: string): Promise<void>;
}

/** Rolls back a settlement whose lease was lost. */
class LeaseLost extends Error {}

/** A claimed job and the lease token that must accompany every write to it. */
export interface Claim {
  job: JobRecord;
  owner: string;
}

/**
 * The queue one app (or worker process) shares: enqueue with a wake-up after commit, claim, heartbeat, settle.
 * Built once per app by `buildServices`, so two apps in one process never share listeners.
 */
export class JobQueue {
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #listeners = new Set<() => void>();

  /** @param options the database the `jobs` table is in, and the clock that dates and leases jobs. */
  constructor(options: { db: Database; clock: Clock }) {
    this.#db = options.db;
    this.#clock = options.clock;
  }

  /**
   * Adds a job in the caller's transaction; in-process runners are woken once that transaction commits (a
   * rolled-back transaction enqueued nothing). Returns the job's id.
   * @param job.runAt ISO instant it becomes due (default now); `ref` the record it works on.
   */
  async enqueue(
    trx: Executor,
    job: {
      kind: string;
      payload: unknown;
      runAt?: string;
      ref?: string | null;
      /** The tenant the job works for: the kind's per-tenant cap counts it. */
      tenantId?: string | null;
      /** The group it shares the kind's per-group cap with (e.g. `webhook:<endpoint id>`). */
      groupKey?: string | null;
    },
  ): Promise<string> {
    const id = uuidv7();
    const now = this.#clock.now().toISOString();
    await insertJobs(trx, [
      {
        id,
        kind: job.kind,
        payload: job.payload,
        runAt: job.runAt ?? now,
        ref: job.ref ?? null,
        createdAt: now,
        tenantId: job.tenantId ?? null,
        groupKey: job.groupKey ?? null,
      },
    ]);
    this.#wakeAfterCommit(trx);
    return id;
  }

  /** Subscribes to "jobs were enqueued" (called after the enqueuing transaction commits). Returns unsubscribe. */
  onEnqueued(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #wakeAfterCommit(trx: Executor): void {
    const wake = () => {
      for (const listener of this.#listeners) listener();
    };
    // Knex resolves a transaction's executionPromise when it commits and rejects it when it rolls back.
    const committed = (trx as { executionPromise?: Promise<unknown> }).executionPromise;
    if (committed) committed.then(wake, () => undefined);
    else wake();
  }

  /**
   * Claims up to `limit` due jobs of `kind` for `owner` (a token unique to this claim), leaving out jobs whose
   * tenant or group already has `caps` of them running.
   */
  claim(
    kind: string,
    owner: string,
    leaseMs: number,
    limit: number,
    caps: ClaimCaps = { perTenant: null, perGroup: null },
  ): Promise<Claim[]> {
    const now = this.#clock.now();
    return claimJobs(this.#db.knex, {
      kind,
      owner,
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
      limit,
      caps,
    }).then((jobs) => jobs.map((job) => ({ job, owner })));
  }

  /** Extends a claim's lease by `leaseMs` from now (and records progress); false when the lease was lost. */
  heartbeat(claim: Claim, leaseMs: number, progress?: JobProgress): Promise<boolean> {
    const now = this.#clock.now();
    return extendLease(
      this.#db.knex,
      claim.job.id,
      claim.owner,
      new Date(now.getTime() + leaseMs).toISOString(),
      now.toISOString(),
      progress,
    );
  }

  /**
   * Runs `commit` and settles the claim in one transaction. Returns false (and commits nothing) when the lease was
   * lost: another worker holds the job, or its owner cancelled it. `commit` runs first, so the locks it takes (e.g.
   * on a webhook endpoint) come before the job row's, in the order every other writer takes them.
   */
  async settle(claim: Claim, settlement: JobSettlement, commit?: Commit): Promise<boolean> {
    const now = this.#clock.now().toISOString();
    try {
      await inTransaction(this.#db.knex, async (trx) => {
        await commit?.(trx);
        if (!(await settleJob(trx, claim.job.id, claim.owner, settlement, now))) throw new LeaseLost();
      });
      return true;
    } catch (err) {
      if (err instanceof LeaseLost) return false;
      throw err;
    }
  }

  /** Cancels the unfinished jobs of `kind` on these records, in the caller's transaction. */
  cancel(trx: Executor, kind: string, refs: string[]): Promise<number> {
    return cancelJobs(trx, kind, refs, this.#clock.now().toISOString());
  }

  /** One job (tests and status views), or null. */
  find(id: string): Promise<JobRecord | null> {
    return findJob(this.#db.knex, id);
  }

  /** Deletes jobs that finished more than `retentionMs` ago; returns how many. */
  prune(retentionMs: number): Promise<number> {
    return pruneJobs(this.#db.knex, new Date(this.#clock.now().getTime() - retentionMs).toISOString());
  }

  /** The queue's clock (the runner schedules with it). */
  now(): Date {
    return this.#clock.now();
  }
}
