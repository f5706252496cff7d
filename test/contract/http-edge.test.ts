/**
 * The edge of the app (docs/deploy.md, "HTTP"): compression of responses (Brotli and gzip as the client accepts),
 * CORS off by default and answered for the configured origins (preflights before authentication), and `GET /`
 * (a browser to the API reference, an API client to JSON links). Raw node:http requests, so that the bytes on the
 * wire are what is checked (fetch would decompress them).
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { BROWSER_HOME } from '../../server/http/edge.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly `headers`; the body as received, not decoded. */
function raw(url: string, method: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP edge: compression, CORS and GET /', function () {
  this.timeout(60_000);
  let server: TestServer;
  let origin: string;
  let key: string;
  before(async () => {
    server = await startTestServer({ env: { MERIDIAN_CORS_ORIGINS: 'https://app.example.com' } });
    origin = server.baseUrl.replace(/\/v1$/, '');
    key = (await server.createTenant()).keys.admin;
  });
  after(() => server?.close());

  it('compresses the spec with Brotli or gzip as accepted, and sends it plain otherwise', async () => {
    const url = `${server.baseUrl}/openapi.json`;
    const plain = await raw(url, 'GET', {});
    expect(plain.headers['content-encoding']).to.equal(undefined);
    const br = await raw(url, 'GET', { 'accept-encoding': 'br' });
    const gz = await raw(url, 'GET', { 'accept-encoding': 'gzip' });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(br.headers.vary).to.match(/Accept-Encoding/i);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).to.equal(true);
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).to.equal(true);
    console.log(
      `      /v1/openapi.json: ${plain.body.length} bytes plain, ${br.body.length} Brotli, ${gz.body.length} gzip`,
    );
    expect(br.body.length).to.be.below(plain.body.length / 5);
  });

  it('compresses an authenticated page of projects too, keeping Cache-Control: no-store', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${server.baseUrl}/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Project ${i} of a long list`,
          startDate: '2026-01-01',
          endDate: '2027-06-30',
        }),
      });
      expect(res.status).to.equal(201);
    }
    const url = `${server.baseUrl}/projects?limit=100`;
    const got = await raw(url, 'GET', { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip, br' });
    expect(got.status).to.equal(200);
    expect(got.headers['content-encoding']).to.be.oneOf(['br', 'gzip']);
    expect(got.headers['cache-control']).to.equal('no-store');
    const text = (
      got.headers['content-encoding'] === 'br'
        ? zlib.brotliDecompressSync(got.body)
        : zlib.gunzipSync(got.body)
    ).toString();
    expect((JSON.parse(text) as { data: unknown[] }).data).to.have.length(30);
  });

  it('answers a preflight from an allowed origin with 204 before authentication (no key)', async () => {
    const res = await raw(`${server.baseUrl}/projects`, 'OPTIONS', {
      origin: 'https://app.example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    });
    expect(res.status).to.equal(204);
    expect(res.headers['access-control-allow-origin']).to.equal('https://app.example.com');
    expect(res.headers['access-control-allow-methods']).to.include('POST');
    expect(res.headers['access-control-allow-headers']?.toLowerCase()).to.include('idempotency-key');
    expect(res.headers['access-control-allow-credentials']).to.equal(undefined);
  });

  it('lets an allowed origin read the answer and its headers; other origins get no CORS header', async () => {
    const allowed = await raw(`${server.baseUrl}/me`, 'GET', {
      origin: 'https://app.example.com',
      authorization: `Bearer ${key}`,
    });
    expect(allowed.status).to.equal(200);
    expect(allowed.headers['access-control-allow-origin']).to.equal('https://app.example.com');
    expect(allowed.headers['access-control-expose-headers']).to.include('X-Request-Id');
    const other = await raw(`${server.baseUrl}/projects`, 'OPTIONS', {
      origin: 'https://evil.example',
      'access-control-request-method': 'GET',
    });
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('redirects a browser from / to the API reference and gives an API client JSON links', async () => {
    const browser = await raw(`${origin}/`, 'GET', {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(browser.status).to.equal(302);
    expect(browser.headers.location).to.equal(BROWSER_HOME);
    expect(BROWSER_HOME).to.equal('/console/');
    for (const accept of ['application/json', '*/*', undefined]) {
      const client = await raw(`${origin}/`, 'GET', accept ? { accept } : {});
      expect(client.status, String(accept)).to.equal(200);
      expect(client.headers['content-type']).to.match(/^application\/json/);
      const body = JSON.parse(client.body.toString()) as { links: Record<string, string> };
      expect(body.links).to.include({ api: '/v1', docs: '/docs', openapi: '/v1/openapi.json' });
      // Each link answers.
      const spec = await fetch(`${origin}${body.links.openapi}`);
      expect(spec.status).to.equal(200);
    }
  });
});

describe('HTTP edge without MERIDIAN_CORS_ORIGINS', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('sends no CORS header, and a preflight goes through authentication like any request (401)', async () => {
    const preflight = await raw(`${server.baseUrl}/projects`, 'OPTIONS', {
      origin: 'https://app.example.com',
      'access-control-request-method': 'GET',
    });
    expect(preflight.headers['access-control-allow-origin']).to.equal(undefined);
    expect(preflight.status).to.equal(401);
    const spec = await raw(`${server.baseUrl}/openapi.json`, 'GET', { origin: 'https://app.example.com' });
    expect(spec.status).to.equal(200);
    expect(spec.headers['access-control-allow-origin']).to.equal(undefined);
  });
});
