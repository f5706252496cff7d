/**
 * The agents benchmark (`npm run bench -- agents`; bench/README.md): every agent at each depth over the NYC
 * demo portfolio (355 projects, imported from the CSV) and over a synthetic tenant of 10,000 projects
 * (bench/seed-agents.ts), each measured in a child process (bench/agents-run.ts): time of a run through the real
 * path (cold, then the median of the warm runs) against a baseline measured in the same process (reading every
 * project row of the tenant once), the memory a run holds at its peak (snapshot and output, after a full GC) and
 * the process's peak RSS (Node, the modules and the database driver included). Target: a `standard` run over 10,000
 * projects ≤ 2 s.
 *
 * Uses a fresh SQLite file, or the Postgres named by DATABASE_URL (in a throwaway schema). The Ask agent's latency
 * (p50/p95 over its golden set) is a second table of this suite: `benchAsk` in bench/ask.bench.ts.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { NYC_DATASET } from '../server/bootstrap.js';
import { systemClock } from '../server/clock.js';
import { loadConfig } from '../server/config.js';
import { migrate, openDatabase } from '../server/repositories/db.js';
import { AGENTS } from '../server/services/agents/catalogue.js';
import { systemActor } from '../server/services/context.js';
import { importNycCapitalProjects } from '../server/import/nyc/importer.js';
import { buildServices } from '../server/services/index.js';
import { seedAgentsTenant } from './seed-agents.js';

const run = promisify(execFile);
const SYNTHETIC_PROJECTS = 10_000;

interface Measure {
  coldMs: number;
  warmMs: number;
  baselineMs: number;
  retainedMb: number;
  peakRssMb: number;
  findings: number;
  citations: number;
  outputKb: number;
}

/** Every agent × depth × dataset; one row each. */
export async function benchAgents(): Promise<Record<string, string | number>[]> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-agents-'));
  const sqliteFile = path.join(dir, 'bench.sqlite');
  let databaseUrl = '';
  const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  if (config.databaseUrl) {
    const admin = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: '' });
    await admin.knex.raw(`CREATE SCHEMA "${schema}"`);
    await admin.close();
    const url = new URL(config.databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const db = openDatabase({ databaseUrl: databaseUrl || null, sqliteFile });
  await migrate(db);
  const services = buildServices({ db, clock: systemClock }, config);
  const nyc = (await services.tenants.create({ name: 'NYC (bench)' })).tenant.id;
  let t0 = performance.now();
  await importNycCapitalProjects({ db, clock: systemClock }, services, systemActor(nyc), fs.readFileSync(NYC_DATASET), {
    fileName: NYC_DATASET,
  });
  console.log(`  NYC demo imported in ${Math.round(performance.now() - t0)} ms`);
  t0 = performance.now();
  // Arranged around today (UTC), the default asOf: overdue milestones are MISSED already, as the periodic sweep leaves
  // them, so schedule-health's marking finds nothing to do, as in a running deployment.
  const today = new Date().toISOString().slice(0, 10);
  const synthetic = await seedAgentsTenant(db.knex, SYNTHETIC_PROJECTS, today);
  console.log(
    `  synthetic tenant seeded in ${Math.round(performance.now() - t0)} ms: ${Object.entries(synthetic.counts)
      .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
      .join(', ')}`,
  );
  await db.close();

  const datasets = [
    { name: 'NYC demo (355 projects)', tenantId: nyc, asOf: '2019-09-01' },
    { name: `synthetic (${SYNTHETIC_PROJECTS.toLocaleString('en-US')} projects)`, tenantId: synthetic.tenantId, asOf: today },
  ];
  const rows: Record<string, string | number>[] = [];
  for (const dataset of datasets) {
    for (const agent of AGENTS) {
      for (const depth of agent.depths) {
        const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(import.meta.dirname, 'agents-run.ts')], {
          env: {
            ...process.env,
            BENCH_DATABASE_URL: databaseUrl,
            BENCH_SQLITE_FILE: sqliteFile,
            BENCH_TENANT: dataset.tenantId,
            BENCH_AGENT: agent.id,
            BENCH_DEPTH: depth,
            BENCH_AS_OF: dataset.asOf,
            BENCH_RUNS: '4',
          },
          maxBuffer: 1 << 20,
        });
        const m = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Measure;
        rows.push({
          dataset: dataset.name,
          agent: agent.id,
          depth,
          'cold ms': Math.round(m.coldMs),
          'warm ms (median of 3)': Math.round(m.warmMs),
          'read projects ms (baseline)': Math.round(m.baselineMs * 10) / 10,
          'warm ÷ baseline': Math.round((m.warmMs / m.baselineMs) * 10) / 10,
          'held at peak MB': Math.round(m.retainedMb * 10) / 10,
          'process peak RSS MB': Math.round(m.peakRssMb),
          findings: m.findings,
          citations: m.citations,
          'output KB': Math.round(m.outputKb),
        });
      }
    }
  }
  if (databaseUrl) {
    const admin = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: '' });
    await admin.knex.raw(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return rows;
}

// The Ask agent's latency (p50/p95 over its golden set) joins this suite as `benchAsk`:
// export it from bench/ask.bench.ts and add it to the agents entry of scripts/bench.ts.
