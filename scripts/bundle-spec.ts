/**
 * Bundles the hand-written, multi-file contract (`spec/openapi.yaml` and the files it references under `spec/paths/`,
 * `spec/webhooks/` and `spec/components/`) into one document, `generated/openapi.yaml`, which everything downstream
 * reads: the server (validation, `/v1/openapi.json|yaml`), openapi-typescript, the operation table, both SDK
 * generators and schemathesis (docs/design.md, Shape of the system).
 *
 * Redocly's bundler resolves each file reference into `#/components/<section>/<file name>`; this script then sorts
 * every components section by name, so adding a reference never reorders the output, and writes multi-line
 * descriptions as literal blocks without folding, so the served YAML reads like the source.
 *
 * Usage: `tsx scripts/bundle-spec.ts <out-file>` (scripts/generate.sh passes `<out-root>/generated/openapi.yaml`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

const out = process.argv[2];
if (!out) throw new Error('usage: tsx scripts/bundle-spec.ts <out-file>');
const root = path.resolve(import.meta.dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bundle-'));
try {
  const json = path.join(tmp, 'openapi.json');
  execFileSync(
    path.join(root, 'node_modules/.bin/redocly'),
    ['bundle', path.join(root, 'spec/openapi.yaml'), '--ext', 'json', '--output', json],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const document = JSON.parse(fs.readFileSync(json, 'utf8')) as {
    components?: Record<string, Record<string, unknown>>;
  };
  const components = document.components ?? {};
  for (const [section, entries] of Object.entries(components)) {
    const sorted = Object.keys(entries).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    components[section] = Object.fromEntries(sorted.map((name) => [name, entries[name]]));
  }
  const banner =
    '# Generated from spec/openapi.yaml and the files it references by scripts/bundle-spec.ts.\n' +
    '# Do not edit: change the files under spec/ and run `npm run generate`.\n';
  const yaml = YAML.stringify(document, {
    lineWidth: 0,
    blockQuote: 'literal',
    aliasDuplicateObjects: false,
  });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, banner + yaml);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
