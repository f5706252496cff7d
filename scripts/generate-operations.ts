/**
 * The one generator of the operation table (scripts/operation-table.ts), writing the same table into each tree that
 * needs it:
 *
 * - `--server <file>` (`generated/operations.ts`): the table alone. The server's handler map is keyed by it, and the
 *   dispatcher reads each operation's scope, header parameters and default page size from it (server/http/dispatch.ts,
 *   server/http/pagination.ts) instead of walking the YAML at boot.
 * - `--sdk <dir>` (`sdk-ts/src/generated/`): `operations.ts` (the same table; the SDK package carries its own copy,
 *   so it stands alone when packed), `resources.ts` (the resource tree, scripts/sdk-ts-resources.ts, named by
 *   scripts/sdk-tree.ts), `models.ts` (a type alias per component schema), `webhooks.ts` (the event payloads of the
 *   `webhooks` section) and `version.ts` (the SDK's version, from the spec's `info`).
 *
 * Nothing here knows an operation by name: a new operation in the spec reaches both by `npm run generate`. Output
 * depends only on the spec's content, in the spec's order, so it is deterministic (`npm run check:generated`).
 *
 * Usage: tsx scripts/generate-operations.ts <spec.yaml> [--server <file>] [--sdk <dir>]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { apiOnly, quote, readOperations, renderOperationTable, type Spec } from './operation-table.js';
import { sdkTree, sdkVersion } from './sdk-tree.js';
import { doc, renderResources } from './sdk-ts-resources.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const banner = (what: string) => `/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts (${what}).
 * Do not make direct changes to the file: edit the spec and run \`npm run generate\`.
 */
`;

/** `sdk-ts/src/generated/operations.ts`: the table, which the client's request path reads. */
function sdkOperations(table: string): string {
  return `${banner('operation table')}\n${table}`;
}

/** `sdk-ts/src/generated/version.ts`: the SDK's version, derived from the spec's `info`. */
function sdkVersionFile(spec: Spec): string {
  return `${banner('version')}
/** The SDK's version: the spec's \`info.version\` and pre-release (sent in \`User-Agent\` and \`X-Meridian-Client\`). */
export const VERSION = ${quote(sdkVersion(spec).npm)};
`;
}

/** `sdk-ts/src/generated/models.ts`: a type alias per component schema whose name is an identifier. */
function sdkModels(spec: Spec): string {
  const lines = Object.keys(spec.components?.schemas ?? {})
    .filter((name) => IDENTIFIER.test(name)) // others are reachable through `components['schemas'][name]` only
    .map((name) => `export type ${name} = components['schemas'][${quote(name)}];`);
  return `${banner('models')}
import type { components } from './schema.js';

${lines.join('\n')}
`;
}

/** `sdk-ts/src/generated/webhooks.ts`: the payload of each webhook event of the spec. */
function sdkWebhooks(spec: Spec): string {
  const lines: string[] = [];
  for (const [name, item] of Object.entries(spec.webhooks ?? {})) {
    const op = item.post;
    if (!op?.requestBody) continue;
    const docLines = [
      op.summary ?? name,
      ...(op.description ? ['', ...op.description.trimEnd().split('\n')] : []),
    ];
    lines.push(
      doc(docLines, '  '),
      `  ${quote(name)}: NonNullable<webhooks[${quote(name)}]['post']['requestBody']>['content']['application/json'];`,
    );
  }
  return `${banner('webhook events')}
import type { webhooks } from './schema.js';

/** The payload of each webhook event of the spec, keyed by its \`event\` name. */
export interface WebhookEventMap {
${lines.join('\n')}
}

/** The name of a webhook event, e.g. \`'risk.created'\`. */
export type WebhookEventName = keyof WebhookEventMap;

/** Any webhook event payload: a union discriminated by \`event\`. */
export type WebhookEvent = WebhookEventMap[WebhookEventName];
`;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { server: { type: 'string' }, sdk: { type: 'string' } },
});
const [specFile] = positionals;
if (!specFile || (!values.server && !values.sdk)) {
  throw new Error('usage: generate-operations.ts <spec.yaml> [--server <file>] [--sdk <dir>]');
}
const spec = YAML.parse(fs.readFileSync(specFile, 'utf8')) as Spec;
const rows = readOperations(spec);
const table = renderOperationTable(rows);
if (values.server) {
  fs.mkdirSync(path.dirname(values.server), { recursive: true });
  fs.writeFileSync(values.server, `${banner('operation table')}\n${table}`);
}
if (values.sdk) {
  fs.mkdirSync(values.sdk, { recursive: true });
  fs.writeFileSync(path.join(values.sdk, 'operations.ts'), sdkOperations(table));
  fs.writeFileSync(
    path.join(values.sdk, 'resources.ts'),
    renderResources(spec, rows, sdkTree(spec, rows), banner('resource tree')),
  );
  fs.writeFileSync(path.join(values.sdk, 'version.ts'), sdkVersionFile(spec));
  // Models of the API's schemas only: none of the console's sign-in (scripts/operation-table.ts, apiOnly).
  fs.writeFileSync(path.join(values.sdk, 'models.ts'), sdkModels(apiOnly(spec)));
  fs.writeFileSync(path.join(values.sdk, 'webhooks.ts'), sdkWebhooks(spec));
}
