/**
 * The spec's schemas as the hostile-input suite reads them (./cases.ts, ./instants.test.ts): `$ref`s followed,
 * `allOf` parts merged, the request body and parameter schemas of an operation, and which inputs are instants.
 */
import type { OperationSpec } from '../../generated/operations.js';
import { loadSpec } from '../../server/http/spec.js';

export type Schema = Record<string, any>;

const spec = loadSpec().document as Schema;

function pointer(ref: string): Schema {
  return ref
    .slice(2)
    .split('/')
    .reduce((node: Schema, key) => node[key.replaceAll('~1', '/').replaceAll('~0', '~')], spec);
}

/** The schema `node` names, following `$ref`s (JSON Pointers into the spec). */
export function deref(node: Schema | undefined): Schema | undefined {
  let current = node;
  while (current?.$ref) current = pointer(current.$ref);
  return current;
}

/** The operation's object in the spec (`paths[path][method]`). */
function operationOf(op: OperationSpec): Schema {
  return (spec.paths as Schema)[op.path][op.method.toLowerCase()];
}

/** The JSON request body schema of an operation, with `allOf` parts merged. */
export function bodySchemaOf(op: OperationSpec): Schema | undefined {
  const body = deref(operationOf(op).requestBody);
  return merged(deref(body?.content?.['application/json']?.schema));
}

/** `schema` with its `allOf` parts merged into one object schema (properties and required lists). */
export function merged(schema: Schema | undefined): Schema | undefined {
  if (!schema?.allOf) return schema;
  const parts = (schema.allOf as Schema[]).map((part) => merged(deref(part)) ?? {});
  return {
    ...schema,
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), schema.properties ?? {}),
    required: [...parts.flatMap((p) => p.required ?? []), ...(schema.required ?? [])],
  };
}

/** A parameter's schema: path, query or header. */
export function parameterSchema(op: OperationSpec, name: string): Schema {
  const pathItem = (spec.paths as Schema)[op.path];
  const parameters = [...(pathItem.parameters ?? []), ...(operationOf(op).parameters ?? [])].map(
    (p: Schema) => deref(p) as Schema,
  );
  return deref(parameters.find((p) => p.name === name)?.schema) ?? {};
}

/** Whether `name` is a required query parameter of `op`. */
export function isRequiredQuery(op: OperationSpec, name: string): boolean {
  const pathItem = (spec.paths as Schema)[op.path];
  return [...(pathItem.parameters ?? []), ...(operationOf(op).parameters ?? [])]
    .map((p: Schema) => deref(p) as Schema)
    .some((p) => p.name === name && p.in === 'query' && p.required === true);
}

/** Whether a schema (or one branch of a nullable union) is a `format: date-time` string. */
function isDateTime(schema: Schema | undefined): boolean {
  const s = merged(deref(schema)) ?? {};
  if (s.format === 'date-time') return true;
  return ((s.oneOf ?? s.anyOf ?? []) as Schema[]).some((branch) => isDateTime(branch));
}

/** The inputs of an operation that are instants: query parameters by name, top-level body properties by name. */
export function instantFieldsOf(op: OperationSpec): { query: string[]; body: string[] } {
  const body = bodySchemaOf(op);
  return {
    query: op.queryParams.filter((name) => isDateTime(parameterSchema(op, name))),
    body: Object.entries((body?.properties ?? {}) as Schema)
      .filter(([, schema]) => isDateTime(schema))
      .map(([name]) => name),
  };
}

/**
 * Instants RFC 3339's grammar allows and the API refuses (docs/design.md, Conventions: "Instants"):
 * [label, value].
 */
export const REFUSED_INSTANTS: [string, string][] = [
  ['leap second', '2030-06-30T23:59:60Z'],
  ['year 10000 in UTC', '9999-12-31T23:59:59-14:00'],
  ['year 0000 in UTC', '0001-01-01T00:00:00+00:01'],
];

/**
 * The operations of the paths outside the API (the console's `/auth/*`, docs/accounts.md), which the generated
 * operation table leaves out, in the table's shape: by operationId, paths relative to the server root.
 */
export function consoleOperations(): Record<string, OperationSpec> {
  const out: Record<string, OperationSpec> = {};
  for (const [path, item] of Object.entries(spec.paths as Record<string, Schema>)) {
    if (!Array.isArray(item.servers) || item.servers.length === 0) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      out[op.operationId as string] = {
        method: method.toUpperCase() as OperationSpec['method'],
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string),
        queryParams: [],
        headerParams: [],
        hasBody: op.requestBody !== undefined,
        paginated: false,
        limit: null,
        tag: (op.tags as string[])[0] as string,
        scope: '',
      };
    }
  }
  return out;
}

/**
 * The baseline body with `property` set, kept within the schema's `maxProperties` (a body of one of several
 * properties, as a second factor's `code` or `recoveryCode`): the baseline's optional properties make room.
 */
export function withProperty(
  base: Record<string, unknown>,
  schema: Schema,
  property: string,
  value: unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base, [property]: value };
  const max = typeof schema.maxProperties === 'number' ? schema.maxProperties : Number.POSITIVE_INFINITY;
  const required = (schema.required ?? []) as string[];
  for (const key of Object.keys(out)) {
    if (Object.keys(out).length <= max) break;
    if (key !== property && !required.includes(key)) delete out[key];
  }
  return out;
}
