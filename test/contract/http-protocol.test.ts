/**
 * Contract tests of HTTP itself as the server speaks it: HEAD answered as GET, `Allow` listing HEAD, problem+json
 * for what Node's HTTP parser refuses (431 for 100 KB of query string, 400 for a NUL in a header), and query-string
 * secrets redacted in the access log.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { pino } from 'pino';
import { redactUrl } from '../../server/http/middleware.js';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { headerOf, rawExchange } from '../support/raw-http.js';
import { makeProject, uniq } from '../support/records.js';
import { TEST_DB } from '../support/server.js';
import { contractSuite } from '../support/suite.js';

/** The access log as the server writes it, read back line by line. */
const logLines: Record<string, any>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

describe(`HTTP protocol (${TEST_DB})`, () => {
  const ctx = contractSuite({ logger: pino({ level: 'info' }, sink) });

  describe('HEAD and Allow', () => {
    it('answers HEAD as GET without a body: status, Content-Type, Content-Length, ETag, 304 and 404', async () => {
      const project = await makeProject(ctx.admin);
      const get = await fetch(`${ctx.server.baseUrl}/projects/${project.id}`, {
        headers: { authorization: `Bearer ${ctx.tenant.keys.read}` },
      });
      const getBody = await get.text();
      const head = await fetch(`${ctx.server.baseUrl}/projects/${project.id}`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${ctx.tenant.keys.read}` },
      });
      expect(head.status).to.equal(200);
      expect(await head.text()).to.equal('');
      for (const name of ['content-type', 'etag', 'cache-control', 'ratelimit-policy'])
        expect(head.headers.get(name), name).to.equal(get.headers.get(name));
      expect(head.headers.get('content-length')).to.equal(String(Buffer.byteLength(getBody)));
      const notModified = await fetch(`${ctx.server.baseUrl}/projects/${project.id}`, {
        method: 'HEAD',
        headers: {
          authorization: `Bearer ${ctx.tenant.keys.read}`,
          'if-none-match': get.headers.get('etag') ?? '',
        },
      });
      expect(notModified.status).to.equal(304);
      const list = await fetch(`${ctx.server.baseUrl}/projects?limit=1`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${ctx.tenant.keys.read}` },
      });
      expect(list.status).to.equal(200);
      const missing = await fetch(`${ctx.server.baseUrl}/projects/${randomUUID()}`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${ctx.tenant.keys.read}` },
      });
      expect(missing.status).to.equal(404);
      expect(missing.headers.get('content-type')).to.match(/^application\/problem\+json/);
      const anonymous = await fetch(`${ctx.server.baseUrl}/projects`, { method: 'HEAD' });
      expect(anonymous.status).to.equal(401);
    });

    it('lists HEAD in Allow wherever GET is allowed, and answers 405 to HEAD where it is not', async () => {
      const allow = async (method: string, path: string) => {
        const res = await fetch(`${ctx.server.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${ctx.tenant.keys.admin}` },
        });
        expect(res.status, `${method} ${path}`).to.equal(405);
        return (res.headers.get('allow') ?? '')
          .split(',')
          .map((m) => m.trim())
          .sort();
      };
      const project = await makeProject(ctx.admin);
      expect(await allow('PUT', '/projects')).to.deep.equal(['GET', 'HEAD', 'POST']);
      expect(await allow('DELETE', `/projects/${project.id}`)).to.deep.equal(['GET', 'HEAD', 'PATCH']);
      expect(await allow('OPTIONS', '/me')).to.deep.equal(['GET', 'HEAD']);
      const hook = (
        await ctx.admin.post('createWebhook', '/webhooks', {
          body: { url: 'https://hooks.example.com/x', events: ['*'] },
        })
      ).body;
      expect(await allow('HEAD', `/webhooks/${hook.id}/rotate-secret`)).to.deep.equal(['POST']);
    });
  });

  describe('what the HTTP parser refuses', () => {
    it('answers a 100 KB query string with a problem+json 431, not an empty body', async () => {
      const raw = await rawExchange(
        ctx.server.baseUrl,
        `GET /v1/projects?borough=${'x'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.tenant.keys.read}\r\n\r\n`,
      );
      expect(raw.status).to.equal(431);
      expect(headerOf(raw.headers, 'content-type')).to.match(/^application\/problem\+json/);
      expect(headerOf(raw.headers, 'cache-control')).to.equal('no-store');
      const problem = JSON.parse(raw.body);
      expect(problem).to.include({ status: 431, code: 'request_header_fields_too_large' });
      expect(problem.requestId).to.equal(headerOf(raw.headers, 'x-request-id'));
      expect(Number(headerOf(raw.headers, 'content-length'))).to.equal(Buffer.byteLength(raw.body));
    });

    it('answers the 431 on a keep-alive connection after an earlier response too', async () => {
      const raw = await rawExchange(
        ctx.server.baseUrl,
        `GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.tenant.keys.read}\r\n\r\n`,
        `GET /v1/projects?borough=${'x'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(raw.status).to.equal(200);
      const second = /HTTP\/1\.1 431 [^\r]*\r\n[\s\S]*?\r\n\r\n(\{.*\})$/.exec(raw.body);
      expect(second, raw.body.slice(-400)).to.not.equal(null);
      expect(JSON.parse(second?.[1] ?? '')).to.include({
        status: 431,
        code: 'request_header_fields_too_large',
      });
    });

    it('answers a malformed request line with a problem+json 400', async () => {
      const raw = await rawExchange(ctx.server.baseUrl, 'GET /v1/me HTTP/9.9 extra\r\n\r\n');
      expect(raw.status).to.equal(400);
      expect(JSON.parse(raw.body)).to.include({ status: 400, code: 'validation_failed' });
    });
  });

  describe('secrets in the query string', () => {
    it('refuses ?api_key= (400) and logs the path with every secret-looking parameter redacted', async () => {
      const secret = ctx.tenant.keys.admin;
      const res = await ctx.as(null).get(null, '/projects', {
        query: { api_key: secret, limit: 5 },
      });
      expect(res.status).to.equal(401);
      const refused = await ctx.admin.get('listProjects', '/projects', {
        query: { api_key: secret, limit: 5 },
      });
      expect(fieldErrors(expectProblem(refused, 400, 'validation_failed'))).to.deep.equal(['query:api_key']);
      await ctx.admin.get(null, '/projects', {
        query: { limit: 5, access_token: 'tok-123', 'X-Amz-Signature': 'sig-456' },
      });
      const lines = () => logLines.filter((l) => l.req?.url?.startsWith('/v1/projects?'));
      // A line is written when its response has finished, which can be just after the client has it.
      for (let i = 0; i < 50 && lines().length < 3; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(lines().length).to.be.at.least(3);
      const logged = JSON.stringify(logLines);
      for (const leaked of [secret, 'tok-123', 'sig-456']) expect(logged).to.not.contain(leaked);
      expect(lines().map((l) => l.req.url)).to.include.members([
        '/v1/projects?api_key=[REDACTED]&limit=5',
        '/v1/projects?limit=5&access_token=[REDACTED]&X-Amz-Signature=[REDACTED]',
      ]);
    });

    it('redacts parameters named like a secret, keeping the path and the other parameters as sent', () => {
      expect(redactUrl('/v1/projects')).to.equal('/v1/projects');
      expect(redactUrl('/v1/projects?status=AT_RISK&limit=5')).to.equal(
        '/v1/projects?status=AT_RISK&limit=5',
      );
      for (const name of [
        'key',
        'api_key',
        'apiKey',
        'token',
        'access_token',
        'secret',
        'client_secret',
        'password',
        'passwd',
        'signature',
        'sig',
        'auth',
        'Authorization',
        'session',
      ])
        expect(redactUrl(`/v1/me?${name}=s3cr3t&limit=1`), name).to.equal(
          `/v1/me?${name}=[REDACTED]&limit=1`,
        );
      expect(redactUrl('/v1/me?api%5Fkey=s3cr3t')).to.equal('/v1/me?api%5Fkey=[REDACTED]');
      expect(redactUrl('/v1/me?%E0%A4%A=1&token')).to.equal('/v1/me?%E0%A4%A=1&token=[REDACTED]');
    });

    it("masks Meridian's secrets by their form anywhere in the URL (mk_live_, mt_, whsec_), whatever the name", () => {
      const key = `mk_live_${'a1B2'.repeat(10)}`;
      expect(redactUrl(`/v1/me?foo=${key}&limit=1`)).to.equal('/v1/me?foo=mk_live_[REDACTED]&limit=1');
      expect(redactUrl(`/v1/projects/${key}`)).to.equal('/v1/projects/mk_live_[REDACTED]');
      expect(redactUrl('/v1/me?q=whsec_c2VjcmV0+/=&x=mt_abc-DEF_123')).to.equal(
        '/v1/me?q=whsec_[REDACTED]&x=mt_[REDACTED]',
      );
      expect(redactUrl('/v1/me?q=mk%5Flive%5Fabc')).to.equal('/v1/me?q=mk%5Flive%5F[REDACTED]');
      // Not a token: `mt_` inside a word.
      expect(redactUrl('/v1/projects?q=format_mt_x')).to.equal('/v1/projects?q=format_mt_x');
    });

    it('never writes a key sent under any parameter name into the access log', async () => {
      const secret = ctx.tenant.keys.read;
      await ctx.as(null).get(null, '/me', { query: { foo: secret } });
      await ctx.as(null).get(null, `/projects/${secret}`);
      for (let i = 0; i < 50 && !logLines.some((l) => l.req?.url?.startsWith('/v1/projects/mk_live_')); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const logged = JSON.stringify(logLines);
      expect(logged).to.not.contain(secret);
      expect(logged).to.contain('/v1/me?foo=mk_live_[REDACTED]');
    });
  });

  describe('content encoding and path case', () => {
    const post = (body: Buffer | string, encoding: string) =>
      fetch(`${ctx.server.baseUrl}/projects`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ctx.tenant.keys.write}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body,
      });
    const json = () => JSON.stringify({ name: uniq('Gzip'), startDate: '2026-01-01', endDate: '2026-12-31' });

    it('reads a gzip body, and answers a body that is not what Content-Encoding says with a 400 saying so', async () => {
      expect((await post(zlib.gzipSync(json()), 'gzip')).status).to.equal(201);
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const res = await post(json(), encoding);
        const body = (await res.json()) as { status: number; code: string; detail: string };
        expect(res.status, encoding).to.equal(400);
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(body.code).to.equal('validation_failed');
        expect(body.detail).to.contain(`is not valid ${encoding} data (Content-Encoding: ${encoding})`);
      }
    });

    it('matches paths case-sensitively, as the spec writes them', async () => {
      const ok = await ctx.as(ctx.tenant.keys.read).get('listProjects', '/projects');
      expect(ok.status).to.equal(200);
      for (const path of ['/PROJECTS', '/Projects', '/ME']) {
        const res = await ctx.as(ctx.tenant.keys.read).get(null, path);
        expectProblem(res, 404, 'not_found');
      }
    });
  });
});
