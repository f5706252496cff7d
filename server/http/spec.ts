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
  const paths = (document.paths ?? {}) as Record<
    string,
    Record<string, { operationId?: string; 'x-required-scope'?: ApiKeyScope }>
  >;
  for (const [route, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId || !op['x-required-scope']) {
        throw new Error(`${method.toUpperCase()} ${route} needs an operationId and an x-required-scope`);
      }
      scopes.set(op.operationId, op['x-required-scope']);
    }
  }
  return { document, json: JSON.stringify(document), yaml, scopes };
}
