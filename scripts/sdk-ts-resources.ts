/**
 * Renders the TypeScript SDK's resource tree, `sdk-ts/src/generated/resources.ts`: one class per resource of the
 * tree `scripts/sdk-tree.ts` derives (`Projects`, `ProjectsStatusReports`, …), one documented method per operation,
 * a `…Params` type per method that takes params, and `MeridianResources`, the client's base class holding the
 * top-level resources. Nothing here knows an operation by name: a new one in the spec joins the tree on the next
 * `npm run generate`.
 */
import { type OperationRow, quote, type Spec } from './operation-table.js';
import { pathArgNames, type SdkName } from './sdk-tree.js';

/** `['projects', 'statusReports']` → `ProjectsStatusReports`. */
export const className = (resource: string[]) =>
  `${resource.map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join('')}Resource`;

/** Escapes text for a TSDoc block and prefixes each line. */
export function doc(lines: string[], indent: string): string {
  const body = lines
    .join('\n')
    .replaceAll('*/', '*\\/')
    .split('\n')
    .map((l) => `${indent} *${l ? ` ${l}` : ''}`.trimEnd());
  return `${indent}/**\n${body.join('\n')}\n${indent} */`;
}

/** A node of the tree: its operations and its sub-resources, by name. */
interface Node {
  resource: string[];
  ops: { row: OperationRow; method: string }[];
  children: Map<string, Node>;
}

function buildTree(rows: OperationRow[], names: Map<string, SdkName>): Node {
  const root: Node = { resource: [], ops: [], children: new Map() };
  for (const row of rows) {
    const name = names.get(row.operationId);
    if (!name) throw new Error(`${row.operationId}: no SDK name`);
    let node = root;
    for (const part of name.resource) {
      let child = node.children.get(part);
      if (!child) {
        child = { resource: [...node.resource, part], ops: [], children: new Map() };
        node.children.set(part, child);
      }
      node = child;
    }
    node.ops.push({ row, method: name.method });
  }
  return root;
}

/** The property names of an operation's request body (to refuse a query parameter of the same name). */
function bodyProperties(spec: Spec, row: OperationRow): string[] {
  const op = spec.paths?.[row.path]?.[row.method.toLowerCase() as 'get'] as
    | { requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: object } }> } }
    | undefined;
  let schema = op?.requestBody?.content?.['application/json']?.schema;
  const ref = schema?.$ref?.replace('#/components/schemas/', '');
  if (ref) schema = spec.components?.schemas?.[ref] as typeof schema;
  return Object.keys(schema?.properties ?? {});
}

/** One method: documentation from the spec, then a one-line body calling the client. */
function method(spec: Spec, row: OperationRow, name: string, paramsType: string): string {
  const id = quote(row.operationId);
  const args = pathArgNames(row.path);
  const hasParams = row.hasBody || row.queryParams.length > 0;
  const clash = bodyProperties(spec, row).find((p) => row.queryParams.includes(p));
  if (clash) throw new Error(`${row.operationId}: "${clash}" is both a body field and a query parameter`);
  const lines: string[] = [];
  if (row.summary) lines.push(row.summary, '');
  if (row.description) lines.push(...row.description.trimEnd().split('\n'), '');
  lines.push(
    `HTTP: \`${row.method} ${row.path}\` (operationId \`${row.operationId}\`, scope \`${row.scope}\`).`,
    '',
  );
  for (const arg of args) lines.push(`@param ${arg} - the \`${arg}\` path parameter.`);
  if (hasParams) {
    const what = [
      row.hasBody && 'the request body’s fields',
      row.queryParams.length && 'the query parameters',
    ]
      .filter(Boolean)
      .join(' and ');
    lines.push(`@param params - ${what} (\`${paramsType}\`).`);
  }
  const headers = row.headerParams.length ? ` (${row.headerParams.map((h) => `\`${h}\``).join(', ')})` : '';
  lines.push(
    `@param options - headers${headers}, \`timeoutMs\`, \`maxRetries\`, \`signal\` for this request.`,
    row.paginated
      ? '@returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.'
      : '@returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.',
    '@throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,',
    '  {@link APIConnectionError} or {@link TimeoutError} when no response arrives.',
  );
  const signature = [
    ...args.map((a) => `${a}: string`),
    ...(hasParams ? [`params${row.bodyRequired || row.queryRequired ? '' : '?'}: ${paramsType}`] : []),
    `options?: RequestOptions<OperationHeaders<${id}>>`,
  ].join(', ');
  const call = `${id}, [${args.join(', ')}], ${hasParams ? 'params' : 'undefined'}, options`;
  const body = row.paginated
    ? `PagePromise<PageItem<${id}>> {\n    return this._client.list<PageItem<${id}>>(${call});`
    : `APIPromise<OperationData<${id}>> {\n    return this._client.call(${call});`;
  return `${doc(lines, '  ')}\n  ${name}(${signature}): ${body}\n  }`;
}

