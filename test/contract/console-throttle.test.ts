/**
 * Sign-in throttling (docs/accounts.md, "Sign-in throttling"): growing delays per account and address, per account
 * from any address (capped, never a lockout), the same answers and about the same time for an unknown email and a
 * wrong password. The limiter keeps wall-clock time, so these tests wait (about 4 s in all). Client addresses come
 * from X-Forwarded-For behind a trusted proxy, as in a deployment behind a load balancer.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { delayAfter } from '../../server/services/accounts/throttle.js';
import { expectProblem } from '../support/assertions.js';
import { ConsoleBrowser, createAccount } from '../support/console.js';
import { startTestServer, type TestServer } from '../support/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Console sign-in: throttling', function () {
  this.timeout(60_000);
  let server: TestServer;
  let origin: string;
  before(async () => {
    server = await startTestServer({ env: { MERIDIAN_TRUST_PROXY: 'true' } });
    origin = new URL(server.baseUrl).origin;
  });
  after(async () => server.close());

  let next = 1;
  /** A fresh client address (documentation range 198.51.100.0/24 and beyond). */
  const address = () => `198.51.${Math.floor(next / 250)}.${(next++ % 250) + 1}`;
  const attempt = (from: string, email: string, password: string) =>
    new ConsoleBrowser(origin).call('POST', '/auth/sign-in', {
      body: { email, password },
      headers: { 'x-forwarded-for': from },
    });

  it('delays an account at one address after 3 failures, 1 s then 2 s, even for the right password', async () => {
    const t = await server.createTenant();
    const { email, password } = await createAccount(
      server.meridian,
      new ConsoleBrowser(origin),
      t.tenantId,
      'owner',
    );
    const from = address();
    for (let i = 0; i < 3; i++)
      expectProblem(await attempt(from, email, 'wrong password here'), 401, 'unauthenticated');
    const held = await attempt(from, email, password);
    expectProblem(held, 429, 'rate_limited');
    expect(held.headers.get('retry-after')).to.equal('1');
    // Elsewhere the owner is not held back by this address's failures.
    expect((await attempt(address(), email, password)).status).to.equal(200);
    await sleep(1_100);
    expectProblem(await attempt(from, email, 'wrong password here'), 401, 'unauthenticated');
    const longer = await attempt(from, email, password);
    expectProblem(longer, 429, 'rate_limited');
    expect(longer.headers.get('retry-after')).to.equal('2');
    await sleep(2_100);
    expect((await attempt(from, email, password)).status).to.equal(200);
    // A success clears the account's counters: the next failure is free again.
    expectProblem(await attempt(from, email, 'wrong password here'), 401, 'unauthenticated');
    expect((await attempt(from, email, password)).status).to.equal(200);
  });

  it('treats an unknown email exactly like a wrong password: same answers, same delays', async () => {
    const t = await server.createTenant();
    const { email } = await createAccount(server.meridian, new ConsoleBrowser(origin), t.tenantId, 'member');
    const unknown = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const [a, b] = [address(), address()];
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: null, instance: null });
    for (let i = 0; i < 4; i++) {
      const known = await attempt(a, email, 'wrong password here');
      const none = await attempt(b, unknown, 'wrong password here');
      expect(none.status).to.equal(known.status);
      expect(strip(none.body)).to.deep.equal(strip(known.body));
      expect(none.headers.get('retry-after')).to.equal(known.headers.get('retry-after'));
    }
  });

  it('takes about as long for an unknown email as for a wrong password', async () => {
    const t = await server.createTenant();
    const { email } = await createAccount(server.meridian, new ConsoleBrowser(origin), t.tenantId, 'member');
    const timed = async (e: string) => {
      const start = process.hrtime.bigint();
      expect((await attempt(address(), e, 'wrong password here')).status).to.equal(401);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      wrong.push(await timed(email));
      unknown.push(await timed(`nobody-${randomUUID().slice(0, 8)}@example.com`));
    }
    // Without the dummy hash an unknown email would answer in about a millisecond, against tens for Argon2id.
    expect(median(unknown)).to.be.within(median(wrong) * 0.5, median(wrong) * 2);
  });

  it('slows an account guessed from many addresses, but only to one try a minute at most', async () => {
    const t = await server.createTenant();
    const { email, password } = await createAccount(
      server.meridian,
      new ConsoleBrowser(origin),
      t.tenantId,
      'owner',
    );
    for (let i = 0; i < 10; i++)
      expect((await attempt(address(), email, 'wrong password here')).status).to.equal(401);
    const held = await attempt(address(), email, password);
    expectProblem(held, 429, 'rate_limited');
    expect(Number(held.headers.get('retry-after'))).to.be.within(1, 60);
    await sleep(1_100);
    expect((await attempt(address(), email, password)).status).to.equal(200);
    // The delays grow, to at most a minute per account (15 minutes for one address).
    expect(
      [10, 11, 12, 20, 100].map((n) => delayAfter({ name: 'ac', free: 10, maxDelayS: 60 }, n)),
    ).to.deep.equal([1, 2, 4, 60, 60]);
  });
});
