/**
 * The one generator of the operation table (scripts/operation-table.ts), writing the same table into each tree that
 * needs it:
 *
 * - `--server <file>` (`generated/operations.ts`): the table alone. The server's handler map is keyed by it, and the
 *   dispatcher reads each operation's scope, header parameters and default page size from it (server/http/dispatch.ts,
 *   server/http/pagination.ts) instead of walking the YAML at boot.
 * - `--sdk <dir>` (`sdk-ts/src/generated/`): `operations.ts` (the same table, then the typed `OperationMethods`
 *   interface that `Meridian` implements, one documented method per operation), `models.ts` (a type alias per
 *   component schema) and `webhooks.ts` (the event payloads of the `webhooks` section). The SDK package carries its
 *   own copy, so it stands alone when packed.
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
import {
  type OperationRow,
  quote,
  readOperations,
  renderOperationTable,
  type Spec,
} from './operation-table.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const banner = (what: string) => `/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts (${what}).
 * Do not make direct changes to the file: edit the spec and run \`npm run generate\`.
 */
`;

/** Escapes text for a TSDoc block and prefixes each line. */
function doc(lines: string[], indent: string): string {
  const body = lines
    .join('\n')
    .replaceAll('*/', '*\\/')
    .split('\n')
    .map((l) => `${indent} *${l ? ` ${l}` : ''}`.trimEnd());
  return `${indent}/**\n${body.join('\n')}\n${indent} */`;
}

/** The SDK's method for one operation: the spec's summary and description, then how to call it. */
function methodOf(row: OperationRow): string {
  const { operationId: id } = row;
  const lines: string[] = [];
  if (row.summary) lines.push(row.summary, '');
  if (row.description) lines.push(...row.description.trimEnd().split('\n'), '');
  lines.push(`HTTP: \`${row.method} ${row.path}\`.`);
  if (row.paginated) lines.push(`Iterate over every page with \`client.paginate('${id}', params)\`.`);
  lines.push(
    '',
    '@param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for',
    '  the header parameters of the spec.',
    '@param options - Per-request overrides (timeout, retries, signal, extra headers).',
    '@returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw',
    '  `Response`.',
    '@throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,',
    '  {@link APIConnectionError} or {@link TimeoutError} when no response arrives.',
  );
  return `${doc(lines, '  ')}
  ${id}(params${row.paramsRequired ? '' : '?'}: OperationParams<'${id}'>, options?: RequestOptions): Promise<APIResult<OperationData<'${id}'>>>;`;
}

/** `sdk-ts/src/generated/operations.ts`: the table, then the client's typed methods. */
function sdkOperations(rows: OperationRow[], table: string): string {
  return `${banner('operations')}
import type { APIError, APIConnectionError, TimeoutError } from '../lib/errors.js';
import type { APIResult, OperationData, OperationParams, RequestOptions } from '../lib/types.js';

${table}
/**
 * One typed method per operation of the API, named after its operationId. \`Meridian\` implements this interface
 * from \`operationTable\` at run time, so there is no hand-written list of operations to keep in step with the spec.
 *
 * (Referenced for TSDoc links: {@link APIError}, {@link APIConnectionError}, {@link TimeoutError}.)
 */
export interface OperationMethods {
${rows.map(methodOf).join('\n')}
}
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
  fs.writeFileSync(path.join(values.sdk, 'operations.ts'), sdkOperations(rows, table));
  fs.writeFileSync(path.join(values.sdk, 'models.ts'), sdkModels(spec));
  fs.writeFileSync(path.join(values.sdk, 'webhooks.ts'), sdkWebhooks(spec));
}
