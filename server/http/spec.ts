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

/**
 * Path of the contract as one document: `spec/` bundled by `npm run generate` (scripts/bundle-spec.ts), so the
 * validator and the served copies never resolve file references at boot.
 */
export const SPEC_PATH = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'generated',
  'openapi.yaml',
);

/** The loaded contract. */
export interface LoadedSpec {
  document: Record<string, unknown>;
  json: string;
  yaml: string;
}

/** The contract from its YAML text; the served YAML leaves out the file's do-not-edit banner. */
export function parseSpecYaml(text: string): LoadedSpec {
  const yaml = text.replace(/^(?:#[^\n]*\n)+/, '');
  const document = YAML.parse(yaml) as Record<string, unknown>;
  return { document, json: JSON.stringify(document), yaml };
}

/**
 * Reads and parses the bundled contract. Beside it, the build (scripts/build-assets.ts) stores the same document
 * parsed, `openapi.json`: when present it is read instead of parsing the YAML, which takes most of a start's time
 * (docs/deploy.md, "Restarts").
 */
export function loadSpec(file = SPEC_PATH): LoadedSpec {
  const text = fs.readFileSync(file, 'utf8');
  const parsed = file.replace(/\.yaml$/, '.json');
  if (parsed === file || !fs.existsSync(parsed)) return parseSpecYaml(text);
  const json = fs.readFileSync(parsed, 'utf8');
  return {
    document: JSON.parse(json) as Record<string, unknown>,
    json,
    yaml: text.replace(/^(?:#[^\n]*\n)+/, ''),
  };
}

/**
 * The contract's paths inside the API (`inside: true`, served under `/v1`) or outside it (`inside: false`: paths
 * with servers of their own, the console's `/auth/*`, docs/accounts.md), each as a document one validator takes:
 * the outside paths with the server root as their base. `json` and `yaml` stay those of the whole contract.
 */
export function pathsOf(spec: LoadedSpec, inside: boolean): LoadedSpec {
  const paths = (spec.document.paths ?? {}) as Record<string, { servers?: { url: string }[] }>;
  const chosen = Object.fromEntries(
    Object.entries(paths).filter(([, item]) => ((item.servers?.length ?? 0) === 0) === inside),
  );
  const document = inside
    ? { ...spec.document, paths: chosen }
    : {
        ...spec.document,
        // The validator takes base paths from the root `servers` only; these paths sit at the server's root.
        servers: [{ url: 'http://localhost:8080' }],
        paths: Object.fromEntries(Object.entries(chosen).map(([k, { servers: _s, ...item }]) => [k, item])),
      };
  return { ...spec, document };
}
