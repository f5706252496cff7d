/**
 * SQL built by Knex once per query shape, then only bound and run (docs/design.md, "The request pipeline", hot-path
 * rules): building a query costs more CPU than the SQLite point read or append it asks for. One {@link SqlTexts} per
 * database holds every such text; `openDatabase` (./db.ts) builds it and its Knex client holds it, so every
 * transaction of that database sees the same one and two databases in one process share nothing.
 */
import type { Knex } from 'knex';

/** A Knex instance or an open transaction: repositories accept either. */
export type Executor = Knex | Knex.Transaction;

/** Whether the executor speaks to Postgres (the few statements that differ ask this). */
export function isPostgres(db: Executor): boolean {
  const client = (db.client as { config?: { client?: unknown } }).config?.client;
  return client === 'pg' || client === 'postgres' || client === 'postgresql';
}

/**
 * The SQL texts of one database's query shapes. A key names a shape: the builder function of a {@link sqlOnce}
 * read, or the table and column set of a write ({@link insertRow}, {@link updateRows}); keys are bounded by the
 * code, never by values (texts hold `?` placeholders only).
 */
export class SqlTexts {
  readonly #texts = new Map<unknown, string>();
  readonly #shapes = new Map<string, BuiltShape>();

  /** The SQL text and binding order of the shape `key`, or undefined before it is built ({@link shapedSql}). */
  shape(key: string): BuiltShape | undefined {
    return this.#shapes.get(key);
  }

  /** Keeps the built shape `key`. */
  addShape(key: string, built: BuiltShape): BuiltShape {
    this.#shapes.set(key, built);
    return built;
  }

  /** The text of the shape `key`, or undefined before it is built. */
  get(key: unknown): string | undefined {
    return this.#texts.get(key);
  }

  /**
   * Keeps the text of the shape `key`, built by Knex, and returns it.
   * @throws Error when the built query binds other values than `values`, in their order (checked once, here).
   */
  add(key: unknown, query: Knex.QueryBuilder, values: readonly unknown[]): string {
    const built = query.toSQL() as { sql: string; bindings: readonly unknown[] };
    if (built.bindings.length !== values.length || built.bindings.some((b, i) => b !== values[i]))
      throw new Error(`the query binds other values than its arguments: ${built.sql}`);
    this.#texts.set(key, built.sql);
    return built.sql;
  }
}

/**
 * A query shape's SQL text (`?` placeholders) and what each placeholder binds: the index of one of the shape's
 * values, or a constant of the shape (a table or facet name the code bound).
 */
export interface BuiltShape {
  sql: string;
  slots: readonly ({ value: number } | { constant: Knex.Value })[];
}

/** A stand-in for value `i` that no real value equals: Knex binds it where the value goes. */
function standIn(value: Knex.Value, i: number): Knex.Value {
  // Numbers stay numbers (Knex parses `limit` and `offset`); far above any page size or offset the API accepts.
  return typeof value === 'number' ? 2_000_000_000 + i : `\u0000value ${i}\u0000`;
}

/**
 * The SQL and bindings of a query whose text depends on `key` only (docs/design.md, "The request pipeline", hot-path
 * rules): the first request of a shape has Knex build it once per database with a stand-in for each of `values`, and
 * records where each lands; every later one only binds. `key` must name everything the text depends on — which
 * filters are given, how many values each has, the order, the page's form — and never a value itself (keys are
 * bounded by the code and the spec's enums). `build` gets the stand-ins in place of `values` and binds them as they
 * are, only where the query takes a value (never in SQL text).
 * @throws Error when the built query binds a changed stand-in (checked once, when the shape is built).
 */
export function shapedSql(
  db: Executor,
  key: string,
  values: readonly Knex.Value[],
  build: (values: readonly Knex.Value[]) => Knex.QueryBuilder,
): { sql: string; bindings: Knex.Value[] } {
  const texts = textsOf(db);
  let shape = texts.shape(key);
  if (!shape) {
    const standIns = values.map(standIn);
    const index = new Map(standIns.map((v, i) => [v, i]));
    const built = build(standIns).toSQL() as { sql: string; bindings: readonly Knex.Value[] };
    shape = texts.addShape(key, {
      sql: built.sql,
      slots: built.bindings.map((b) => {
        const i = index.get(b);
        if (i !== undefined) return { value: i };
        // No constant holds NUL (stand-ins do; the API refuses NUL in input) or a number that large.
        if ((typeof b === 'string' && b.includes('\u0000')) || (typeof b === 'number' && b >= 2_000_000_000))
          throw new Error(`the query of ${key} binds a value it changed: ${built.sql}`);
        return { constant: b };
      }),
    });
  }
  return {
    sql: shape.sql,
    bindings: shape.slots.map((slot) =>
      'value' in slot ? (values[slot.value] as Knex.Value) : slot.constant,
    ),
  };
}

/** The {@link SqlTexts} of the database `db` belongs to (held by its Knex client: ./db.ts). */
function textsOf(db: Executor): SqlTexts {
  const texts = (db.client as { sqlTexts?: SqlTexts }).sqlTexts;
  if (!texts) throw new Error('the database was not opened by openDatabase: it holds no SQL texts');
  return texts;
}

/**
 * A query shape whose SQL text Knex builds once per database: the function returned gives the text for `db`,
 * building it on the first call. `build` must give the same SQL whatever the values it is called with, and bind
 * exactly its arguments, in their order: {@link runSql} binds them so.
 * @throws Error when the query built binds anything else (checked once, when the text is built).
 */
export function sqlOnce<A extends Knex.Value[]>(
  build: (db: Executor, ...args: A) => Knex.QueryBuilder,
): (db: Executor, ...args: A) => string {
  return (db, ...args) => {
    const texts = textsOf(db);
    return texts.get(build) ?? texts.add(build, build(db, ...args), args);
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

/**
 * Inserts one row into `table`: the same statement as `db(table).insert(row)`, its SQL built by Knex once per
 * column set and then only bound and run (docs/design.md, "The request pipeline", hot-path rules). Rows holding
 * other values than strings, numbers, booleans and nulls go through Knex.
 */
export async function insertRow(db: Executor, table: string, row: Record<string, unknown>): Promise<void> {
  // Knex writes an INSERT's columns sorted by name; the bindings follow that order.
  const columns = Object.keys(row).sort();
  const values = columns.map((column) => row[column]);
  if (!values.every(isScalar)) {
    await db(table).insert(row);
    return;
  }
  const key = `insert\u0000${table}\u0000${columns.join(',')}`;
  const texts = textsOf(db);
  const sql = texts.get(key) ?? texts.add(key, db(table).insert(row), values);
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
  const texts = textsOf(db);
  const sql = texts.get(key) ?? texts.add(key, db(table).where(where).update(set), values);
  const result = (await db.raw(sql, values)) as { changes?: number; rowCount?: number | null };
  return Number(result.changes ?? result.rowCount ?? 0);
}
