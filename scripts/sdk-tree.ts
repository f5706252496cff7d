/**
 * The SDKs' resource tree, read from the spec: where each operation sits (`client.projects.statusReports`) and what
 * its method is called (`list`, `create`, `retrieve`, `update`, `delete`, or the operation's own verb such as
 * `rotateSecret`). Both SDK generators read this one derivation (docs/sdks.md, SDK shape): sdk-ts through
 * `scripts/generate-operations.ts`, the Python SDK through the spec copy `scripts/sdk-python-spec.ts` hands it, with
 * every operation's name written into its `x-sdk`. The Python generator only converts the names to snake_case.
 *
 * The path says it by default. Its literal segments are the resource (`/projects/{id}/status-reports` →
 * `projects.statusReports`), and the HTTP method and whether the path ends in a parameter give the verb: GET on an
 * item → `retrieve`; GET on a collection → `list` when it pages (`limit` and `offset`), else `retrieve`; POST on a
 * collection → `create` (a collection after an item is one that can also be read); PATCH or PUT → `update`;
 * DELETE → `delete`. Where the path does not say, the operation
 * carries `x-sdk: { resource?, method? }`; either part left out is derived (`x-sdk: false`: no SDK method at all).
 * A path whose last segment is the verb x-sdk names is an action on the resource before it: `POST /webhooks/{id}/rotate-secret` with
 * `x-sdk: { method: rotateSecret }` is `client.webhooks.rotateSecret(webhookId)`.
 */
import { METHODS, type OperationRow, type Spec } from './operation-table.js';

/** Where one operation sits in the tree: the resource's path from the client and the method's name. */
export interface SdkName {
  /** `['projects', 'statusReports']` for `client.projects.statusReports` (camelCase). */
  resource: string[];
  /** `list`, `create`, `retrieve`, `update`, `delete` or the operation's own verb (camelCase). */
  method: string;
}

/** What `x-sdk` may hold on an operation. */
interface SdkExtension {
  resource?: string;
  method?: string;
}

const CAMEL = /^[a-z][A-Za-z0-9]*$/;
/**
 * Names a method or a resource may not take: the SDKs' own members on every resource (`withResponse`, the raw
 * response view `withRawResponse`/`with_raw_response`, the client's `_client`) and what JavaScript gives every object.
 */
const RESERVED = new Set([
  'constructor',
  'prototype',
  'withRawResponse',
  'withResponse',
  'withOptions',
  'client',
]);

