/**
 * Contract tests of the spec's "Requests and responses" rules and of an empty PATCH ("Updates and concurrency"), as
 * hardened against hostile input (docs/design.md, Limits): NUL in any string input (400 naming the field, on both
 * databases), JSON only in UTF-8 (415), `{}` as a no-op and a missing body as 400, and `Cache-Control: no-store`.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { headerOf, rawExchange } from '../support/raw-http.js';
import { makeProject, makeRisk, uniq } from '../support/records.js';
import { TEST_DB } from '../support/server.js';
import { contractSuite } from '../support/suite.js';

describe(`Requests and responses (${TEST_DB})`, () => {
  const ctx = contractSuite();

  describe('NUL characters', () => {
    it('refuses NUL in a body string with 400 naming the field, and stores nothing', async () => {
      const res = await ctx.admin.post('createProject', '/projects', {
        body: { name: 'Pier\u000042', startDate: '2026-01-01', endDate: '2026-12-31' },
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(problem)).to.deep.equal(['body:/name']);
      expect(problem.errors[0].message).to.match(/NUL/);
      expect((await ctx.admin.get('listProjects', '/projects')).body.pagination.total).to.equal(0);
    });

    it('names every field with NUL, array items by index, in creates and updates', async () => {
      const project = await makeProject(ctx.admin);
      const created = await ctx.admin.post('createRisk', '/risks', {
        body: {
          title: 'Flood\u0000',
          projectId: project.id,
          likelihood: 2,
          impact: 2,
          mitigation: '\u0000',
          description: 'ok',
        },
      });
      expect(fieldErrors(expectProblem(created, 400, 'validation_failed')).sort()).to.deep.equal([
        'body:/mitigation',
        'body:/title',
      ]);
      const updated = await ctx.admin.patch('updateProject', `/projects/${project.id}`, {
        body: { description: 'a\u0000b', tags: ['ok', 'b\u0000d'] },
      });
      expect(fieldErrors(expectProblem(updated, 400, 'validation_failed')).sort()).to.deep.equal([
        'body:/description',
        'body:/tags/1',
      ]);
      const got = await ctx.admin.get('getProject', `/projects/${project.id}`);
      expect(got.body).to.include({ version: 1, description: null });
      const risk = await makeRisk(ctx.admin, project.id);
      const patchedRisk = await ctx.admin.patch('updateRisk', `/risks/${risk.id}`, {
        body: { mitigation: 'x\u0000' },
      });
      expect(fieldErrors(expectProblem(patchedRisk, 400, 'validation_failed'))).to.deep.equal([
        'body:/mitigation',
      ]);
    });

    it('refuses NUL in string filters, naming the query parameter', async () => {
      for (const [operationId, path, name] of [
        ['listProjects', '/projects', 'borough'],
        ['listProjects', '/projects', 'managingAgency'],
        ['listResources', '/resources', 'role'],
        ['listResources', '/resources', 'skill'],
      ] as const) {
        const res = await ctx.admin.get(operationId, path, { query: { [name]: 'Brook\u0000lyn' } });
        expect(fieldErrors(expectProblem(res, 400, 'validation_failed')), name).to.deep.equal([
          `query:${name}`,
        ]);
      }
    });

    it('refuses NUL in a path parameter and in a header value (the HTTP parser: 400 as problem+json)', async () => {
      expectProblem(await ctx.admin.get('getProject', '/projects/%00'), 400, 'validation_failed');
      const raw = await rawExchange(
        ctx.server.baseUrl,
        `GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.tenant.keys.read}\r\nIdempotency-Key: a\u0000b\r\n\r\n`,
      );
      expect(raw.status).to.equal(400);
      expect(headerOf(raw.headers, 'content-type')).to.match(/^application\/problem\+json/);
      const problem = JSON.parse(raw.body);
      expect(problem).to.include({ status: 400, code: 'validation_failed' });
      expect(problem.requestId).to.equal(headerOf(raw.headers, 'x-request-id'));
    });
  });

  describe('bodies', () => {
    it('answers 415 to JSON in a charset other than UTF-8, and accepts charset=utf-8', async () => {
      const body = JSON.stringify({ name: uniq('P'), startDate: '2026-01-01', endDate: '2026-12-31' });
      for (const type of ['application/json; charset=utf-16', 'application/json; charset=ISO-8859-1']) {
        const res = await ctx.admin.post('createProject', '/projects', {
          rawBody: body,
          headers: { 'content-type': type },
        });
        expect(expectProblem(res, 415, 'unsupported_media_type').detail, type).to.match(/UTF-8/);
      }
      for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"']) {
        const res = await ctx.admin.post('createProject', '/projects', {
          rawBody: body,
          headers: { 'content-type': type },
        });
        expect(res.status, type).to.equal(201);
      }
    });

    it('treats PATCH {} as a no-op on every kind of record: 200, same version and ETag, no audit entry', async () => {
      const project = await makeProject(ctx.admin);
      const risk = await makeRisk(ctx.admin, project.id);
      const made = async (path: string, body: unknown) => {
        const res = await ctx.admin.post(null, path, { body });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        return res.body;
      };
      const resource = await made('/resources', { name: 'R' });
      const records = {
        [`/projects/${project.id}`]: 'updateProject',
        [`/risks/${risk.id}`]: 'updateRisk',
        [`/milestones/${(await made(`/projects/${project.id}/milestones`, { name: 'M', dueDate: '2026-05-01' })).id}`]:
          'updateMilestone',
        [`/issues/${(await made('/issues', { projectId: project.id, title: 'I' })).id}`]: 'updateIssue',
        [`/resources/${resource.id}`]: 'updateResource',
        [`/allocations/${(await made('/allocations', { resourceId: resource.id, projectId: project.id, startDate: '2026-02-01', endDate: '2026-02-28', allocationPercent: 20 })).id}`]:
          'updateAllocation',
        [`/webhooks/${(await made('/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).id}`]:
          'updateWebhook',
      } as const;
      const audited = async () =>
        (await ctx.admin.get('listAuditLogs', '/audit-logs', { query: { limit: 100 } })).body.pagination
          .total;
      const before = await audited();
      for (const [path, operationId] of Object.entries(records)) {
        const was = await ctx.admin.get(null, path);
        const res = await ctx.admin.patch(operationId, path, { body: {} });
        expect(res.status, path).to.equal(200);
        expect(res.body.version, path).to.equal(was.body.version);
        expect(res.headers.get('etag'), path).to.equal(was.headers.get('etag'));
        expect(res.body.updatedAt, path).to.equal(was.body.updatedAt);
        // After the If-Match check: a stale ETag still answers 412.
        const stale = await ctx.admin.patch(operationId, path, {
          body: {},
          headers: { 'if-match': '"999"' },
        });
        expectProblem(stale, 412, 'precondition_failed');
      }
      expect(await audited()).to.equal(before);
    });

    it('answers 400 naming the body to a PATCH with no body at all, and 415 without a JSON Content-Type', async () => {
      const project = await makeProject(ctx.admin);
      const empty = await ctx.admin.patch('updateProject', `/projects/${project.id}`, {
        rawBody: '',
        headers: { 'content-type': 'application/json' },
      });
      expect(fieldErrors(expectProblem(empty, 400, 'validation_failed'))).to.deep.equal(['body:/']);
      expectProblem(
        await ctx.admin.patch('updateProject', `/projects/${project.id}`),
        415,
        'unsupported_media_type',
      );
      expect((await ctx.admin.get('getProject', `/projects/${project.id}`)).body.version).to.equal(1);
    });
  });

  describe('Cache-Control', () => {
    it('sends no-store on every response under /v1, the 201s with a new API key or webhook secret first', async () => {
      const key = await ctx.admin.post('createApiKey', '/api-keys', {
        body: { name: 'CI', scopes: ['read'] },
      });
      expect(key.status).to.equal(201);
      const hook = await ctx.admin.post('createWebhook', '/webhooks', {
        body: { url: 'https://hooks.example.com/x', events: ['*'] },
      });
      expect(hook.status).to.equal(201);
      const rotated = await ctx.admin.post('rotateWebhookSecret', `/webhooks/${hook.body.id}/rotate-secret`);
      expect(rotated.status).to.equal(200);
      const responses = [
        key,
        hook,
        rotated,
        await ctx.admin.get('listProjects', '/projects'),
        await ctx.admin.get('getMe', '/me'),
        await ctx.admin.get('getProject', `/projects/${randomUUID()}`), // 404
        await ctx.as(null).get('listProjects', '/projects'), // 401
      ];
      for (const res of responses)
        expect(res.headers.get('cache-control'), String(res.status)).to.equal('no-store');
      // The served spec is public and may be cached.
      const spec = await fetch(`${ctx.server.baseUrl}/openapi.json`);
      expect(spec.headers.get('cache-control')).to.not.equal('no-store');
    });
  });
});
