/**
 * List responses: the `{ data, pagination }` envelope and the RFC 8288 `Link` header with `next`/`prev`
 * (DESIGN.md, Lists).
 */
import type { Page, PageRequest } from '../repositories/common.js';

/** Defaults of every list endpoint (DESIGN.md): limit 25 (max 100), offset 0. */
export const DEFAULT_LIMIT = 25;

/** Reads `limit`/`offset` from a validated query (the validator has applied bounds and defaults). */
export function pageOf(query: { limit?: number; offset?: number } | undefined): PageRequest {
  return { limit: query?.limit ?? DEFAULT_LIMIT, offset: query?.offset ?? 0 };
}

/**
 * The 200 result of a list operation: envelope plus `Link` (omitted when there is neither a next nor a previous
 * page). Links keep the request's other query parameters.
 */
export function listResult<T>(
  page: Page<T>,
  request: PageRequest,
  baseUrl: string,
  originalUrl: string,
): {
  status: 200;
  body: { data: T[]; pagination: { limit: number; offset: number; total: number; hasMore: boolean } };
  headers: Record<string, string>;
} {
  const hasMore = request.offset + page.items.length < page.total;
  const url = new URL(originalUrl, baseUrl);
  const link = (offset: number, rel: string) => {
    url.searchParams.set('limit', String(request.limit));
    url.searchParams.set('offset', String(offset));
    return `<${baseUrl.replace(/\/v1$/, '')}${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (hasMore) links.push(link(request.offset + request.limit, 'next'));
  if (request.offset > 0) links.push(link(Math.max(0, request.offset - request.limit), 'prev'));
  return {
    status: 200,
    body: {
      data: page.items,
      pagination: { limit: request.limit, offset: request.offset, total: page.total, hasMore },
    },
    headers: links.length > 0 ? { Link: links.join(', ') } : {},
  };
}
