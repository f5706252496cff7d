/**
 * Cross-cutting contract tests of problem documents and request ids, and of the framework-level errors (404, 405,
 * 413, 415, malformed JSON, unknown query parameters).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { call } from '../support/client.js';
import { makeProject } from '../support/records.js';
import { contractSuite } from '../support/suite.js';

describe('Cross-cutting errors: problem documents', () => {
  const ctx = contractSuite();

  describe('problem documents and request ids', () => {
    it('puts the generated request id in X-Request-Id on success and error responses', async () => {
      const ok = await ctx.api.get('listProjects', '/projects');
      const okId = ok.headers.get('x-request-id');
      expect(okId).to.be.a('string').with.length.greaterThan(0);
      const bad = await ctx.api.get('getProject', `/projects/${randomUUID()}`);
      const body = expectProblem(bad, 404, 'not_found');
      expect(body.requestId).not.to.equal(okId);
    });

    it('echoes a client-sent X-Request-Id on success and in problem bodies', async () => {
      const headers = { 'X-Request-Id': 'my-trace-123' };
      const ok = await ctx.api.get('listProjects', '/projects', { headers });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('x-request-id')).to.equal('my-trace-123');
      const bad = await ctx.api.get('getProject', `/projects/${randomUUID()}`, { headers });
      const body = expectProblem(bad, 404, 'not_found');
      expect(body.requestId).to.equal('my-trace-123');
      const unauth = await ctx.as(null).get('listProjects', '/projects', { headers });
      expect(expectProblem(unauth, 401, 'unauthenticated').requestId).to.equal('my-trace-123');
    });

    it('replaces an unusable client X-Request-Id with a generated one', async () => {
      const res = await ctx.api.get('listProjects', '/projects', {
        headers: { 'X-Request-Id': 'has spaces in it' },
      });
      const id = res.headers.get('x-request-id');
      expect(id).to.be.a('string').and.not.equal('has spaces in it');
      expect(id).to.match(/^[A-Za-z0-9._:-]+$/);
    });

    it('answers 404 for an unknown path under /v1', async () => {
      const res = await ctx.api.get(null, '/no-such-thing');
      const body = expectProblem(res, 404, 'not_found');
      expect(body.instance).to.equal('/v1/no-such-thing');
    });

    it('answers 404 for a path outside /v1', async () => {
      const root = ctx.server.baseUrl.replace(/\/v1$/, '');
      const res = await call(root, null, 'GET', '/projects', { key: ctx.tenant.keys.read });
      expectProblem(res, 404, 'not_found');
    });

    it('answers 405 with Allow for PUT /projects', async () => {
      const res = await ctx.api.put(null, '/projects', { body: { name: 'x' } });
      const body = expectProblem(res, 405, 'method_not_allowed');
      const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow).to.include.members(['GET', 'POST']);
      expect(allow).not.to.include('PUT');
      expect(body.instance).to.equal('/v1/projects');
    });

    it('answers 405 with Allow for DELETE /projects/{id}', async () => {
      const p = await makeProject(ctx.api);
      const res = await ctx.api.delete(null, `/projects/${p.id}`);
      expectProblem(res, 405, 'method_not_allowed');
      const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow).to.include.members(['GET', 'PATCH']);
      const still = await ctx.api.get('getProject', `/projects/${p.id}`);
      expect(still.status).to.equal(200);
    });

    it('answers 413 for a JSON body over 1 MiB', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        body: {
          name: 'big',
          startDate: '2026-01-01',
          endDate: '2026-02-01',
          description: 'x'.repeat(1_100_000),
        },
      });
      expectProblem(res, 413, 'payload_too_large');
      const list = await ctx.api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('judges a large body under 1 MiB on its content (400, not 413)', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        body: {
          name: 'big',
          startDate: '2026-01-01',
          endDate: '2026-02-01',
          description: 'x'.repeat(900_000),
        },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.include('body:/description');
    });

    it('answers 415 for a text/plain body', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        rawBody: JSON.stringify({ name: 'x', startDate: '2026-01-01', endDate: '2026-02-01' }),
        headers: { 'content-type': 'text/plain' },
      });
      expectProblem(res, 415, 'unsupported_media_type');
      const list = await ctx.api.get('listProjects', '/projects');
      expect(list.body.pagination.total).to.equal(0);
    });

    it('answers 400 for malformed JSON', async () => {
      const res = await ctx.api.post('createProject', '/projects', {
        rawBody: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(body.errors).to.deep.equal([{ location: 'body', path: '/', message: 'malformed JSON' }]);
    });

    it('answers 400 for an unknown query parameter, naming it', async () => {
      const res = await ctx.api.get('listProjects', '/projects', { query: { orderBy: 'name' } });
      const body = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(body)).to.deep.equal(['query:orderBy']);
      expect(body.detail).to.contain('orderBy');
    });

    it('never leaks a stack trace or source path in any problem detail', async () => {
      const responses = [
        await ctx.api.post('createProject', '/projects', {
          rawBody: '{',
          headers: { 'content-type': 'application/json' },
        }),
        await ctx.api.post('createProject', '/projects', { body: { name: 1 } }),
        await ctx.api.get('getProject', '/projects/zzz'),
        await ctx.api.get('getProject', `/projects/${randomUUID()}`),
        await ctx.api.patch('updateProject', `/projects/${randomUUID()}`, { body: { name: 'x' } }),
        await ctx.api.post('createRisk', '/risks', {
          body: { title: 't', projectId: randomUUID(), likelihood: 1, impact: 1 },
        }),
        await ctx.api.get(null, '/nope'),
        await ctx.api.put(null, '/projects', { body: {} }),
        await ctx.as('garbage').get('listProjects', '/projects'),
      ];
      for (const res of responses) {
        expect(res.status).to.be.at.least(400);
        expectProblem(res, res.status, res.body.code);
        expect(String(res.body.detail)).not.to.match(/\bat \S+ \(|\.ts:\d+|\.js:\d+|\/ctx.server\//);
      }
    });
  });
});
