/**
 * Helpers shared by the repositories: the normalisation that makes SQLite and Postgres answer alike
 * (TOOLCHAIN.md, "Knex with better-sqlite3 and pg").
 */
import type { Knex } from 'knex';

/** A Knex instance or an open transaction: repositories accept either. */
export type Executor = Knex | Knex.Transaction;

/** A page request: `limit` 1–100 and `offset` ≥ 0 (docs/design.md, "Lists"). */
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

/**
 * Orders two tuples of ASCII strings (dates, instants, UUIDs) key by key, as SQLite's BINARY collation and Postgres's
 * "C" collation order them: for the few rows a repository sorts itself instead of by ORDER BY. Negative when `a`
 * comes first.
 */
export function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** JSON stored as text on both databases. */
export function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T;
  return JSON.parse(value) as T;
}

/**
 * The SQL text of a query shape, built by Knex once per database kind and then only bound and run (issue 8, round 2:
 * building a query costs more CPU than SQLite's point read it asks for). `build` must give the same SQL whatever the
 * values it is called with, and bind exactly its arguments, in their order: {@link runSql} binds them so.
 * @throws Error when the query built binds anything else (checked once, when the text is built).
 */
export function sqlOnce<A extends Knex.Value[]>(
  build: (db: Executor, ...args: A) => Knex.QueryBuilder,
): (db: Executor, ...args: A) => string {
  const texts = new Map<boolean, string>();
  return (db, ...args) => {
    const pg = isPostgres(db);
    let sql = texts.get(pg);
    if (sql === undefined) {
      const built = build(db, ...args).toSQL();
      if (built.bindings.length !== args.length || built.bindings.some((b, i) => b !== args[i]))
        throw new Error(`sqlOnce: the query binds other values than its arguments: ${built.sql}`);
      sql = built.sql;
      texts.set(pg, sql);
    }
    return sql;
  };
}

/** The rows of a SELECT given as SQL text with `?` placeholders (from {@link sqlOnce}), on either database. */
export async function runSql<Row = Record<string, unknown>>(
  db: Executor,
  sql: string,
  bindings: readonly Knex.Value[],
): Promise<Row[]> {
  const result = (await db.raw(sql, bindings as Knex.Value[])) as Row[] | { rows: Row[] };
  return Array.isArray(result) ? result : result.rows;
}

/** A value a write binds as it is on both drivers (anything else — objects, arrays, dates — goes through Knex). */
function isScalar(value: unknown): value is Knex.Value {
  return (
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
  );
}

/** SQL texts of the writes of {@link insertRow} and {@link updateRows}, per database kind, table and column set. */
const writeTexts = new Map<string, string>();

/**
 * The SQL text of a write built by Knex once per shape (`key`), checked to bind exactly `values` in their order.
 * @throws Error when Knex binds anything else (checked once, when the text is built).
 */
function writeSql(
  db: Executor,
  key: string,
  values: readonly unknown[],
  build: () => Knex.QueryBuilder,
): string {
  const fullKey = `${isPostgres(db) ? 'pg' : 'sqlite'}\u0000${key}`;
  let sql = writeTexts.get(fullKey);
  if (sql === undefined) {
    const built = build().toSQL() as { sql: string; bindings: readonly unknown[] };
    if (built.bindings.length !== values.length || built.bindings.some((b, i) => b !== values[i]))
      throw new Error(`writeSql: the write binds other values than its columns: ${built.sql}`);
    sql = built.sql;
    writeTexts.set(fullKey, sql);
  }
  return sql;
}

/**
 * Inserts one row into `table`: the same statement as `db(table).insert(row)`, its SQL built by Knex once per
 * column set and then only bound and run (issue 8, round 3: building an INSERT cost more CPU than SQLite's append;
 * docs/design.md, hot path). Rows holding other values than strings, numbers, booleans and nulls go through Knex.
 */
export async function insertRow(db: Executor, table: string, row: Record<string, unknown>): Promise<void> {
  // Knex writes an INSERT's columns sorted by name; the bindings follow that order.
  const columns = Object.keys(row).sort();
  const values = columns.map((column) => row[column]);
  if (!values.every(isScalar)) {
    await db(table).insert(row);
    return;
  }
  const sql = writeSql(db, `insert\u0000${table}\u0000${columns.join(',')}`, values, () =>
    db(table).insert(row),
  );
  await db.raw(sql, values);
}