/** `status-reports` → `statusReports`, `rotate-secret` → `rotateSecret`. */
export function camel(segment: string): string {
  return segment.replace(/[-_.]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `statusReports` → `status_reports` (the Python SDK's spelling of the same name). */
export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** `projects` → `project`, `entries` → `entry`: the record one segment of a collection names. */
export function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

/**
 * The names an SDK method gives an operation's path parameters, in the path's order: `{id}` after a collection
 * segment is that record's id (`/projects/{id}/status-reports` → `projectId`), any other keeps its name
 * (`executionId`).
 */
export function pathArgNames(path: string): string[] {
  const segments = path.split('/').filter(Boolean);
  const names: string[] = [];
  segments.forEach((segment, i) => {
    const param = /^\{(.+)\}$/.exec(segment)?.[1];
    if (!param) return;
    const before = segments[i - 1];
    names.push(param === 'id' && before && !before.startsWith('{') ? `${singular(camel(before))}Id` : param);
  });
  return names;
}

/**
 * The method the path and HTTP method give, or undefined when they do not say: a POST on an item, or on a segment
 * after an item that lists nothing (`POST /things/{id}/archive`), is an action x-sdk must name.
 */
function derivedMethod(row: OperationRow, segments: string[], readable: Set<string>): string | undefined {
  const endsInParam = segments.at(-1)?.startsWith('{') ?? false;
  switch (row.method) {
    case 'GET':
      return endsInParam || !row.paginated ? 'retrieve' : 'list';
    case 'POST': {
      const afterItem = segments.at(-2)?.startsWith('{') ?? false;
      return endsInParam || (afterItem && !readable.has(row.path)) ? undefined : 'create';
    }
    case 'PATCH':
    case 'PUT':
      return 'update';
    case 'DELETE':
      return 'delete';
    default:
      return undefined;
  }
}

/** The `x-sdk` extension of each operation, by operationId (validated). */
function extensions(spec: Spec): Map<string, SdkExtension> {
  const found = new Map<string, SdkExtension>();
  for (const [route, item] of Object.entries(spec.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as (Record<string, unknown> & { operationId?: string }) | undefined;
      const ext = op?.['x-sdk'] as Record<string, unknown> | false | undefined;
      // `x-sdk: false`: documented, not wrapped (scripts/operation-table.ts, unwrapped).
      if (!op?.operationId || ext === undefined || ext === false) continue;
      const where = `${method.toUpperCase()} ${route}`;
      const unknown = Object.keys(ext).filter((k) => k !== 'resource' && k !== 'method');
      if (typeof ext !== 'object' || ext === null || unknown.length > 0) {
        throw new Error(`${where}: x-sdk takes only { resource, method }`);
      }
      const { resource, method: name } = ext as SdkExtension;
      if (
        resource !== undefined &&
        !String(resource)
          .split('.')
          .every((s) => CAMEL.test(s))
      ) {
        throw new Error(`${where}: x-sdk.resource must be dotted camelCase names, e.g. projects.milestones`);
      }
      if (name !== undefined && !CAMEL.test(String(name))) {
        throw new Error(`${where}: x-sdk.method must be a camelCase name, e.g. rotateSecret`);
      }
      found.set(op.operationId, { ...(resource ? { resource } : {}), ...(name ? { method: name } : {}) });
    }
  }
  return found;
}

/**
 * Names every operation of the table in the SDK tree.
 *
 * @throws Error when an operation's path and method do not say its name and it carries no `x-sdk`, when two
 *   operations get the same resource and method, when a method and a sub-resource of one resource share a name
 *   (also in snake_case, the Python spelling), or when a name is one the SDKs reserve.
 */
export function sdkTree(spec: Spec, rows: OperationRow[]): Map<string, SdkName> {
  const ext = extensions(spec);
  const readable = new Set(rows.filter((r) => r.method === 'GET').map((r) => r.path));
  const names = new Map<string, SdkName>();
  const methodsOf = new Map<string, Map<string, string>>(); // resource key → snake name → operationId
  for (const row of rows) {
    const segments = row.path.split('/').filter(Boolean);
    const endsInParam = segments.at(-1)?.startsWith('{') ?? false;
    const given = ext.get(row.operationId) ?? {};
    const literals = segments.filter((s) => !s.startsWith('{')).map(camel);
    // A path that ends in the verb x-sdk names (`/webhooks/{id}/rotate-secret`, `method: rotateSecret`) is an
    // action on the resource before it.
    if (given.method && !endsInParam && literals.at(-1) === given.method) literals.pop();
    const resource = given.resource ? given.resource.split('.') : literals;
    const method = given.method ?? derivedMethod(row, segments, readable);
    const where = `${row.operationId} (${row.method} ${row.path})`;
    if (!method || resource.length === 0) {
      throw new Error(`${where}: the path does not name its SDK method; add x-sdk: { resource, method }`);
    }
    for (const name of [...resource, method]) {
      if (RESERVED.has(name)) throw new Error(`${where}: "${name}" is reserved by the SDKs`);
    }
    const key = resource.join('.');
    const taken = methodsOf.get(key) ?? new Map<string, string>();
    const clash = taken.get(snake(method));
    if (clash) throw new Error(`${where}: ${key}.${method} is already ${clash}'s name in the SDKs`);
    taken.set(snake(method), row.operationId);
    methodsOf.set(key, taken);
    names.set(row.operationId, { resource, method });
  }
  // A sub-resource and a method of the same parent would be one attribute.
  for (const [key] of methodsOf) {
    const parts = key.split('.');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('.');
      const child = parts[i] as string;
      const owner = methodsOf.get(parent)?.get(snake(child));
      if (owner) throw new Error(`${owner}: method ${parent}.${child} clashes with the resource ${key}`);
    }
  }
  return names;
}

/** The SDKs' one version, spelt for each registry. */
export interface SdkVersion {
  /** SemVer, for npm: `1.0.0-beta.1`. */
  npm: string;
  /** PEP 440, for PyPI: `1.0.0b1`. */
  python: string;
}

/**
 * The SDKs' version, derived from the spec: `info.version`, plus `info.x-sdk.prerelease` (`alpha.N`, `beta.N` or
 * `rc.N`) while the SDKs are a pre-release of that API version (docs/sdks.md, SDK shape).
 *
 * @throws Error when `info.version` is not `MAJOR.MINOR.PATCH` or the pre-release is not one of the three forms.
 */
export function sdkVersion(spec: {
  info?: { version?: string; 'x-sdk'?: { prerelease?: string } };
}): SdkVersion {
  const base = spec.info?.version ?? '';
  if (!/^\d+\.\d+\.\d+$/.test(base)) throw new Error(`info.version must be MAJOR.MINOR.PATCH, got "${base}"`);
  const pre = spec.info?.['x-sdk']?.prerelease;
  if (pre === undefined) return { npm: base, python: base };
  const match = /^(alpha|beta|rc)\.(\d+)$/.exec(pre);
  if (!match) throw new Error(`info.x-sdk.prerelease must be alpha.N, beta.N or rc.N, got "${pre}"`);
  const letter = { alpha: 'a', beta: 'b', rc: 'rc' }[match[1] as 'alpha' | 'beta' | 'rc'];
  return { npm: `${base}-${pre}`, python: `${base}${letter}${match[2]}` };
}
