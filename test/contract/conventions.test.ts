/**
 * Cross-cutting contract tests of conventions: rate-limit headers and 429, the served spec, and the operations
 * that still answer 501.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import YAML from 'yaml';
import { type OperationId, operationTable } from '../../generated/operations.js';
import { systemActor } from '../../server/services/context.js';
import { expectProblem } from '../support/assertions.js';
import { uniq } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

/**
 * The operations that still answer 501 `not_implemented`: read from test/schemathesis-exclude.txt, the one visible
 * list schemathesis skips. The tests below prove the file tells the truth: each listed operation answers 501, and
 * every other operation is built.
 */
const NOT_IMPLEMENTED = fs
  .readFileSync(new URL('../schemathesis-exclude.txt', import.meta.url), 'utf8')
  .split('\n')
  .map((line) => line.replace(/#.*/, '').trim())
  .filter(Boolean) as OperationId[];

/** Every other operation of the spec is built. */
const IMPLEMENTED = (Object.keys(operationTable) as OperationId[]).filter(
  (id) => !NOT_IMPLEMENTED.includes(id),
);

/** Minimal requests that pass the spec's request validation, so they reach the handler. */
const VALID_BODIES: Partial<Record<OperationId, unknown>> = {
  createProject: { name: 'Pier 42 rebuild', startDate: '2026-03-01', endDate: '2026-11-30' },
  updateProject: { name: 'Pier 42 rebuild (revised)' },
  createRisk: { title: 'Tidal flooding', projectId: randomUUID(), likelihood: 3, impact: 4 },
  updateRisk: { likelihood: 2 },
  createMilestone: { name: 'Permit approved', dueDate: '2026-05-30' },
  updateMilestone: { name: 'Permit approved (revised)' },
  createIssue: { projectId: randomUUID(), title: 'Crane delivery late' },
  updateIssue: { title: 'Crane delivery late (revised)' },
  createResource: { name: 'Marcus Oyelaran' },
  updateResource: { capacityHoursPerWeek: 32 },
  createAllocation: {
    resourceId: randomUUID(),
    projectId: randomUUID(),
    startDate: '2026-04-01',
    endDate: '2026-12-19',
    allocationPercent: 80,
  },
  updateAllocation: { allocationPercent: 50 },
  createApiKey: { name: 'CI', scopes: ['read'] },
  createWebhook: { url: 'https://hooks.example.com/meridian', events: ['project.status_changed'] },
  updateWebhook: { enabled: false },
  runAgent: { agentId: 'risk-assessment', scope: 'all', depth: 'standard' },
  askAgent: { question: 'Which projects are at risk of a budget overrun?' },
};
const VALID_QUERIES: Partial<Record<OperationId, Record<string, string>>> = {
  getResourceAvailability: { from: '2026-01-01', to: '2026-03-31', granularity: 'week' },
};

describe('Cross-cutting conventions', () => {
  const ctx = contractSuite();

  describe('rate limits (headers and 429)', () => {
    it('sends RateLimit and RateLimit-Policy on successful responses, counting down', async () => {
      const first = await ctx.api.get('listProjects', '/projects');
      const second = await ctx.api.get('getMe', '/me');
      for (const res of [first, second]) {
        expect(res.headers.get('ratelimit-policy')).to.match(/^"default";\s*q=1000;\s*w=60\b/);
        expect(res.headers.get('ratelimit')).to.match(/^"default";\s*r=\d+;\s*t=\d+/);
      }
      const remaining = (h: string | null) => Number(/r=(\d+)/.exec(h ?? '')?.[1]);
      expect(remaining(first.headers.get('ratelimit'))).to.equal(999);
      expect(remaining(second.headers.get('ratelimit'))).to.equal(998);
    });

    it('answers 429 rate_limited with Retry-After once a tenant’s quota is used up', async () => {
      const { tenants, apiKeys } = ctx.server.meridian.services;
      const { tenant: small } = await tenants.create({ name: uniq('Small'), rateLimitPerMinute: 2 });
      const { key } = await apiKeys.create(systemActor(small.id), { name: 'k', scopes: ['read'] });
      const limited = ctx.as(key);
      const a = await limited.get('listProjects', '/projects');
      const b = await limited.get('listProjects', '/projects');
      expect([a.status, b.status]).to.deep.equal([200, 200]);
      expect(a.headers.get('ratelimit-policy')).to.match(/q=2;\s*w=60/);
      expect(b.headers.get('ratelimit')).to.match(/r=0\b/);
      const c = await limited.get('listProjects', '/projects');
      expectProblem(c, 429, 'rate_limited');
      const retryAfter = Number(c.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 60);
      // Other tenants are not affected.
      expect((await ctx.api.get('listProjects', '/projects')).status).to.equal(200);
    });
  });

  describe('the served spec', () => {
    const spec = YAML.parse(
      fs.readFileSync(new URL('../../generated/openapi.yaml', import.meta.url), 'utf8'),
    );

    it('serves GET /v1/openapi.json without a key', async () => {
      const res = await ctx.as(null).get(null, '/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body.openapi).to.equal('3.1.0');
      expect(Object.keys(res.body.paths)).to.have.length(Object.keys(spec.paths).length);
      expect(res.body).to.deep.equal(spec);
    });

    it('serves GET /v1/openapi.yaml without a key', async () => {
      const res = await ctx.as(null).get(null, '/openapi.yaml');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/yaml/);
      expect(res.body).to.be.a('string');
      const parsed = YAML.parse(res.body);
      expect(parsed.openapi).to.equal('3.1.0');
      expect(Object.keys(parsed.paths)).to.have.length(Object.keys(spec.paths).length);
      expect(parsed).to.deep.equal(spec);
    });
  });

  describe('operations not built yet (501)', () => {
    it('lists only operationIds of the spec, each once', () => {
      const all = Object.keys(operationTable);
      expect(NOT_IMPLEMENTED.filter((id) => !all.includes(id))).to.deep.equal([]);
      expect(new Set(NOT_IMPLEMENTED).size).to.equal(NOT_IMPLEMENTED.length);
    });

    for (const operationId of IMPLEMENTED) {
      const { method, path } = operationTable[operationId];
      it(`${operationId} (${method} ${path}) is built: a valid request does not answer 501`, async () => {
        const admin = ctx.admin;
        const concrete = path.replace(/\{[^}]+\}/g, () => randomUUID());
        const body = VALID_BODIES[operationId];
        const query = VALID_QUERIES[operationId];
        const verb = method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
        const res = await admin[verb](operationId, concrete, {
          ...(body !== undefined ? { body } : {}),
          ...(query !== undefined ? { query } : {}),
        });
        expect(res.status, JSON.stringify(res.body)).to.not.equal(501);
        expect(res.status).to.be.below(500);
      });
    }

    for (const operationId of NOT_IMPLEMENTED) {
      const { method, path } = operationTable[operationId];
      it(`${operationId} (${method} ${path}) answers 501 not_implemented to a valid request`, async () => {
        const admin = ctx.admin;
        const concrete = path.replace(/\{[^}]+\}/g, () => randomUUID());
        const body = VALID_BODIES[operationId];
        const query = VALID_QUERIES[operationId];
        const verb = method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
        const res = await admin[verb](operationId, concrete, {
          ...(body !== undefined ? { body } : {}),
          ...(query !== undefined ? { query } : {}),
        });
        const problem = expectProblem(res, 501, 'not_implemented');
        expect(problem.instance).to.equal(`/v1${concrete}`);
      });
    }
  });
});
