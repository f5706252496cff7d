/**
 * The processes of the HTTP benchmark: servers pinned to a core with their CPU time read from /proc, and the seeded
 * database they serve (built once per migration set and cached).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { seedLargeTenant } from '../seed-large.js';
import { CLK_TCK, NYC_KEY, type Options, ROOT, SEED_VERSION } from './options.js';
import { newSecretKey } from '../../server/crypto/secret-box.js';

/** Server CPU time (user + system, every thread) in µs, from /proc. */
export function cpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3; utime and stime are fields 14 and 15 (man 5 proc).
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
}

export interface Running {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

export function pinned(cmd: string, args: string[], core: number | null): [string, string[]] {
  return core === null ? [cmd, args] : ['taskset', ['-c', String(core), cmd, ...args]];
}

/** Starts a process whose output goes to `logFile`, and waits for `pattern` in it (bounded). */
export async function startProcess(
  cmd: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; pattern: RegExp; timeoutMs: number },
): Promise<Running> {
  const fd = fs.openSync(options.logFile, 'w');
  const child = spawn(cmd, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + options.timeoutMs;
  let port = 0;
  while (Date.now() < deadline) {
    const match = options.pattern.exec(fs.readFileSync(options.logFile, 'utf8'));
    if (match) {
      port = Number(match[1]);
      break;
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!port) {
    child.kill('SIGKILL');
    const tail = fs.readFileSync(options.logFile, 'utf8').split('\n').slice(-20).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} did not start:\n${tail}`);
  }
  return {
    child,
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function migrationKey(serverDir: string): string {
  const dir = path.join(serverDir, 'server', 'db', 'migrations');
  const hash = createHash('sha256').update(SEED_VERSION);
  for (const name of fs.readdirSync(dir).sort()) {
    hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The key that encrypts secrets at rest in the benchmarked servers: a throw-away one per run. */
const BENCH_SECRET_KEY = newSecretKey();

export function serverEnv(file: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TZ']) if (process.env[name]) env[name] = process.env[name];
  return {
    ...env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    MERIDIAN_SQLITE_FILE: file,
    MERIDIAN_PUBLIC_URL: 'http://127.0.0.1',
    // Production as deployed, except that the benchmark's database is migrated and holds the NYC demo.
    MERIDIAN_MIGRATE_ON_START: 'true',
    MERIDIAN_DEMO: 'true',
    MERIDIAN_API_KEY: NYC_KEY,
    MERIDIAN_WORKER: 'false',
    MERIDIAN_RATE_LIMIT: '1000000000',
    // Production requires the key that encrypts secrets at rest: a throw-away one per run.
    MERIDIAN_SECRET_KEY: BENCH_SECRET_KEY,
    ...extra,
  };
}

export const MERIDIAN_READY = /listening on http:\/\/127\.0\.0\.1:(\d+)\/v1/;

/** The seeded database for this server's migrations: from the cache, or built (NYC import, then the seed). */
export async function seededDatabase(options: Options, work: string, say: (line: string) => void): Promise<string> {
  const cacheDir = path.join(ROOT, 'node_modules', '.cache', 'meridian-bench');
  const cached = path.join(cacheDir, `${migrationKey(options.serverDir)}.sqlite`);
  if (!fs.existsSync(cached)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const building = path.join(work, 'seed.sqlite');
    say('bench http: building the seeded database (NYC import, then the large tenant; cached afterwards)');
    const server = await startProcess(
      options.node,
      ['--import', 'tsx', 'server/main.ts'],
      {
        cwd: options.serverDir,
        env: serverEnv(building, { MERIDIAN_IMPORT_DEMO: 'true' }),
        logFile: path.join(work, 'seed-server.log'),
        pattern: MERIDIAN_READY,
        timeoutMs: 900_000,
      },
    );
    await server.stop();
    seedLargeTenant(building, say);
    fs.copyFileSync(building, `${cached}.tmp`);
    fs.renameSync(`${cached}.tmp`, cached);
  }
  const copy = path.join(work, 'bench.sqlite');
  fs.copyFileSync(cached, copy);
  return copy;
}
