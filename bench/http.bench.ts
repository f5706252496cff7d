/**
 * `npm run bench -- http` (issue 8 §2): Meridian over real HTTP against a bare Express 5 app that answers the same
 * bytes on the same routes, alternating in one run, so the ratios compare like with like on this machine.
 *
 * - Meridian runs as in production (`node --import tsx server/main.ts`, NODE_ENV=production, pino logging at info
 *   to a file, response validation off) over a SQLite file holding the NYC demo tenant and a large tenant of
 *   100,000 projects, 200,000 risks and 50,000 allocations (bench/seed-large.ts). The seeded file is cached in
 *   `node_modules/.cache/meridian-bench/`, keyed by the server's migration set and the seed, and each run works on a
 *   fresh copy. The delivery worker is off (MERIDIAN_WORKER=false: at scale it runs as its own process) and the
 *   tenant limit is raised out of the way (MERIDIAN_RATE_LIMIT; its code path still runs on every request).
 * - The server is pinned to core 0 and this process (autocannon, 50 connections) to core 1 with `taskset` when the
 *   machine has two cores. Server CPU per request comes from /proc/<pid>/stat (user + system, all threads).
 * - Each subject runs `rounds` times per server, in alternating order, after a warm-up; req/s and CPU per request
 *   are totals over the rounds, p50/p99 the median of the rounds' values.
 *
 * Options (after `npm run bench -- http`): `--server-dir DIR` (another checkout of Meridian to measure, e.g. an older
 * commit), `--node BIN` (the Node binary for both servers; default this one), `--out NAME` (results as
 * bench/results/NAME.json and .md; default `http`), `--duration S` (per round, default 5), `--rounds N` (default 3),
 * `--connections N` (default 50), `--only WORD` (subjects whose id contains it), `--profile DIR` (run Meridian under
 * `--cpu-prof` and leave the profile in DIR; see bench/profile-summary.ts).
 *
 * Nothing is asserted: the targets of issue 8 are read off the table.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { newSecretKey } from '../server/crypto/secret-box.js';
import { idOf, LARGE_TENANT_KEY, seedLargeTenant } from './seed-large.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Bump when the seed changes, so cached files are rebuilt. */
const SEED_VERSION = 'large-v1';
/** The NYC demo tenant's admin key in benchmark runs (MERIDIAN_API_KEY). */
const NYC_KEY = `mk_live_${'N'.repeat(20)}${'y'.repeat(20)}`;
const CLK_TCK = 100;

interface Options {
  serverDir: string;
  node: string;
  out: string;
  duration: number;
  rounds: number;
  connections: number;
  only: string | null;
  profile: string | null;
}

function parseOptions(argv: string[]): Options {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    serverDir: path.resolve(get('server-dir') ?? ROOT),
    node: get('node') ?? process.execPath,
    out: get('out') ?? 'http',
    duration: Number(get('duration') ?? 5),
    rounds: Number(get('rounds') ?? 3),
    connections: Number(get('connections') ?? 50),
    only: get('only') ?? null,
    profile: get('profile') ?? null,
  };
}

/** A benchmark subject: one route, called the same way on both servers. */
interface Subject {
  id: string;
  title: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Express route pattern (the bare app's route). */
  pattern: string;
  path: string;
  key: string;
  body?: (n: number) => unknown;
  /** PATCH with If-Match: a different project per request, with the version it is at. */
  rotating?: boolean;
}

function subjects(nycProjectId: string): Subject[] {
  const large = LARGE_TENANT_KEY;
  return [
    {
      id: 'get-project',
      title: 'GET /v1/projects/{id}',
      method: 'GET',
      pattern: '/v1/projects/:id',
      path: `/v1/projects/${nycProjectId}`,
      key: NYC_KEY,
    },
    {
      id: 'list-nyc',
      title: 'GET /v1/projects?status=AT_RISK&limit=25 (NYC)',
      method: 'GET',
      pattern: '/v1/projects',
      path: '/v1/projects?status=AT_RISK&limit=25',
      key: NYC_KEY,
    },
    {
      id: 'list-large',
      title: 'GET /v1/projects?status=AT_RISK&limit=25 (large)',
      method: 'GET',
      pattern: '/v1/projects',
      path: '/v1/projects?status=AT_RISK&limit=25',
      key: large,
    },
    {
      id: 'list-large-offset',
      title: 'GET /v1/projects?status=AT_RISK&limit=25&offset=2000 (large)',
      method: 'GET',
      pattern: '/v1/projects',
      path: '/v1/projects?status=AT_RISK&limit=25&offset=2000',
      key: large,
    },
    { id: 'me', title: 'GET /v1/me', method: 'GET', pattern: '/v1/me', path: '/v1/me', key: NYC_KEY },
    {
      id: 'risks-high',
      title: 'GET /v1/risks?severity=HIGH&limit=25 (large)',
      method: 'GET',
      pattern: '/v1/risks',
      path: '/v1/risks?severity=HIGH&limit=25',
      key: large,
    },
    {
      id: 'post-risk',
      title: 'POST /v1/risks',
      method: 'POST',
      pattern: '/v1/risks',
      path: '/v1/risks',
      key: large,
      body: (n) => ({
        title: `Benchmark risk ${n}`,
        projectId: idOf(5, n % 1000),
        likelihood: 1 + (n % 5),
        impact: 1 + ((n >> 3) % 5),
      }),
    },
    {
      id: 'patch-project',
      title: 'PATCH /v1/projects/{id} with If-Match',
      method: 'PATCH',
      pattern: '/v1/projects/:id',
      path: `/v1/projects/${idOf(5, 99_999)}`,
      key: large,
      body: (n) => ({ description: `Benchmark edit ${n}` }),
      rotating: true,
    },
  ];
}

/** Server CPU time (user + system, every thread) in µs, from /proc. */
function cpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3; utime and stime are fields 14 and 15 (man 5 proc).
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
}

