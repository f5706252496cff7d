/**
 * Paginated lists (docs/design.md, "Conventions on the wire", Lists, and "Sorting and searching"): the page asked
 * for, the order of a `sort` parameter as the index that serves it writes it, and the exact total, read from
 * `list_counts` where a counted column alone filters the list.
 */
import type { Knex } from 'knex';
import { type Executor, isPostgres, runSql, shapedSql, sqlOnce } from './sql.js';
import { toCount } from './values.js';

/** A page request: `limit` 1–100 and `offset` ≥ 0 (docs/design.md, "Conventions on the wire", Lists). */
export interface PageRequest {
  limit: number;
  offset: number;
}

/** A page of records and the total number matching the filter. */
export interface Page<T> {
  items: T[];
  total: number;
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
 * Restricts `query` to rows whose `column` is one of `values` (a multi-value filter: values combine with OR;
 * docs/design.md, "Conventions on the wire", Lists): nothing for `undefined`, `=` for one value (the shape the
 * indexes and `list_counts` serve), `IN (…)` for more.
 */
export function whereAnyOf(
  query: Knex.QueryBuilder,
  column: string,
  values: readonly string[] | string | undefined,
): Knex.QueryBuilder {
  if (values === undefined) return query;
  const list = typeof values === 'string' ? [values] : values;
  return list.length === 1 ? query.andWhere(column, list[0] as string) : query.whereIn(column, [...list]);
}

/**
 * The one value of a multi-value filter given exactly one value, else `undefined`: only then is its total read from
 * `list_counts` (docs/design.md, "List totals"); several values are counted.
 */
export function singleValue(values: readonly string[] | undefined): string | undefined {
  return values?.length === 1 ? values[0] : undefined;
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

/** The SQL of {@link countedTotal} (built once per database): a seek on the primary key of `list_counts`. */
const countedTotalSql = sqlOnce(
  (db: Executor, tenantId: string, list: string, field: string, value: string) =>
    db('list_counts').select('n').where({ tenant_id: tenantId, list, field, value }),
);

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

/**
 * The values a list's query binds and the key of its shape (./sql.ts `shapedSql`): the key says which filters are
 * given, how many values each has and the order, never a value. The tenant is value 0.
 */
export class ListShape {
  readonly #key: string[];
  readonly values: Knex.Value[];

  constructor(name: string, tenantId: string) {
    this.#key = [name];
    this.values = [tenantId];
  }

  /** The shape's key. */
  get key(): string {
    return this.#key.join('\u0000');
  }

  /** Adds a choice the SQL depends on (the sort, a form of a filter). */
  part(part: string): void {
    this.#key.push(part);
  }

  /** Adds `value` as part `part` of the shape; returns its index in {@link ListShape.values}. */
  add(part: string, value: Knex.Value): number {
    this.#key.push(part);
    return this.values.push(value) - 1;
  }

  /** Adds the values of a multi-value filter (none when undefined); returns their indices. */
  addAll(part: string, values: readonly string[] | undefined): number[] {
    if (values === undefined) return [];
    this.#key.push(`${part}×${values.length}`);
    const start = this.values.length;
    this.values.push(...values);
    return values.map((_, i) => start + i);
  }

  /**
   * Adds the values of equality filters by column (a value, a multi-value filter's values, or undefined: no
   * restriction); returns, for the values a query is built with, those filters as `whereEquals` takes them.
   */
  addEquals(
    filters: Record<string, string | readonly string[] | undefined>,
  ): (values: readonly Knex.Value[]) => Record<string, unknown> {
    const slots = Object.entries(filters).map(
      ([column, value]) =>
        [
          column,
          value === undefined
            ? undefined
            : typeof value === 'string'
              ? this.add(column, value)
              : this.addAll(column, value),
        ] as const,
    );
    return (values) =>
      Object.fromEntries(
        slots.map(([column, at]) => [
          column,
          at === undefined ? undefined : typeof at === 'number' ? values[at] : at.map((i) => values[i]),
        ]),
      );
  }
}

function applyOrder(query: Knex.QueryBuilder, order: readonly OrderKey[]): void {
  for (const key of order) {
    if (typeof key === 'string') query.orderBy(key, 'asc');
    else if ('raw' in key) query.orderByRaw(key.raw);
    else query.orderBy(key.column, key.order);
  }
}

const LIST_TOTAL =
  '(SELECT lc.n FROM list_counts lc WHERE lc.tenant_id = ? AND lc.list = ? AND lc.field = ? AND lc.value = ?) AS list_total';

/**
 * {@link paginate} for a list whose SQL is built once per shape (docs/design.md, "The request pipeline"): `build`
 * gives the filtered query for the shape's values (or their stand-ins, once); the page's statement and the count's
 * are built from it once per shape and database, then only bound. `shape` must name `order` (the sort) and
 * `counted`'s presence; the page's `limit` and `offset` are always bound.
 */
export async function paginateShaped<Row extends Record<string, unknown>, T>(
  db: Executor,
  shape: ListShape,
  build: (values: readonly Knex.Value[]) => Knex.QueryBuilder,
  page: PageRequest,
  map: (row: Row) => T,
  order: readonly OrderKey[],
  counted?: CountedFilter,
): Promise<Page<T>> {
  const n = shape.values.length;
  const extra: Knex.Value[] = counted ? [counted.tenantId, counted.value] : [];
  const at = n + extra.length;
  const countedPart = counted ? `\u0000counted ${counted.list}.${counted.field}` : '';
  const ofPage = shapedSql(
    db,
    `${shape.key}\u0000page${countedPart}`,
    [...shape.values, ...extra, page.limit, page.offset],
    (v) => {
      const query = build(v);
      applyOrder(query, order);
      if (counted)
        query.select(
          db.raw(LIST_TOTAL, [v[n] as Knex.Value, counted.list, counted.field, v[n + 1] as Knex.Value]),
        );
      return query.limit(v[at] as number).offset(v[at + 1] as number);
    },
  );
  // The kept total rides on the page's own statement (one round trip, one transaction on Postgres); only an empty
  // page, which has no row to carry it, reads it apart.
  const rows = await runSql<Row & { list_total?: unknown }>(db, ofPage.sql, ofPage.bindings);
  if (counted) {
    const total = rows[0] ? toCount(rows[0].list_total) : await countedTotal(db, counted);
    return { items: rows.map(map), total };
  }
  const ofCount = shapedSql(db, `${shape.key}\u0000count`, shape.values, (v) =>
    build(v).clearSelect().clearOrder().count({ n: '*' }),
  );
  const [countRow] = await runSql<{ n: unknown }>(db, ofCount.sql, ofCount.bindings);
  return { items: rows.map(map), total: toCount(countRow?.n) };
}

/**
 * Runs a filtered, paginated list query: `total` from the same filter (or from `list_counts` when `counted` says
 * the filter is one counted column alone), items ordered by `order` (default `created_at`, `id` ascending: stable
 * under appends; docs/design.md, Lists). The last key must make the order total.
 */
export async function paginate<Row, T>(
  query: Knex.QueryBuilder,
  page: PageRequest,
  map: (row: Row) => T,
  order: readonly OrderKey[] = ['created_at', 'id'],
  counted?: { db: Executor; filter: CountedFilter },
): Promise<Page<T>> {
  const ordered = query.clone();
  for (const key of order) {
    if (typeof key === 'string') ordered.orderBy(key, 'asc');
    else if ('raw' in key) ordered.orderByRaw(key.raw);
    else ordered.orderBy(key.column, key.order);
  }
  if (counted) {
    // The kept total rides on the page's own statement (one round trip, one transaction on Postgres); only an empty
    // page, which has no row to carry it, reads it apart.
    const { tenantId, list, field, value } = counted.filter;
    ordered.select(
      counted.db.raw(
        '(SELECT lc.n FROM list_counts lc WHERE lc.tenant_id = ? AND lc.list = ? AND lc.field = ? AND lc.value = ?) AS list_total',
        [tenantId, list, field, value],
      ),
    );
    const rows: (Row & { list_total?: unknown })[] = await ordered.limit(page.limit).offset(page.offset);
    const total = rows[0] ? toCount(rows[0].list_total) : await countedTotal(counted.db, counted.filter);
    return { items: rows.map(map), total };
  }
  const [countRow] = await query.clone().clearSelect().clearOrder().count({ n: '*' });
  const rows: Row[] = await ordered.limit(page.limit).offset(page.offset);
  return { items: rows.map(map), total: toCount((countRow as { n: unknown } | undefined)?.n) };
}