/** The classes of a node and its descendants (descendants first), and its params types. */
function render(spec: Spec, node: Node, out: string[], tagDocs: Map<string, string>): void {
  for (const child of node.children.values()) render(spec, child, out, tagDocs);
  if (node.resource.length === 0) return;
  const cls = className(node.resource);
  const path = `client.${node.resource.join('.')}`;
  const members: string[] = [];
  for (const [name, child] of node.children) {
    members.push(
      `  /** \`${path}.${name}\`. */\n  readonly ${name}: ${className(child.resource)} = new ${className(child.resource)}(this._client);`,
    );
  }
  for (const { row, method: name } of node.ops) {
    const paramsType = `${cls.replace(/Resource$/, '')}${name.charAt(0).toUpperCase()}${name.slice(1)}Params`;
    if (row.hasBody || row.queryParams.length > 0) {
      out.push(`/** The params of \`${path}.${name}()\` (operationId \`${row.operationId}\`). */
export type ${paramsType} = OperationParams<${quote(row.operationId)}>;\n`);
    }
    members.push(method(spec, row, name, paramsType));
  }
  const tag = node.ops[0]?.row.tag;
  const summary = [
    `\`${path}\`: ${[...node.ops.map((o) => `\`${o.method}\``), ...[...node.children.keys()].map((c) => `\`${c}\``)].join(', ')}.`,
    ...(tag && tagDocs.get(tag) ? ['', tagDocs.get(tag) as string] : []),
  ];
  out.push(`${doc(summary, '')}\nexport class ${cls} extends APIResource {\n${members.join('\n\n')}\n}\n`);
}

/**
 * `sdk-ts/src/generated/resources.ts` for the operations of `rows`, named by `names`.
 *
 * @param banner - the do-not-edit header.
 * @throws Error when a body field and a query parameter of one operation share a name.
 */
export function renderResources(
  spec: Spec & { tags?: { name: string; description?: string }[] },
  rows: OperationRow[],
  names: Map<string, SdkName>,
  banner: string,
): string {
  const tree = buildTree(rows, names);
  const schemas = new Set(Object.keys(spec.components?.schemas ?? {}));
  const tagDocs = new Map((spec.tags ?? []).map((t) => [t.name, (t.description ?? '').trim()]));
  const out: string[] = [];
  render(spec, tree, out, tagDocs);
  for (const declared of out.join('\n').matchAll(/^export (?:class|type) (\w+)/gm)) {
    if (schemas.has(declared[1] as string))
      throw new Error(`the SDK's ${declared[1]} would hide the schema of that name`);
  }
  const roots = [...tree.children].map(
    ([name, child]) =>
      `  /** \`client.${name}\`: ${[...child.ops.map((o) => o.method), ...child.children.keys()].join(', ')}. */\n` +
      `  readonly ${name}: ${className(child.resource)} = new ${className(child.resource)}(this);`,
  );
  const methods = rows.map((row) => {
    const name = names.get(row.operationId) as SdkName;
    return `  ${row.operationId}: ${quote([...name.resource, name.method].join('.'))},`;
  });
  return `${banner}
import type { APIConnectionError, APIError, TimeoutError } from '../lib/errors.js';
import type { APIPromise } from '../lib/api-promise.js';
import { APIClient, APIResource } from '../lib/core.js';
import type { PagePromise } from '../lib/pagination.js';
import type { OperationData, OperationHeaders, OperationParams, PageItem, RequestOptions } from '../lib/types.js';

/** (Referenced for TSDoc links: {@link APIError}, {@link APIConnectionError}, {@link TimeoutError}.) */
export type { APIConnectionError, APIError, TimeoutError };

${out.join('\n')}
/**
 * The resource tree's roots, one property per top-level resource of the API; \`Meridian\` extends this class.
 * Each method of the tree sends one operation of the spec.
 */
export class MeridianResources extends APIClient {
${roots.join('\n')}
}

/** Where each operation of the spec sits in the tree, by operationId (\`listProjects\` → \`'projects.list'\`). */
export const resourceMethods = {
${methods.join('\n')}
} as const;
`;
}
