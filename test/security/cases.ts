/**
 * The hostile inputs of the security suite (docs/design.md, Limits), derived from the spec for every operation of
 * the generated operation table (generated/operations.ts): an operation added to the spec is covered without
 * touching this file.
 *
 * For each operation: a baseline request that the spec accepts (path ids of real records, the required query
 * parameters, a body built from the request schema), then the same request with one part made hostile:
 * - path parameters that are not UUIDs (traversal, SQL text, NUL, 5,000 characters, the nil UUID);
 * - every query parameter: NUL, duplicated, nested (`p[a]=b`), 10,000 characters, wrong types, 1e308, invalid
 *   dates,
 *   plus prototype-pollution names and a key in the query string;
 * - every header parameter: malformed and oversized `If-Match` / `If-None-Match` / `Idempotency-Key`;
 * - the body as a whole: empty, not an object, truncated, 10,000-deep arrays and objects, `__proto__` and
 *   `constructor.prototype` keys, other media types and charsets, over 1 MiB;
 * - every top-level body property (and the items of string arrays): NUL, 100,000 characters, wrong types, 1e308 and
 *   1e309, invalid dates, SQL and markup text, a lone surrogate, a 10,000-deep value, `__proto__` objects.
 */
import { randomUUID } from 'node:crypto';
import { type OperationId, type OperationSpec, operationTable } from '../../generated/operations.js';

/** One request of the suite. */
export interface HostileCase {
  /** The operation (an API one, or one of the console's `/auth/*`). */
  operationId: string;
  /** Category and what was made hostile, e.g. `body.name: NUL`. */
  label: string;
  method: string;
  /** Path and query, relative to the base URL (`/v1`), already encoded as sent. */
  target: string;
  headers: Record<string, string>;
  /** The raw body text, sent as is. */
  body?: string;
  /**
   * When the case puts a NUL into a string input: the field the 400 must name (`location:path`, or a path below it),
   * checked when the operation's baseline request is accepted.
   */
  nulField?: string;
  /** When the case sends an instant the API refuses (a leap second, a year beyond 9999 in UTC): the field the 400 names. */
  refusedField?: string;
}

/** Ids of real records of the suite's tenant, by the first segment of a path (`projects`, `risks`, …). */
export type Fixtures = Record<string, string>;

import {
  bodySchemaOf,
  deref,
  instantFieldsOf,
  isRequiredQuery,
  merged,
  parameterSchema,
  REFUSED_INSTANTS,
  type Schema,
  withProperty,
} from './spec-schemas.js';

export { bodySchemaOf, instantFieldsOf, REFUSED_INSTANTS };

/** The record a property that names one refers to (`projectId` → a project). */
const REFERENCES: Record<string, string> = {
  projectId: 'projects',
  resourceId: 'resources',
  ownerId: 'resources',
  assigneeId: 'resources',
  projectManagerId: 'resources',
};

/** A value the schema accepts, preferring the spec's own examples and defaults. */
function sample(schema: Schema | undefined, name: string, fixtures: Fixtures): unknown {
  const s = merged(deref(schema)) ?? {};
  if (name in REFERENCES) return fixtures[REFERENCES[name] as string] ?? randomUUID();
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null);
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0 && typeof s.examples[0] !== 'object')
    return s.examples[0];
  if (s.default !== undefined) return s.default;
  const oneOf = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (oneOf)
    return sample(
      oneOf.map((o) => deref(o)).find((o) => o?.type !== 'null'),
      name,
      fixtures,
    );
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      switch (s.format) {
        case 'date':
          // On or before today in any time zone (status reports may not be dated in the future).
          return '2025-06-01';
        case 'date-time':
          return '2030-01-01T00:00:00Z';
        case 'uuid':
          return randomUUID();
        case 'uri':
          return 'https://hooks.example.com/meridian';
        case 'email':
          return 'pm@example.com';
        default: {
          const text = 'Hostile input'.padEnd(s.minLength ?? 0, '.');
          return text.slice(0, s.maxLength ?? text.length);
        }
      }
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, name, fixtures));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sample(s.properties?.[key], key, fixtures);
      // `minProperties` (a PATCH body that must change something): the first optional properties too.
      for (const key of Object.keys(s.properties ?? {})) {
        if (Object.keys(out).length >= (s.minProperties ?? 0)) break;
        if (!(key in out)) out[key] = sample(s.properties?.[key], key, fixtures);
      }
      return out;
    }
    default:
      return 'Hostile';
  }
}

