/**
 * List responses: the `{ data, pagination }` envelope and the RFC 8288 `Link` header with `next`/`prev`
 * (docs/design.md, Lists).
 */
import type { Request } from 'express';
import { operationTable, type PaginatedOperationId } from '../../generated/operations.js';
import type { Page, PageRequest } from '../repositories/lists.js';

/** What a list handler's context offers {@link listPage}: a paginated operation and its validated query. */
export interface ListContext {
  operationId: PaginatedOperationId;
  query?: { limit?: number | undefined; offset?: number | undefined } | undefined;
  baseUrl: string;
  req: Pick<Request, 'originalUrl'>;
}

/**
 * The page a list request asks for: `limit` and `offset` of the validated query. The validator has applied the
 * spec's bounds and defaults already; the fallback is the same default, from the generated operation table.
 */
function pageOf({ operationId, query }: ListContext): PageRequest {
  return { limit: query?.limit ?? operationTable[operationId].limit.default, offset: query?.offset ?? 0 };
}

/**
 * The whole of a list handler: reads the page from the context, fetches it with `fetch` (one service call) and
 * answers it with {@link listResult}.
 */
export async function listPage<T>(
  ctx: ListContext,
  fetch: (page: PageRequest) => Promise<Page<T>>,
): Promise<ReturnType<typeof listResult<T>>> {
  const page = pageOf(ctx);
  return listResult(await fetch(page), page, ctx.baseUrl, ctx.req.originalUrl);
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
