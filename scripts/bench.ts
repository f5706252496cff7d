/**
 * `npm run bench`: every benchmark in bench/, each reporting its subject against a baseline measured in the same
 * run (ratios, not absolute times, are what compare across machines). Prints tables; asserts nothing.
 */
import { benchConflicts } from '../bench/conflicts.bench.js';

const suites: [string, () => Promise<Record<string, string | number>[]>][] = [
  ['allocation conflicts: sweep vs day-by-day scan', benchConflicts],
];

for (const [title, run] of suites) {
  console.log(`\n${title}`);
  console.table(await run());
}
