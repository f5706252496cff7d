/**
 * A database that cannot be reached answers 503 service_unavailable with Retry-After (docs/design.md), never a 500 or a
 * stack trace, and readiness (`GET /readyz`) fails the same way while liveness (`GET /healthz`) holds. The database
 * here is a real Postgres client pointed at a loopback port where nothing listens.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/repositories/db.js';

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('database unavailable', () => {
  it('answers 503 with Retry-After and a problem body, and GET /readyz answers 503 too', async () => {
    const db = openDatabase({
      databaseUrl: `postgres://nobody:x@127.0.0.1:${await closedPort()}/none`,
      sqliteFile: '',
    });
    const { app } = createApp({ config: loadConfig({ NODE_ENV: 'test' }), db });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/v1/projects`, {
        headers: { authorization: `Bearer mk_live_${'a'.repeat(40)}` },
      });
      const body = (await res.json()) as { code: string; status: number; detail: string; requestId: string };
      expect(res.status).to.equal(503);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(res.headers.get('retry-after')).to.equal('2');
      expect(body.code).to.equal('service_unavailable');
      expect(body.requestId).to.equal(res.headers.get('x-request-id'));
      expect(body.detail).to.not.match(/ECONNREFUSED|\.ts:|at /);

      // Readiness says so too (load balancers stop sending traffic); liveness does not depend on the database.
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      const readyBody = (await ready.json()) as { code: string; detail: string };
      expect(ready.status).to.equal(503);
      expect(ready.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(ready.headers.get('retry-after')).to.equal('5');
      expect(readyBody.code).to.equal('service_unavailable');
      expect(readyBody.detail).to.equal('Not ready: the database is unreachable.');
      const live = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(live.status).to.equal(200);
      expect(await live.json()).to.deep.equal({ status: 'ok' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    }
  });
});
