/**
 * How values read from either database become the same JavaScript values: the SQLite/Postgres differences in
 * counts, numerics, booleans and JSON (docs/toolchain.md, "Knex with better-sqlite3 and pg"), and the order of
 * ASCII keys both databases sort alike.
 */

/** `count(*)` comes back as a number from SQLite and as a string (bigint) from pg. */
export function toCount(value: unknown): number {
  return typeof value === 'number' ? value : Number.parseInt(String(value ?? '0'), 10);
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

/** JSON stored as text on both databases. */
export function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T;
  return JSON.parse(value) as T;
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
