/**
 * Contract checks done by the test client, independently of the server's own response validator: the status is
 * declared by the operation (or falls to `default`), the body matches the declared schema (Ajv, JSON Schema
 * 2020-12 as OpenAPI 3.1 uses), required response headers are present, and the content type is right.
 */
import fs from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import YAML from 'yaml';
import { type OperationId, operationTable } from '../../generated/operations.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

interface ResponseSpec {
  $ref?: string;
  headers?: Record<string, { required?: boolean; $ref?: string }>;
  content?: Record<string, { schema?: unknown }>;
}

const spec = YAML.parse(fs.readFileSync(new URL('../../generated/openapi.yaml', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...spec, $id: 'meridian-spec' });
const compiled = new Map<string, ValidateFunction>();

function resolve<T>(node: T & { $ref?: string }): T {
  if (!node?.$ref) return node;
  const parts = node.$ref.replace(/^#\//, '').split('/');
  let cur: unknown = spec;
  for (const p of parts)
    cur = (cur as Record<string, unknown>)[p.replaceAll('~1', '/').replaceAll('~0', '~')];
  return resolve(cur as T & { $ref?: string });
}

function pointerTo(schema: unknown, fallbackPath: string): string {
  const ref = (schema as { $ref?: string })?.$ref;
  return ref ? `meridian-spec${ref}` : `meridian-spec#${fallbackPath}`;
}

/** A response as the test client saw it. */
export interface SeenResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Asserts that a response conforms to the operation's declared responses.
 * @throws Error naming the operation and every mismatch.
 */
export function assertConforms(operationId: OperationId, res: SeenResponse): void {
  const { method, path } = operationTable[operationId];
  assertConformsAt(method, path, res);
}

/**
 * Asserts that a response conforms to the responses the spec declares for `method path` (a path template as the
 * spec writes it): also for paths outside the API (the console's `/auth/*`), which have no operationId in the table.
 * @throws Error naming the operation and every mismatch.
 */
export function assertConformsAt(method: string, path: string, res: SeenResponse): void {
  const op = spec.paths[path][method.toLowerCase()];
  const operationId = op.operationId as string;
  const declared = op.responses as Record<string, ResponseSpec>;
  const key = declared[String(res.status)]
    ? String(res.status)
    : `${String(res.status)[0]}XX` in declared
      ? `${String(res.status)[0]}XX`
      : 'default';
  const response = declared[key] ? resolve(declared[key]) : undefined;
  const problems: string[] = [];
  if (!response) problems.push(`status ${res.status} is not declared`);
  else {
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (resolve(header).required && !res.headers.has(name))
        problems.push(`missing required header ${name}`);
    }
    const contentType = res.headers.get('content-type')?.split(';')[0];
    const media = response.content ? Object.keys(response.content) : [];
    if (media.length === 0) {
      if (res.body !== undefined && res.body !== '') problems.push('a body where none is declared');
    } else if (!contentType || !media.includes(contentType)) {
      problems.push(`content type ${contentType} is not one of ${media.join(', ')}`);
    } else {
      const schema = response.content?.[contentType]?.schema;
      const id = `${operationId}:${key}:${contentType}`;
      let validate = compiled.get(id);
      if (!validate) {
        const contentPath = declared[key]?.$ref
          ? `${declared[key].$ref.slice(1)}/content/${contentType.replace('/', '~1')}/schema`
          : `/paths/${path.replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${key}/content/${contentType.replace('/', '~1')}/schema`;
        validate = ajv.compile({ $ref: pointerTo(schema, contentPath) });
        compiled.set(id, validate);
      }
      if (!validate(res.body)) problems.push(`body: ${ajv.errorsText(validate.errors)}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `${operationId} ${res.status} breaks the contract: ${problems.join('; ')}\n${JSON.stringify(res.body).slice(0, 500)}`,
    );
  }
}

/**
 * Asserts that a value matches a component schema of the spec (e.g. a webhook event payload against
 * `ProjectStatusChangedEvent`). @throws Error listing the mismatches.
 */
export function assertMatchesSchema(schemaName: string, value: unknown): void {
  const id = `schema:${schemaName}`;
  let validate = compiled.get(id);
  if (!validate) {
    validate = ajv.compile({ $ref: `meridian-spec#/components/schemas/${schemaName}` });
    compiled.set(id, validate);
  }
  if (!validate(value))
    throw new Error(
      `${schemaName}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 500)}`,
    );
}
