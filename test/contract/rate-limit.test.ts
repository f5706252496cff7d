/**
 * The per-tenant rate limit (seed: 1,000 requests per minute per tenant; DESIGN.md: RateLimit headers, 429 with
 * Retry-After). A tenant with a per-tenant limit of 3 keeps the test small; the window itself is issue 4's.
 */
import { expect } from 'chai';
import { client } from '../support/client.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('rate limit per tenant', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  it('counts down in RateLimit, then answers 429 with Retry-After and a problem body', async () => {
    const small = await server.createTenant(undefined, { rateLimitPerMinute: 3 });
    const api = client(server.baseUrl, small.keys.read);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.get('getTenant', '/tenant');
      expect(res.status).to.equal(200);
      expect(res.headers.get('ratelimit-policy')).to.match(/^"default"; q=3; w=60/);
      remaining.push(res.headers.get('ratelimit')?.match(/r=(\d+)/)?.[1] ?? '?');
    }
    expect(remaining).to.deep.equal(['2', '1', '0']);
    const refused = await api.get('getTenant', '/tenant');
    expect(refused.status).to.equal(429);
    expect(refused.body.code).to.equal('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    // Another tenant has its own window, untouched by the first one's traffic.
    const other = await server.createTenant();
    const fine = await client(server.baseUrl, other.keys.read).get('getTenant', '/tenant');
    expect(fine.status).to.equal(200);
    expect(fine.body.rateLimit.requestsPerMinute).to.equal(1000);
    expect(fine.headers.get('ratelimit')).to.match(/r=999/);
  });
});
