/**
 * `npm run bench -- http` (bench/README.md): Meridian over real HTTP against a bare Express 5 app that
 * answers the same bytes on the same routes, alternating in one run, so the ratios compare like with like on this
 * machine.
 *
 * - Meridian runs as in production (`node --import tsx server/main.ts`, NODE_ENV=production, pino logging at info
 * to a file, response validation off) over a SQLite file holding the NYC demo tenant and a large tenant of 100,000
 * projects, 200,000 risks and 50,000 allocations (bench/seed-large.ts). The seeded file is cached in
 * `node_modules/.cache/meridian-bench/`, keyed by the server's migration set and the seed, and each run works on a
 *   fresh copy. The delivery worker is off (MERIDIAN_WORKER=false: at scale it runs as its own process) and the
 *   tenant limit is raised out of the way (MERIDIAN_RATE_LIMIT; its code path still runs on every request).
 * - The server is pinned to core 0 and this process (autocannon, 50 connections) to core 1 with `taskset` when the
 *   machine has two cores. Server CPU per request comes from /proc/<pid>/stat (user + system, all threads).
 * - Each subject runs `rounds` times per server, in alternating order, after a warm-up; req/s and CPU per request
 *   are totals over the rounds, p50/p99 the median of the rounds' values.
 *
 * Options (after `npm run bench -- http`): `--server-dir DIR` (another checkout of Meridian to measure, e.g. an
 * older commit), `--node BIN` (the Node binary for both servers; default this one), `--out NAME` (results as
 * bench/results/<NAME>.json and .md; default `http`), `--duration S` (per round, default 5), `--rounds N` (default
 * 3), `--connections N` (default 50), `--only WORD` (subjects whose id contains it), `--profile DIR` (run Meridian
 * under `--cpu-prof` and leave the profile in DIR; see bench/profile-summary.ts), `--peers --pg URL --pg-dir DIR`
 * (Meridian on SQLite, Postgres and 2 processes beside tuned Directus and bare Express: bench/http/peers.ts).
 *
 * Nothing is asserted: the figures are read off the table.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { NYC_KEY, parseOptions, ROOT } from './http/options.js';
import { benchPeers } from './http/peers.js';
import type { Subject } from './http/subjects.js';
import { load, type Recorded, record, type Sample, type Summary, summarise } from './http/load.js';
import {
  MERIDIAN_READY,
  pinned,
  type Running,
  seededDatabase,
  serverEnv,
  startProcess,
} from './http/processes.js';
import { subjects } from './http/subjects.js';

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
  if (options.peers) {
    if (!options.pg || !options.pgDir) throw new Error('--peers needs --pg URL and --pg-dir DIR (bench/README.md)');
    const peers = await benchPeers(options, options.pg, options.pgDir);
    return peers.map((r) => ({
      subject: r.subject,
      server: r.server,
      'req/s': r.summary.reqPerSec,
      'CPU µs/req': r.summary.cpuMicrosPerRequest,
      'Postgres CPU µs/req': r.pgCpuMicrosPerRequest ?? '—',
      'transactions/req': r.transactionsPerRequest ?? '—',
    }));
  }
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
          // The first round is the warm-up (JIT, caches, SQLite pages): run, then throw away.
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
