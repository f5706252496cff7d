/**
 * Contract tests of the spec's "Requests and responses" rules and of an empty PATCH ("Updates and concurrency"),
 * from issue 13's review: NUL in any string input (400 naming the field, on both databases), JSON only in UTF-8
 * (415), `{}` as a no-op and a missing body as 400, HEAD answered as GET, `Allow` listing HEAD, `Cache-Control:
 * no-store`, problem+json for what Node's HTTP parser refuses (431 for 100 KB of query string, 400 for a NUL in a
 * header), and query-string secrets redacted in the access log.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { redactUrl } from '../../server/http/middleware.js';
import { client } from '../support/client.js';
import { startTestServer, TEST_DB, type TestServer, type TestTenant } from '../support/server.js';
import { type Api, expectProblem, fieldErrors, makeProject, makeRisk, uniq } from './helpers.js';

/**
 * Sends raw requests to the server over one connection, each after the answer to the one before has begun, and
 * reads everything it answers until it closes the connection. Returns the first answer's status, its head and
 * everything after it.
 */
async function rawExchange(
  baseUrl: string,
  ...requests: string[]
): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  const text = await new Promise<string>((resolve, reject) => {
    const pending = [...requests];
    const socket = net.connect(Number(port), hostname, () => {
      const next = pending.shift() ?? '';
      if (pending.length === 0) socket.end(next);
      else socket.write(next);
    });
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      out += chunk;
      const next = pending.shift();
      if (next !== undefined) {
        if (pending.length === 0) socket.end(next);
        else socket.write(next);
      }
    });
    socket.on('close', () => resolve(out));
    socket.on('error', (err: NodeJS.ErrnoException) => (out ? resolve(out) : reject(err)));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
  });
  const at = text.indexOf('\r\n\r\n');
  const head = at < 0 ? text : text.slice(0, at);
  const body = at < 0 ? '' : text.slice(at + 4);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body };
}

function headerOf(head: string, name: string): string | undefined {
  return new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim();
}

