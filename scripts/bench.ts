/**
 * `npm run bench`: every benchmark in bench/, each reporting its subject against a baseline measured in the same
 * run (ratios, not absolute times, are what compare across machines). Prints tables; asserts nothing.
 *
 * `npm run bench -- <suite> [options]` runs one suite: `conflicts`, `delivery`, `http` or `agents` (options of the HTTP
 * benchmark are described in bench/http.bench.ts). DATABASE_URL=postgres://… runs the delivery benchmark on
 * Postgres (in a throwaway schema).
 */
import { benchAgents } from '../bench/agents.bench.js';
import { benchAsk } from '../bench/ask.bench.js';
import { benchConflicts } from '../bench/conflicts.bench.js';
import { benchDelivery } from '../bench/delivery.bench.js';
import { benchHttp } from '../bench/http.bench.js';

const [only, ...options] = process.argv.slice(2);
const suites: [string, string, () => Promise<Record<string, string | number>[]>][] = [
  ['conflicts', 'allocation conflicts: sweep vs day-by-day scan', benchConflicts],
  [
    'delivery',
    'webhook delivery latency: outbox → worker → receiver vs a direct POST',
    () => benchDelivery(500),
  ],
  [
    'http',
    'HTTP: Meridian vs bare Express 5 (same bytes, same routes, alternating)',
    () => benchHttp(options),
  ],
  [
    'agents',
    'agents: every agent at each depth, NYC demo and 10,000 synthetic projects, vs reading the projects once',
    benchAgents,
  ],
  ['agents', 'agents: Ask latency over the golden set vs GET /v1/projects/{id}', () => benchAsk(5)],
];

for (const [, title, run] of suites.filter(([name, t]) => !only || name === only || t.includes(only))) {
  console.log(`\n${title}`);
  console.table(await run());
}
