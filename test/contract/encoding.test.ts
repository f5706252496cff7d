/**
 * Bodies and paths as the wire carries them (docs/design.md, "Conventions on the wire"): a gzip body is read, a body
 * that is not what its `Content-Encoding` says answers 400 saying so, and paths match case-sensitively, as the spec
 * writes them.
 */
import zlib from 'node:zlib';
import { expect } from 'chai';
import { client } from '../support/client.js';
import { startTestServer, TEST_DB, type TestServer, type TestTenant } from '../support/server.js';
import { type Api, expectProblem, uniq } from './helpers.js';

describe(`Content encoding and path case (${TEST_DB})`, () => {
  let server: TestServer;
  let tenant: TestTenant;
  let api: Api;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());
  beforeEach(async () => {
    tenant = await server.createTenant();
    api = client(server.baseUrl, tenant.keys.admin);
  });

  const post = (body: Buffer | string, encoding: string) =>
    fetch(`${server.baseUrl}/projects`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tenant.keys.write}`,
        'content-type': 'application/json',
        'content-encoding': encoding,
      },
      body,
    });
  const json = JSON.stringify({ name: uniq('Gzip'), startDate: '2026-01-01', endDate: '2026-12-31' });

  it('reads a gzip body, and answers a body that is not what Content-Encoding says with a 400 saying so', async () => {
    expect((await post(zlib.gzipSync(json), 'gzip')).status).to.equal(201);
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await post(json, encoding);
      const body = (await res.json()) as { status: number; code: string; detail: string };
      expect(res.status, encoding).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(body.code).to.equal('validation_failed');
      expect(body.detail).to.contain(`is not valid ${encoding} data (Content-Encoding: ${encoding})`);
    }
  });

  it('matches paths case-sensitively, as the spec writes them', async () => {
    const ok = await api.get('listProjects', '/projects');
    expect(ok.status).to.equal(200);
    for (const path of ['/PROJECTS', '/Projects', '/ME']) {
      const res = await api.get(null, path);
      expectProblem(res, 404, 'not_found');
    }
  });
});