interface Running {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

function pinned(cmd: string, args: string[], core: number | null): [string, string[]] {
  return core === null ? [cmd, args] : ['taskset', ['-c', String(core), cmd, ...args]];
}

/** Starts a process whose output goes to `logFile`, and waits for `pattern` in it (bounded). */
async function startProcess(
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

function migrationKey(serverDir: string): string {
  const dir = path.join(serverDir, 'server', 'db', 'migrations');
  const hash = createHash('sha256').update(SEED_VERSION);
  for (const name of fs.readdirSync(dir).sort()) {
    hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

const BENCH_SECRET_KEY = newSecretKey();

function serverEnv(file: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TZ']) if (process.env[name]) env[name] = process.env[name];
  return {
    ...env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    MERIDIAN_SQLITE_FILE: file,
    MERIDIAN_API_KEY: NYC_KEY,
    MERIDIAN_WORKER: 'false',
    MERIDIAN_RATE_LIMIT: '1000000000',
    // Production requires the key that encrypts secrets at rest: a throw-away one per run.
    MERIDIAN_SECRET_KEY: BENCH_SECRET_KEY,
    ...extra,
  };
}

const MERIDIAN_READY = /listening on http:\/\/127\.0\.0\.1:(\d+)\/v1/;

/** The seeded database for this server's migrations: from the cache, or built (NYC import, then the seed). */
async function seededDatabase(options: Options, work: string, say: (line: string) => void): Promise<string> {
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

interface Recorded {
  method: string;
  pattern: string;
  key: string;
  status: number;
  headers: [string, string][];
  body: string;
}

const SKIP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

async function record(port: number, subject: Subject): Promise<Recorded> {
  const res = await fetch(`http://127.0.0.1:${port}${subject.path}`, {
    method: subject.method,
    headers: {
      authorization: `Bearer ${subject.key}`,
      ...(subject.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(subject.body ? { body: JSON.stringify(subject.body(0)) } : {}),
  });
  const body = await res.text();
  if (res.status >= 300) throw new Error(`${subject.title} answered ${res.status}: ${body.slice(0, 300)}`);
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (!SKIP_HEADERS.has(name)) headers.push([name, value]);
  });
  return {
    method: subject.method,
    pattern: subject.pattern,
    key: `${subject.method} ${subject.path} Bearer ${subject.key}`,
    status: res.status,
    headers,
    body,
  };
}

interface Sample {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  cpuMicros: number;
  non2xx: number;
  errors: number;
}

/** One autocannon run against `port`; `versions` tracks the If-Match of rotating PATCHes across runs. */
async function load(
  port: number,
  pid: number,
  subject: Subject,
  options: Options,
  seconds: number,
  versions: Map<string, number>,
  counter: { n: number },
): Promise<Sample> {
  const headers: Record<string, string> = { authorization: `Bearer ${subject.key}` };
  if (subject.body) headers['content-type'] = 'application/json';
  type Ctx = { id?: string };
  const request: autocannon.Request = {
    method: subject.method,
    path: subject.path,
    headers,
    ...(subject.body
      ? {
          setupRequest: (req: autocannon.Request, ctx: object) => {
            const context = ctx as Ctx;
            const n = ++counter.n;
            if (!subject.rotating) return { ...req, body: JSON.stringify(subject.body?.(n)) };
            // A different project of the large tenant per request, at the version it is at, so every
            // If-Match holds (a real conditional write, not a 412).
            const id = idOf(5, n % 90_000);
            context.id = id;
            const version = versions.get(id) ?? 1;
            return {
              ...req,
              path: `/v1/projects/${id}`,
              headers: { ...headers, 'if-match': `"${version}"` },
              body: JSON.stringify(subject.body?.(n)),
            };
          },
        }
      : {}),
    ...(subject.rotating
      ? {
          onResponse: (status: number, _body: string, context: object, resHeaders?: Record<string, unknown>) => {
            const id = (context as Ctx).id;
            const etag = resHeaders?.etag ?? resHeaders?.ETag;
            if (id && status === 200 && typeof etag === 'string') versions.set(id, Number(etag.replaceAll('"', '')));
          },
        }
      : {}),
  };
  const before = cpuMicros(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: options.connections,
    duration: seconds,
    requests: [request],
  });
  const cpu = cpuMicros(pid) - before;
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicros: cpu,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

interface Summary {
  reqPerSec: number;
  p50: number;
  p99: number;
  cpuMicrosPerRequest: number;
  requests: number;
  non2xx: number;
  errors: number;
}

function summarise(samples: Sample[]): Summary {
  const requests = samples.reduce((s, x) => s + x.requests, 0);
  const seconds = samples.reduce((s, x) => s + x.seconds, 0);
  const cpu = samples.reduce((s, x) => s + x.cpuMicros, 0);
  return {
    reqPerSec: Math.round(requests / seconds),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    cpuMicrosPerRequest: Math.round(cpu / Math.max(1, requests)),
    requests,
    non2xx: samples.reduce((s, x) => s + x.non2xx, 0),
    errors: samples.reduce((s, x) => s + x.errors, 0),
  };
}

function gitHead(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** Runs the benchmark; returns the table rows (also written to bench/results/<out>.json and .md). */
export async function benchHttp(argv: string[] = []): Promise<Record<string, string | number>[]> {
  const options = parseOptions(argv);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const twoCores = os.availableParallelism() >= 2 && fs.existsSync('/usr/bin/taskset');
  const serverCore = twoCores ? 0 : null;
  if (twoCores) execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-http-'));
  const nodeVersion = execFileSync(options.node, ['-v'], { encoding: 'utf8' }).trim();
  say(`bench http: ${options.serverDir} (${gitHead(options.serverDir)}) on Node ${nodeVersion}`);
  const file = await seededDatabase(options, work, say);

  const profileArgs = options.profile
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile)}`]
    : [];
  const [mCmd, mArgs] = pinned(
    options.node,
    [...profileArgs, '--import', 'tsx', 'server/main.ts'],
    serverCore,
  );
  const spawnedAt = Date.now();
  const meridian = await startProcess(mCmd, mArgs, {
    cwd: options.serverDir,
    env: serverEnv(file, { MERIDIAN_IMPORT_DEMO: 'false' }),
    logFile: path.join(work, 'meridian.log'),
    pattern: MERIDIAN_READY,
    timeoutMs: 120_000,
  });
  let bare: Running | null = null;
  try {
    const nyc = (await (
      await fetch(`http://127.0.0.1:${meridian.port}/v1/projects?status=AT_RISK&limit=1`, {
        headers: { authorization: `Bearer ${NYC_KEY}` },
      })
    ).json()) as { data: { id: string }[] };
    const nycProject = nyc.data[0]?.id;
    if (!nycProject) throw new Error('the NYC demo tenant has no AT_RISK project');
    const all = subjects(nycProject).filter((s) => !options.only || s.id.includes(options.only));
    const recorded: Recorded[] = [];
    for (const subject of all) recorded.push(await record(meridian.port, subject));
    const routesFile = path.join(work, 'routes.json');
    fs.writeFileSync(routesFile, JSON.stringify(recorded));
    const [bCmd, bArgs] = pinned(options.node, [path.join(ROOT, 'bench', 'bare-express.mjs')], serverCore);
    bare = await startProcess(bCmd, bArgs, {
      cwd: ROOT,
      env: { PATH: process.env.PATH, BARE_ROUTES: routesFile, PORT: '0', NODE_ENV: 'production' },
      logFile: path.join(work, 'bare.log'),
      pattern: /listening on (\d+)/,
      timeoutMs: 30_000,
    });

