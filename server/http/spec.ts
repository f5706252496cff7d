/**
 * The contract at runtime: the parsed spec (for express-openapi-validator) and its JSON and YAML texts (served at
 * `/v1/openapi.json` and `/v1/openapi.yaml`). What the dispatcher needs per operation (scope, header parameters,
 * page size) is not read from here but from the generated operation table (generated/operations.ts), so the YAML is
 * parsed once at boot and never walked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

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
}

/** Reads and parses `spec/openapi.yaml`. */
export function loadSpec(file = SPEC_PATH): LoadedSpec {
  const yaml = fs.readFileSync(file, 'utf8');
  const document = YAML.parse(yaml) as Record<string, unknown>;
  return { document, json: JSON.stringify(document), yaml };
}
