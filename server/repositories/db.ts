/**
 * Database connection: Knex on SQLite (better-sqlite3, the embedded default) or Postgres (pg).
 *
 * Repositories are the only modules that import Knex; every SQLite/Postgres difference lives in them and in
 * the migrations (DESIGN.md, "Shape of the system").
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';

export type { Knex };

/** A database handle: the Knex instance and which dialect it speaks. */
export interface Database {
  knex: Knex;
  dialect: 'sqlite' | 'postgres';
  /** Closes every pooled connection. */
  close(): Promise<void>;
}

/** Options for {@link openDatabase}: a `postgres://` URL, or a SQLite file path. */
export interface DatabaseOptions {
  databaseUrl: string | null;
  sqliteFile: string;
  /** Postgres schema to work in (tests use one schema per run); default `public`. */
  pgSchema?: string;
}

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations');

/**
 * Opens the database named by the options. SQLite gets WAL, foreign keys and a 5 s busy timeout on its
 * single pooled connection (TOOLCHAIN.md); the parent folder of the file is created when missing.
 */
export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    const knex = knexFactory({
      client: 'pg',
      connection: options.databaseUrl,
      pool: { min: 0, max: 10 },
      ...(options.pgSchema ? { searchPath: [options.pgSchema] } : {}),
    });
    return { knex, dialect: 'postgres', close: () => knex.destroy() };
  }
  if (options.databaseUrl) throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: options.sqliteFile },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        conn.pragma('synchronous = NORMAL');
        done(null, conn);
      },
    },
  });
  return { knex, dialect: 'sqlite', close: () => knex.destroy() };
}

/** Applies every pending migration in `server/db/migrations` (timestamped, one change each). */
export async function migrate(db: Database): Promise<void> {
  await db.knex.migrate.latest({ directory: migrationsDir, loadExtensions: ['.ts'] });
}