/**
 * Updates the rows of `table` whose columns equal `where` with `set` (undefined values left out, as Knex does);
 * returns how many rows changed. The same statement as `db(table).where(where).update(set)`, its SQL built once per
 * column set ({@link insertRow}).
 */
export async function updateRows(
  db: Executor,
  table: string,
  where: Record<string, unknown>,
  set: Record<string, unknown>,
): Promise<number> {
  const setColumns = Object.keys(set).filter((column) => set[column] !== undefined);
  const whereColumns = Object.keys(where);
  const values = [...setColumns.map((c) => set[c]), ...whereColumns.map((c) => where[c])];
  if (!values.every(isScalar)) return db(table).where(where).update(set);
  const key = `update\u0000${table}\u0000${setColumns.join(',')}\u0000${whereColumns.join(',')}`;
  const sql = writeSql(db, key, values, () => db(table).where(where).update(set));
  const result = (await db.raw(sql, values)) as { changes?: number; rowCount?: number | null };
  return Number(result.changes ?? result.rowCount ?? 0);
}

/** A nullable DOUBLE column: pg can hand back strings for numerics, SQLite numbers. */
export function toNumberOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : Number(value);
}

/** SQLite answers booleans as 0/1 (or '0'/'1' through some drivers), Postgres as true/false. */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

/** Whether the executor speaks to Postgres (the few statements that differ ask this). */
export function isPostgres(db: Executor): boolean {
  const client = (db.client as { config?: { client?: unknown } }).config?.client;
  return client === 'pg' || client === 'postgres' || client === 'postgresql';
}

/** One key of a list's order: a column, ascending unless `order: 'desc'`, or an SQL expression with its direction. */
export type OrderKey = string | { column: string; order: 'asc' | 'desc' } | { raw: string };

/**
 * What a list may be sorted by (its spec `…Sort` enum without the `-`): the SQL of the ordered value over the table's
 * qualified columns, written exactly as the index that serves it is built (migration 20261124000300), per database
 * where they differ.
 */
export interface SortField {
  sql: string | { sqlite: string; postgres: string };
  /** The value may be null: unknowns come last in both directions, on both databases. */
  nullable?: boolean;
}

/**
 * The order of a list for `sort` (`field` ascending, `-field` descending; docs/design.md, Lists): the field's value,
 * then `idColumn` in the same direction as the tie-breaker. A nullable field puts nulls last either way: `NULLS LAST`
 * on Postgres; on SQLite, where NULL sorts first, `(value IS NULL)` before the value. Each shape matches an index of
 * migration 20261124000300, so the database walks an index instead of sorting.
 * @throws Error for a field `fields` does not name (the validator refuses those first, from the spec's enum).
 */
export function sortOrder(
  db: Executor,
  sort: string,
  fields: Readonly<Record<string, SortField>>,
  idColumn: string,
): OrderKey[] {
  const descending = sort.startsWith('-');
  const name = descending ? sort.slice(1) : sort;
  const field = fields[name];
  if (!field) throw new Error(`no sort field ${name}`);
  const pg = isPostgres(db);
  const sql = typeof field.sql === 'string' ? field.sql : pg ? field.sql.postgres : field.sql.sqlite;
  const direction = descending ? 'DESC' : 'ASC';
  const keys: OrderKey[] = [];
  if (field.nullable && pg) keys.push({ raw: `${sql} ${direction} NULLS LAST` });
  else {
    if (field.nullable) keys.push({ raw: `(${sql} IS NULL) ASC` });
    keys.push({ raw: `${sql} ${direction}` });
  }
  keys.push({ raw: `${idColumn} ${direction}` });
  return keys;
}

/**
 * A list filtered by one counted column alone (migration 20261125000100): its total is read from `list_counts`,
 * which triggers keep exact in the transaction of every write, instead of counting the rows.
 */
export interface CountedFilter {
  tenantId: string;
  /** The table (`projects`, `risks`). */
  list: string;
  /** The column (`status`, `severity`). */
  field: string;
  value: string;
}

/** The exact number of the tenant's rows of `list` whose `field` is `value`, from `list_counts` (one seek). */
export async function countedTotal(db: Executor, counted: CountedFilter): Promise<number> {
  const { tenantId, list, field, value } = counted;
  const [row] = await runSql<{ n: unknown }>(db, countedTotalSql(db, tenantId, list, field, value), [
    tenantId,
    list,
    field,
    value,
  ]);
  return toCount(row?.n);
}

