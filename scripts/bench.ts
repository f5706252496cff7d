/**
 * `npm run bench`: every benchmark in bench/, each reporting its subject against a baseline measured in the same
 * run (ratios, not absolute times, are what compare across machines). Prints tables; asserts nothing.
 * DATABASE_URL=postgres://… runs the delivery benchmark on Postgres (in a throwaway schema).
 */
import { benchConflicts } from '../bench/conflicts.bench.js';
import { benchDelivery } from '../bench/delivery.bench.js';

const suites: [string, () => Promise<Record<string, string | number>[]>][] = [
  ['allocation conflicts: sweep vs day-by-day scan', benchConflicts],
  ['webhook delivery latency: outbox → worker → receiver vs a direct POST', () => benchDelivery(500)],
];
// `npm run bench -- delivery` runs only the suites whose title contains the word.
const only = process.argv[2];

for (const [title, run] of suites.filter(([t]) => !only || t.includes(only))) {
  console.log(`\n${title}`);
  console.table(await run());
}
