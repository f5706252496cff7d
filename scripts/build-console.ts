/**
 * Builds the settings console (console/ → console/dist, docs/console.md) when its build is missing or stale: the
 * build records a SHA-256 of its inputs (the console's sources and config, the SDK's sources, the lock file) in
 * `console/dist/.inputs-sha256`, and a later run with the same inputs does nothing. `npm start` runs it first
 * (`prestart`), and so do the end-to-end tests; `--force` always builds.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'console/src',
  'console/index.html',
  'console/vite.config.ts',
  'sdk-ts/src',
  'package-lock.json',
];
const stamp = path.join(root, 'console/dist/.inputs-sha256');

/** Every file below `p` (or `p` itself), sorted. */
function files(p: string): string[] {
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p)
    .sort()
    .flatMap((name) => files(path.join(p, name)));
}

/** SHA-256 over the inputs' paths and contents. */
function inputsHash(): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(path.join(root, input))) {
      hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

const want = inputsHash();
const have = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null;
if (have === want && !process.argv.includes('--force')) {
  process.stdout.write('console: build is up to date (console/dist)\n');
} else {
  process.stdout.write(
    `console: ${have === null ? 'no build yet' : 'sources changed'}; building with Vite…\n`,
  );
  execFileSync(
    'npx',
    ['--no-install', 'vite', 'build', '--config', 'console/vite.config.ts', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  writeFileSync(stamp, `${want}\n`);
  process.stdout.write('console: built into console/dist\n');
}
