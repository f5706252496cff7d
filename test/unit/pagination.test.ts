import { expect } from 'chai';
import { listResult } from '../../server/http/pagination.js';
import { page } from '../../server/http/result.js';
import type { PageRequest } from '../../server/repositories/lists.js';

describe('list envelope and Link header (RFC 8288)', () => {
  const base = 'http://127.0.0.1:9/v1';
  it('links next and prev, keeping the other query parameters', () => {
    const r = listResult(
      { items: [1, 2, 3], total: 10 },
      { limit: 3, offset: 3 },
      base,
      '/v1/projects?status=AT_RISK&limit=3&offset=3',
    );
    expect(r.body.pagination).to.deep.equal({ limit: 3, offset: 3, total: 10, hasMore: true });
    expect(r.headers.Link).to.equal(
      '<http://127.0.0.1:9/v1/projects?status=AT_RISK&limit=3&offset=6>; rel="next", ' +
        '<http://127.0.0.1:9/v1/projects?status=AT_RISK&limit=3&offset=0>; rel="prev"',
    );
  });
  it('has no Link on a single page, and no next on the last page', () => {
    expect(
      listResult({ items: [1], total: 1 }, { limit: 25, offset: 0 }, base, '/v1/risks').headers,
    ).to.deep.equal({});
    const last = listResult(
      { items: [10], total: 10 },
      { limit: 3, offset: 9 },
      base,
      '/v1/risks?limit=3&offset=9',
    );
    expect(last.body.pagination.hasMore).to.equal(false);
    expect(last.headers.Link).to.equal('<http://127.0.0.1:9/v1/risks?limit=3&offset=6>; rel="prev"');
  });
  it('links under any base path: the origin of the API root, the path of the request', () => {
    const r = listResult(
      { items: [1, 2], total: 4 },
      { limit: 2, offset: 0 },
      'https://pm.example.com/api/v2',
      '/api/v2/risks?limit=2',
    );
    expect(r.headers.Link).to.equal('<https://pm.example.com/api/v2/risks?limit=2&offset=2>; rel="next"');
  });
  it("asks for the spec's default page size (from the generated operation table) when no limit is given", async () => {
    const asked: PageRequest[] = [];
    const ctx = {
      operationId: 'listRisks' as const,
      query: {},
      baseUrl: base,
      req: { originalUrl: '/v1/risks' },
    };
    const r = await page(ctx, async (_filter, p) => {
      asked.push(p);
      return { items: ['r1'], total: 1 };
    });
    expect(asked).to.deep.equal([{ limit: 25, offset: 0 }]);
    expect(r.body).to.deep.equal({
      data: ['r1'],
      pagination: { limit: 25, offset: 0, total: 1, hasMore: false },
    });
  });
  it('passes the query through as the filter, without limit and offset', async () => {
    const ctx = {
      operationId: 'listRisks' as const,
      query: { severity: ['HIGH' as const], sort: '-score' as const, limit: 10, offset: 20 },
      baseUrl: base,
      req: { originalUrl: '/v1/risks?severity=HIGH&sort=-score&limit=10&offset=20' },
    };
    const seen: unknown[] = [];
    await page(ctx, async (filter, p) => {
      seen.push(filter, p);
      return { items: [], total: 0 };
    });
    expect(seen).to.deep.equal([
      { severity: ['HIGH'], sort: '-score' },
      { limit: 10, offset: 20 },
    ]);
  });
});
