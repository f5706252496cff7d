/**
 * Rate limits (seed: 1,000 requests per minute per tenant; docs/design.md: RateLimit headers on every response, 429
 * with Retry-After and a problem body, a count shared by all API processes, failed authentication limited per
 * address). Time moves with the injected clock, never by sleeping.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../server/app.js';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { expectProblem } from '../support/assertions.js';
import { client } from '../support/client.js';
import { unknownKey } from '../support/records.js';
import { startTestServer, TEST_DB, type TestServer } from '../support/server.js';

const remaining = (res: { headers: Headers }) => Number(res.headers.get('ratelimit')?.match(/r=(\d+)/)?.[1]);

describe('rate limits', function () {
  this.timeout(120_000);
  let server: TestServer;
  // Mid-minute start: the window is any 60 s, not the clock's minute.
  const clock = new ManualClock('2026-07-01T09:00:30.000Z');
  before(async () => {
    server = await startTestServer({ clock, env: { MERIDIAN_AUTH_FAILURE_LIMIT: '5' } });
  });
  after(async () => server.close());

  it('refuses the 1,001st request of any 60 s with 429, Retry-After and headers; other tenants are unaffected; quota returns as requests leave the window', async () => {
    const busy = await server.createTenant();
    const quiet = await server.createTenant();
    const api = client(server.baseUrl, busy.keys.read);
    let last: Awaited<ReturnType<typeof api.get>> | undefined;
    for (let i = 1; i <= 1000; i++) {
      last = await api.get('getTenant', '/tenant');
      if (last.status !== 200) throw new Error(`request ${i} answered ${last.status}`);
    }
    expect(last?.headers.get('ratelimit-policy')).to.equal('"default"; q=1000; w=60');
    expect(remaining(last as { headers: Headers })).to.equal(0);
    const refused = await api.get('getTenant', '/tenant');
    expectProblem(refused, 429, 'rate_limited');
    // All 1,000 were made at one instant of the injected clock: they leave the window 60 s later.
    expect(refused.headers.get('retry-after')).to.equal('60');
    expect(refused.headers.get('ratelimit')).to.equal('"default"; r=0; t=60');
    const other = await client(server.baseUrl, quiet.keys.read).get('getTenant', '/tenant');
    expect(other.status).to.equal(200);
    expect(remaining(other)).to.equal(999);
    // A clock minute boundary changes nothing: the window slides.
    clock.advance(30_000);
    const stillRefused = await api.get('getTenant', '/tenant');
    expectProblem(stillRefused, 429, 'rate_limited');
    expect(stillRefused.headers.get('retry-after')).to.equal('30');
    clock.advance(30_000);
    const fresh = await api.get('getTenant', '/tenant');
    expect(fresh.status).to.equal(200);
    expect(remaining(fresh)).to.equal(999);
    expect(fresh.headers.get('ratelimit')).to.match(/t=60$/);
  });

  it('holds across a minute boundary: 600 requests at 12:00:59 and 600 at 12:01:01 let exactly 1,000 through', async () => {
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.read);
    const statuses: number[] = [];
    // Fifty in flight at a time: the count is exact under concurrency, not only one request after another.
    const burst = async () => {
      for (let i = 0; i < 600; i += 50) {
        const batch = await Promise.all(Array.from({ length: 50 }, () => api.get('getMe', '/me')));
        statuses.push(...batch.map((r) => r.status));
      }
    };
    const clockAt = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());
    clockAt('2026-07-02T12:00:59.000Z');
    await burst();
    clockAt('2026-07-02T12:01:01.000Z');
    await burst();
    expect(statuses.filter((s) => s === 200)).to.have.length(1000);
    expect(statuses.filter((s) => s === 429)).to.have.length(200);
    // The first 600 leave the window at 12:01:59: then 600 pass again, and no more.
    clockAt('2026-07-02T12:01:59.000Z');
    statuses.length = 0;
    await burst();
    await burst();
    expect(statuses.filter((s) => s === 200)).to.have.length(600);
  });

  it('never lets more than the limit through in any 60 s, requests spread over minutes at uneven instants', async () => {
    const t = await server.createTenant(undefined, { rateLimitPerMinute: 5 });
    const api = client(server.baseUrl, t.keys.read);
    clock.advance(120_000);
    const passed: number[] = [];
    // Steps of 0.1–9.9 s in a fixed pseudo-random order: bursts, gaps and requests on either side of second edges.
    let step = 7;
    for (let i = 0; i < 80; i++) {
      step = (step * 37 + 11) % 99;
      clock.advance((step + 1) * 100);
      const res = await api.get('getMe', '/me');
      expect(res.status).to.be.oneOf([200, 429]);
      if (res.status === 200) passed.push(clock.now().getTime());
    }
    for (let i = 5; i < passed.length; i++)
      expect((passed[i] as number) - (passed[i - 5] as number)).to.be.at.least(60_000);
    expect(passed.length).to.be.at.least(15);
  });

  it('counts a second that straddles the window’s start whole on Postgres (refuses early, never lets more through)', async () => {
    const t = await server.createTenant(undefined, { rateLimitPerMinute: 2 });
    const api = client(server.baseUrl, t.keys.read);
    const clockAt = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());
    clockAt('2026-07-03T09:00:30.000Z');
    expect((await api.get('getMe', '/me')).status).to.equal(200);
    clockAt('2026-07-03T09:00:30.500Z');
    expect((await api.get('getMe', '/me')).status).to.equal(200);
    // 60.2 s after the first: it left the window, the second did not.
    clockAt('2026-07-03T09:01:30.200Z');
    const edge = await api.get('getMe', '/me');
    if (TEST_DB === 'postgres') {
      // Its second (09:00:30) is still in the window as a whole: refused until its last request leaves.
      expectProblem(edge, 429, 'rate_limited');
      expect(edge.headers.get('retry-after')).to.equal('1');
      clockAt('2026-07-03T09:01:30.500Z');
      const after = await api.get('getMe', '/me');
      expect(after.status).to.equal(200);
      expect(remaining(after)).to.equal(1);
    } else {
      // The in-memory log is exact.
      expect(edge.status).to.equal(200);
      expect(remaining(edge)).to.equal(0);
    }
  });

  it('applies a tenant’s own limit (ENTERPRISE override), shown in GET /tenant', async () => {
    const small = await server.createTenant(undefined, { rateLimitPerMinute: 3 });
    const api = client(server.baseUrl, small.keys.read);
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.get('getTenant', '/tenant');
      expect(res.body.rateLimit.requestsPerMinute).to.equal(3);
      seen.push(remaining(res));
    }
    expect(seen).to.deep.equal([2, 1, 0]);
    expectProblem(await api.get('getTenant', '/tenant'), 429, 'rate_limited');
  });

  it('limits failed authentication per client address, without counting successful requests', async () => {
    clock.advance(60_000);
    const t = await server.createTenant();
    const good = client(server.baseUrl, t.keys.read);
    const bad = client(server.baseUrl, unknownKey());
    for (let i = 0; i < 20; i++) expect((await good.get('getMe', '/me')).status).to.equal(200);
    // Many valid requests in flight at once are not counted either (only real 401s are).
    const burst = await Promise.all(Array.from({ length: 40 }, () => good.get('getMe', '/me')));
    expect(burst.map((r) => r.status)).to.deep.equal(Array(40).fill(200));
    for (let i = 0; i < 5; i++) expectProblem(await bad.get('getMe', '/me'), 401, 'unauthenticated');
    const blocked = await bad.get('getMe', '/me');
    expectProblem(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).to.be.within(1, 60);
    clock.advance(60_000);
    expectProblem(await bad.get('getMe', '/me'), 401, 'unauthenticated');
    expect((await good.get('getMe', '/me')).status).to.equal(200);
  });

  it('never refuses a valid key from an address over its failed-authentication limit', async () => {
    clock.advance(60_000);
    const t = await server.createTenant();
    const bad = client(server.baseUrl, unknownKey());
    const malformed = client(server.baseUrl, 'not-a-key');
    for (let i = 0; i < 5; i++) expectProblem(await bad.get('getMe', '/me'), 401, 'unauthenticated');
    expectProblem(await bad.get('getMe', '/me'), 429, 'rate_limited');
    expectProblem(await malformed.get('getMe', '/me'), 429, 'rate_limited');
    // Same address, valid keys of any tenant: answered, in any number, while the failures are still refused.
    const other = await server.createTenant();
    for (const key of [t.keys.read, t.keys.admin, other.keys.write]) {
      const res = await client(server.baseUrl, key).get('getMe', '/me');
      expect(res.status).to.equal(200);
    }
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => client(server.baseUrl, t.keys.read).get('getMe', '/me')),
    );
    expect(burst.map((r) => r.status)).to.deep.equal(Array(20).fill(200));
    expectProblem(await bad.get('getMe', '/me'), 429, 'rate_limited');
  });

  it('shares one count between API processes on Postgres', async function () {
    if (TEST_DB !== 'postgres') this.skip();
    // A second app over the same database: two API processes of one deployment.
    const second = createApp({ config: loadConfig({ NODE_ENV: 'test' }), db: server.db, clock });
    const listener: Server = await new Promise((resolve) => {
      const s = second.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const t = await server.createTenant(undefined, { rateLimitPerMinute: 4 });
      const a = client(server.baseUrl, t.keys.read);
      const b = client(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/v1`, t.keys.read);
      expect(remaining(await a.get('getMe', '/me'))).to.equal(3);
      expect(remaining(await b.get('getMe', '/me'))).to.equal(2);
      expect(remaining(await a.get('getMe', '/me'))).to.equal(1);
      expect(remaining(await b.get('getMe', '/me'))).to.equal(0);
      expectProblem(await a.get('getMe', '/me'), 429, 'rate_limited');
      expectProblem(await b.get('getMe', '/me'), 429, 'rate_limited');
    } finally {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
  it('leases quota in batches to each API process on Postgres above 12,000 a minute, never more than the limit', async function () {
    if (TEST_DB !== 'postgres') this.skip();
    const second = createApp({ config: loadConfig({ NODE_ENV: 'test' }), db: server.db, clock });
    const listener: Server = await new Promise((resolve) => {
      const s = second.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      // 24,000 a minute: leases of 4 (docs/design.md, "Limits"). 23,990 requests 30 s ago leave room for 10.
      const t = await server.createTenant(undefined, { rateLimitPerMinute: 24_000 });
      clock.advance(1_000 - (clock.now().getTime() % 1_000) + 250);
      const now = clock.now().getTime();
      const earlier = now - 30_000;
      const slot = Math.floor(earlier / 1000) % 61;
      await server.db.knex('rate_limit_buckets').insert({
        key: `tenant:${t.tenantId}`,
        counts: Array.from({ length: 61 }, (_, i) => (i === slot ? 23_990 : 0)),
        lasts: Array.from({ length: 61 }, (_, i) => (i === slot ? earlier : 0)),
        last_at: earlier,
        taken: true,
      });
      const a = client(server.baseUrl, t.keys.read);
      const b = client(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/v1`, t.keys.read);
      // a leases 4 (one used: 23,990 + 1 counted as this process sees it), then b leases 4 and sees a's 3 as used.
      expect(remaining(await a.get('getMe', '/me'))).to.equal(9);
      expect(remaining(await b.get('getMe', '/me'))).to.equal(5);
      let passed = 2;
      for (let i = 0; i < 20; i++) {
        const res = await (i % 2 === 0 ? a : b).get('getMe', '/me');
        if (res.status === 200) passed++;
        else expectProblem(res, 429, 'rate_limited');
      }
      // 4 + 4 leased, then the last 2 (a partial lease): exactly the room, in either process.
      expect(passed).to.equal(10);
      const [row] = await server.db.knex('rate_limit_buckets').where({ key: `tenant:${t.tenantId}` });
      expect((row.counts as number[]).reduce((x, y) => x + y, 0)).to.equal(24_000);
      // Leftovers never outlive their second: the next second finds the window full until the old bucket leaves.
      clock.advance(1_000);
      expectProblem(await a.get('getMe', '/me'), 429, 'rate_limited');
      clock.advance(29_000);
      const back = await b.get('getMe', '/me');
      expect(back.status).to.equal(200);
      // The prefilled second left: only the 10 of this test remain, and b now holds a fresh lease of 4.
      expect(remaining(back)).to.equal(24_000 - 11);
    } finally {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
