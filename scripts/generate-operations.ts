/**
 * Emits `generated/operations.ts`: one entry per operation of spec/openapi.yaml's `paths` (webhook payloads
 * excluded) with its method, path template, tag and required scope. The server's handler map is keyed by it and
 * the SDKs build their method tables from it. Usage: tsx scripts/generate-operations.ts <out-file>
 */
import fs from 'node:fs';
import YAML from 'yaml';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const out = process.argv[2];
if (!out) throw new Error('usage: generate-operations.ts <out-file>');
const spec = YAML.parse(fs.readFileSync('spec/openapi.yaml', 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; tags?: string[]; 'x-required-scope': string }>>;
};
const lines: string[] = [];
for (const [path, item] of Object.entries(spec.paths)) {
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    lines.push(
      `  ${op.operationId}: { method: '${method.toUpperCase()}', path: '${path}', tag: '${op.tags?.[0] ?? ''}', scope: '${op['x-required-scope']}' },`,
    );
  }
}
const text = `/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts.
 * Do not make direct changes to the file: edit the spec and run \`npm run generate\`.
 */

/** Every operation of the API: HTTP method, path template (relative to /v1), tag and required scope. */
export const operationTable = {
${lines.join('\n')}
} as const;

/** An operationId of the API. */
export type OperationId = keyof typeof operationTable;
`;
fs.writeFileSync(out, text);