describe(`Requests and responses (${TEST_DB})`, () => {
  let server: TestServer;
  const logLines: Record<string, any>[] = [];
  before(async () => {
    // The access log as the server writes it, read back line by line.
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    });
    server = await startTestServer({ logger: pino({ level: 'info' }, sink) });
  });
  after(async () => server.close());

  let tenant: TestTenant;
  let api: Api;
  beforeEach(async () => {
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.admin);
  });

  describe('NUL characters (issue 13, item 2)', () => {
    it('refuses NUL in a body string with 400 naming the field, and stores nothing', async () => {
      const res = await api.post('createProject', '/projects', {
        body: { name: 'Pier\u000042', startDate: '2026-01-01', endDate: '2026-12-31' },
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(fieldErrors(problem)).to.deep.equal(['body:/name']);
      expect(problem.errors[0].message).to.match(/NUL/);
      expect((await api.get('listProjects', '/projects')).body.pagination.total).to.equal(0);
    });

    it('names every field with NUL, array items by index, in creates and updates', async () => {
      const project = await makeProject(api);
      const created = await api.post('createRisk', '/risks', {
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
      const updated = await api.patch('updateProject', `/projects/${project.id}`, {
        body: { description: 'a\u0000b', tags: ['ok', 'b\u0000d'] },
      });
      expect(fieldErrors(expectProblem(updated, 400, 'validation_failed')).sort()).to.deep.equal([
        'body:/description',
        'body:/tags/1',
      ]);
      const got = await api.get('getProject', `/projects/${project.id}`);
      expect(got.body).to.include({ version: 1, description: null });
      const risk = await makeRisk(api, project.id);
      const patchedRisk = await api.patch('updateRisk', `/risks/${risk.id}`, {
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
        const res = await api.get(operationId, path, { query: { [name]: 'Brook\u0000lyn' } });
        expect(fieldErrors(expectProblem(res, 400, 'validation_failed')), name).to.deep.equal([
          `query:${name}`,
        ]);
      }
    });

    it('refuses NUL in a path parameter and in a header value (the HTTP parser: 400 as problem+json)', async () => {
      expectProblem(await api.get('getProject', '/projects/%00'), 400, 'validation_failed');
      const raw = await rawExchange(
        server.baseUrl,
        `GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.keys.read}\r\nIdempotency-Key: a\u0000b\r\n\r\n`,
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
        const res = await api.post('createProject', '/projects', {
          rawBody: body,
          headers: { 'content-type': type },
        });
        expect(expectProblem(res, 415, 'unsupported_media_type').detail, type).to.match(/UTF-8/);
      }
      for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"']) {
        const res = await api.post('createProject', '/projects', {
          rawBody: body,
          headers: { 'content-type': type },
        });
        expect(res.status, type).to.equal(201);
      }
    });

    it('treats PATCH {} as a no-op on every kind of record: 200, same version and ETag, no audit entry', async () => {
      const project = await makeProject(api);
      const risk = await makeRisk(api, project.id);
      const made = async (path: string, body: unknown) => {
        const res = await api.post(null, path, { body });
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
        (await api.get('listAuditLogs', '/audit-logs', { query: { limit: 100 } })).body.pagination.total;
      const before = await audited();
      for (const [path, operationId] of Object.entries(records)) {
        const was = await api.get(null, path);
        const res = await api.patch(operationId, path, { body: {} });
        expect(res.status, path).to.equal(200);
        expect(res.body.version, path).to.equal(was.body.version);
        expect(res.headers.get('etag'), path).to.equal(was.headers.get('etag'));
        expect(res.body.updatedAt, path).to.equal(was.body.updatedAt);
        // After the If-Match check: a stale ETag still answers 412.
        const stale = await api.patch(operationId, path, { body: {}, headers: { 'if-match': '"999"' } });
        expectProblem(stale, 412, 'precondition_failed');
      }
      expect(await audited()).to.equal(before);
    });

    it('answers 400 naming the body to a PATCH with no body at all, and 415 without a JSON Content-Type', async () => {
      const project = await makeProject(api);
      const empty = await api.patch('updateProject', `/projects/${project.id}`, {
        rawBody: '',
        headers: { 'content-type': 'application/json' },
      });
      expect(fieldErrors(expectProblem(empty, 400, 'validation_failed'))).to.deep.equal(['body:/']);
      expectProblem(
        await api.patch('updateProject', `/projects/${project.id}`),
        415,
        'unsupported_media_type',
      );
      expect((await api.get('getProject', `/projects/${project.id}`)).body.version).to.equal(1);
    });
  });

  describe('HEAD and Allow', () => {
    it('answers HEAD as GET without a body: status, Content-Type, Content-Length, ETag, 304 and 404', async () => {
      const project = await makeProject(api);
      const get = await fetch(`${server.baseUrl}/projects/${project.id}`, {
        headers: { authorization: `Bearer ${tenant.keys.read}` },
      });
      const getBody = await get.text();
      const head = await fetch(`${server.baseUrl}/projects/${project.id}`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${tenant.keys.read}` },
      });
      expect(head.status).to.equal(200);
      expect(await head.text()).to.equal('');
      for (const name of ['content-type', 'etag', 'cache-control', 'ratelimit-policy'])
        expect(head.headers.get(name), name).to.equal(get.headers.get(name));
      expect(head.headers.get('content-length')).to.equal(String(Buffer.byteLength(getBody)));
      const notModified = await fetch(`${server.baseUrl}/projects/${project.id}`, {
        method: 'HEAD',
        headers: {
          authorization: `Bearer ${tenant.keys.read}`,
          'if-none-match': get.headers.get('etag') ?? '',
        },
      });
      expect(notModified.status).to.equal(304);
      const list = await fetch(`${server.baseUrl}/projects?limit=1`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${tenant.keys.read}` },
      });
      expect(list.status).to.equal(200);
      const missing = await fetch(`${server.baseUrl}/projects/${randomUUID()}`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${tenant.keys.read}` },
      });
      expect(missing.status).to.equal(404);
      expect(missing.headers.get('content-type')).to.match(/^application\/problem\+json/);
      const anonymous = await fetch(`${server.baseUrl}/projects`, { method: 'HEAD' });
      expect(anonymous.status).to.equal(401);
    });

    it('lists HEAD in Allow wherever GET is allowed, and answers 405 to HEAD where it is not', async () => {
      const allow = async (method: string, path: string) => {
        const res = await fetch(`${server.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${tenant.keys.admin}` },
        });
        expect(res.status, `${method} ${path}`).to.equal(405);
        return (res.headers.get('allow') ?? '')
          .split(',')
          .map((m) => m.trim())
          .sort();
      };
      const project = await makeProject(api);
      expect(await allow('PUT', '/projects')).to.deep.equal(['GET', 'HEAD', 'POST']);
      expect(await allow('DELETE', `/projects/${project.id}`)).to.deep.equal(['GET', 'HEAD', 'PATCH']);
      expect(await allow('OPTIONS', '/me')).to.deep.equal(['GET', 'HEAD']);
      const hook = (
        await api.post('createWebhook', '/webhooks', {
          body: { url: 'https://hooks.example.com/x', events: ['*'] },
        })
      ).body;
      expect(await allow('HEAD', `/webhooks/${hook.id}/rotate-secret`)).to.deep.equal(['POST']);
    });
  });

  describe('Cache-Control', () => {
    it('sends no-store on every response under /v1, the 201s with a new API key or webhook secret first', async () => {
      const key = await api.post('createApiKey', '/api-keys', { body: { name: 'CI', scopes: ['read'] } });
      expect(key.status).to.equal(201);
      const hook = await api.post('createWebhook', '/webhooks', {
        body: { url: 'https://hooks.example.com/x', events: ['*'] },
      });
      expect(hook.status).to.equal(201);
      const rotated = await api.post('rotateWebhookSecret', `/webhooks/${hook.body.id}/rotate-secret`);
      expect(rotated.status).to.equal(200);
      const responses = [
        key,
        hook,
        rotated,
        await api.get('listProjects', '/projects'),
        await api.get('getMe', '/me'),
        await api.get('getProject', `/projects/${randomUUID()}`), // 404
        await client(server.baseUrl, null).get('listProjects', '/projects'), // 401
      ];
      for (const res of responses)
        expect(res.headers.get('cache-control'), String(res.status)).to.equal('no-store');
      // The served spec is public and may be cached.
      const spec = await fetch(`${server.baseUrl}/openapi.json`);
      expect(spec.headers.get('cache-control')).to.not.equal('no-store');
    });
  });

  describe('what the HTTP parser refuses', () => {
    it('answers a 100 KB query string with a problem+json 431, not an empty body', async () => {
      const raw = await rawExchange(
        server.baseUrl,
        `GET /v1/projects?borough=${'x'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.keys.read}\r\n\r\n`,
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
        server.baseUrl,
        `GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.keys.read}\r\n\r\n`,
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
      const raw = await rawExchange(server.baseUrl, 'GET /v1/me HTTP/9.9 extra\r\n\r\n');
      expect(raw.status).to.equal(400);
      expect(JSON.parse(raw.body)).to.include({ status: 400, code: 'validation_failed' });
    });
  });

  describe('secrets in the query string', () => {
    it('refuses ?api_key= (400) and logs the path with every secret-looking parameter redacted', async () => {
      const secret = tenant.keys.admin;
      const res = await client(server.baseUrl, null).get(null, '/projects', {
        query: { api_key: secret, limit: 5 },
      });
      expect(res.status).to.equal(401);
      const refused = await api.get('listProjects', '/projects', { query: { api_key: secret, limit: 5 } });
      expect(fieldErrors(expectProblem(refused, 400, 'validation_failed'))).to.deep.equal(['query:api_key']);
      await api.get(null, '/projects', {
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
      const secret = tenant.keys.read;
      await client(server.baseUrl, null).get(null, '/me', { query: { foo: secret } });
      await client(server.baseUrl, null).get(null, `/projects/${secret}`);
      for (let i = 0; i < 50 && !logLines.some((l) => l.req?.url?.startsWith('/v1/projects/mk_live_')); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const logged = JSON.stringify(logLines);
      expect(logged).to.not.contain(secret);
      expect(logged).to.contain('/v1/me?foo=mk_live_[REDACTED]');
    });
  });
});
