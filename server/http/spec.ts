/**
 * The contract at runtime: the parsed spec (for the validator), its JSON and YAML texts (served at
 * `/v1/openapi.json` and `/v1/openapi.yaml`), and each operation's required scope (`x-required-scope`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type { ApiKeyScope } from '../repositories/tenants.js';

/** Path of the hand-written contract. */
export const SPEC_PATH = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'spec',
  'openapi.yaml',
);

/** The loaded contract. */
export interface LoadedSpec {
  document: Record<string, unknown>;
  json: string;
  yaml: string;
  /** operationId → the scope a key needs to call it. */
  scopes: Map<string, ApiKeyScope>;
  /** operationId → the names of the header parameters it declares (e.g. `If-Match`), `$ref`s resolved. */
  headerParams: Map<string, string[]>;
}

interface ParameterObject {
  $ref?: string;
  in?: string;
  name?: string;
}

function resolveRef(document: Record<string, unknown>, node: ParameterObject): ParameterObject {
  if (!node.$ref) return node;
  let cur: unknown = document;
  for (const part of node.$ref.replace(/^#\//, '').split('/')) cur = (cur as Record<string, unknown>)[part];
  return resolveRef(document, cur as ParameterObject);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Reads and parses `spec/openapi.yaml`.
 * @throws Error when an operation lacks `operationId` or `x-required-scope` (the spec promises both).
 */
export function loadSpec(file = SPEC_PATH): LoadedSpec {
  const yaml = fs.readFileSync(file, 'utf8');
  const document = YAML.parse(yaml) as Record<string, unknown>;
  const scopes = new Map<string, ApiKeyScope>();
  const headerParams = new Map<string, string[]>();
  type Operation = { operationId?: string; 'x-required-scope'?: ApiKeyScope; parameters?: ParameterObject[] };
  type PathItem = { parameters?: ParameterObject[] } & Record<string, unknown>;
  const paths = (document.paths ?? {}) as Record<string, PathItem>;
  for (const [route, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      if (!op.operationId || !op['x-required-scope']) {
        throw new Error(`${method.toUpperCase()} ${route} needs an operationId and an x-required-scope`);
      }
      scopes.set(op.operationId, op['x-required-scope']);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) =>
        resolveRef(document, p),
      );
      headerParams.set(
        op.operationId,
        params.filter((p) => p.in === 'header' && p.name).map((p) => p.name as string),
      );
    }
  }
  return { document, json: JSON.stringify(document), yaml, scopes, headerParams };
}
