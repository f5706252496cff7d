/**
 * Emits the SDK's operation layer from an OpenAPI document: `operations.ts` (the runtime table and the typed
 * `OperationMethods` interface that `Meridian` implements, one method per operationId of `paths`), `models.ts` (a
 * type alias per component schema) and `webhooks.ts` (the event payloads of the `webhooks` section).
 *
 * Nothing here knows an operation by name: a new operation in the spec becomes `client.<operationId>()` on the next
 * `npm run generate`. Output depends only on the spec's content, in the spec's order, so it is deterministic.
 *
 * Usage: tsx sdk-ts/scripts/generate-operations.ts <spec.yaml> <out-dir>
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Names the flattened params object reserves for itself; a path or query parameter may not use them. */
const RESERVED = new Set(['body', 'headers']);

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  $ref?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, unknown> };
  'x-required-scope'?: string;
}
type PathItem = Partial<Record<(typeof METHODS)[number], Operation>> & { parameters?: Parameter[] };
interface Spec {
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: {
    schemas?: Record<string, unknown>;
    parameters?: Record<string, Parameter>;
    requestBodies?: Record<string, Operation['requestBody']>;
  };
}

const [specFile, outDir] = process.argv.slice(2);
if (!specFile || !outDir) throw new Error('usage: generate-operations.ts <spec.yaml> <out-dir>');
const spec = YAML.parse(fs.readFileSync(specFile, 'utf8')) as Spec;

/** Follows a local `#/components/<kind>/<name>` reference. */
function deref<T extends { $ref?: string }>(value: T, kind: 'parameters' | 'requestBodies'): T {
  if (!value.$ref) return value;
  const prefix = `#/components/${kind}/`;
  if (!value.$ref.startsWith(prefix)) throw new Error(`unsupported $ref ${value.$ref}`);
  const target = (spec.components?.[kind] as Record<string, T> | undefined)?.[
    value.$ref.slice(prefix.length)
  ];
  if (!target) throw new Error(`unresolved $ref ${value.$ref}`);
  return deref(target, kind);
}

/** Escapes text for a TSDoc block and prefixes each line. */
function doc(lines: string[], indent: string): string {
  const body = lines
    .join('\n')
    .replaceAll('*/', '*\\/')
    .split('\n')
    .map((l) => `${indent} *${l ? ` ${l}` : ''}`.trimEnd());
  return `${indent}/**\n${body.join('\n')}\n${indent} */`;
}

const quote = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const list = (xs: string[]) => `[${xs.map(quote).join(', ')}]`;

const banner = (what: string) => `/**
 * This file was generated from spec/openapi.yaml by sdk-ts/scripts/generate-operations.ts (${what}).
 * Do not make direct changes to the file: edit the spec and run \`npm run generate\`.
 */
`;

// ---------------------------------------------------------------- operations
const tableLines: string[] = [];
const methodLines: string[] = [];
const seen = new Set<string>();
for (const [route, item] of Object.entries(spec.paths ?? {})) {
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    const id = op.operationId;
    if (!id || !IDENTIFIER.test(id))
      throw new Error(`${method.toUpperCase()} ${route}: missing or invalid operationId`);
    if (seen.has(id)) throw new Error(`duplicate operationId ${id}`);
    seen.add(id);

    // Operation-level parameters override path-level ones of the same name and location.
    const params = new Map<string, Parameter>();
    for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
      const resolved = deref(p, 'parameters');
      params.set(`${resolved.in}:${resolved.name}`, resolved);
    }
    const byIn = (where: Parameter['in']) => [...params.values()].filter((p) => p.in === where);
    const pathParams = byIn('path');
    const queryParams = byIn('query');
    const headerParams = byIn('header');
    const flat = [...pathParams, ...queryParams].map((p) => p.name);
    for (const name of flat) {
      if (RESERVED.has(name)) throw new Error(`${id}: parameter name "${name}" is reserved by the SDK`);
    }
    if (new Set(flat).size !== flat.length)
      throw new Error(`${id}: a path and a query parameter share a name`);

    const body = op.requestBody ? deref(op.requestBody, 'requestBodies') : undefined;
    const paginated =
      queryParams.some((p) => p.name === 'limit') && queryParams.some((p) => p.name === 'offset');
    const required =
      pathParams.length > 0 ||
      queryParams.some((p) => p.required) ||
      headerParams.some((p) => p.required) ||
      body?.required === true;

    tableLines.push(
      `  ${id}: { method: '${method.toUpperCase()}', path: ${quote(route)}, pathParams: ${list(pathParams.map((p) => p.name))}, ` +
        `queryParams: ${list(queryParams.map((p) => p.name))}, hasBody: ${body !== undefined}, paginated: ${paginated} },`,
    );

    const docLines: string[] = [];
    if (op.summary) docLines.push(op.summary, '');
    if (op.description) docLines.push(...op.description.trimEnd().split('\n'), '');
    docLines.push(`HTTP: \`${method.toUpperCase()} ${route}\`.`);
    if (paginated) docLines.push(`Iterate over every page with \`client.paginate('${id}', params)\`.`);
    docLines.push(
      '',
      '@param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for',
      '  the header parameters of the spec.',
      '@param options - Per-request overrides (timeout, retries, signal, extra headers).',
      '@returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw',
      '  `Response`.',
      '@throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,',
      '  {@link APIConnectionError} or {@link TimeoutError} when no response arrives.',
    );
    methodLines.push(
      doc(docLines, '  '),
      `  ${id}(params${required ? '' : '?'}: OperationParams<'${id}'>, options?: RequestOptions): Promise<APIResult<OperationData<'${id}'>>>;`,
    );
  }
}

