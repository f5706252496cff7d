/**
 * The jobs table of the job runner (migration `create_jobs`): enqueue, claim under a lease, extend the lease,
 * record progress, settle, cancel and prune. Every write to a claimed job is conditioned on its lease token, so a
 * worker whose lease expired (and was taken over) writes nothing.
 */
import type { Executor } from './sql.js';
import { isPostgres } from './sql.js';
import { parseJson } from './values.js';

/** PENDING → RUNNING → COMPLETED | FAILED | CANCELLED (a RUNNING job whose lease expired is claimable again). */
export const JOB_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;

/** A job's state (internal: the jobs table's CHECK, not an API enum). */
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What a running job reports of itself: the stage it is in and, when known, how far it is (0–100). */
export interface JobProgress {
  stage: string;
  percent?: number | undefined;
}

/** A job as stored. */
export interface JobRecord {
  id: string;
  kind: string;
  payload: unknown;
  status: JobStatus;
  /** Claims so far (the one running included). */
  attempt: number;
  runAt: string;
  leaseOwner: string | null;
  leaseUntil: string | null;
  ref: string | null;
  progress: JobProgress | null;
  lastError: string | null;
  /** The tenant the job works for, or null (not capped per tenant). */
  tenantId: string | null;
  /** The group it shares a cap with (a delivery's endpoint), or null. */
  groupKey: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** A new job. */
export interface NewJob {
  id: string;
  kind: string;
  payload: unknown;
  runAt: string;
  ref: string | null;
  createdAt: string;
  /** The tenant the job works for (its per-tenant cap), or null. */
  tenantId?: string | null;
  /** The group the job shares a cap with (e.g. `webhook:<endpoint id>`), or null. */
  groupKey?: string | null;
}

type Row = Record<string, unknown>;

function toJob(row: Row): JobRecord {
  return {
    id: row.id as string,
    kind: row.kind as string,
    payload: parseJson<unknown>(row.payload, null),
    status: row.status as JobStatus,
    attempt: Number(row.attempt),
    runAt: row.run_at as string,
    leaseOwner: (row.lease_owner as string | null) ?? null,
    leaseUntil: (row.lease_until as string | null) ?? null,
    ref: (row.ref as string | null) ?? null,
    progress: parseJson<JobProgress | null>(row.progress, null),
    lastError: (row.last_error as string | null) ?? null,
    tenantId: (row.tenant_id as string | null) ?? null,
    groupKey: (row.group_key as string | null) ?? null,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    finishedAt: (row.finished_at as string | null) ?? null,
  };
}

/** Inserts PENDING jobs. */
export async function insertJobs(db: Executor, jobs: NewJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await db('jobs').insert(
    jobs.map((j) => ({
      id: j.id,
      kind: j.kind,
      payload: JSON.stringify(j.payload ?? null),
      status: 'PENDING',
      attempt: 0,
      run_at: j.runAt,
      ref: j.ref,
      tenant_id: j.tenantId ?? null,
      group_key: j.groupKey ?? null,
      created_at: j.createdAt,
      updated_at: j.createdAt,
    })),
  );
}

/** One job, or null. */
export async function findJob(db: Executor, id: string): Promise<JobRecord | null> {
  const row = (await db('jobs').where({ id }).first()) as Row | undefined;
  return row ? toJob(row) : null;
}

/** Caps of one claim: jobs of one tenant, and of one group, that may be RUNNING at once (null: no cap). */
export interface ClaimCaps {
  perTenant: number | null;
  perGroup: number | null;
}

/**
 * The candidates of a claim (docs/design.md, "Job runner": "Fairness"): due jobs of the kind (PENDING whose `run_at`
 * has come, RUNNING whose lease expired), oldest due first, leaving out every job whose tenant (or group) would go
 * over its cap: its rank among its tenant's due jobs plus its tenant's jobs running under a live lease must stay
 * within the cap. The ranking spans every due job of the kind, so a tenant with a large backlog never hides another
 * tenant's jobs from the claim. Jobs without a tenant (or group) are not capped. Bindings: kind, now (live
 * leases), kind, now, now (due), perTenant, perGroup, limit.
 */
const CANDIDATES = `
  WITH live AS (
    SELECT tenant_id, group_key FROM jobs WHERE kind = ? AND status = 'RUNNING' AND lease_until > ?
  ),
  due AS (
    SELECT id, run_at, tenant_id, group_key FROM jobs
    WHERE kind = ? AND ((status = 'PENDING' AND run_at <= ?) OR (status = 'RUNNING' AND lease_until <= ?))
  ),
  ranked AS (
    SELECT id,
      CASE WHEN tenant_id IS NULL THEN 0 ELSE
        ROW_NUMBER() OVER (PARTITION BY tenant_id ORDER BY run_at, id)
        + (SELECT COUNT(*) FROM live WHERE live.tenant_id = due.tenant_id) END AS tenant_rank,
      CASE WHEN group_key IS NULL THEN 0 ELSE
        ROW_NUMBER() OVER (PARTITION BY group_key ORDER BY run_at, id)
        + (SELECT COUNT(*) FROM live WHERE live.group_key = due.group_key) END AS group_rank
    FROM due
  )
  SELECT id FROM jobs
  WHERE id IN (SELECT id FROM ranked WHERE tenant_rank <= ? AND group_rank <= ?)
  ORDER BY run_at, id
  LIMIT ?`;

/** A cap as the candidates query compares it (no cap: larger than any rank). */
const capOf = (cap: number | null) => (cap === null ? Number.MAX_SAFE_INTEGER : cap);

/**
 * Claims up to `limit` due jobs of one kind for `owner` until `leaseUntil`, within the kind's caps: PENDING ones
 * whose `run_at` has come, and RUNNING ones whose lease has expired (their worker died). Each claim counts an
 * attempt. Returns the claimed jobs, oldest due first.
 *
 * One `UPDATE … WHERE id IN (candidates) RETURNING *` (see {@link CANDIDATES}). On Postgres the candidates take
 * `FOR UPDATE SKIP LOCKED`, so concurrent workers get different rows, and the claim first takes a transaction
 * advisory lock on the kind: claims of one kind run one at a time (each is a few milliseconds), so each counts the
 * jobs the one before it claimed and the caps hold across workers. On SQLite the statement runs under the
 * database's single write lock, which serialises claims across processes just the same.
 */
export async function claimJobs(
  db: Executor,
  options: {
    kind: string;
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    caps?: ClaimCaps;
  },
): Promise<JobRecord[]> {
  const { kind, owner, now, leaseUntil, limit } = options;
  const caps = options.caps ?? { perTenant: null, perGroup: null };
  const postgres = isPostgres(db);
  const bindings = [kind, now, kind, now, now, capOf(caps.perTenant), capOf(caps.perGroup), limit];
  const claim = async (trx: Executor): Promise<Row[]> => {
    if (postgres) await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`jobs.claim:${kind}`]);
    // A materialised CTE runs the candidate query once: as a plain `IN (SELECT … LIMIT n)` Postgres may rescan it
    // and claim more than `limit` rows. The outer WHERE repeats "due": a row claimed meanwhile is skipped.
    const sql = `
      WITH candidates AS ${postgres ? 'MATERIALIZED ' : ''}(${CANDIDATES}${postgres ? ' FOR UPDATE SKIP LOCKED' : ''})
      UPDATE jobs SET status = 'RUNNING', attempt = attempt + 1, lease_owner = ?, lease_until = ?, updated_at = ?
      WHERE id IN (SELECT id FROM candidates) AND kind = ?
        AND ((status = 'PENDING' AND run_at <= ?) OR (status = 'RUNNING' AND lease_until <= ?))
      RETURNING *`;
    const result = await trx.raw(sql, [...bindings, owner, leaseUntil, now, kind, now, now]);
    return (postgres ? (result as { rows: Row[] }).rows : (result as Row[])) ?? [];
  };
  const rows = postgres ? await db.transaction((trx) => claim(trx)) : await claim(db);
  return rows.map(toJob).sort((a, b) => a.runAt.localeCompare(b.runAt) || a.id.localeCompare(b.id));
}

