/**
 * Database connection: Knex on SQLite (better-sqlite3, the embedded default) or Postgres (pg).
 *
 * Repositories are the only modules that import Knex; every SQLite/Postgres difference lives in them and in
 * the migrations (docs/design.md, "Shape of the system").
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import type { SecretBox } from '../crypto/secret-box.js';
import { SqlTexts } from './sql.js';

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
const require = createRequire(import.meta.url);

/** The part of a better-sqlite3 statement the cache uses. */
interface SqliteStatement {
  reader: boolean;
  all(bindings: unknown[]): unknown[];
  run(bindings: unknown[]): { lastInsertRowid: number | bigint; changes: number };
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  /** The connection's statement cache (see cachingBetterSqlite3Client). */
  meridianStatements?: Map<string, SqliteStatement>;
}
interface KnexQueryObject {
  sql?: string;
  bindings?: unknown[];
  options?: Record<string, unknown>;
  method?: string;
  response?: unknown;
  context?: unknown;
}
type KnexClientClass = new (config: Knex.Config) => object;

/** How many prepared statements a SQLite connection keeps (distinct SQL texts; the app has a few hundred). */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * Knex's better-sqlite3 client, reusing prepared statements: Knex prepares every query anew (17 % of the CPU of
 * GET /projects/{id}: bench/results/profiles.md); this keeps one statement per SQL text and connection, least
 * recently used out first. The SQL text holds `?` placeholders, never values, so the number of distinct texts is
 * bounded by the code. Statements are held by the connection they were prepared on (Knex's transaction clients are
 * copies of the client, so the connection is the one object every query of it sees), never by the module. The
 * client also holds the database's {@link SqlTexts} (./sql.ts), as a getter of its class, which Knex's transaction
 * clients share (they are built on the class's prototype).
 */
function cachingBetterSqlite3Client(sqlTexts: SqlTexts): KnexClientClass {
  const Base = require('knex/lib/dialects/better-sqlite3/index.js') as KnexClientClass;
  const Client = class extends (Base as new (
    config: Knex.Config,
  ) => {
    _formatBindings(bindings: unknown[] | undefined): unknown[];
  }) {
    /** The database's SQL texts (./sql.ts). */
    get sqlTexts(): SqlTexts {
      return sqlTexts;
    }

    async _query(connection: SqliteConnection, obj: KnexQueryObject): Promise<KnexQueryObject> {
      if (!obj.sql) throw new Error('The query is empty');
      if (!connection) throw new Error('No connection provided');
      if (obj.options && typeof obj.options.safeIntegers === 'boolean')
        throw new Error('safeIntegers is not supported by the statement cache');
      // Knex opens transactions with a deferred `BEGIN`: in WAL mode its snapshot starts at the first read, and a
      // write after another process committed fails at once with SQLITE_BUSY (the busy handler cannot retry a stale
      // snapshot). `BEGIN IMMEDIATE` takes the write lock up front, so a second process (the CLI's import beside
      // `npm start`) waits up to busy_timeout instead. One connection per process: nothing in-process is serialised
      // that was not already.
      if (obj.sql === 'BEGIN;') obj.sql = 'BEGIN IMMEDIATE;';
      // `.first()` ends its SQL in `limit ?` bound to 1: SQLite (3.54 with STAT4, as better-sqlite3 13 builds it)
      // re-plans a statement whose LIMIT is a bound parameter on every run (≈ 15 µs on a 5 µs point read;
      // bench/results/profiles.md), so that one value is written into the SQL text. Other limits stay bound (one
      // statement per text).
      const last = obj.bindings?.length ? obj.bindings[obj.bindings.length - 1] : undefined;
      if (last === 1 && obj.sql.endsWith(' limit ?')) {
        obj.sql = `${obj.sql.slice(0, -1)}1`;
        obj.bindings = obj.bindings?.slice(0, -1);
      }
      connection.meridianStatements ??= new Map();
      const cache = connection.meridianStatements;
      let statement = cache.get(obj.sql);
      if (statement) {
        // Map order is insertion order: re-inserting marks it most recently used.
        cache.delete(obj.sql);
      } else {
        statement = connection.prepare(obj.sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(obj.sql, statement);
      const bindings = this._formatBindings(obj.bindings);
      if (statement.reader) {
        obj.response = statement.all(bindings);
        return obj;
      }
      const response = statement.run(bindings);
      obj.response = response;
      obj.context = { lastID: response.lastInsertRowid, changes: response.changes };
      return obj;
    }
  };
  return Client as unknown as KnexClientClass;
}

/**
 * Knex's pg client, sending reads as named prepared statements (docs/design.md, "The request pipeline", hot-path
 * rules): Postgres parses and plans a named statement once per connection and then only binds and executes it. The
 * name is derived from the SQL text (which holds placeholders, never values), so the same query reuses its
 * statement on every connection it meets. Only plain reads are named: writes and DDL stay unnamed, and a statement
 * whose cached plan a schema change outdated is retried unnamed. The client holds the database's {@link SqlTexts}
 * as the SQLite client does.
 */
function preparingPgClient(sqlTexts: SqlTexts): KnexClientClass {
  const Base = require('knex/lib/dialects/postgres/index.js') as KnexClientClass;
  const Client = class extends (Base as new (
    config: Knex.Config,
  ) => {
    _query(connection: unknown, obj: KnexQueryObject): Promise<KnexQueryObject>;
  }) {
    /** The database's SQL texts (./sql.ts). */
    get sqlTexts(): SqlTexts {
      return sqlTexts;
    }

    override async _query(connection: unknown, obj: KnexQueryObject): Promise<KnexQueryObject> {
      const sql = obj.sql;
      if (!sql || obj.options?.name !== undefined || !/^select\b/i.test(sql) || /;\s*\S/.test(sql))
        return super._query(connection, obj);
      const name = `m_${createHash('sha1').update(sql).digest('base64url')}`;
      try {
        return await super
          ._query(connection, { ...obj, options: { ...obj.options, name } })
          .then((done) => Object.assign(obj, { response: done.response }));
      } catch (err) {
        // "cached plan must not change result type": a migration changed a table under a prepared statement.
        if ((err as { code?: string }).code === '0A000') return super._query(connection, obj);
        throw err;
      }
    }
  };
  return Client as unknown as KnexClientClass;
}

/**
 * Gives the configuration the name of the dialect the client subclass extends: Knex resolved the class already,
 * and code that tells the databases apart by `knex.client.config.client` (migrations, advisory locks) reads it.
 */
function namedAs(knex: Knex, client: 'pg' | 'better-sqlite3'): void {
  (knex.client as { config: { client: unknown } }).config.client = client;
}

/**
 * Opens the database named by the options, with one {@link SqlTexts} of its own. SQLite gets WAL, foreign keys and
 * a 5 s busy timeout on its single pooled connection (docs/toolchain.md, "Knex with better-sqlite3 and pg"); the
 * parent folder of the file is created when missing.
 */
export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    const knex = knexFactory({
      client: preparingPgClient(new SqlTexts()) as unknown as typeof Knex.Client,
      connection: options.databaseUrl,
      pool: { min: 0, max: 10 },
      ...(options.pgSchema ? { searchPath: [options.pgSchema] } : {}),
    });
    namedAs(knex, 'pg');
    return { knex, dialect: 'postgres', close: () => knex.destroy() };
  }
  if (options.databaseUrl) throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const knex = knexFactory({
    client: cachingBetterSqlite3Client(new SqlTexts()) as unknown as typeof Knex.Client,
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
  namedAs(knex, 'better-sqlite3');
  return { knex, dialect: 'sqlite', close: () => knex.destroy() };
}

/**
 * What a migration may need besides Knex, passed as the second argument of its `up` and `down`: the box that seals
 * secrets at rest, under the configured `MERIDIAN_SECRET_KEY` (null when none is given: a migration that must seal
 * existing rows then refuses to run).
 */
export interface MigrationContext {
  secrets: SecretBox | null;
}

/**
 * The migrations' names, as `knex_migrations` records them: the source file's name (`<timestamp>_<change>.ts`)
 * whether the server runs from `server/` (TypeScript through tsx) or from the build in `dist/` (the same files
 * compiled to `.js`), so a database migrated by one is current for the other (docs/deploy.md, "Upgrades").
 */
function migrationNames(): string[] {
  const names = fs
    .readdirSync(migrationsDir)
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.js$/, '.ts'));
  return [...new Set(names)].sort();
}

/** The file that holds migration `name` (a `.ts` name): the source itself, or its compiled `.js` in `dist/`. */
function migrationFile(name: string): string {
  const source = path.join(migrationsDir, name);
  return fs.existsSync(source) ? source : source.replace(/\.ts$/, '.js');
}

/** The migration files of `server/db/migrations`, by name, each run with the {@link MigrationContext}. */
class MigrationsWithContext implements Knex.MigrationSource<string> {
  constructor(private readonly context: MigrationContext) {}

  async getMigrations(): Promise<string[]> {
    return migrationNames();
  }

  getMigrationName(name: string): string {
    return name;
  }

  async getMigration(name: string): Promise<Knex.Migration> {
    const module = (await import(pathToFileURL(migrationFile(name)).href)) as {
      up: (knex: Knex, context: MigrationContext) => Promise<void>;
      down?: (knex: Knex, context: MigrationContext) => Promise<void>;
      config?: unknown;
    };
    const { up, down } = module;
    // Knex reads a migration's own `config` (e.g. `{ transaction: false }`) from the object it is given.
    return Object.assign(
      {
        up: (knex: Knex) => up(knex, this.context),
        ...(down ? { down: (knex: Knex) => down(knex, this.context) } : {}),
      },
      module.config === undefined ? {} : { config: module.config },
    );
  }
}

/**
 * Applies every pending migration in `server/db/migrations` (timestamped, one change each). `context.secrets`
 * seals secrets that a migration encrypts (the entry points pass the configured key; tests' fresh databases need
 * none).
 */
export async function migrate(db: Database, context: MigrationContext = { secrets: null }): Promise<void> {
  await db.knex.migrate.latest({ migrationSource: new MigrationsWithContext(context) });
}

/** Whether the database answers a trivial query (the readiness check; docs/design.md, Operations). */
export async function pingDatabase(db: Database): Promise<void> {
  await db.knex.raw('SELECT 1');
}

/**
 * The migrations in `server/db/migrations` that the database has not applied, by file name (empty when the schema
 * is current). Reads Knex's `knex_migrations` table without creating it (a database never migrated has it missing:
 * every migration is pending), so the readiness check never writes.
 */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const files = migrationNames();
  let applied: Set<string>;
  try {
    const rows = (await db.knex('knex_migrations').select('name')) as { name: string }[];
    applied = new Set(rows.map((r) => r.name));
  } catch (err) {
    // "no such table" (SQLite) / undefined_table 42P01 (Postgres): nothing was ever migrated.
    const e = err as { code?: string; message?: string };
    if (e.code === '42P01' || /no such table/i.test(e.message ?? '')) applied = new Set();
    else throw err;
  }
  return files.filter((f) => !applied.has(f));
}
