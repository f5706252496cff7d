/**
 * List responses: the `{ data, pagination }` envelope and the RFC 8288 `Link` header with `next`/`prev`
 * (docs/design.md, "Conventions on the wire", Lists). Handlers declare a list with `page` (./result.ts).
 */
import type { Page, PageRequest } from '../repositories/lists.js';

/** The 200 result of a list operation. */
export interface ListResult<T> {
  status: 200;
  body: { data: T[]; pagination: { limit: number; offset: number; total: number; hasMore: boolean } };
  headers: Record<string, string>;
}

/**
 * The 200 result of a list operation: envelope plus `Link` (omitted when there is neither a next nor a previous
 * page). Links are absolute (the origin of `baseUrl`, the path and query of the request) and keep the request's
 * other query parameters.
 * @param baseUrl the API root the request came to, e.g. `http://127.0.0.1:8080/v1`.
 * @param originalUrl the request's path and query, as sent (under the base path).
 */
export function listResult<T>(
  page: Page<T>,
  request: PageRequest,
  baseUrl: string,
  originalUrl: string,
): ListResult<T> {
  const hasMore = request.offset + page.items.length < page.total;
  const url = new URL(originalUrl, baseUrl);
  const link = (offset: number, rel: string) => {
    url.searchParams.set('limit', String(request.limit));
    url.searchParams.set('offset', String(offset));
    return `<${url.origin}${url.pathname}${url.search}>; rel="${rel}"`;
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
