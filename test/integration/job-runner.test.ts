/**
 * The job runner on its own (docs/design.md, Job runner), on the database of this run (SQLite, or Postgres with
 * MERIDIAN_TEST_DB=postgres): claim under a lease, heartbeat and progress, retry on a schedule, give up into
 * FAILED (and `onGiveUp`), a dead worker's lease expiring, never one job run twice, cancellation, and the wake-up
 * on enqueue. Jobs of a test kind write rows of a table made here, in the transaction that settles them.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type Clock, ManualClock, systemClock } from '../../server/clock.js';
import { type JobKind, type JobQueue, type JobResult, JobRunner } from '../../server/jobs/index.js';
import type { Database } from '../../server/repositories/db.js';
import { buildServices } from '../../server/services/index.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

type Payload = { n: number };

describe(`job runner (${TEST_DB})`, function () {
  this.timeout(30_000);
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Database;
  before(async () => {
    database = await openTestDatabase();
    db = database.db;
    await db.knex.schema.createTable('job_effects', (t) => {
      t.string('id', 36).primary();
      t.string('job_id', 36).notNullable();
      t.string('what', 100).notNullable();
    });
  });
  after(async () => database.dispose());

  const queueOf = (clock: Clock) => buildServices({ db, clock }, { defaultRateLimitPerMinute: 1_000 }).jobs;
  const effects = async (jobId: string) =>
    ((await db.knex('job_effects').where({ job_id: jobId }).select('what')) as { what: string }[]).map(
      (r) => r.what,
    );
  const effect =
    (jobId: string, what: string) => async (trx: Parameters<NonNullable<JobKind['onGiveUp']>>[0]) => {
      await trx('job_effects').insert({ id: randomUUID(), job_id: jobId, what });
    };
  /** A kind with a fresh name, whose handler is `perform`. */
  const kindOf = (
    perform: JobKind<Payload>['perform'],
    options: Partial<JobKind<Payload>> = {},
  ): JobKind<Payload> => ({
    kind: `test.${randomUUID().slice(0, 8)}`,
    maxAttempts: 3,
    backoffMs: (attempt) => [1_000, 60_000][attempt - 1] ?? 60_000,
    leaseMs: 30_000,
    perform,
    onGiveUp: (trx, job, error) => effect(job.id, `gave up: ${error}`)(trx),
    ...options,
  });
  const enqueue = (queue: JobQueue, kind: string, n = 1, runAt?: string) =>
    db.knex.transaction((trx) => queue.enqueue(trx, { kind, payload: { n }, ...(runAt ? { runAt } : {}) }));

  it('runs a due job once, commits its effects with the settlement, and leaves it COMPLETED', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00.000Z');
    const queue = queueOf(clock);
    const seen: number[] = [];
    const kind = kindOf(async (job) => {
      seen.push(job.payload.n);
      expect(job.attempt).to.equal(1);
      return { status: 'completed', commit: effect(job.id, 'done') };
    });
    const runner = new JobRunner({ queue, kinds: [kind], pollMs: 20 });
    const id = await enqueue(queue, kind.kind, 7);
    const later = await enqueue(queue, kind.kind, 8, '2026-03-02T09:00:05.000Z');
    expect(await runner.drain()).to.equal(1);
    expect(seen).to.deep.equal([7]);
    expect(await effects(id)).to.deep.equal(['done']);
    const job = await queue.find(id);
    expect(job).to.include({ status: 'COMPLETED', attempt: 1, leaseOwner: null, lastError: null });
    expect(job?.finishedAt).to.equal(clock.now().toISOString());
    // Not due yet, then due.
    expect((await queue.find(later))?.status).to.equal('PENDING');
    clock.advance(5_000);
    expect(await runner.drain()).to.equal(1);
    expect(seen).to.deep.equal([7, 8]);
    expect(await runner.drain()).to.equal(0);
  });

  it('retries a throwing handler on the kind’s schedule (onRetry each time), then gives up into FAILED with the error and onGiveUp', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00.000Z');
    const queue = queueOf(clock);
    const kind = kindOf(
      async (job) => {
        throw new Error(`boom ${job.attempt}`);
      },
      {
        onRetry: (trx, job, error, runAt) =>
          effect(job.id, `retry ${job.attempt}: ${error} at ${runAt}`)(trx),
      },
    );
    const runner = new JobRunner({ queue, kinds: [kind], pollMs: 20 });
    const id = await enqueue(queue, kind.kind);
    expect(await runner.drain()).to.equal(1);
    let job = await queue.find(id);
    expect(job).to.include({ status: 'PENDING', attempt: 1, lastError: 'boom 1' });
    expect(job?.runAt).to.equal(new Date(clock.now().getTime() + 1_000).toISOString());
    clock.advance(999);
    expect(await runner.drain()).to.equal(0);
    clock.advance(1);
    expect(await runner.drain()).to.equal(1);
    job = await queue.find(id);
    expect(job).to.include({ status: 'PENDING', attempt: 2, lastError: 'boom 2' });
    expect(job?.runAt).to.equal(new Date(clock.now().getTime() + 60_000).toISOString());
    clock.advance(60_000);
    expect(await runner.drain()).to.equal(1);
    job = await queue.find(id);
    expect(job).to.include({ status: 'FAILED', attempt: 3, lastError: 'boom 3' });
    expect(await effects(id)).to.deep.equal([
      'retry 1: boom 1 at 2026-03-02T09:00:01.000Z',
      'retry 2: boom 2 at 2026-03-02T09:01:01.000Z',
      'gave up: boom 3',
    ]);
    clock.advance(3_600_000);
    expect(await runner.drain()).to.equal(0);
  });

  it('honours a handler’s own retry time and failure', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00.000Z');
    const queue = queueOf(clock);
    const results: JobResult[] = [
      { status: 'retry', runAt: '2026-03-02T09:00:07.000Z', error: 'busy' },
      { status: 'failed', error: 'gone for good' },
    ];
    const kind = kindOf(async () => results.shift() as JobResult, { maxAttempts: 10 });
    const runner = new JobRunner({ queue, kinds: [kind], pollMs: 20 });
    const id = await enqueue(queue, kind.kind);
    await runner.drain();
    expect(await queue.find(id)).to.include({ status: 'PENDING', runAt: '2026-03-02T09:00:07.000Z' });
    clock.advance(7_000);
    await runner.drain();
    expect(await queue.find(id)).to.include({ status: 'FAILED', lastError: 'gone for good' });
    // A handler's own failure is its decision: onGiveUp is for the runner's.
    expect(await effects(id)).to.deep.equal([]);
  });

  it('retries a job whose worker died once its lease expires, and fails it when that was its last attempt', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00.000Z');
    const queue = queueOf(clock);
    const kind = kindOf(
      async (job) => ({ status: 'completed', commit: effect(job.id, `ran attempt ${job.attempt}`) }),
      {
        maxAttempts: 2,
      },
    );
    const runner = new JobRunner({ queue, kinds: [kind], pollMs: 20 });
    const id = await enqueue(queue, kind.kind);
    // A worker claims it and dies.
    const [dead] = await queue.claim(kind.kind, 'dead-worker/1', 30_000, 10);
    expect(dead?.job).to.include({ id, status: 'RUNNING', attempt: 1, leaseOwner: 'dead-worker/1' });
    expect(await runner.drain()).to.equal(0);
    clock.advance(29_999);
    expect(await runner.drain()).to.equal(0);
    clock.advance(1);
    expect(await runner.drain()).to.equal(1);
    expect(await effects(id)).to.deep.equal(['ran attempt 2']);
    // The dead worker's late settlement is refused: its lease is gone.
    expect(
      await queue.settle(dead as NonNullable<typeof dead>, { status: 'COMPLETED', error: null }),
    ).to.equal(false);

    // Dies on its last attempt: failed, never left RUNNING.
    const last = await enqueue(queue, kind.kind);
    await queue.claim(kind.kind, 'dead-worker/2', 30_000, 10);
    clock.advance(30_000);
    await queue.claim(kind.kind, 'dead-worker/3', 30_000, 10);
    clock.advance(30_000);
    expect(await runner.drain()).to.equal(1);
    const job = await queue.find(last);
    expect(job).to.include({ status: 'FAILED', attempt: 3 });
    expect(job?.lastError).to.match(/lease expired/);
    expect((await effects(last))[0]).to.match(/^gave up: /);
  });

  it('keeps the lease alive while a handler runs longer than it, records progress, and aborts on a lost lease', async () => {
    const queue = queueOf(systemClock);
    let progressSeen: unknown = null;
    const kind = kindOf(
      async (job, ctx) => {
        await ctx.progress('fetching', 10);
        progressSeen = (await queue.find(job.id))?.progress;
        await new Promise((resolve) => setTimeout(resolve, 700));
        return { status: 'completed', commit: effect(job.id, 'slow done') };
      },
      { leaseMs: 200 },
    );
    const runner = new JobRunner({ queue, kinds: [kind], pollMs: 20 });
    const rival = new JobRunner({ queue, kinds: [kind], pollMs: 20 });
    const id = await enqueue(queue, kind.kind);
    const running = runner.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 450));
    // Past the first lease: the heartbeat has extended it, so a rival claims nothing.
    expect(await rival.runOnce()).to.equal(0);
    expect(await running).to.equal(1);
    expect(progressSeen).to.deep.equal({ stage: 'fetching', percent: 10 });
    expect(await effects(id)).to.deep.equal(['slow done']);
    expect((await queue.find(id))?.attempt).to.equal(1);

    // Cancelled under a running handler: the handler's signal aborts and its settlement commits nothing.
    let aborted = false;
    const cancellable = kindOf(
      async (job, ctx) => {
        await db.knex.transaction((trx) => queue.cancel(trx, job.kind, [job.ref as string]));
        await ctx.heartbeat();
        aborted = ctx.signal.aborted;
        return { status: 'completed', commit: effect(job.id, 'should not commit') };
      },
      { leaseMs: 5_000 },
    );
    const ref = randomUUID();
    const cid = await db.knex.transaction((trx) =>
      queue.enqueue(trx, { kind: cancellable.kind, payload: { n: 1 }, ref }),
    );
    await new JobRunner({ queue, kinds: [cancellable], pollMs: 20 }).runOnce();
    expect(aborted).to.equal(true);
    expect(await effects(cid)).to.deep.equal([]);
    expect((await queue.find(cid))?.status).to.equal('CANCELLED');
  });

  it('never runs one job twice with two runners claiming at once', async () => {
    const queue = queueOf(systemClock);
    const runs = new Map<number, number>();
    const kind = kindOf(async (job) => {
      runs.set(job.payload.n, (runs.get(job.payload.n) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2));
      return { status: 'completed' };
    });
    const JOBS = 200;
    await db.knex.transaction(async (trx) => {
      for (let n = 0; n < JOBS; n++) await queue.enqueue(trx, { kind: kind.kind, payload: { n } });
    });
    // Two queues over the same database, as two processes would have.
    const a = new JobRunner({ queue, kinds: [kind], pollMs: 20, batchSize: 10 });
    const b = new JobRunner({ queue: queueOf(systemClock), kinds: [kind], pollMs: 20, batchSize: 10 });
    const [ranA, ranB] = await Promise.all([a.drain(), b.drain()]);
    console.log(`      two runners (${TEST_DB}): ${JOBS} jobs, ${ranA} + ${ranB} runs`);
    expect(ranA + ranB).to.equal(JOBS);
    expect(runs.size).to.equal(JOBS);
    expect([...runs.values()].every((n) => n === 1)).to.equal(true);
  });

  it('does not count a job its handler cancels, and cancel() by record stops a pending job', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00.000Z');
    const queue = queueOf(clock);
    let ran = 0;
    const kind = kindOf(async () => {
      ran++;
      return { status: 'cancelled', reason: 'nothing to do' };
    });
    const runner = new JobRunner({ queue, kinds: [kind], pollMs: 20 });
    const id = await enqueue(queue, kind.kind);
    expect(await runner.drain()).to.equal(0);
    expect(ran).to.equal(1);
    expect(await queue.find(id)).to.include({ status: 'CANCELLED', lastError: 'nothing to do' });
    const ref = randomUUID();
    const pending = await db.knex.transaction((trx) =>
      queue.enqueue(trx, { kind: kind.kind, payload: { n: 2 }, ref }),
    );
    expect(await db.knex.transaction((trx) => queue.cancel(trx, kind.kind, [ref]))).to.equal(1);
    expect(await runner.drain()).to.equal(0);
    expect(ran).to.equal(1);
    expect((await queue.find(pending))?.status).to.equal('CANCELLED');
  });

  it('wakes a started runner when an enqueuing transaction commits, not when it rolls back', async () => {
    const queue = queueOf(systemClock);
    const done: number[] = [];
    const kind = kindOf(async (job) => {
      done.push(job.payload.n);
      return { status: 'completed' };
    });
    // Polls once a minute: only the wake-up can make it run within the test.
    const runner = new JobRunner({ queue, kinds: [kind], pollMs: 60_000 }).start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await db.knex
        .transaction(async (trx) => {
          await queue.enqueue(trx, { kind: kind.kind, payload: { n: 1 } });
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      const t0 = Date.now();
      await enqueue(queue, kind.kind, 2);
      while (done.length === 0 && Date.now() - t0 < 5_000) await new Promise((r) => setTimeout(r, 10));
      expect(done).to.deep.equal([2]);
      expect(Date.now() - t0).to.be.lessThan(5_000);
      expect(await db.knex('jobs').where({ kind: kind.kind }).count({ n: '*' }).first()).to.satisfy(
        (row: { n: unknown }) => Number(row.n) === 1,
      );
    } finally {
      await runner.stop();
    }
  });
});