    const servers = { meridian, bare } as const;
    const samples = new Map<string, { meridian: Sample[]; bare: Sample[] }>();
    const versions = { meridian: new Map<string, number>(), bare: new Map<string, number>() };
    const counter = { n: 1 };
    say(
      `bench http: ${all.length} subjects × ${options.rounds} rounds × ${options.duration} s per server, ${options.connections} connections${twoCores ? ', server on core 0, autocannon on core 1' : ''}`,
    );
    if (options.profile) {
      say(
        `bench http: profile in ${options.profile}; leave out the start-up with: node --import tsx bench/profile-summary.ts <file> 30 ${Date.now() - spawnedAt}`,
      );
    }
    for (let round = 0; round <= options.rounds; round++) {
      for (const subject of all) {
        const order = round % 2 === 0 ? (['bare', 'meridian'] as const) : (['meridian', 'bare'] as const);
        for (const which of order) {
          const server = servers[which] as Running;
          // Round 0 is the warm-up (JIT, caches, SQLite pages): run, then throw away.
          const seconds = round === 0 ? Math.min(2, options.duration) : options.duration;
          const pid = server.child.pid as number;
          const sample = await load(server.port, pid, subject, options, seconds, versions[which], counter);
          if (round === 0) continue;
          const entry = samples.get(subject.id) ?? { meridian: [], bare: [] };
          entry[which].push(sample);
          samples.set(subject.id, entry);
        }
      }
      if (round > 0) say(`  round ${round}/${options.rounds} done`);
    }