/** The SQL of {@link countedTotal} (built once): a seek on the primary key of `list_counts`. */
const countedTotalSql = sqlOnce(
  (db: Executor, tenantId: string, list: string, field: string, value: string) =>
    db('list_counts').select('n').where({ tenant_id: tenantId, list, field, value }),
);

/**
 * Runs a filtered, paginated list query: `total` from the same filter (or from `list_counts` when `counted` says
 * the filter is one counted column alone), items ordered by `order` (default `created_at`, `id` ascending: stable
 * under appends; docs/design.md). The last key must make the order total.
 */
export async function paginate<Row, T>(
  query: Knex.QueryBuilder,
  page: PageRequest,
  map: (row: Row) => T,
  order: readonly OrderKey[] = ['created_at', 'id'],
  counted?: { db: Executor; filter: CountedFilter },
): Promise<Page<T>> {
  const [countRow] = counted
    ? [{ n: await countedTotal(counted.db, counted.filter) }]
    : await query.clone().clearSelect().clearOrder().count({ n: '*' });
  const ordered = query.clone();
  for (const key of order) {
    if (typeof key === 'string') ordered.orderBy(key, 'asc');
    else if ('raw' in key) ordered.orderByRaw(key.raw);
    else ordered.orderBy(key.column, key.order);
  }
  const rows: Row[] = await ordered.limit(page.limit).offset(page.offset);
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
 * Runs a sequence of reads on one consistent view of the database: on Postgres a read-only REPEATABLE READ
 * transaction (one snapshot for every statement); on SQLite, whose single pooled connection serialises every
 * statement of the process, the reads run as they are (a transaction would hold that connection against writers).
 */
export async function inReadSnapshot<T>(db: Knex, work: (db: Executor) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work(db);
  return db.transaction((trx) => work(trx), { isolationLevel: 'repeatable read', readOnly: true });
}

/**
 * Runs `work` only if no other process of the deployment holds the lock `name`: on Postgres a transaction-scoped
 * advisory lock (docs/design.md: periodic sweeps take one so one instance runs each sweep); on SQLite, one process, it
 * just runs. Returns `skipped` when another process holds it.
 */
export async function withAdvisoryLock<T>(
  db: Knex,
  name: string,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  if (!isPostgres(db)) return { ran: true, value: await work() };
  return db.transaction(async (trx) => {
    const result = (await trx.raw('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked', [name])) as {
      rows: { locked: boolean }[];
    };
    if (!result.rows[0]?.locked) return { ran: false } as const;
    return { ran: true, value: await work() } as const;
  });
}

// ---------------------------------------------------------------------------------------------- table mapper

/**
 * How one field of a record is stored: its column, and how a value crosses between the row and the record. The
 * SQLite/Postgres differences (booleans, JSON, numerics as strings) are settled here, once.
 */
export interface Column<T> {
  readonly name: string;
  read(value: unknown): T;
  write(value: T): unknown;
}

const same = (value: unknown) => value;

/** Column kinds; the type parameter of `text` narrows to a generated enum type where the spec has one. */
export const column = {
  /** A NOT NULL text column (dates and instants are ISO text too). */
  text: <T extends string = string>(name: string): Column<T> => ({ name, read: (v) => v as T, write: same }),
  /** A nullable text column. */
  optionalText: <T extends string = string>(name: string): Column<T | null> => ({
    name,
    read: (v) => (v ?? null) as T | null,
    write: same,
  }),
  /** A NOT NULL number (INTEGER or DOUBLE; pg may answer numerics as strings). */
  number: (name: string): Column<number> => ({ name, read: (v) => toNumberOrNull(v) ?? 0, write: same }),
  /** A nullable number. */
  optionalNumber: (name: string): Column<number | null> => ({ name, read: toNumberOrNull, write: same }),
  /** A boolean: 0/1 on SQLite, true/false on Postgres. */
  boolean: (name: string): Column<boolean> => ({ name, read: toBoolean, write: same }),
  /** A JSON value stored as text on both databases (TOOLCHAIN.md); `fallback` when the column is null. */
  json: <T>(name: string, fallback: T): Column<T> => ({
    name,
    read: (v) => parseJson<T>(v, fallback),
    write: (v) => JSON.stringify(v),
  }),
};

/** What every versioned record carries besides its fields (docs/design.md: `id`, `version`, `createdAt`, `updatedAt`). */
export interface VersionedRecord {
  id: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** `T` without `readonly` (a field the API shows read-only, e.g. a risk's score, is still written by the server). */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The stored fields of a record: everything but the bookkeeping of {@link VersionedRecord}. */
export type FieldsOf<R extends VersionedRecord> = Writable<Omit<R, keyof VersionedRecord>>;

/** The description of a tenant-scoped, versioned table: its name, its field columns and any joined columns. */
export interface TableSpec<R extends VersionedRecord, F extends object> {
  table: string;
  /** The writable fields, in the order audit rows list them. */
  fields: { [K in keyof F]-?: Column<F[K]> };
  /** Read-only fields that come from a join in {@link TableSpec.select} (e.g. a project's tenant currency). */
  joined?: { [K in Exclude<keyof R, keyof F | keyof VersionedRecord>]-?: Column<R[K]> };
  /** Adds joins and selects to the base query (default: `select table.*`). */
  select?: (query: Knex.QueryBuilder) => Knex.QueryBuilder;
}

/**
 * One mapper per tenant-scoped, versioned table (the model is Directus' ItemsService): rows ⇄ records, insert,
 * find by id (optionally under a row lock), versioned update and delete, and the paginated list. Every query is
 * restricted to one tenant. `db` may be a transaction.
 */
export class VersionedTable<R extends VersionedRecord, F extends object = FieldsOf<R>> {
  readonly name: string;
  readonly #spec: TableSpec<R, F>;
  readonly #fieldKeys: (keyof F)[];

  /** The SQL of {@link VersionedTable.find} without a lock: tenant and id bound, in that order. */
  readonly #findSql = sqlOnce((db: Executor, tenantId: string, id: string) =>
    this.query(db, tenantId).andWhere(this.col('id'), id),
  );

  /**
   * The SQL of {@link VersionedTable.find} under a row lock (`FOR NO KEY UPDATE` on Postgres; SQLite, a single
   * writer, has no row locks and Knex writes none): built once, like {@link VersionedTable.#findSql}.
   */
  readonly #findForUpdateSql = sqlOnce((db: Executor, tenantId: string, id: string) =>
    this.query(db, tenantId).andWhere(this.col('id'), id).forNoKeyUpdate(this.name),
  );

  /** The record's keys and their columns, fields then joined ones (built once: every row of a list reads them). */
  readonly #readColumns: [string, Column<unknown>][];

  constructor(spec: TableSpec<R, F>) {
    this.#spec = spec;
    this.name = spec.table;
    this.#fieldKeys = Object.keys(spec.fields) as (keyof F)[];
    this.#readColumns = Object.entries({
      ...(spec.fields as Record<string, Column<unknown>>),
      ...((spec.joined ?? {}) as Record<string, Column<unknown>>),
    });
  }

  /** `table.column`, for queries that join other tables. */
  col(column: string): string {
    return `${this.name}.${column}`;
  }

  /** The record of a row (as selected by {@link VersionedTable.query}). */
  toRecord = (row: Record<string, unknown>): R => {
    const out: Record<string, unknown> = { id: row.id };
    for (const [key, col] of this.#readColumns) out[key] = col.read(row[col.name]);
    out.version = Number(row.version);
    out.createdAt = row.created_at;
    out.updatedAt = row.updated_at;
    return out as unknown as R;
  };

  /** The column values of the fields present (undefined means "not given"). */
  toColumns(fields: Partial<F>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of this.#fieldKeys) {
      const value = fields[key];
      if (value === undefined) continue;
      const col = this.#spec.fields[key] as Column<unknown>;
      out[col.name] = col.write(value);
    }
    return out;
  }

  /** The writable fields of a record, in the spec's order (what audit rows and diffs compare). */
  fieldsOf(record: R): F {
    const out: Partial<F> = {};
    for (const key of this.#fieldKeys) out[key] = (record as unknown as F)[key];
    return out as F;
  }

  /** The tenant's rows, with the spec's joins; callers add filters with qualified column names. */
  query(db: Executor, tenantId: string): Knex.QueryBuilder {
    const base = db(this.name).where(this.col('tenant_id'), tenantId);
    return this.#spec.select ? this.#spec.select(base) : base.select(`${this.name}.*`);
  }

  /**
   * One record of the tenant, or null. `forUpdate` takes a row lock until the transaction ends (Postgres
   * `FOR NO KEY UPDATE`, the lock an UPDATE takes; SQLite has one writer and ignores it), so a read–check–write
   * sequence sees the latest committed version and concurrent writers queue instead of failing.
   */
  async find(
    db: Executor,
    tenantId: string,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<R | null> {
    // No `LIMIT ?` (`.first()`): the id is the primary key, so at most one row comes back, and SQLite (3.54, as
    // better-sqlite3 13 builds it) re-plans a statement with a bound LIMIT on every run (≈ 15 µs of a 5 µs read;
    // issue 8, round 2). The plain read's SQL is built once ({@link sqlOnce}).
    const sql = options.forUpdate
      ? this.#findForUpdateSql(db, tenantId, id)
      : this.#findSql(db, tenantId, id);
    const [row] = await runSql(db, sql, [tenantId, id]);
    return row ? this.toRecord(row) : null;
  }

  /** The first record of the tenant whose columns equal `where` (column names unqualified), or null. */
  async findBy(db: Executor, tenantId: string, where: Record<string, unknown>): Promise<R | null> {
    const qualified = Object.fromEntries(Object.entries(where).map(([k, v]) => [this.col(k), v]));
    const row = (await this.query(db, tenantId).andWhere(qualified).first()) as
      | Record<string, unknown>
      | undefined;
    return row ? this.toRecord(row) : null;
  }

  /** Whether the tenant has a record with this id. */
  async exists(db: Executor, tenantId: string, id: string): Promise<boolean> {
    // No `LIMIT ?` and SQL built once ({@link sqlOnce}): the id is the primary key (issue 8, round 3).
    return (await runSql(db, this.#existsSql(db, tenantId, id), [tenantId, id])).length > 0;
  }

  /** The SQL of {@link VersionedTable.exists}: tenant and id bound, in that order. */
  readonly #existsSql = sqlOnce((db: Executor, tenantId: string, id: string) =>
    db(this.name).select('id').where({ tenant_id: tenantId, id }),
  );

  /**
   * Inserts a record at version 1 and returns it as stored. `hidden` holds column values the record does not
   * show (e.g. a webhook endpoint's secret).
   */
  async insert(
    db: Executor,
    tenantId: string,
    id: string,
    fields: F,
    now: string,
    hidden: Record<string, unknown> = {},
  ): Promise<R> {
    await insertRow(db, this.name, {
      id,
      tenant_id: tenantId,
      ...this.toColumns(fields),
      ...hidden,
      version: 1,
      created_at: now,
      updated_at: now,
    });
    const created = await this.find(db, tenantId, id);
    if (!created) throw new Error(`${this.name} ${id} vanished after insert`);
    return created;
  }

  /**
   * Writes `fields` (and `hidden` column values) and bumps `version`, only if the stored version is still
   * `expectedVersion` (optimistic concurrency). Returns false when another write got there first.
   */
  async update(
    db: Executor,
    tenantId: string,
    id: string,
    expectedVersion: number,
    fields: Partial<F>,
    now: string,
    hidden: Record<string, unknown> = {},
  ): Promise<boolean> {
    const changed = await updateRows(
      db,
      this.name,
      { tenant_id: tenantId, id, version: expectedVersion },
      { ...this.toColumns(fields), ...hidden, version: expectedVersion + 1, updated_at: now },
    );
    return changed === 1;
  }

  /** Deletes the record if the stored version is still `expectedVersion`; false when another write got there. */
  async delete(db: Executor, tenantId: string, id: string, expectedVersion: number): Promise<boolean> {
    return (await db(this.name).where({ tenant_id: tenantId, id, version: expectedVersion }).delete()) === 1;
  }

  /**
   * A page of the tenant's records matching `filter`, in `order` (default createdAt then id; docs/design.md,
   * Lists; {@link sortOrder} makes the order of a `sort` parameter). `counted` names the one column the filter
   * restricts when it restricts nothing else and the column is counted in `list_counts` (migration
   * 20261125000100): the total is then read, not counted.
   */
  list(
    db: Executor,
    tenantId: string,
    page: PageRequest,
    filter: (query: Knex.QueryBuilder) => void = () => undefined,
    order: readonly OrderKey[] = [this.col('created_at'), this.col('id')],
    counted?: { field: string; value: string },
  ): Promise<Page<R>> {
    const query = this.query(db, tenantId);
    filter(query);
    return paginate(
      query,
      page,
      this.toRecord,
      order,
      counted ? { db, filter: { tenantId, list: this.name, ...counted } } : undefined,
    );
  }

  /** Restricts `query` to rows whose column equals each filter value given (undefined: no restriction). */
  whereEquals(query: Knex.QueryBuilder, filters: Record<string, unknown>): Knex.QueryBuilder {
    for (const [col, value] of Object.entries(filters)) {
      if (value !== undefined) query.andWhere(this.col(col), value as Knex.Value);
    }
    return query;
  }
}
