/**
 * The one operation table of the API, read from an OpenAPI document: for every operation of `paths` (in the spec's
 * order; operations that are not the API's, see {@link unwrapped}, left out) its operationId, method, path template, parameters by location, body, pagination limits, tag and required
 * scope. `scripts/generate-operations.ts` renders it, with {@link renderOperationTable}, into both generated trees:
 * `generated/operations.ts` (the server: handler map keys, scope check, header parameters, default page size) and
 * `sdk-ts/src/generated/operations.ts` (the TypeScript client's resource tree, with scripts/sdk-tree.ts). The
 * Python SDK's generator reads the spec with the tree's names written into it (scripts/sdk-python-spec.ts).
 *
 * Every check of the spec's promises about operations (an operationId that is an identifier and unique, an
 * `x-required-scope` that is an `ApiKeyScope`, no parameter named like the SDK's own `body`/`headers`) happens here,
 * at generation time, so neither the server nor the client has to walk the YAML again.
 */

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Names the SDK's flattened params object reserves for itself; a path or query parameter may not use them. */
const RESERVED = new Set(['body', 'headers']);

/** A parameter object of the spec (after `$ref` resolution). */
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: { default?: unknown; maximum?: number };
  $ref?: string;
}

/** An operation object of the spec (the fields the generators read). */
export interface SpecOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, unknown> };
  'x-required-scope'?: string;
  /** `false`: not an operation of the API (see {@link unwrapped}); otherwise read by scripts/sdk-tree.ts. */
  'x-sdk'?: unknown;
}

/** A path item of the spec. */
export type PathItem = Partial<Record<(typeof METHODS)[number], SpecOperation>> & {
  parameters?: Parameter[];
  servers?: unknown[];
};

/**
 * Whether an operation is documented in the spec but is no operation of the API: it carries `x-sdk: false` (the
 * console's `/auth/*`, docs/accounts.md, served by their own router outside `/v1`). Neither the server's handler map
 * nor either SDK takes it.
 */
export function unwrapped(op: SpecOperation | undefined): boolean {
  return op?.['x-sdk'] === false;
}

/** The parts of an OpenAPI document the generators read. */
export interface Spec {
  info?: { version?: string; 'x-sdk'?: { prerelease?: string } };
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: {
    schemas?: Record<string, unknown>;
    parameters?: Record<string, Parameter>;
    requestBodies?: Record<string, SpecOperation['requestBody']>;
  };
}

/** Names of the component schemas `value` refers to, directly. */
function schemaRefs(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) schemaRefs(v, into);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/'))
        into.add(v.slice('#/components/schemas/'.length));
      else schemaRefs(v, into);
    }
  return into;
}

/**
 * The document without the operations that are not the API's ({@link unwrapped}; a path left with none goes too)
 * and without the schemas only they use: what the SDKs are generated from (no method, no model of the console's
 * sign-in).
 */
export function apiOnly<S extends Spec>(spec: S): S {
  const schemas = spec.components?.schemas ?? {};
  const reachable = (roots: Set<string>) => {
    const seen = new Set<string>();
    const todo = [...roots];
    for (let name = todo.pop(); name !== undefined; name = todo.pop()) {
      if (seen.has(name)) continue;
      seen.add(name);
      todo.push(...schemaRefs(schemas[name], new Set()));
    }
    return seen;
  };
  const paths: Record<string, PathItem> = {};
  const dropped: SpecOperation[] = [];
  for (const [route, item] of Object.entries(spec.paths ?? {})) {
    const kept: PathItem = { ...item };
    for (const method of METHODS)
      if (unwrapped(item[method])) {
        dropped.push(item[method] as SpecOperation);
        delete kept[method];
      }
    if (METHODS.some((method) => kept[method])) paths[route] = kept;
  }
  const rest = { ...spec, paths, components: { ...spec.components, schemas: {} } };
  const kept = reachable(schemaRefs(rest, new Set()));
  const unused = [...reachable(schemaRefs(dropped, new Set()))].filter((name) => !kept.has(name));
  const keptSchemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => !unused.includes(name)));
  return { ...spec, paths, components: { ...spec.components, schemas: keptSchemas } };
}

