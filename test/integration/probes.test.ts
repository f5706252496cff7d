/**
 * `GET /healthz` and `GET /readyz` (docs/design.md, Operations): outside /v1, no key, not rate limited, not in the
 * access log at info level; readiness fails with 503 + Retry-After while migrations are pending (here) and while
 * the database is unreachable (test/integration/unavailable.test.ts).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { migrate } from '../../server/repositories/db.js';
import { openTestDatabase, startTestServer, TEST_DB, type TestServer } from '../support/server.js';

/** A pino logger at `level` whose lines land in `lines`. */
function capturingLogger(level: string) {
  const lines: { level: number; req?: { url: string }; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

async function listen(app: import('express').Express): Promise<{ server: Server; origin: string }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe(`health probes (${TEST_DB})`, () => {
  let server: TestServer;
  let origin: string;
  before(async () => {
    // A failed-authentication limit of 2: the probes, sent without a key many times, must never meet it.
    server = await startTestServer({ env: { MERIDIAN_AUTH_FAILURE_LIMIT: '2', MERIDIAN_RATE_LIMIT: '2' } });
    origin = new URL(server.baseUrl).origin;
  });
  after(async () => server.close());

  it('GET /healthz answers 200 {"status":"ok"} without a key', async () => {
    const res = await fetch(`${origin}/healthz`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.headers.get('x-request-id')).to.match(/^req_/);
    expect(await res.json()).to.deep.equal({ status: 'ok' });
  });

  it('GET /readyz answers 200 with its checks when the database answers and the schema is current', async () => {
    const res = await fetch(`${origin}/readyz`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(await res.json()).to.deep.equal({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
  });

  it('answers HEAD, and is neither authenticated nor rate limited (40 calls each, limits of 2 per minute)', async () => {
    for (let i = 0; i < 40; i++) {
      for (const probe of ['/healthz', '/readyz']) {
        const res = await fetch(`${origin}${probe}`, { method: i % 2 ? 'HEAD' : 'GET' });
        expect(res.status, `${probe} #${i}`).to.equal(200);
        expect(res.headers.get('ratelimit')).to.equal(null);
        expect(res.headers.get('www-authenticate')).to.equal(null);
        await res.arrayBuffer();
      }
    }
    // The API itself still refuses the keyless caller, now over the failed-authentication limit.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${server.baseUrl}/me`)).status);
    expect(statuses).to.deep.equal([401, 401, 429]);
  });

  it('lives outside /v1: /v1/healthz is an API address (401 without a key)', async () => {
    expect((await fetch(`${server.baseUrl}/healthz`)).status).to.be.oneOf([401, 429]);
  });
});

describe(`health probes in the access log (${TEST_DB})`, () => {
  it('logs the probes at debug level only, other requests at info', async () => {
    const { db, dispose } = await openTestDatabase();
    for (const level of ['info', 'debug']) {
      const { logger, lines } = capturingLogger(level);
      const { app } = createApp({ config: loadConfig({ NODE_ENV: 'test' }), db, logger });
      const { server, origin } = await listen(app);
      try {
        for (const path of ['/healthz', '/readyz', '/v1/me'])
          await (await fetch(`${origin}${path}`)).arrayBuffer();
        const urls = lines.filter((l) => l.req).map((l) => `${l.level}:${l.req?.url}`);
        if (level === 'info') expect(urls).to.deep.equal(['30:/v1/me']);
        else expect(urls).to.have.members(['20:/healthz', '20:/readyz', '30:/v1/me']);
      } finally {
        await stop(server);
      }
    }
    await dispose();
  });
});

describe(`GET /readyz with migrations pending (${TEST_DB})`, () => {
  it('answers 503 service_unavailable with Retry-After until the migrations are applied', async () => {
    const { db, dispose } = await openTestDatabase(TEST_DB, { migrated: false });
    const { app } = createApp({ config: loadConfig({ NODE_ENV: 'test' }), db });
    const { server, origin } = await listen(app);
    try {
      const res = await fetch(`${origin}/readyz`);
      const body = (await res.json()) as { code: string; status: number; detail: string; requestId: string };
      expect(res.status).to.equal(503);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(res.headers.get('retry-after')).to.equal('5');
      expect(body.code).to.equal('service_unavailable');
      expect(body.detail).to.match(/^Not ready: \d+ database migrations are not applied \(20261122000100_/);
      expect(body.requestId).to.equal(res.headers.get('x-request-id'));
      // Liveness does not depend on the database.
      expect((await fetch(`${origin}/healthz`)).status).to.equal(200);

      await migrate(db);
      const ready = await fetch(`${origin}/readyz`);
      expect(ready.status).to.equal(200);
      expect(await ready.json()).to.deep.equal({
        status: 'ready',
        checks: { database: 'ok', migrations: 'ok' },
      });
    } finally {
      await stop(server);
      await dispose();
    }
  });
});