/** The baseline body: the schema's required properties with accepted values. */
export function baselineBody(op: OperationSpec, fixtures: Fixtures): Record<string, unknown> | undefined {
  const schema = bodySchemaOf(op);
  if (!schema) return undefined;
  return sample(schema, '', fixtures) as Record<string, unknown>;
}

const DEEP = 10_000;
const deepArray = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
const deepObject = `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;
/** Placeholder replaced by raw JSON text (for values JSON.stringify cannot write: 1e309, deep nesting). */
const RAW = '__hostile_raw_value__';

/** Hostile values for one body property: [label, raw JSON text, whether it carries a NUL]. */
function propertyValues(): [string, string, boolean][] {
  return [
    ['NUL', JSON.stringify('a\u0000b'), true],
    ['only NUL', JSON.stringify('\u0000'), true],
    ['100,000 characters', JSON.stringify('x'.repeat(100_000)), false],
    ['1e308', '1e308', false],
    ['-1e308', '-1e308', false],
    ['1e309 (Infinity when parsed)', '1e309', false],
    ['-0', '-0', false],
    ['0.1', '0.1', false],
    ['2^53 + 1', '9007199254740993', false],
    ['boolean', 'true', false],
    ['null', 'null', false],
    ['empty array', '[]', false],
    ['object', '{"a":1}', false],
    ['number as string', '"42"', false],
    ['invalid date 2026-02-30', '"2026-02-30"', false],
    ['invalid date 0000-00-00', '"0000-00-00"', false],
    ['date-time with invalid day', '"2026-02-30T10:00:00Z"', false],
    ['year 275760', '"+275760-09-13"', false],
    ['SQL text', JSON.stringify("x'); DROP TABLE projects; --"), false],
    ['markup', JSON.stringify('<script>alert(1)</script>'), false],
    ['lone surrogate', '"\\ud800"', false],
    ['array with NUL item', JSON.stringify(['a\u0000b']), true],
    ['10,000-deep array', deepArray, false],
    ['__proto__ object', '{"__proto__":{"polluted":true}}', false],
  ];
}

/** Hostile values for one query parameter: [label, encoded `name=value` pairs, whether it carries a NUL]. */
function queryValues(name: string, sampleValue: string): [string, string, boolean][] {
  const n = encodeURIComponent(name);
  const v = encodeURIComponent(sampleValue);
  return [
    ['NUL', `${n}=a%00b`, true],
    ['only NUL', `${n}=%00`, true],
    ['duplicated', `${n}=${v}&${n}=${v}`, false],
    ['nested p[a]=b', `${n}%5Ba%5D=b`, false],
    ['array p[]=x', `${n}%5B%5D=${v}`, false],
    ['10,000 characters', `${n}=${'x'.repeat(10_000)}`, false],
    ['empty', `${n}=`, false],
    ['1e308', `${n}=1e308`, false],
    ['-1', `${n}=-1`, false],
    ['not a number', `${n}=abc`, false],
    ['invalid date', `${n}=2026-02-30`, false],
    ['SQL text', `${n}=${encodeURIComponent("x' OR '1'='1")}`, false],
    ['lone surrogate (invalid UTF-8 escape)', `${n}=%ED%A0%80`, false],
    ['malformed escape', `${n}=%E0%A4%A`, false],
  ];
}

const PATH_VALUES: [string, string, boolean][] = [
  ['not a UUID', 'not-a-uuid', false],
  ['NUL', '%00', true],
  ['traversal', '..%2F..%2Fetc%2Fpasswd', false],
  ['SQL text', encodeURIComponent("1' OR '1'='1"), false],
  ['zero', '0', false],
  ['5,000 characters', 'a'.repeat(5_000), false],
  ['nil UUID', '00000000-0000-0000-0000-000000000000', false],
  ['upper-case unknown UUID', randomUUID().toUpperCase(), false],
  ['UUID with NUL', `${randomUUID()}%00`, true],
  ['non-ASCII', encodeURIComponent('ü'.repeat(10)), false],
];

const HEADER_VALUES: Record<string, [string, string][]> = {
  'If-Match': [
    ['unquoted', '3'],
    ['other version', '"999999"'],
    ['weak', 'W/"1"'],
    ['list', '"1", "2"'],
    ['8,000 characters', `"${'9'.repeat(8_000)}"`],
  ],
  'If-None-Match': [
    ['unquoted', '3'],
    ['star', '*'],
    ['8,000 characters', `"${'9'.repeat(8_000)}"`],
  ],
  'Idempotency-Key': [
    ['300 characters', 'k'.repeat(300)],
    ['blank', ' '],
    ['control character', 'a\tb'],
  ],
};

/** The concrete path of `op` with each path parameter set by `value(name)` (encoded as given). */
function pathOf(op: OperationSpec, value: (name: string) => string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => value(name));
}

/** The real record a path parameter names: by the path's first segment. */
function fixtureFor(op: OperationSpec, fixtures: Fixtures): string {
  const segment = op.path.split('/')[1] ?? '';
  return fixtures[segment] ?? randomUUID();
}

/** The required query parameters of `op` with accepted values, encoded. */
function baselineQuery(op: OperationSpec, fixtures: Fixtures): string[] {
  return op.queryParams
    .filter((name) => isRequiredQuery(op, name))
    .map(
      (name) => `${name}=${encodeURIComponent(String(sample(parameterSchema(op, name), name, fixtures)))}`,
    );
}

function withQuery(path: string, pairs: string[]): string {
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

/**
 * Every hostile case of one operation, the baseline first. `op` defaults to the operation table's entry; the
 * console's `/auth/*` operations pass theirs (./spec-schemas.ts, consoleOperations).
 */