/** One row of the table, plus the operation's documentation and whether its params object is required. */
export interface OperationRow {
  operationId: string;
  method: Uppercase<(typeof METHODS)[number]>;
  path: string;
  pathParams: string[];
  queryParams: string[];
  headerParams: string[];
  hasBody: boolean;
  paginated: boolean;
  /** The `limit` parameter's default and maximum (list operations), else null. */
  limit: { default: number; maximum: number } | null;
  tag: string;
  scope: string;
  /** A path parameter, a required query or header parameter, or a required body: the SDK's params are required. */
  paramsRequired: boolean;
  /** A query parameter is required. */
  queryRequired: boolean;
  /** The request body is required. */
  bodyRequired: boolean;
  summary: string | undefined;
  description: string | undefined;
}

/** Follows a local `#/components/<kind>/<name>` reference. */
function deref<T extends { $ref?: string }>(spec: Spec, value: T, kind: 'parameters' | 'requestBodies'): T {
  if (!value.$ref) return value;
  const prefix = `#/components/${kind}/`;
  if (!value.$ref.startsWith(prefix)) throw new Error(`unsupported $ref ${value.$ref}`);
  const target = (spec.components?.[kind] as Record<string, T> | undefined)?.[
    value.$ref.slice(prefix.length)
  ];
  if (!target) throw new Error(`unresolved $ref ${value.$ref}`);
  return deref(spec, target, kind);
}

/** The scopes an operation may require: the spec's `ApiKeyScope` enum. */
function scopesOf(spec: Spec): Set<string> {
  const schema = spec.components?.schemas?.ApiKeyScope as { enum?: string[] } | undefined;
  if (!schema?.enum?.length) throw new Error('components.schemas.ApiKeyScope needs an enum of the scopes');
  return new Set(schema.enum);
}

/** The `limit` bounds of a list operation (an integer `default` and `maximum` on its `limit` parameter). */
function limitOf(id: string, limit: Parameter): OperationRow['limit'] {
  const { default: fallback, maximum } = limit.schema ?? {};
  if (!Number.isInteger(fallback) || !Number.isInteger(maximum)) {
    throw new Error(`${id}: the limit parameter needs an integer default and maximum`);
  }
  return { default: fallback as number, maximum: maximum as number };
}

/**
 * Reads every operation of `spec.paths`, in the spec's order.
 * @throws Error on a missing, invalid or duplicate operationId, a missing or unknown `x-required-scope`, a
 *   parameter named `body` or `headers`, a path and a query parameter of the same name, an unresolvable `$ref`, or a
 *   list operation whose `limit` lacks an integer default and maximum.
 */
