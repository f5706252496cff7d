/**
 * Keeps the TypeScript SDK's package version equal to the version derived from the spec (scripts/sdk-tree.ts,
 * `sdkVersion`: `info.version` plus `info.x-sdk.prerelease`). npm needs the version written in `sdk-ts/package.json`
 * (and the workspace's entry in `package-lock.json`), which are not generated trees: `--write` sets both,
 * `--check` fails when they differ. The Python SDK reads its version from its generated tree.
 *
 * Usage: tsx scripts/sdk-version.ts <spec.yaml> --write|--check
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { sdkVersion } from './sdk-tree.js';

const [specFile, mode] = process.argv.slice(2);
if (!specFile || (mode !== '--write' && mode !== '--check')) {
  throw new Error('usage: sdk-version.ts <spec.yaml> --write|--check');
}
const root = path.resolve(import.meta.dirname, '..');
const want = sdkVersion(YAML.parse(fs.readFileSync(specFile, 'utf8'))).npm;
// Each file's version field, found by the text around it: rewriting the JSON would reformat the hand-written file.
const files: Record<string, RegExp> = {
  'sdk-ts/package.json': /^(\{\s*"name": "@meridian\/sdk",\s*"version": ")([^"]*)(")/,
  'package-lock.json': /("sdk-ts": \{\s*"name": "@meridian\/sdk",\s*"version": ")([^"]*)(")/,
};
const stale: string[] = [];
for (const [file, field] of Object.entries(files)) {
  const full = path.join(root, file);
  const text = fs.readFileSync(full, 'utf8');
  const found = field.exec(text);
  if (!found) throw new Error(`${file}: no version field of the sdk-ts workspace`);
  if (found[2] === want) continue;
  if (mode === '--check') stale.push(`${file} has ${found[2]}`);
  else fs.writeFileSync(full, text.replace(field, `$1${want}$3`));
}
if (stale.length) {
  console.error(
    `the SDK version derived from the spec is ${want}, but ${stale.join(', ')}: run 'npm run generate'`,
  );
  process.exit(1);
}
