/**
 * The Ask agent's part of the agents benchmark (`npm run bench -- agents`): latency of `POST /v1/agents/ask` over
 * every question of the golden set (eval/golden/) on the eval's world (the NYC demo, the fixture and its twin;
 * eval/harness.ts), measured end to end over HTTP on 127.0.0.1, against a baseline measured in the same run: `GET
 * /v1/projects/{id}` of one project (authentication, validation and one indexed read — the floor any request pays).
 * The target is Ask p95 ≤ 50 ms. Responses are not validated against the spec (production's setting). Reports
 * p50/p95/max in ms and each p50 as a multiple of the baseline's; nothing is asserted. `DATABASE_URL=postgres://…`
 * runs it on Postgres (a throwaway schema).
 */
import { startEvalWorld } from '../eval/harness.js';
import { loadGolden } from '../eval/score.js';
import { percentile } from './stats.js';

async function timed(send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await send();
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`bench request failed: ${res.status}`);
  return ms;
}

function row(subject: string, samples: number[], baselineP50: number): Record<string, string | number> {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  return {
    subject,
    requests: samples.length,
    'p50 ms': p50.toFixed(2),
    'p95 ms': percentile(sorted, 95).toFixed(2),
    'max ms': (sorted[sorted.length - 1] ?? Number.NaN).toFixed(2),
    'p50 / baseline p50': (p50 / baselineP50).toFixed(1),
  };
}

/** Ask p50/p95 over the golden set, `rounds` times each question (after one warm-up round), and the baseline. */
export async function benchAsk(rounds = 5): Promise<Record<string, string | number>[]> {
  // Responses are not validated against the spec here, as in production (the eval validates them).
  const world = await startEvalWorld({ databaseUrl: process.env.DATABASE_URL, validateResponses: false });
  try {
    const golden = loadGolden();
    const projectIds = new Map<string, string>();
    for (const q of golden.filter((g) => g.project)) {
      const tenant = world.tenants[q.tenant];
      const row = (await world.db
        .knex('projects')
        .where({ tenant_id: tenant.id, name: q.project })
        .first('id')) as { id: string };
      projectIds.set(q.id, row.id);
    }
    const ask = (q: (typeof golden)[number]) => () =>
      fetch(`${world.baseUrl}/agents/ask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${world.tenants[q.tenant].readKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ question: q.question, ...(q.project ? { projectId: projectIds.get(q.id) } : {}) }),
      });
    const nyc = world.tenants.nyc;
    const one = (await world.db.knex('projects').where({ tenant_id: nyc.id }).orderBy('id').first('id')) as {
      id: string;
    };
    const get = () =>
      fetch(`${world.baseUrl}/projects/${one.id}`, { headers: { authorization: `Bearer ${nyc.readKey}` } });

    for (const q of golden) await timed(ask(q));
    for (let i = 0; i < 50; i++) await timed(get);
    const all: number[] = [];
    const byTenant: Record<string, number[]> = { nyc: [], fixture: [], twin: [] };
    const baseline: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of golden) {
        const ms = await timed(ask(q));
        all.push(ms);
        byTenant[q.tenant]?.push(ms);
        baseline.push(await timed(get));
      }
    }
    const base = percentile(
      [...baseline].sort((a, b) => a - b),
      50,
    );
    return [
      row('GET /v1/projects/{id} (baseline)', baseline, base),
      row(`Ask, golden set (${golden.length} questions × ${rounds})`, all, base),
      row('Ask, NYC demo questions (355 projects)', byTenant.nyc ?? [], base),
      row('Ask, fixture and twin questions', [...(byTenant.fixture ?? []), ...(byTenant.twin ?? [])], base),
    ];
  } finally {
    await world.close();
  }
}