/** Extends the lease of a job `owner` still holds; false when it lost it. */
export async function extendLease(
  db: Executor,
  id: string,
  owner: string,
  leaseUntil: string,
  now: string,
  progress?: JobProgress,
): Promise<boolean> {
  const changed = await db('jobs')
    .where({ id, lease_owner: owner, status: 'RUNNING' })
    .update({
      lease_until: leaseUntil,
      updated_at: now,
      ...(progress ? { progress: JSON.stringify(progress) } : {}),
    });
  return changed === 1;
}

/** How a claimed job ends its attempt. */
export type JobSettlement =
  | { status: 'COMPLETED' | 'FAILED' | 'CANCELLED'; error: string | null }
  | { status: 'PENDING'; runAt: string; error: string | null };

/**
 * Settles a job `owner` still holds: terminal (COMPLETED, FAILED, CANCELLED) or back to PENDING at `runAt` (a
 * retry). Releases the lease. False when the lease was lost (another worker has the job; nothing is written).
 */
export async function settleJob(
  db: Executor,
  id: string,
  owner: string,
  settlement: JobSettlement,
  now: string,
): Promise<boolean> {
  const terminal = settlement.status !== 'PENDING';
  const changed = await db('jobs')
    .where({ id, lease_owner: owner, status: 'RUNNING' })
    .update({
      status: settlement.status,
      last_error: settlement.error,
      lease_owner: null,
      lease_until: null,
      updated_at: now,
      ...(terminal ? { finished_at: now } : { run_at: settlement.runAt }),
    });
  return changed === 1;
}

/** Cancels the unfinished jobs of `kind` working on the given records (their owner removed or settled them). */
export async function cancelJobs(db: Executor, kind: string, refs: string[], now: string): Promise<number> {
  if (refs.length === 0) return 0;
  let cancelled = 0;
  for (let i = 0; i < refs.length; i += 500) {
    cancelled += await db('jobs')
      .where('kind', kind)
      .whereIn('ref', refs.slice(i, i + 500))
      .whereIn('status', ['PENDING', 'RUNNING'])
      .update({
        status: 'CANCELLED',
        lease_owner: null,
        lease_until: null,
        updated_at: now,
        finished_at: now,
      });
  }
  return cancelled;
}

/** Deletes jobs that finished before `before`; returns how many. */
export async function pruneJobs(db: Executor, before: string): Promise<number> {
  return db('jobs')
    .whereIn('status', ['COMPLETED', 'FAILED', 'CANCELLED'])
    .andWhere('finished_at', '<', before)
    .delete();
}