    const results = all.map((subject) => {
      const s = samples.get(subject.id) as { meridian: Sample[]; bare: Sample[] };
      const m = summarise(s.meridian);
      const b = summarise(s.bare);
      return {
        id: subject.id,
        subject: subject.title,
        meridian: m,
        bare: b,
        ratio: {
          reqPerSec: Number((m.reqPerSec / b.reqPerSec).toFixed(3)),
          cpuPerRequest: Number((m.cpuMicrosPerRequest / Math.max(1, b.cpuMicrosPerRequest)).toFixed(2)),
          p50: Number((m.p50 / Math.max(0.01, b.p50)).toFixed(2)),
          p99: Number((m.p99 / Math.max(0.01, b.p99)).toFixed(2)),
        },
      };
    });
    const meta = {
      date: new Date().toISOString(),
      node: nodeVersion,
      commit: gitHead(options.serverDir),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.availableParallelism(),
      pinned: twoCores,
      connections: options.connections,
      rounds: options.rounds,
      secondsPerRound: options.duration,
      dataset: 'NYC demo tenant + large tenant (100,000 projects, 200,000 risks, 50,000 allocations)',
    };
    const table = markdown(meta, results);
    const outDir = path.join(ROOT, 'bench', 'results');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, `${options.out}.json`), `${JSON.stringify({ meta, results }, null, 2)}\n`);
    fs.writeFileSync(path.join(outDir, `${options.out}.md`), table);
    say('');
    say(table);
    return results.map((r) => ({
      subject: r.id,
      'req/s': r.meridian.reqPerSec,
      'bare req/s': r.bare.reqPerSec,
      ratio: r.ratio.reqPerSec,
      'CPU µs/req': r.meridian.cpuMicrosPerRequest,
      'bare CPU µs/req': r.bare.cpuMicrosPerRequest,
      'CPU ratio': r.ratio.cpuPerRequest,
      non2xx: r.meridian.non2xx,
    }));
  } finally {
    await bare?.stop();
    await meridian.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

function markdown(
  meta: { node: string; commit: string; cpu: string; connections: number; rounds: number; secondsPerRound: number },
  results: {
    subject: string;
    meridian: Summary;
    bare: Summary;
    ratio: { reqPerSec: number; cpuPerRequest: number };
  }[],
): string {
  const lines = [
    `Node ${meta.node}, commit ${meta.commit}, ${meta.cpu}; ${meta.connections} connections, ${meta.rounds} × ${meta.secondsPerRound} s per subject and server, alternating.`,
    '',
    '| Subject | Meridian req/s | bare Express req/s | ratio | p50 / p99 ms (bare) | CPU µs/req (bare) | CPU ratio | non-2xx |',
    '|---|---:|---:|---:|---|---:|---:|---:|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.subject} | ${fmt(r.meridian.reqPerSec)} | ${fmt(r.bare.reqPerSec)} | ${r.ratio.reqPerSec.toFixed(2)}× | ${r.meridian.p50} / ${r.meridian.p99} (${r.bare.p50} / ${r.bare.p99}) | ${fmt(r.meridian.cpuMicrosPerRequest)} (${fmt(r.bare.cpuMicrosPerRequest)}) | ${r.ratio.cpuPerRequest.toFixed(2)}× | ${r.meridian.non2xx} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
