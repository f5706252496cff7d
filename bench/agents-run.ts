/**
 * One measurement of the agents benchmark, in a process of its own (run with --expose-gc): opens the database named
 * by the environment, times the baseline (reading every project row of the tenant once, what any analysis pays at
 * least), runs one agent at one depth `BENCH_RUNS` times through the real path (execution row, job, runner claim,
 * analysis, settlement), then measures the memory a run holds at its peak — the snapshot and the output, both alive,
 * after a full GC — and prints one JSON line: cold and warm times, the baseline, that retained heap, the process's
 * peak RSS and the size of the output.
 */
import { systemClock } from '../server/clock.js';
import { loadConfig } from '../server/config.js';
import { addDays } from '../server/dates.js';
import { newSecretKey } from '../server/crypto/secret-box.js';
import { openDatabase } from '../server/repositories/db.js';
import { type AgentDepth, type AgentId, agentDefinition } from '../server/services/agents/catalogue.js';
import { analyse, horizonDays, statusReportHistory } from '../server/services/agents/index.js';
import { loadPortfolio } from '../server/services/agents/portfolio.js';
import { systemActor } from '../server/services/context.js';
import { buildServices } from '../server/services/index.js';
import { createJobRunner } from '../server/jobs/index.js';

const env = process.env;
const db = openDatabase({
  databaseUrl: env.BENCH_DATABASE_URL || null,
  sqliteFile: env.BENCH_SQLITE_FILE ?? '',
});
// Production requires its settings (docs/deploy.md, "Production"): the database above, and a throw-away key.
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATABASE_URL: env.BENCH_DATABASE_URL || '',
  MERIDIAN_SQLITE_FILE: env.BENCH_SQLITE_FILE || ':memory:',
  MERIDIAN_PUBLIC_URL: 'http://127.0.0.1',
  MERIDIAN_SECRET_KEY: newSecretKey(),
});
const services = buildServices({ db, clock: systemClock }, config);
const runner = createJobRunner({ services, clock: systemClock, config });
const tenantId = env.BENCH_TENANT as string;
const actor = systemActor(tenantId);
const runs = Number(env.BENCH_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const baseline: number[] = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  await db.knex('projects').where({ tenant_id: tenantId }).select('*');
  baseline.push(performance.now() - t0);
}
const times: number[] = [];
let output = null as { findings: unknown[]; citations: unknown[] } | null;
for (let i = 0; i < runs; i++) {
  const execution = await services.agents.run(actor, {
    agentId: env.BENCH_AGENT as AgentId,
    depth: env.BENCH_DEPTH as AgentDepth,
    asOf: env.BENCH_AS_OF as string,
  });
  const t0 = performance.now();
  await runner.drain();
  times.push(performance.now() - t0);
  const done = await services.agents.get(actor, execution.executionId);
  if (done.status !== 'COMPLETED') throw new Error(`execution ${done.status}: ${JSON.stringify(done.error)}`);
  output = done.output as typeof output;
}
// What one run holds at its peak: the snapshot and the output, alive together, measured after a full GC.
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const depth = env.BENCH_DEPTH as AgentDepth;
const asOf = env.BENCH_AS_OF as string;
gc();
const heapBefore = process.memoryUsage().heapUsed;
const snapshot = await loadPortfolio(
  db.knex,
  {
    tenantId,
    currency: 'USD',
    projectId: null,
    asOf,
    depth,
    reads: agentDefinition(env.BENCH_AGENT as AgentId).reads,
    horizon: { from: asOf, to: addDays(asOf, horizonDays(depth) - 1), days: horizonDays(depth) },
    reports: depth === 'deep' ? statusReportHistory : undefined,
  },
  async () => undefined,
);
const analysed = analyse(env.BENCH_AGENT as AgentId, snapshot);
gc();
const retained = process.memoryUsage().heapUsed - heapBefore;
if (snapshot.projects.length < 0 || analysed.findings.length < 0) throw new Error('unreachable: keeps both alive');
process.stdout.write(
  `${JSON.stringify({
    coldMs: times[0],
    warmMs: median(times.slice(1).length ? times.slice(1) : times),
    baselineMs: median(baseline),
    retainedMb: retained / 2 ** 20,
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / 2 ** 20,
    findings: output?.findings.length ?? 0,
    citations: output?.citations.length ?? 0,
    outputKb: Buffer.byteLength(JSON.stringify(output)) / 1024,
  })}\n`,
);
await db.close();
