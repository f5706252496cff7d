/**
 * `npm run lint:length`: no hand-written file is longer than 400 lines (code, tests, scripts, data written by hand
 * and Markdown alike); a longer one does several jobs and is split by responsibility. Prints `file:lines: message`
 * for each offender and exits 1, unless the file is a known offender listed in scripts/lint-baseline.txt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { handWrittenFiles, ROOT, settle } from './lint-files.ts';

/** The longest a hand-written file may be, in lines. */
export const MAX_LINES = 400;

/**
 * Files that are written by tools or hold data rather than code, so their length says nothing about design:
 * - package-lock.json: npm's lock file.
 * - datasets/: the NYC capital projects CSV and its provenance (datasets/README.md), real input kept as it came.
 * - bench/results/*.json: measurements the benchmark writes.
 */
const NOT_HAND_WRITTEN: RegExp[] = [/^package-lock\.json$/, /^datasets\//, /^bench\/results\/[^/]+\.json$/];

/** The number of lines of a text file, as `wc -l` counts them (a last line without a newline counts too). */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

const offenders = new Map<string, string[]>();
for (const file of handWrittenFiles()) {
  if (NOT_HAND_WRITTEN.some((pattern) => pattern.test(file))) continue;
  const bytes = fs.readFileSync(path.join(ROOT, file));
  if (bytes.includes(0)) continue; // binary (an image, an archive): not lines of text
  const lines = lineCount(bytes.toString('utf8'));
  if (lines > MAX_LINES) offenders.set(file, [`${file}:${lines}: ${lines} lines, more than ${MAX_LINES}`]);
}

process.exitCode = settle(
  'length',
  offenders,
  `Split each file above by responsibility (one job per file), or, for a file written by a tool, list it in scripts/check-file-length.ts with the reason.`,
);