export function readOperations(spec: Spec): OperationRow[] {
  const scopes = scopesOf(spec);
  const rows: OperationRow[] = [];
  const seen = new Set<string>();
  for (const [route, item] of Object.entries(spec.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op || unwrapped(op)) continue;
      const where = `${method.toUpperCase()} ${route}`;
      const id = op.operationId;
      if (!id || !IDENTIFIER.test(id)) throw new Error(`${where}: missing or invalid operationId`);
      if (seen.has(id)) throw new Error(`duplicate operationId ${id}`);
      seen.add(id);
      const scope = op['x-required-scope'];
      if (!scope || !scopes.has(scope))
        throw new Error(`${where}: x-required-scope must be one of the scopes`);

      // Operation-level parameters override path-level ones of the same name and location.
      const params = new Map<string, Parameter>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const resolved = deref(spec, p, 'parameters');
        params.set(`${resolved.in}:${resolved.name}`, resolved);
      }
      const byIn = (at: Parameter['in']) => [...params.values()].filter((p) => p.in === at);
      const [pathParams, queryParams, headerParams] = [byIn('path'), byIn('query'), byIn('header')];
      const flat = [...pathParams, ...queryParams].map((p) => p.name);
      for (const name of flat) {
        if (RESERVED.has(name)) throw new Error(`${id}: parameter name "${name}" is reserved by the SDK`);
      }
      if (new Set(flat).size !== flat.length)
        throw new Error(`${id}: a path and a query parameter share a name`);

      const body = op.requestBody ? deref(spec, op.requestBody, 'requestBodies') : undefined;
      const limit = queryParams.find((p) => p.name === 'limit');
      const paginated = limit !== undefined && queryParams.some((p) => p.name === 'offset');
      rows.push({
        operationId: id,
        method: method.toUpperCase() as OperationRow['method'],
        path: route,
        pathParams: pathParams.map((p) => p.name),
        queryParams: queryParams.map((p) => p.name),
        headerParams: headerParams.map((p) => p.name),
        hasBody: body !== undefined,
        paginated,
        limit: paginated ? limitOf(id, limit) : null,
        tag: op.tags?.[0] ?? '',
        scope,
        paramsRequired:
          pathParams.length > 0 ||
          queryParams.some((p) => p.required) ||
          headerParams.some((p) => p.required) ||
          body?.required === true,
        queryRequired: queryParams.some((p) => p.required),
        bodyRequired: body?.required === true,
        summary: op.summary,
        description: op.description,
      });
    }
  }
  return rows;
}

/** A single-quoted TypeScript string literal. */
export const quote = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const list = (xs: string[]) => `[${xs.map(quote).join(', ')}]`;

/**
 * The table as TypeScript source: the `OperationSpec` interface, `operationTable` (one line per operation) and the
 * `OperationId` and `PaginatedOperationId` types. It imports nothing, so the same text stands in the server's tree and
 * in the SDK's package.
 */
export function renderOperationTable(rows: OperationRow[]): string {
  const lines = rows.map((r) => {
    const limit = r.limit ? `{ default: ${r.limit.default}, maximum: ${r.limit.maximum} }` : 'null';
    return (
      `  ${r.operationId}: { method: '${r.method}', path: ${quote(r.path)}, pathParams: ${list(r.pathParams)}, ` +
      `queryParams: ${list(r.queryParams)}, headerParams: ${list(r.headerParams)}, hasBody: ${r.hasBody}, ` +
      `paginated: ${r.paginated}, limit: ${limit}, tag: ${quote(r.tag)}, scope: ${quote(r.scope)} },`
    );
  });
  return `/** Runtime description of one operation: what the server and the client need to route, check and build it. */
export interface OperationSpec {
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';
  /** Path template relative to the base URL (which ends in \`/v1\`). */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** The header parameters the operation declares, spelt as in the spec (e.g. \`If-Match\`). */
  readonly headerParams: readonly string[];
  readonly hasBody: boolean;
  /** Takes \`limit\` and \`offset\`: usable with \`client.paginate()\`. */
  readonly paginated: boolean;
  /** A paginated operation's \`limit\`: the page size when none is asked for, and the largest allowed. */
  readonly limit: { readonly default: number; readonly maximum: number } | null;
  /** The operation's first tag (its section of the API reference). */
  readonly tag: string;
  /** The API key scope the operation requires (\`x-required-scope\`): \`read\`, \`write\` or \`admin\`. */
  readonly scope: string;
}

/** Every operation of the spec's \`paths\`, keyed by operationId, in the spec's order. */
export const operationTable = {
${lines.join('\n')}
} as const satisfies Record<string, OperationSpec>;

/** An operationId of the API. */
export type OperationId = keyof typeof operationTable;

/** The operationId of a paginated (list) operation. */
export type PaginatedOperationId = {
  [K in OperationId]: (typeof operationTable)[K]['paginated'] extends true ? K : never;
}[OperationId];
`;
}
