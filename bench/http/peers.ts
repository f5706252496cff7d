/**
 * `npm run bench -- http --peers --pg URL --pg-dir DIR` (bench/README.md, "Peers"): Meridian beside a peer and a
 * floor on four subjects (GET a project by id, the AT_RISK list of 25, GET /me, POST a risk) over the 355 NYC projects:
 * - Meridian on SQLite, on Postgres, and on Postgres with 2 API processes (the scaling factor);
 * - Directus 12.4.1 tuned (bench/http/directus.ts) on the same Postgres — the peer;
 * - bare Express 5 answering Meridian's recorded bytes (bench/bare-express.mjs) — the floor.
 * The Postgres is the benchmark's own (scripts/pg-test-server.sh with its own MERIDIAN_PG_DIR, never a shared one),
 * pinned with the servers to core 0, autocannon on core 1; its CPU per request is read from /proc for every round,
 * its transactions per request from `pg_stat_database` in a phase of its own (backends flush their statistics up
 * to 10 s after going idle). Servers alternate per round, so ratios compare within one run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIRECTUS_TOKEN, projectRow, startDirectus } from './directus.js';
import { load, type Recorded, record, type Sample, summarise } from './load.js';
import { NYC_KEY, type Options, ROOT } from './options.js';
import { peersMarkdown, type PeerResult } from './peers-report.js';
import {
  freshDatabase,
  pinPostgres,
  postgresCpuMicros,
  postmasterPid,
  STATS_FLUSH_MS,
  transactions,
} from './postgres.js';
import { MERIDIAN_READY, pinned, type Running, serverEnv, startProcess } from './processes.js';
import type { Subject } from './subjects.js';

const MERIDIAN_DB = 'meridian_bench';
const DIRECTUS_DB = 'directus_bench';
const DIRECTUS_PORT = 48_055;

/** A server under load: one or more processes; `database` when it runs on the benchmark's Postgres. */
interface Target {
  name: string;
  processes: Running[];
  database: string | null;
  /** The subject as this server takes it (Directus's routes differ). */
  subject(s: Subject): Subject;
}

function peerSubjects(projectId: string): Subject[] {
  return [
    {
      id: 'get-project',
      title: 'GET a project by id',
      method: 'GET',
      pattern: '/v1/projects/:id',
      path: `/v1/projects/${projectId}`,
      key: NYC_KEY,
    },
    {
      id: 'list-at-risk',
      title: 'list AT_RISK, limit 25',
      method: 'GET',
      pattern: '/v1/projects',
      path: '/v1/projects?status=AT_RISK&limit=25',
      key: NYC_KEY,
    },
    { id: 'me', title: 'GET /me', method: 'GET', pattern: '/v1/me', path: '/v1/me', key: NYC_KEY },
    {
      id: 'post-risk',
      title: 'POST a risk',
      method: 'POST',
      pattern: '/v1/risks',
      path: '/v1/risks',
      key: NYC_KEY,
      body: (n) => ({ title: `Benchmark risk ${n}`, projectId, likelihood: 1 + (n % 5), impact: 1 + ((n >> 3) % 5) }),
    },
  ];
}

function directusSubject(s: Subject, projectId: string): Subject {
  const path = {
    'get-project': `/items/projects/${projectId}`,
    'list-at-risk': '/items/projects?filter[status][_eq]=AT_RISK&limit=25',
    me: '/users/me',
    'post-risk': '/items/risks',
  }[s.id];
  if (!path) throw new Error(`no Directus route for ${s.id}`);
  return { ...s, path, key: DIRECTUS_TOKEN };
}

async function startMeridian(
  options: Options,
  name: string,
  env: NodeJS.ProcessEnv,
  work: string,
  core: number,
): Promise<Running> {
  const [cmd, args] = pinned(options.node, ['--import', 'tsx', 'server/main.ts'], core);
  return startProcess(cmd, args, {
    cwd: options.serverDir,
    env,
    logFile: path.join(work, `${name}.log`),
    pattern: MERIDIAN_READY,
    timeoutMs: 600_000,
  });
}

async function allProjects(port: number): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await fetch(`http://127.0.0.1:${port}/v1/projects?limit=100&offset=${offset}`, {
      headers: { authorization: `Bearer ${NYC_KEY}` },
    });
    const page = (await res.json()) as { data: Record<string, unknown>[] };
    out.push(...page.data);
    if (page.data.length < 100) return out;
  }
}

