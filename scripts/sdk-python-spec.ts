/**
 * Prepares the bundled contract for the Python SDK's one generation step (scripts/generate-sdk-python.sh):
 *
 * - `<dir>/spec.json`, for sdk-python/scripts/generate_operations.py: the whole document, with every operation's
 *   place in the resource tree written into its `x-sdk` as `{ resource, method, pathArgs }` (scripts/sdk-tree.ts, the
 *   derivation the TypeScript SDK uses too, so the two trees cannot disagree) and the SDK version in
 *   `info.x-sdk.version`;
 * - `<dir>/openapi.json`, for openapi-generator (models only): without `webhooks` (payloads we send, not operations;
 *   their schemas stay in components), with a one-line `info.description` (the user guide would be copied into every
 *   model file's header), and with each enum that `x-sdk: { enum: Other }` types as another enum's kinds turned into a
 *   plain string, so the models carry one enum of those kinds; and with `x-enum-varnames` (openapi-generator's member
 *   names) on enums of words joined by dots or hyphens, so members read `WebhookEventType.RISK_CREATED` and
 *   `AgentId.PORTFOLIO_HEALTH`, never `RISK_DOT_CREATED`.
 *
 * Usage: tsx scripts/sdk-python-spec.ts <bundled spec.yaml> <dir>
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { apiOnly, type METHODS, readOperations, type Spec } from './operation-table.js';
import { pathArgNames, sdkTree, sdkVersion } from './sdk-tree.js';

const [specFile, dir] = process.argv.slice(2);
if (!specFile || !dir) throw new Error('usage: sdk-python-spec.ts <spec.yaml> <dir>');
const spec = YAML.parse(fs.readFileSync(specFile, 'utf8')) as Spec & {
  info: Record<string, unknown> & { 'x-sdk'?: Record<string, unknown> };
  webhooks?: unknown;
  components: { schemas: Record<string, Record<string, unknown>> };
};

// Paths outside the API (the console's `/auth/*`) are no SDK operations: left out, with the schemas only they use.
Object.assign(spec, apiOnly(spec));

const rows = readOperations(spec);
const tree = sdkTree(spec, rows);
for (const row of rows) {
  const op = spec.paths?.[row.path]?.[row.method.toLowerCase() as (typeof METHODS)[number]] as Record<
    string,
    unknown
  >;
  const name = tree.get(row.operationId);
  op['x-sdk'] = { resource: name?.resource, method: name?.method, pathArgs: pathArgNames(row.path) };
}
spec.info['x-sdk'] = { ...spec.info['x-sdk'], version: sdkVersion(spec) };
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec, null, 2));

const forModels = structuredClone(spec);
delete forModels.webhooks;
forModels.info.description =
  'Meridian project and portfolio management API. The user guide is the description of the served document, GET /v1/openapi.json, rendered at GET /docs.';
const dotted = /^[A-Za-z][A-Za-z0-9_]*([.-][A-Za-z0-9_]+)*$/;
for (const [name, schema] of Object.entries(forModels.components.schemas)) {
  const other = (schema['x-sdk'] as { enum?: string } | undefined)?.enum;
  if (other) {
    if (!forModels.components.schemas[other]) throw new Error(`${name}: x-sdk.enum names no schema ${other}`);
    forModels.components.schemas[name] = { type: 'string', description: schema.description };
    continue;
  }
  // Member names of enums of words joined by dots or hyphens (`risk.created`, `portfolio-health`): RISK_CREATED,
  // PORTFOLIO_HEALTH. Other enums (e.g. a sort's `-createdAt`, MINUS_CREATED_AT) keep the generator's names.
  const values = schema.enum as unknown[] | undefined;
  if (
    values?.some((v) => typeof v === 'string' && /[.-]/.test(v)) &&
    values.every((v) => dotted.test(`${v}`))
  ) {
    schema['x-enum-varnames'] = values.map((v) => `${v}`.replace(/[.-]+/g, '_').toUpperCase());
  }
}
fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(forModels, null, 2));
