/**
 * The job runner (docs/design.md, "Job runner"): claims due jobs of its registered kinds under a lease,
 * runs their handlers, keeps the lease alive while a handler runs, and settles each job with its handler's result.
 *
 * - Retry: a handler that throws, or asks to retry without a time, is retried after the kind's backoff (the kind's
 *   `onRetry` runs in the transaction that re-queues it); after the kind's last attempt the job is FAILED with the
 *   error and the kind's `onGiveUp` runs in that transaction.
 * - A worker that dies leaves its jobs RUNNING with a lease that expires; they are claimed again (a new attempt),
 *   or, past the last attempt, failed with `onGiveUp`: no job stays RUNNING for good.
 * - Two workers never run one job at once: claims are exclusive (FOR UPDATE SKIP LOCKED on Postgres, the single
 *   writer on SQLite), and every write of a claim is conditioned on its lease token.
 * - Slots (docs/design.md, "Job runner": "Fairness"): `start()` gives each kind a pool of `slots`; a job that ends
 *   frees its slot and the pool is filled again at once (no batch barrier), and kinds fill their pools on their own,
 *   so agent runs never queue behind deliveries. Claims leave out jobs whose tenant, or group (a webhook endpoint),
 *   already has the kind's cap of jobs running across every runner.
 * - Wake-up: `start()` subscribes to the queue's "enqueued" signal (same process) and otherwise polls.
 * - `runOnce()` / `drain()` (tests) work in rounds: a batch per kind, within the same caps.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Claim, ClaimCaps, Job, JobContext, JobKind, JobQueue, JobResult } from './queue.js';

// biome-ignore lint/suspicious/noExplicitAny: a registry holds kinds of any payload type
type AnyKind = JobKind<any>;

/** Slots of a kind that names none. */
const DEFAULT_SLOTS = 10;

/** The claim caps of a kind (docs/design.md, "Job runner": "Fairness"). */
function capsOf(kind: AnyKind): ClaimCaps {
  return { perTenant: kind.perTenant ?? null, perGroup: kind.perGroup ?? null };
}

/** Jobs that finished are kept this long, then pruned. */
export const JOB_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const MAINTAIN_EVERY_MS = 60 * 60 * 1000;

/** Options of a {@link JobRunner}. */
export interface JobRunnerOptions {
  queue: JobQueue;
  // biome-ignore lint/suspicious/noExplicitAny: a registry holds kinds of any payload type
  kinds: JobKind<any>[];
  /** How often an idle runner looks for due jobs, in ms. */
  pollMs: number;
  logger?: Logger | undefined;
  /** Jobs claimed per kind and round of `runOnce`/`drain` (default 25); they run concurrently. */
  batchSize?: number;
  /** Housekeeping run hourly by the loop (besides pruning finished jobs), e.g. pruning a kind's own records. */
  maintain?: () => Promise<void>;
}

/** Describes a thrown value for a job's `last_error` (bounded). */
function describe(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.slice(0, 1000) || 'error';
}

