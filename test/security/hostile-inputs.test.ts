/**
 * The hostile-input suite (docs/design.md, Limits): the cases of cases.ts against every operation of the spec, on
 * SQLite and, when TEST_DATABASE_URL is set, on Postgres, each over the real server and real HTTP. Every answer
 * must be below 500 (an operation still listed in test/schemathesis-exclude.txt may answer 501 `not_implemented`,
 * and nothing else), every error a problem+json document whose `status` and `requestId` match the response, no body
 * may show a stack trace or SQL, and no request may pollute `Object.prototype` (the server runs in this process). A
 * NUL in any string input must answer 400 naming that field, and so must a leap second or an instant outside years
 * 0001–9999 in UTC in any `date-time` input (docs/design.md, Conventions on the wire: instants).
 *
 * Two properties of the hardening are held too: a valid key is never locked out by the failed-authentication
 * limit, and 50 concurrent PATCHes serialise, with If-Match losers answered 412.
 *
 * Each database's counts (requests, and requests by status) are printed at the end of its run.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import { type OperationId, operationTable } from '../../generated/operations.js';
import { systemActor } from '../../server/services/context.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { casesOf, type Fixtures, type HostileCase } from './cases.js';
import { consoleOperations } from './spec-schemas.js';

/** Operations that still answer 501 (the list schemathesis skips, kept true by test/contract/errors.test.ts). */
const NOT_IMPLEMENTED = new Set(
  fs
    .readFileSync(new URL('../schemathesis-exclude.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean),
);

const DATABASES: ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

/** Every operation, in the table's order, with the DELETEs last: they remove the records the others name. */
const OPERATIONS = (Object.keys(operationTable) as OperationId[]).sort(
  (a, b) => Number(operationTable[a].method === 'DELETE') - Number(operationTable[b].method === 'DELETE'),
);

/** A stack frame, a source location or a server path. */
const STACK = /\bat\s+\S+\s+\(|\bat\s+(?:file:)?\/|\.[cm]?[jt]s:\d+|node_modules|\/work\//;

/** SQL or driver text: statements, driver and database error wording. */
const SQL =
  /\b(?:SQLITE_[A-Z]+|sqlite3?|SQLSTATE|knex|syntax error at or near|violates [a-z -]+ constraint|duplicate key value|relation "[^"]*"|column "[^"]*"|invalid byte sequence|invalid input syntax|select\s+[\w*,\s."]+\s+from\s+\w+|insert\s+into\s+\w+|update\s+\w+\s+set\s|delete\s+from\s+\w+)/gi;

interface Outcome {
  status: number;
  contentType: string;
  text: string;
  requestId: string | null;
}

/** The console's `/auth/*` operations (outside the operation table), sign-out and DELETEs last. */
const CONSOLE_OPERATIONS = Object.entries(consoleOperations()).sort(
  ([a, x], [b, y]) =>
    Number(x.method === 'DELETE' || a === 'signOut') - Number(y.method === 'DELETE' || b === 'signOut'),
);

/**
 * Sends a case; `auth` is the request's credentials: an API key (`/v1`), or a console session cookie and the
 * same-origin `Origin` a browser sends (`/auth/*`, whose paths are relative to the server root).
 */
async function send(
  baseUrl: string,
  auth: string | Record<string, string>,
  c: HostileCase,
): Promise<Outcome> {
  const credentials = typeof auth === 'string' ? { authorization: `Bearer ${auth}` } : auth;
  const res = await fetch(`${baseUrl}${c.target}`, {
    method: c.method,
    headers: { ...credentials, ...c.headers },
    ...(c.body !== undefined ? { body: c.body } : {}),
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await res.text(),
    requestId: res.headers.get('x-request-id'),
  };
}

/** What is wrong with one answer (empty when nothing is). */
function judge(c: HostileCase, r: Outcome, nulExpected: boolean): string[] {
  const wrong: string[] = [];
  const notBuilt = NOT_IMPLEMENTED.has(c.operationId) && r.status === 501;
  if (r.status >= 500 && !notBuilt) wrong.push(`answered ${r.status}`);
  if (r.status >= 400 && c.method !== 'HEAD') {
    if (!/^application\/problem\+json/.test(r.contentType))
      wrong.push(`${r.status} as ${r.contentType || 'no type'}`);
    else {
      const problem = JSON.parse(r.text) as {
        status?: number;
        code?: string;
        requestId?: string;
        errors?: unknown;
      };
      if (problem.status !== r.status) wrong.push(`problem status ${problem.status} on a ${r.status}`);
      if (typeof problem.code !== 'string') wrong.push('problem without code');
      if (!problem.requestId || problem.requestId !== r.requestId)
        wrong.push('problem requestId ≠ X-Request-Id');
      if (notBuilt && problem.code !== 'not_implemented') wrong.push(`501 with code ${problem.code}`);
    }
  }
  if (r.status < 300 && r.status !== 204 && c.method !== 'HEAD' && !/^application\/json/.test(r.contentType))
    wrong.push(`${r.status} as ${r.contentType || 'no type'}`);
  if (STACK.test(r.text)) wrong.push(`stack trace or source path in the body: ${STACK.exec(r.text)?.[0]}`);
  const sent = `${decodeURIComponentSafe(c.target)} ${c.body ?? ''}`.toLowerCase();
  for (const [found] of r.text.matchAll(SQL))
    if (!sent.includes(found.toLowerCase())) wrong.push(`SQL text in the body: ${found}`);
  if (Object.hasOwn(Object.prototype, 'polluted') || ({} as { polluted?: unknown }).polluted !== undefined)
    wrong.push('Object.prototype polluted');
  if (c.nulField && nulExpected) {
    if (r.status !== 400) wrong.push(`NUL answered ${r.status}, not 400`);
    else {
      const errors = (
        (JSON.parse(r.text) as { errors?: { location: string; path: string }[] }).errors ?? []
      ).map((e) => `${e.location}:${e.path}`);
      // The field itself, a member of a body field, or an item of an array query parameter (`query:status.0`).
      const named = errors.some(
        (e) => e === c.nulField || e.startsWith(`${c.nulField}/`) || e.startsWith(`${c.nulField}.`),
      );
      if (!named) wrong.push(`NUL answered 400 without naming ${c.nulField} (named ${errors.join(', ')})`);
    }
  }
  if (c.refusedField) {
    const errors =
      r.status === 400
        ? ((JSON.parse(r.text) as { errors?: { location: string; path: string }[] }).errors ?? []).map(
            (e) => `${e.location}:${e.path}`,
          )
        : [];
    if (!errors.includes(c.refusedField))
      wrong.push(
        `refused instant answered ${r.status} without naming ${c.refusedField} (${errors.join(', ')})`,
      );
  }
  return wrong;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Real records of the tenant for the path parameters and references of the cases. */
async function makeFixtures(baseUrl: string, key: string): Promise<Fixtures> {
  const post = async (path: string, body: unknown): Promise<{ id: string }> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { id: string };
    expect(res.status, `${path}: ${JSON.stringify(json)}`).to.equal(201);
    return json;
  };
  const resource = await post('/resources', { name: 'Hostile Resource', capacityHoursPerWeek: 40 });
  const project = await post('/projects', {
    name: 'Hostile Project',
    startDate: '2025-01-01',
    endDate: '2027-12-31',
    projectManagerId: resource.id,
  });
  const milestone = await post(`/projects/${project.id}/milestones`, { name: 'M', dueDate: '2026-06-30' });
  const risk = await post('/risks', { title: 'R', projectId: project.id, likelihood: 3, impact: 3 });
  const issue = await post('/issues', { title: 'I', projectId: project.id });
  const allocation = await post('/allocations', {
    resourceId: resource.id,
    projectId: project.id,
    startDate: '2026-01-01',
    endDate: '2026-03-31',
    allocationPercent: 50,
  });
  const report = await post(`/projects/${project.id}/status-reports`, {
    asOf: '2025-06-01',
    status: 'ON_TRACK',
  });
  const webhook = await post('/webhooks', { url: 'https://hooks.example.com/meridian', events: ['*'] });
  const apiKey = await post('/api-keys', { name: 'to be revoked', scopes: ['read'] });
  return {
    projects: project.id,
    resources: resource.id,
    milestones: milestone.id,
    risks: risk.id,
    issues: issue.id,
    allocations: allocation.id,
    'status-reports': report.id,
    webhooks: webhook.id,
    'api-keys': apiKey.id,
  };
}

for (const db of DATABASES) {
  describe(`hostile inputs against every operation (${db})`, function () {
    this.timeout(180_000);
    let server: TestServer;
    let key: string;
    let fixtures: Fixtures;
    const byStatus = new Map<number, number>();
    let requests = 0;
    const count = (status: number) => {
      requests += 1;
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    };

    before(async () => {
      server = await startTestServer({ db });
      // The suite's requests are not to meet the tenant rate limit (it has its own tests).
      key = (await server.createTenant(undefined, { rateLimitPerMinute: 100_000_000 })).keys.admin;
      fixtures = await makeFixtures(server.baseUrl, key);
    });
    after(async () => {
      const statuses = [...byStatus.entries()].sort(([a], [b]) => a - b);
      const total = (keep: (status: number) => boolean) =>
        statuses.filter(([status]) => keep(status)).reduce((sum, [, n]) => sum + n, 0);
      const notBuilt = total((status) => status === 501);
      console.log(
        `\n    hostile inputs (${db}): ${requests} requests; by status: ` +
          `${statuses.map(([status, n]) => `${status} × ${n}`).join(', ')}; ` +
          `5xx: ${total((status) => status >= 500 && status !== 501)}` +
          (notBuilt > 0
            ? ` (and ${notBuilt} × 501 not_implemented from ${[...NOT_IMPLEMENTED].join(', ')})`
            : ''),
      );
      await server?.close();
    });

    for (const operationId of OPERATIONS) {
      const { method, path } = operationTable[operationId];
      it(`${operationId} (${method} ${path}): no 5xx, problem+json errors, no stack trace or SQL, NUL refused`, async () => {
        const failures: string[] = [];
        let baseline: Outcome | undefined;
        let baselineAccepted = false;
        for (const c of casesOf(operationId, fixtures)) {
          const outcome = await send(server.baseUrl, key, c);
          count(outcome.status);
          if (c.label === 'baseline') {
            baseline = outcome;
            baselineAccepted = outcome.status !== 400 && outcome.status < 500;
            if (outcome.status === 400) failures.push(`baseline request refused: ${outcome.text}`);
          }
          // HEAD answers as the GET did (RFC 9110 §9.3.2), without a body.
          if (c.method === 'HEAD' && (outcome.status !== baseline?.status || outcome.text !== ''))
            failures.push(
              `HEAD → ${outcome.status} with ${outcome.text.length} body bytes (GET: ${baseline?.status})`,
            );
          for (const wrong of judge(c, outcome, baselineAccepted || method === 'DELETE'))
            failures.push(`${c.label} → ${wrong}`);
        }
        expect(failures, failures.slice(0, 20).join('\n')).to.deep.equal([]);
      });
    }

    for (const [operationId, op] of CONSOLE_OPERATIONS) {
      it(`${operationId} (${op.method} ${op.path}, console): no 5xx, problem+json errors, no stack trace or SQL, NUL refused`, async () => {
        const origin = new URL(server.baseUrl).origin;
        const { accounts, signIn } = server.meridian.services;
        const tenantId = (await server.createTenant()).tenantId;
        const { account } = await accounts.findOrCreate(systemActor(tenantId), {
          tenantId,
          email: `hostile-${randomUUID().slice(0, 8)}@example.com`,
          role: 'admin',
        });
        const failures: string[] = [];
        for (const c of casesOf(operationId, {}, op)) {
          // A session of its own for every case (sign-out and "everywhere" end them); started without the HTTP
          // sign-in, which the cases' wrong passwords throttle.
          const { secret } = await signIn.startSignedIn(
            account,
            { userAgent: null, address: null },
            null,
            'test',
          );
          const outcome = await send(origin, { origin, cookie: `__Host-meridian_session=${secret}` }, c);
          count(outcome.status);
          for (const wrong of judge(c, outcome, true)) failures.push(`${c.label} → ${wrong}`);
        }
        expect(failures, failures.slice(0, 20).join('\n')).to.deep.equal([]);
      });
    }

    it('never refuses a valid key from an address over its failed-authentication limit', async () => {
      const other = (await server.createTenant(undefined, { rateLimitPerMinute: 100_000_000 })).keys.read;
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`${server.baseUrl}/me`, {
          headers: { authorization: `Bearer mk_live_${'0'.repeat(40)}` },
        });
        await res.arrayBuffer();
        count(res.status);
        statuses.push(res.status);
      }
      // Over the limit the address's failures get 429 …
      expect(statuses.slice(-5)).to.deep.equal([429, 429, 429, 429, 429]);
      // … and valid keys of every tenant still pass.
      for (const valid of [key, other]) {
        const res = await fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${valid}` } });
        await res.arrayBuffer();
        count(res.status);
        expect(res.status).to.equal(200);
      }
    });

    it('serialises 50 concurrent PATCHes: all succeed without If-Match; with one If-Match, one wins and 49 get 412', async () => {
      const patch = async (id: string, body: unknown, ifMatch?: string) => {
        const res = await fetch(`${server.baseUrl}/projects/${id}`, {
          method: 'PATCH',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            ...(ifMatch ? { 'if-match': ifMatch } : {}),
          },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        count(res.status);
        return res.status;
      };
      const create = async () => {
        const res = await fetch(`${server.baseUrl}/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Contended', startDate: '2026-01-01', endDate: '2026-12-31' }),
        });
        count(res.status);
        return ((await res.json()) as { id: string }).id;
      };
      const free = await create();
      const unconditional = await Promise.all(
        Array.from({ length: 50 }, (_, i) => patch(free, { description: `writer ${i}` })),
      );
      expect(unconditional.filter((s) => s === 200)).to.have.length(50);
      const after = await fetch(`${server.baseUrl}/projects/${free}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      count(after.status);
      expect(((await after.json()) as { version: number }).version).to.equal(51);

      const raced = await create();
      const conditional = await Promise.all(
        Array.from({ length: 50 }, (_, i) => patch(raced, { description: `racer ${i}` }, '"1"')),
      );
      expect(conditional.filter((s) => s === 200)).to.have.length(1);
      expect(conditional.filter((s) => s === 412)).to.have.length(49);
    });
  });
}