/** Runs the peers benchmark; writes bench/results/<out>-peers.json and .md. */
export async function benchPeers(options: Options, adminUrl: string, pgDir: string): Promise<PeerResult[]> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const twoCores = os.availableParallelism() >= 2 && fs.existsSync('/usr/bin/taskset');
  if (!twoCores) throw new Error('the peers benchmark pins servers and load to two cores');
  execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const postmaster = postmasterPid(pgDir);
  pinPostgres(postmaster, 0);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-peers-'));
  const running: Running[] = [];
  try {
    const pgUrl = await freshDatabase(adminUrl, MERIDIAN_DB);
    const pgEnv = serverEnv(path.join(work, 'unused.sqlite'), { DATABASE_URL: pgUrl, MERIDIAN_IMPORT_DEMO: 'true' });
    say('bench peers: Meridian on Postgres (migrations, NYC import)');
    const pg1 = await startMeridian(options, 'meridian-pg-1', pgEnv, work, 0);
    running.push(pg1);
    const pg2 = await startMeridian(options, 'meridian-pg-2', { ...pgEnv, MERIDIAN_IMPORT_DEMO: 'false' }, work, 0);
    running.push(pg2);
    say('bench peers: Meridian on SQLite (migrations, NYC import)');
    const sqlite = await startMeridian(
      options,
      'meridian-sqlite',
      serverEnv(path.join(work, 'peers.sqlite'), { MERIDIAN_IMPORT_DEMO: 'true' }),
      work,
      0,
    );
    running.push(sqlite);
    const projects = await allProjects(pg1.port);
    const atRisk = projects.find((p) => p.status === 'AT_RISK');
    if (!atRisk) throw new Error('the NYC import has no AT_RISK project');
    const projectId = atRisk.id as string;
    const sqliteProjects = await allProjects(sqlite.port);
    const sqliteProjectId = sqliteProjects.find((p) => p.code === atRisk.code)?.id as string;
    const directus = await startDirectus({
      adminUrl,
      database: DIRECTUS_DB,
      port: DIRECTUS_PORT,
      core: 0,
      projects: projects.map(projectRow),
      logFile: path.join(work, 'directus.log'),
      say,
    });
    running.push(directus);
    pinPostgres(postmaster, 0);

    const all = peerSubjects(projectId).filter((s) => !options.only || s.id.includes(options.only));
    const recorded: Recorded[] = [];
    for (const s of all) recorded.push(await record(pg1.port, s));
    const routesFile = path.join(work, 'routes.json');
    fs.writeFileSync(routesFile, JSON.stringify(recorded));
    const [bCmd, bArgs] = pinned(options.node, [path.join(ROOT, 'bench', 'bare-express.mjs')], 0);
    const bare = await startProcess(bCmd, bArgs, {
      cwd: ROOT,
      env: { PATH: process.env.PATH, BARE_ROUTES: routesFile, PORT: '0', NODE_ENV: 'production' },
      logFile: path.join(work, 'bare.log'),
      pattern: /listening on (\d+)/,
      timeoutMs: 30_000,
    });
    running.push(bare);

    const same = (s: Subject) => s;
    const targets: Target[] = [
      { name: 'sqlite', processes: [sqlite], database: null, subject: (s) => sqliteSubject(s, projectId, sqliteProjectId) },
      { name: 'pg', processes: [pg1], database: MERIDIAN_DB, subject: same },
      { name: 'pg×2', processes: [pg1, pg2], database: MERIDIAN_DB, subject: same },
      { name: 'directus', processes: [directus], database: DIRECTUS_DB, subject: (s) => directusSubject(s, projectId) },
      { name: 'bare', processes: [bare], database: null, subject: same },
    ];
    say(
      `bench peers: ${all.length} subjects × ${options.rounds} rounds × ${options.duration} s × ${targets.length} servers, ${options.connections} connections; servers and Postgres on core 0, autocannon on core 1`,
    );
    const samples = new Map<string, Sample[]>();
    const pgCpu = new Map<string, number>();
    const versions = new Map<string, number>();
    const counter = { n: 1 };
    for (let round = 0; round <= options.rounds; round++) {
      for (const subject of all) {
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const target of order) {
          const seconds = round === 0 ? Math.min(2, options.duration) : options.duration;
          const s = target.subject(subject);
          const pgBefore = postgresCpuMicros(postmaster);
          const parts = await Promise.all(
            target.processes.map((p) =>
              load(
                p.port,
                p.child.pid as number,
                s,
                { ...options, connections: Math.ceil(options.connections / target.processes.length) },
                seconds,
                versions,
                counter,
              ),
            ),
          );
          const pgSpent = postgresCpuMicros(postmaster) - pgBefore;
          if (round === 0) continue;
          const key = `${target.name} ${subject.id}`;
          samples.set(key, [...(samples.get(key) ?? []), merge(parts)]);
          pgCpu.set(key, (pgCpu.get(key) ?? 0) + pgSpent);
        }
      }
      if (round > 0) say(`  round ${round}/${options.rounds} done`);
    }

    // Transactions per request: a short sequential phase per subject, Meridian and Directus side by side.
    const txPerRequest = new Map<string, number>();
    await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
    for (const subject of all) {
      const measured = targets.filter((t) => t.name === 'pg' || t.name === 'directus');
      const before = await Promise.all(measured.map((t) => transactions(adminUrl, t.database as string)));
      const counts = await Promise.all(
        measured.map(async (t) => {
          const s = t.subject(subject);
          const sample = await load(
            t.processes[0]?.port as number,
            t.processes[0]?.child.pid as number,
            s,
            { ...options, connections: 10 },
            2,
            versions,
            counter,
          );
          return sample.requests;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
      const after = await Promise.all(measured.map((t) => transactions(adminUrl, t.database as string)));
      measured.forEach((t, i) => {
        const n = (after[i] as number) - (before[i] as number);
        txPerRequest.set(`${t.name} ${subject.id}`, Number((n / Math.max(1, counts[i] as number)).toFixed(2)));
      });
    }

    const results: PeerResult[] = [];
    for (const subject of all) {
      for (const target of targets) {
        const key = `${target.name} ${subject.id}`;
        const summary = summarise(samples.get(key) ?? []);
        results.push({
          subject: subject.id,
          title: subject.title,
          server: target.name,
          summary,
          pgCpuMicrosPerRequest:
            target.database === null ? null : Math.round((pgCpu.get(key) ?? 0) / Math.max(1, summary.requests)),
          transactionsPerRequest: txPerRequest.get(key) ?? null,
        });
      }
    }
    const meta = {
      date: new Date().toISOString(),
      node: execFileSync(options.node, ['-v'], { encoding: 'utf8' }).trim(),
      commit: commitOf(options.serverDir),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      // This process is pinned to one core by now: count the machine's.
      cores: os.cpus().length,
      load: os.loadavg().map((l) => l.toFixed(1)).join(' '),
      connections: options.connections,
      rounds: options.rounds,
      secondsPerRound: options.duration,
      postgres: (await pgVersion(adminUrl)) ?? 'unknown',
    };
    const outDir = path.join(ROOT, 'bench', 'results');
    fs.writeFileSync(path.join(outDir, `${options.out}-peers.json`), `${JSON.stringify({ meta, results }, null, 2)}\n`);
    const table = peersMarkdown(meta, results);
    fs.writeFileSync(path.join(outDir, `${options.out}-peers.md`), table);
    say('');
    say(table);
    return results;
  } finally {
    for (const r of running.reverse()) await r.stop().catch(() => undefined);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Meridian on SQLite has its own ids: the same NYC project, by code. */
function sqliteSubject(s: Subject, pgId: string, sqliteId: string): Subject {
  return {
    ...s,
    path: s.path.replace(pgId, sqliteId),
    ...(s.body ? { body: (n: number) => ({ ...(s.body?.(n) as object), projectId: sqliteId }) } : {}),
  };
}

function merge(parts: Sample[]): Sample {
  return {
    requests: parts.reduce((s, p) => s + p.requests, 0),
    seconds: Math.max(...parts.map((p) => p.seconds)),
    p50: Math.max(...parts.map((p) => p.p50)),
    p99: Math.max(...parts.map((p) => p.p99)),
    cpuMicros: parts.reduce((s, p) => s + p.cpuMicros, 0),
    non2xx: parts.reduce((s, p) => s + p.non2xx, 0),
    errors: parts.reduce((s, p) => s + p.errors, 0),
  };
}

async function pgVersion(adminUrl: string): Promise<string | null> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

function commitOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    return path.basename(dir);
  }
}