/** One runner: `start()` runs the loop until `stop()`; tests drive it with `runOnce()` / `drain()`. */
export class JobRunner {
  readonly id = `runner-${randomUUID()}`;
  readonly #queue: JobQueue;
  // biome-ignore lint/suspicious/noExplicitAny: see JobRunnerOptions.kinds
  readonly #kinds: Map<string, JobKind<any>>;
  readonly #pollMs: number;
  readonly #logger: Logger | undefined;
  readonly #batchSize: number;
  readonly #maintain: (() => Promise<void>) | undefined;
  #claims = 0;
  #maintainedAt = Number.NEGATIVE_INFINITY;
  /** Busy slots per kind. */
  readonly #inFlight = new Map<string, number>();
  /** Kinds whose pool is being filled, and kinds asked to fill again meanwhile. */
  readonly #filling = new Set<string>();
  readonly #refill = new Set<string>();
  /** The jobs in flight (stop() waits for them). */
  readonly #tasks = new Set<Promise<void>>();
  #running: Promise<void> | null = null;
  #stopping = false;
  #wake: (() => void) | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(options: JobRunnerOptions) {
    this.#queue = options.queue;
    this.#kinds = new Map(options.kinds.map((k) => [k.kind, k]));
    this.#pollMs = options.pollMs;
    this.#logger = options.logger;
    this.#batchSize = options.batchSize ?? 25;
    this.#maintain = options.maintain;
  }

  /** The registered kinds' names. */
  get kinds(): string[] {
    return [...this.#kinds.keys()];
  }

  /** Starts the loop (idempotent); enqueues in this process wake it at once. */
  start(): this {
    if (this.#running) return this;
    this.#stopping = false;
    this.#unsubscribe = this.#queue.onEnqueued(() => {
      this.#fillAll();
      this.#wake?.();
    });
    this.#running = this.#loop();
    return this;
  }

  /** Stops claiming, then waits for the jobs in flight to settle. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#wake?.();
    await this.#running;
    this.#running = null;
    await Promise.allSettled([...this.#tasks]);
  }

  /** Jobs of `kind` this runner is working on now (its pool's busy slots). */
  busy(kind: string): number {
    return this.#inFlight.get(kind) ?? 0;
  }

  async #loop(): Promise<void> {
    while (!this.#stopping) {
      try {
        if (this.#queue.now().getTime() - this.#maintainedAt >= MAINTAIN_EVERY_MS) await this.maintain();
      } catch (err) {
        this.#logger?.error({ err }, 'job maintenance failed');
      }
      await this.#fillAll();
      if (!this.#stopping) await this.#idle();
    }
  }

  /** Fills every kind's pool (each on its own: one kind's slow claims or jobs never hold up another's). */
  #fillAll(): Promise<void> {
    return Promise.all([...this.#kinds.values()].map((kind) => this.#fill(kind))).then(() => undefined);
  }

  /**
   * Claims due jobs of `kind` into its free slots and starts them, until the pool is full or nothing more is due
   * (within the kind's caps). A job that ends frees its slot and fills the pool again at once: no batch barrier.
   * One claim of a kind at a time per runner; a fill asked for meanwhile runs right after.
   */
  async #fill(kind: AnyKind): Promise<void> {
    if (this.#filling.has(kind.kind)) {
      this.#refill.add(kind.kind);
      return;
    }
    this.#filling.add(kind.kind);
    try {
      const slots = kind.slots ?? DEFAULT_SLOTS;
      while (!this.#stopping) {
        this.#refill.delete(kind.kind);
        const free = slots - this.busy(kind.kind);
        if (free <= 0) break;
        const claims = await this.#queue.claim(
          kind.kind,
          `${this.id}/${++this.#claims}`,
          kind.leaseMs,
          free,
          capsOf(kind),
        );
        for (const claim of claims) this.#launch(kind, claim);
        if (claims.length < free && !this.#refill.has(kind.kind)) break;
      }
    } catch (err) {
      this.#logger?.error({ err, kind: kind.kind }, 'job claim failed');
    } finally {
      this.#filling.delete(kind.kind);
    }
  }

  /** Runs one claimed job in a slot of its kind's pool; when it settles, the slot is filled again. */
  #launch(kind: AnyKind, claim: Claim): void {
    this.#inFlight.set(kind.kind, this.busy(kind.kind) + 1);
    const task: Promise<void> = this.#run(kind, claim)
      .then(() => undefined)
      .catch((err: unknown) => {
        this.#logger?.error({ err, jobId: claim.job.id, kind: kind.kind }, 'job settlement failed');
      })
      .finally(() => {
        this.#inFlight.set(kind.kind, this.busy(kind.kind) - 1);
        this.#tasks.delete(task);
        if (!this.#stopping) void this.#fill(kind);
      });
    this.#tasks.add(task);
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
    });
  }

  /** Prunes finished jobs (and runs the `maintain` option); run hourly by the loop. */
  async maintain(): Promise<void> {
    this.#maintainedAt = this.#queue.now().getTime();
    await this.#queue.prune(JOB_RETENTION_MS);
    await this.#maintain?.();
  }

  /**
   * Claims one batch of due jobs per kind and runs them (concurrently). Returns how many were worked on: claimed
   * jobs whose handler cancelled them (nothing left to do) do not count.
   */
  async runOnce(): Promise<number> {
    return (await this.#round()).worked;
  }

  /** Runs rounds until no job is due (tests: "do everything that is due now"); returns the jobs worked on. */
  async drain(maxRounds = 1_000): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxRounds; i++) {
      const { claimed, worked } = await this.#round();
      total += worked;
      if (claimed === 0) break;
    }
    return total;
  }

  async #round(): Promise<{ claimed: number; worked: number }> {
    let claimed = 0;
    let worked = 0;
    for (const kind of this.#kinds.values()) {
      const claims = await this.#queue.claim(
        kind.kind,
        `${this.id}/${++this.#claims}`,
        kind.leaseMs,
        this.#batchSize,
        capsOf(kind),
      );
      claimed += claims.length;
      const results = await Promise.all(claims.map((claim) => this.#run(kind, claim)));
      worked += results.filter((counted) => counted).length;
    }
    return { claimed, worked };
  }

  /** Runs one claimed job to its settlement; returns whether it counts as worked on. */
  // biome-ignore lint/suspicious/noExplicitAny: see JobRunnerOptions.kinds
  async #run(kind: JobKind<any>, claim: Claim): Promise<boolean> {
    const job: Job<unknown> = {
      id: claim.job.id,
      kind: claim.job.kind,
      payload: claim.job.payload,
      attempt: claim.job.attempt,
      ref: claim.job.ref,
      createdAt: claim.job.createdAt,
    };
    if (job.attempt > kind.maxAttempts) {
      // Its last attempt died with its worker: give up rather than run it once more.
      const error = claim.job.lastError ?? 'the worker running the last attempt stopped (its lease expired)';
      await this.#settle(kind, claim, job, { status: 'failed', error }, true);
      return true;
    }
    const abort = new AbortController();
    const beat = async (progress?: { stage: string; percent?: number | undefined }) => {
      if (abort.signal.aborted) return;
      if (!(await this.#queue.heartbeat(claim, kind.leaseMs, progress))) {
        this.#logger?.warn({ jobId: job.id, kind: job.kind }, 'job lease lost while running');
        abort.abort(new Error('lease lost'));
      }
    };
    const timer = setInterval(() => void beat().catch(() => undefined), Math.max(kind.leaseMs / 3, 10));
    const ctx: JobContext = {
      signal: abort.signal,
      heartbeat: () => beat(),
      progress: (stage, percent) => beat({ stage, percent }),
    };
    let result: JobResult;
    let threw = false;
    try {
      result = await kind.perform(job, ctx);
    } catch (err) {
      threw = true;
      result = { status: 'retry', error: describe(err) };
      this.#logger?.warn({ err, jobId: job.id, kind: job.kind, attempt: job.attempt }, 'job attempt failed');
    } finally {
      clearInterval(timer);
    }
    await this.#settle(kind, claim, job, result, threw);
    return result.status !== 'cancelled';
  }

  // biome-ignore lint/suspicious/noExplicitAny: see JobRunnerOptions.kinds
  async #settle(kind: JobKind<any>, claim: Claim, job: Job<unknown>, result: JobResult, byRunner: boolean) {
    let settled: boolean;
    if (result.status === 'completed') {
      settled = await this.#queue.settle(claim, { status: 'COMPLETED', error: null }, result.commit);
    } else if (result.status === 'cancelled') {
      settled = await this.#queue.settle(
        claim,
        { status: 'CANCELLED', error: result.reason ?? null },
        result.commit,
      );
    } else if (result.status === 'retry' && job.attempt < kind.maxAttempts) {
      const runAt =
        result.runAt ?? new Date(this.#queue.now().getTime() + kind.backoffMs(job.attempt)).toISOString();
      const error = result.error ?? null;
      settled = await this.#queue.settle(claim, { status: 'PENDING', runAt, error }, async (trx) => {
        await result.commit?.(trx);
        await kind.onRetry?.(trx, job, error, runAt);
      });
    } else {
      // Failed by the handler, or out of attempts: the job gives up. When the runner decides it (a throw, a retry
      // past the last attempt, a dead worker), the kind's onGiveUp settles the job's records.
      const error = result.status === 'failed' ? result.error : (result.error ?? 'out of attempts');
      const giveUp = byRunner || result.status === 'retry' ? kind.onGiveUp : undefined;
      settled = await this.#queue.settle(claim, { status: 'FAILED', error }, async (trx) => {
        await result.commit?.(trx);
        await giveUp?.(trx, job, error);
      });
    }
    if (!settled) this.#logger?.warn({ jobId: job.id, kind: job.kind }, 'job lease lost before settling');
  }
}
