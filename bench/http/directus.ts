/**
 * Directus as a peer baseline of `npm run bench -- http --peers` (bench/README.md): the data platform a team would
 * put over a `projects` table instead of writing an API — Node, Express and Knex like Meridian. Installed on demand
 * into bench/directus (never a dependency of Meridian): `directus@12.4.1` with npm `overrides` pinning `@directus/app`
 * to 18.0.0 (18.0.1 is not served) and `isolated-vm` to 6.2.0 (5.0.3 has no Node 24 build); see
 * bench/directus/package.json.
 *
 * {@link startDirectus} makes a database of its own on the benchmark's Postgres, bootstraps Directus with a static
 * admin token, creates `projects` (Meridian's scalar columns, `budget` as decimal, an index on `status`) and `risks`,
 * loads the projects it is given, then restarts it tuned as the issue measured it: `CACHE_SCHEMA_FREEZE_ENABLED=true`,
 * `RATE_LIMITER_ENABLED=false`, `LOG_LEVEL=warn`.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './postgres.js';
import { pinned, type Running } from './processes.js';

/** bench/directus: its package.json (the pins) and, once installed, its node_modules. */
const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'directus');
/** The static admin token of the benchmark's Directus. */
export const DIRECTUS_TOKEN = 'meridian-bench-directus-admin-token';

/** Installs Directus into bench/directus/node_modules when it is not there (npm, the pins of its package.json). */
export function installDirectus(say: (line: string) => void): void {
  if (fs.existsSync(path.join(DIR, 'node_modules', 'directus', 'package.json'))) return;
  say('bench http: installing directus@12.4.1 into bench/directus (once)');
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: DIR, stdio: 'inherit' });
}

/** One project as Directus stores it: Meridian's scalar fields, same names. */
export type ProjectRow = Record<string, string | number | null>;

const STRING_FIELDS = [
  'code',
  'name',
  'description',
  'status',
  'startDate',
  'endDate',
  'forecastEndDate',
  'category',
  'borough',
  'managingAgency',
  'clientAgency',
] as const;
const DECIMAL_FIELDS = ['budget', 'forecastCost', 'actualCost'] as const;

/** Meridian's scalar project fields, picked from a Meridian `Project`. */
export function projectRow(project: Record<string, unknown>): ProjectRow {
  const row: ProjectRow = { id: project.id as string };
  for (const f of [...STRING_FIELDS, ...DECIMAL_FIELDS, 'progress'])
    row[f] = (project[f] as string | number | null | undefined) ?? null;
  return row;
}

function env(databaseUrl: string, database: string, port: number, tuned: boolean): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl);
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DB_CLIENT: 'pg',
    DB_HOST: url.hostname,
    DB_PORT: url.port,
    DB_DATABASE: database,
    DB_USER: decodeURIComponent(url.username),
    DB_PASSWORD: decodeURIComponent(url.password),
    SECRET: 'meridian-bench-directus-secret-0123456789',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'bench-password-0123',
    ADMIN_TOKEN: DIRECTUS_TOKEN,
    TELEMETRY: 'false',
    WEBSOCKETS_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    CACHE_ENABLED: 'false',
    CACHE_SCHEMA_FREEZE_ENABLED: tuned ? 'true' : 'false',
  };
}

async function api(port: number, method: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method,
    headers: { authorization: `Bearer ${DIRECTUS_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Directus ${method} ${route} answered ${res.status}: ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : null;
}

function field(name: string, type: string, extra: Record<string, unknown> = {}) {
  return { field: name, type, schema: { is_nullable: true, ...extra }, meta: {} };
}

/**
 * Starts Directus over a fresh database `database` of the Postgres at `adminUrl` (a URL whose user may create
 * databases), with the given projects loaded, tuned, pinned to `core`. Directus listens on `port`.
 */
export async function startDirectus(options: {
  adminUrl: string;
  database: string;
  port: number;
  core: number | null;
  projects: ProjectRow[];
  logFile: string;
  say: (line: string) => void;
}): Promise<Running> {
  const { adminUrl, database, port, say } = options;
  installDirectus(say);
  await freshDatabase(adminUrl, database);
  const bin = path.join(DIR, 'node_modules', 'directus', 'cli.js');
  execFileSync(process.execPath, [bin, 'bootstrap'], {
    cwd: DIR,
    env: env(adminUrl, database, port, false),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const start = async (tuned: boolean): Promise<Running> => {
    const [cmd, args] = pinned(process.execPath, [bin, 'start'], options.core);
    const fd = fs.openSync(options.logFile, 'a');
    const child = spawn(cmd, args, {
      cwd: DIR,
      env: env(adminUrl, database, port, tuned),
      stdio: ['ignore', fd, fd],
    });
    fs.closeSync(fd);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const running: Running = {
      child,
      port,
      async stop() {
        if (child.exitCode === null) child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      },
    };
    // Directus logs nothing at LOG_LEVEL=warn when it starts: wait for its ping instead.
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && child.exitCode === null) {
      const ok = await fetch(`http://127.0.0.1:${port}/server/ping`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return running;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await running.stop();
    throw new Error(`Directus did not start; see ${options.logFile}`);
  };
  let directus = await start(false);
  try {
    await api(port, 'POST', '/collections', {
      collection: 'projects',
      schema: {},
      meta: {},
      fields: [
        { field: 'id', type: 'uuid', schema: { is_primary_key: true }, meta: { special: ['uuid'] } },
        ...STRING_FIELDS.map((f) =>
          field(f, f === 'description' ? 'text' : 'string', f === 'status' ? { is_indexed: true } : {}),
        ),
        ...DECIMAL_FIELDS.map((f) => field(f, 'decimal', { numeric_precision: 14, numeric_scale: 2 })),
        field('progress', 'float'),
      ],
    });
    await api(port, 'POST', '/collections', {
      collection: 'risks',
      schema: {},
      meta: {},
      fields: [
        { field: 'id', type: 'uuid', schema: { is_primary_key: true }, meta: { special: ['uuid'] } },
        field('title', 'string'),
        field('projectId', 'uuid', { is_indexed: true }),
        field('likelihood', 'integer'),
        field('impact', 'integer'),
      ],
    });
    for (let i = 0; i < options.projects.length; i += 100)
      await api(port, 'POST', '/items/projects', options.projects.slice(i, i + 100));
    say(`bench http: Directus over ${database} with ${options.projects.length} projects; restarting it tuned`);
  } finally {
    await directus.stop();
  }
  directus = await start(true);
  return directus;
}
