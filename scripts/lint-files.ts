/**
 * What the repository's own checkers (scripts/check-comments.ts, scripts/check-file-length.ts) read: the files git
 * tracks that people write, and the allowlist of known offenders (scripts/lint-baseline.txt).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The repository root (this file lives in `scripts/`). */
export const ROOT = path.resolve(import.meta.dirname, '..');

/** The trees `npm run generate` writes (scripts/generated-trees.txt): never hand-written, never checked. */
export function generatedTrees(): string[] {
  return fs
    .readFileSync(path.join(ROOT, 'scripts/generated-trees.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * Every file git tracks (and every untracked file it does not ignore, so a new file is checked before its first
 * commit), relative to the root with `/` separators, minus the generated trees. Deleted files are left out.
 */
export function handWrittenFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const generated = generatedTrees().map((tree) => `${tree.replace(/\/$/, '')}/`);
  const files = new Set(out.split('\0').filter((f) => f !== ''));
  return [...files]
    .filter((f) => !generated.some((tree) => f.startsWith(tree)))
    .filter((f) => fs.existsSync(path.join(ROOT, f)))
    .sort();
}

/** One line of scripts/lint-baseline.txt: a known offender of one check, with the reason it is tolerated. */
export interface BaselineEntry {
  check: string;
  path: string;
  reason: string;
  line: number;
}

/** The file listing the known offenders. */
export const BASELINE_FILE = 'scripts/lint-baseline.txt';

/**
 * Reads the known offenders of `check` from scripts/lint-baseline.txt: lines `check path reason…` (`#` starts a
 * comment line). A line without a reason is an error, so every exception says why it exists.
 * @throws Error naming the line that lacks a reason.
 */
export function readBaseline(check: string): Map<string, BaselineEntry> {
  const file = path.join(ROOT, BASELINE_FILE);
  const entries = new Map<string, BaselineEntry>();
  if (!fs.existsSync(file)) return entries;
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      const [kind, file, ...reason] = line.split(/\s+/);
      if (kind !== check || !file) return;
      if (reason.length === 0) throw new Error(`${BASELINE_FILE}:${index + 1}: ${file} needs a reason`);
      entries.set(file, { check: kind, path: file, reason: reason.join(' '), line: index + 1 });
    });
  return entries;
}

/**
 * Reports offences against the baseline and returns the process exit code: 1 when a file offends without being
 * listed, or when a listed file no longer offends (the list may only shrink, so a mended file leaves it).
 */
export function settle(check: string, offenders: Map<string, string[]>, fix: string): number {
  const baseline = readBaseline(check);
  let failed = false;
  for (const [file, messages] of offenders) {
    if (baseline.has(file)) continue;
    for (const message of messages) console.error(message);
    failed = true;
  }
  for (const entry of baseline.values()) {
    if (offenders.has(entry.path)) continue;
    console.error(
      `${BASELINE_FILE}:${entry.line}: ${entry.path} no longer fails "${check}" (or is gone): remove its line`,
    );
    failed = true;
  }
  const tolerated = [...baseline.keys()].filter((f) => offenders.has(f)).length;
  if (failed) {
    console.error(`${check}: failed. ${fix}`);
    return 1;
  }
  console.log(`${check}: ok${tolerated > 0 ? ` (${tolerated} known offenders in ${BASELINE_FILE})` : ''}`);
  return 0;
}
