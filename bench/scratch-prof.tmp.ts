import fs from 'node:fs';
import { systemClock } from '../server/clock.js';
import { loadConfig } from '../server/config.js';
import { migrate, openDatabase } from '../server/repositories/db.js';
import { buildServices } from '../server/services/index.js';
import { AGENTS } from '../server/services/agents/catalogue.js';
import { analyse, horizonDays } from '../server/services/agents/index.js';
import { loadPortfolio } from '../server/services/agents/portfolio.js';
import { addDays } from '../server/services/agents/analyses/shared.js';
import { seedAgentsTenant } from './seed-agents.js';
const file = '/tmp/agents-scratch/prof.sqlite';
const fresh = !fs.existsSync(file);
const db = openDatabase({ databaseUrl: null, sqliteFile: file });
await migrate(db);
buildServices({ db, clock: systemClock }, loadConfig({ NODE_ENV: 'test' }));
const asOf = '2026-11-22';
let tenantId = (await db.knex('tenants').first('id'))?.id;
if (fresh || !tenantId) tenantId = (await seedAgentsTenant(db.knex, 10_000, asOf)).tenantId;
for (const agent of AGENTS) for (const depth of ['standard', 'deep'] as const) {
  const t0 = performance.now();
  const p = await loadPortfolio(db.knex, { tenantId, currency: 'USD', projectId: null, asOf, depth, reads: agent.reads, horizon: { from: asOf, to: addDays(asOf, horizonDays(depth) - 1), days: horizonDays(depth) } }, async () => {});
  const t1 = performance.now();
  const out = analyse(agent.id, p);
  const t2 = performance.now();
  JSON.stringify(out);
  console.log(agent.id.padEnd(18), depth.padEnd(8), 'load', Math.round(t1 - t0), 'analyse', Math.round(t2 - t1), 'json', Math.round(performance.now() - t2));
}
await db.close();
