/**
 * Helpers shared by the repositories: the normalisation that makes SQLite and Postgres answer alike
 * (TOOLCHAIN.md, "Knex with better-sqlite3 and pg").
 */
import type { Knex } from 'knex';

/** A Knex instance or an open transaction: repositories accept either. */
export type Executor = Knex | Knex.Transaction;

/** A page request: `limit` 1–100 and `offset` ≥ 0 (DESIGN.md, "Lists"). */
export interface PageRequest {
  limit: number;
  offset: number;
}

/** A page of records and the total number matching the filter. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** `count(*)` comes back as a number from SQLite and as a string (bigint) from pg. */
export function toCount(value: unknown): number {
  return typeof value === 'number' ? value : Number.parseInt(String(value ?? '0'), 10);
}

/** JSON stored as text on both databases. */
export function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T;
  return JSON.parse(value) as T;
}

/** A nullable DOUBLE column: pg can hand back strings for numerics, SQLite numbers. */
export function toNumberOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : Number(value);
}

/**
 * Runs a filtered, paginated list query: `total` from the same filter, items ordered by `created_at`, `id`
 * (stable under appends; DESIGN.md).
 */
export async function paginate<Row, T>(
  query: Knex.QueryBuilder,
  page: PageRequest,
  map: (row: Row) => T,
  order: readonly [string, string] = ['created_at', 'id'],
): Promise<Page<T>> {
  const [countRow] = await query.clone().clearSelect().clearOrder().count({ n: '*' });
  const rows: Row[] = await query
    .clone()
    .orderBy([
      { column: order[0], order: 'asc' },
      { column: order[1], order: 'asc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
  return { items: rows.map(map), total: toCount((countRow as { n: unknown } | undefined)?.n) };
}

/**
 * Runs `work` in one database transaction: everything it writes (the change, its audit row, later its
 * outbox event) commits together or not at all.
 */
export async function inTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(work);
}

/**
 * The column values of the fields present (undefined means "not given"), named by `columns`; fields listed in
 * `json` are stored as JSON text (TOOLCHAIN.md: JSON as text on both databases).
 */
export function toColumnValues<F extends object>(
  columns: Record<keyof F, string>,
  fields: Partial<F>,
  json: readonly (keyof F)[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(columns) as (keyof F)[]) {
    const value = fields[key];
    if (value === undefined) continue;
    out[columns[key]] = json.includes(key) ? JSON.stringify(value) : value;
  }
  return out;
}

/**
 * Writes `values` to one row of the tenant and bumps its `version`, only if the stored version is still
 * `expectedVersion` (optimistic concurrency). Returns false when another write got there first.
 */
export async function updateVersionedRow(
  db: Executor,
  table: string,
  tenantId: string,
  id: string,
  expectedVersion: number,
  values: Record<string, unknown>,
  now: string,
): Promise<boolean> {
  const changed = await db(table)
    .where({ tenant_id: tenantId, id, version: expectedVersion })
    .update({ ...values, version: expectedVersion + 1, updated_at: now });
  return changed === 1;
}

/**
 * Runs `work` only if no other process of the deployment holds the lock `name`: on Postgres a transaction-scoped
 * advisory lock (DESIGN.md: periodic sweeps take one so one instance runs each sweep); on SQLite, one process, it
 * just runs. Returns `skipped` when another process holds it.
 */
export async function withAdvisoryLock<T>(
  db: Knex,
  name: string,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  if ((db.client as { config?: { client?: unknown } }).config?.client !== 'pg')
    return { ran: true, value: await work() };
  return db.transaction(async (trx) => {
    const result = (await trx.raw('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked', [name])) as {
      rows: { locked: boolean }[];
    };
    if (!result.rows[0]?.locked) return { ran: false } as const;
    return { ran: true, value: await work() } as const;
  });
}