export function casesOf(
  operationId: string,
  fixtures: Fixtures,
  op: OperationSpec = operationTable[operationId as OperationId],
): HostileCase[] {
  const method = op.method;
  const id = fixtureFor(op, fixtures);
  const path = pathOf(op, () => id);
  const query = baselineQuery(op, fixtures);
  const base = baselineBody(op, fixtures);
  const json = { 'content-type': 'application/json' };
  const baseHeaders = base !== undefined ? json : {};
  const baseBody = base !== undefined ? JSON.stringify(base) : undefined;
  const cases: HostileCase[] = [];
  const add = (c: Omit<HostileCase, 'operationId' | 'method'> & { method?: string }) =>
    cases.push({ operationId, method, ...c });

  add({ label: 'baseline', target: withQuery(path, query), headers: baseHeaders, body: baseBody });

  for (const name of op.pathParams) {
    for (const [label, value, nul] of PATH_VALUES) {
      add({
        label: `path.${name}: ${label}`,
        target: withQuery(
          pathOf(op, (p) => (p === name ? value : id)),
          query,
        ),
        headers: baseHeaders,
        body: baseBody,
        ...(nul ? { nulField: `path:${name}` } : {}),
      });
    }
  }

  for (const name of op.queryParams) {
    const valid = String(sample(parameterSchema(op, name), name, fixtures));
    const others = query.filter((pair) => !pair.startsWith(`${name}=`));
    for (const [label, pairs, nul] of queryValues(name, valid)) {
      add({
        label: `query.${name}: ${label}`,
        target: withQuery(path, [...others, pairs]),
        headers: baseHeaders,
        body: baseBody,
        ...(nul ? { nulField: `query:${name}` } : {}),
      });
    }
  }
  const instants = instantFieldsOf(op);
  for (const name of instants.query) {
    const others = query.filter((pair) => !pair.startsWith(`${name}=`));
    for (const [label, value] of REFUSED_INSTANTS) {
      add({
        label: `query.${name}: ${label}`,
        target: withQuery(path, [...others, `${name}=${encodeURIComponent(value)}`]),
        headers: baseHeaders,
        body: baseBody,
        refusedField: `query:${name}`,
      });
    }
  }
  for (const [label, pair] of [
    ['__proto__[polluted]', '__proto__%5Bpolluted%5D=1'],
    ['constructor[prototype][polluted]', 'constructor%5Bprototype%5D%5Bpolluted%5D=1'],
    ['api_key in the query string', 'api_key=mk_live_notarealkeynotarealkeynotareal00'],
    ['unknown parameter with NUL name', 'a%00b=1'],
  ] as const) {
    add({
      label: `query: ${label}`,
      target: withQuery(path, [...query, pair]),
      headers: baseHeaders,
      body: baseBody,
    });
  }

  for (const name of op.headerParams) {
    for (const [label, value] of HEADER_VALUES[name] ?? [['8,000 characters', 'h'.repeat(8_000)]]) {
      add({
        label: `header.${name}: ${label}`,
        target: withQuery(path, query),
        headers: { ...baseHeaders, [name]: value },
        body: baseBody,
      });
    }
  }

  if (base !== undefined) {
    const wholeBodies: [string, string, Record<string, string>][] = [
      ['empty', '', json],
      ['null', 'null', json],
      ['array', '[]', json],
      ['string', '"text"', json],
      ['number', '1e308', json],
      ['truncated', '{"a":', json],
      ['10,000-deep array', deepArray, json],
      ['10,000-deep object', deepObject, json],
      ['__proto__ key', JSON.stringify(base).replace(/^\{/, '{"__proto__":{"polluted":true},'), json],
      [
        'constructor.prototype key',
        JSON.stringify(base).replace(/^\{/, '{"constructor":{"prototype":{"polluted":true}},'),
        json,
      ],
      ['charset=utf-16', baseBody ?? '', { 'content-type': 'application/json; charset=utf-16' }],
      ['charset=latin1', baseBody ?? '', { 'content-type': 'application/json; charset=latin1' }],
      ['text/plain', baseBody ?? '', { 'content-type': 'text/plain' }],
      ['form-urlencoded', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['over 1 MiB', JSON.stringify({ ...base, pad: 'x'.repeat(1_100_000) }), json],
    ];
    for (const [label, body, headers] of wholeBodies) {
      add({ label: `body: ${label}`, target: withQuery(path, query), headers, body });
    }

    const schema = bodySchemaOf(op) ?? {};
    for (const property of Object.keys((schema.properties ?? {}) as Schema)) {
      for (const [label, raw, nul] of propertyValues()) {
        const body = JSON.stringify(withProperty(base, schema, property, RAW)).replace(`"${RAW}"`, () => raw);
        add({
          label: `body.${property}: ${label}`,
          target: withQuery(path, query),
          headers: json,
          body,
          // Named as the property or below it: `/tags/0` for an item, `/tags` when the type is wrong.
          ...(nul ? { nulField: `body:/${property}` } : {}),
        });
      }
    }
    for (const property of instants.body) {
      for (const [label, value] of REFUSED_INSTANTS) {
        add({
          label: `body.${property}: ${label}`,
          target: withQuery(path, query),
          headers: json,
          body: JSON.stringify(withProperty(base, schema, property, value)),
          refusedField: `body:/${property}`,
        });
      }
    }
  }

  if (method === 'GET')
    add({ label: 'HEAD as GET', method: 'HEAD', target: withQuery(path, query), headers: {} });
  // A DELETE's baseline removes the record the other cases name: it goes last.
  if (method === 'DELETE') cases.push(cases.shift() as HostileCase);
  return cases;
}