const operationsTs = `${banner('operations')}
import type { APIError, APIConnectionError, TimeoutError } from '../lib/errors.js';
import type { APIResult, OperationData, OperationParams, RequestOptions } from '../lib/types.js';

/** Runtime description of one operation: what the client needs to build the request. */
export interface OperationSpec {
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';
  /** Path template relative to the base URL (which ends in \`/v1\`). */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly hasBody: boolean;
  /** Takes \`limit\` and \`offset\`: usable with \`client.paginate()\`. */
  readonly paginated: boolean;
}

/** Every operation of the spec's \`paths\`, keyed by operationId, in the spec's order. */
export const operationTable = {
${tableLines.join('\n')}
} as const satisfies Record<string, OperationSpec>;

/** An operationId of the API. */
export type OperationId = keyof typeof operationTable;

/**
 * One typed method per operation of the API, named after its operationId. \`Meridian\` implements this interface
 * from \`operationTable\` at run time, so there is no hand-written list of operations to keep in step with the spec.
 *
 * (Referenced for TSDoc links: {@link APIError}, {@link APIConnectionError}, {@link TimeoutError}.)
 */
export interface OperationMethods {
${methodLines.join('\n')}
}
`;

// ---------------------------------------------------------------- models
const modelLines: string[] = [];
for (const name of Object.keys(spec.components?.schemas ?? {})) {
  if (!IDENTIFIER.test(name)) continue; // reachable through \`components['schemas'][name]\` only
  modelLines.push(`export type ${name} = components['schemas'][${quote(name)}];`);
}
const modelsTs = `${banner('models')}
import type { components } from './schema.js';

${modelLines.join('\n')}
`;

// ---------------------------------------------------------------- webhooks
const eventLines: string[] = [];
for (const [name, item] of Object.entries(spec.webhooks ?? {})) {
  const op = item.post;
  if (!op?.requestBody) continue;
  const docLines = [
    op.summary ?? name,
    ...(op.description ? ['', ...op.description.trimEnd().split('\n')] : []),
  ];
  eventLines.push(
    doc(docLines, '  '),
    `  ${quote(name)}: NonNullable<webhooks[${quote(name)}]['post']['requestBody']>['content']['application/json'];`,
  );
}
const webhooksTs = `${banner('webhook events')}
import type { webhooks } from './schema.js';

/** The payload of each webhook event of the spec, keyed by its \`event\` name. */
export interface WebhookEventMap {
${eventLines.join('\n')}
}

/** The name of a webhook event, e.g. \`'risk.created'\`. */
export type WebhookEventName = keyof WebhookEventMap;

/** Any webhook event payload: a union discriminated by \`event\`. */
export type WebhookEvent = WebhookEventMap[WebhookEventName];
`;

fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'operations.ts'), operationsTs);
fs.writeFileSync(path.join(outDir, 'models.ts'), modelsTs);
fs.writeFileSync(path.join(outDir, 'webhooks.ts'), webhooksTs);
