/**
 * One table mapper for every tenant-scoped, versioned table (docs/design.md, "Shape of the system"; Directus'
 * ItemsService is the model): rows ⇄ records, insert, find by id (optionally under a row lock), versioned update and
 * delete, and the paginated list.
 */
import type { Knex } from 'knex';
import {
  type ListShape,
  type OrderKey,
  type Page,
  type PageRequest,
  paginate,
  paginateShaped,
  whereAnyOf,
} from './lists.js';
import { type Executor, insertRow, runSql, sqlOnce, updateRows } from './sql.js';
import { parseJson, toBoolean, toNumberOrNull } from './values.js';

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
  /**
   * A JSON value stored as text on both databases (docs/toolchain.md, "Knex with better-sqlite3 and pg");
   * `fallback` when the column is null.
   */
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

  /** The table's own columns a record is read from (id, field columns, bookkeeping), without joined ones. */
  get ownColumns(): string[] {
    const fields = Object.values(this.#spec.fields as Record<string, Column<unknown>>).map((c) => c.name);
    return ['id', ...fields, 'version', 'created_at', 'updated_at'];
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
    // docs/design.md, "The request pipeline"). The plain read's SQL is built once ({@link sqlOnce}).
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
    // No `LIMIT ?` and SQL built once ({@link sqlOnce}): the id is the primary key.
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
   * Lists; `sortOrder` of ./lists.ts makes the order of a `sort` parameter). `counted` names the one column the filter
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

  /**
   * {@link VersionedTable.list} with its SQL built once per shape (./lists.ts `paginateShaped`; docs/design.md, "The
   * request pipeline"): `filter` restricts the query with the values it is given (the shape's, or their stand-ins
   * once), `values[0]` being the tenant. `shape` names the order and whether the list is `counted`.
   */
  listShaped(
    db: Executor,
    page: PageRequest,
    shape: ListShape,
    filter: (query: Knex.QueryBuilder, values: readonly Knex.Value[]) => void,
    order: readonly OrderKey[],
    counted?: { field: string; value: string },
  ): Promise<Page<R>> {
    return paginateShaped(
      db,
      shape,
      (values) => {
        const query = this.query(db, values[0] as string);
        filter(query, values);
        return query;
      },
      page,
      this.toRecord,
      order,
      counted ? { tenantId: shape.values[0] as string, list: this.name, ...counted } : undefined,
    );
  }

  /**
   * Restricts `query` to rows whose column equals each filter value given, or one of the values of an array (a
   * multi-value filter, ./lists.ts `whereAnyOf`); undefined: no restriction.
   */
  whereEquals(query: Knex.QueryBuilder, filters: Record<string, unknown>): Knex.QueryBuilder {
    for (const [col, value] of Object.entries(filters)) {
      if (Array.isArray(value)) whereAnyOf(query, this.col(col), value as string[]);
      else if (value !== undefined) query.andWhere(this.col(col), value as Knex.Value);
    }
    return query;
  }
}
