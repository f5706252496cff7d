/**
 * The benchmark's own Postgres as a measured party (bench/README.md, peers): its CPU time (every process of the
 * server, the exited backends' included) and the transactions of one database, from `pg_stat_database`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { CLK_TCK } from './options.js';

/** The postmaster's pid, from `<dir>/data/postmaster.pid` (the layout of scripts/pg-test-server.sh). */
export function postmasterPid(dir: string): number {
  const file = path.join(dir, 'data', 'postmaster.pid');
  const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no postmaster pid in ${file}`);
  return pid;
}

function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The server's children: backends, background workers. */
function children(postmaster: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    // After the command name: ppid is the second field (man 5 proc).
    if (fields && Number(fields[1]) === postmaster) out.push(Number(name));
  }
  return out;
}

/**
 * CPU time of the whole Postgres server in µs: the postmaster's own and its waited-for children's (exited
 * backends), plus every live child's.
 */
export function postgresCpuMicros(postmaster: number): number {
  const own = statFields(postmaster);
  if (!own) throw new Error(`postmaster ${postmaster} is not running`);
  // utime, stime, cutime, cstime are fields 14–17 (index 11–14 after the name).
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const pid of children(postmaster)) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1e6) / CLK_TCK;
}

/** Pins the server and its children to `core` (new backends inherit the postmaster's affinity). */
export function pinPostgres(postmaster: number, core: number): void {
  for (const pid of [postmaster, ...children(postmaster)])
    execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}

/** Committed plus rolled-back transactions of `database` so far (as flushed by the backends). */
export async function transactions(adminUrl: string, database: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
      [database],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** A backend flushes its statistics within this long of going idle (Postgres 15: PGSTAT_IDLE_INTERVAL, 10 s). */
export const STATS_FLUSH_MS = 11_000;

/** Drops and creates `database` (the admin URL's user may create databases). */
export async function freshDatabase(adminUrl: string, database: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${database}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
