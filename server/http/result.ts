/**
 * What a handler returns, declared rather than assembled (Ghost's endpoint objects, which declare `statusCode` and
 * `headers`, are the model): `ok`, `versioned`, `created`, `accepted`, `noContent` and `page` derive the status and
 * the `ETag`, `Location` and `Link` headers from the record and the request (docs/design.md, "Conventions on the
 * wire"); and the one writer of success responses, for a handler's result and an Idempotency-Key replay alike.
 */
import type { Request, Response } from 'express';
import type { paths } from '../../generated/openapi.js';
import { operationTable, type PaginatedOperationId } from '../../generated/operations.js';
import type { Page, PageRequest } from '../repositories/lists.js';
import type { ListFilter } from '../schemas.js';
import { etagOf, noneMatch } from '../services/concurrency.js';
import { type ListResult, listResult } from './pagination.js';
import type { HandlerOutcome } from './types.js';

/**
 * A path of the spec that names one record by its last segment, e.g. `/risks/{id}` or
 * `/agents/executions/{executionId}`: what `Location` points at.
 */
export type RecordPath = {
  [P in keyof paths]: P extends `${string}{${string}}${string}{${string}}`
    ? never
    : P extends `${string}/{${string}}`
      ? P
      : never;
}[keyof paths];

/** What a handler's context gives the helpers that write a `Location`: the configured base path (e.g. `/v1`). */
export interface LocationContext {
  basePath: string;
}

/** The `Location` of the record `id` at `at`, under the configured base path. */
function locationOf(ctx: LocationContext, at: RecordPath, id: string): string {
  return `${ctx.basePath}${at.replace(/\{[^}]+\}$/, encodeURIComponent(id))}`;
}

/** 200 with `body`, for what has no version (a view, a report, an answer). */
export function ok<B>(body: B): { status: 200; body: B } {
  return { status: 200, body };
}

/** 200 with a versioned record and its `ETag` (`"<version>"`: docs/design.md, "Conventions on the wire"). */
export function versioned<B extends { version: number }>(
  record: B,
): { status: 200; body: B; headers: { ETag: string } } {
  return { status: 200, body: record, headers: { ETag: etagOf(record.version) } };
}

/**
 * 201 Created with the record, its `Location` (the record's path `at` of the spec, its `{…}` the record's id, under
 * the configured base path) and, when the record is versioned, its `ETag`.
 */
export function created<B extends { id: string; version?: number }>(
  ctx: LocationContext,
  record: B,
  at: RecordPath,
): { status: 201; body: B; headers: Record<string, string> } {
  const location = locationOf(ctx, at, record.id);
  return {
    status: 201,
    body: record,
    headers:
      typeof record.version === 'number'
        ? { Location: location, ETag: etagOf(record.version) }
        : { Location: location },
  };
}

/** 202 Accepted with `body`: work that goes on after the answer (a test delivery). */
export function accepted<B>(body: B): { status: 202; body: B };
/** 202 Accepted with `body` and the `Location` of the record that follows the work (`at` with `id`). */
export function accepted<B>(
  body: B,
  ctx: LocationContext,
  at: RecordPath,
  id: string,
): { status: 202; body: B; headers: { Location: string } };
export function accepted<B>(
  body: B,
  ctx?: LocationContext,
  at?: RecordPath,
  id?: string,
): { status: 202; body: B; headers?: { Location: string } } {
  if (ctx && at && id !== undefined)
    return { status: 202, body, headers: { Location: locationOf(ctx, at, id) } };
  return { status: 202, body };
}

/** 204 No Content. */
export function noContent(): { status: 204 } {
  return { status: 204 };
}

/** What a list handler's context gives {@link page}: a paginated operation, its validated query and the request. */
export interface ListContext<O extends PaginatedOperationId> {
  operationId: O;
  query?: (ListFilter<O> & { limit?: number | undefined; offset?: number | undefined }) | undefined;
  baseUrl: string;
  req: Pick<Request, 'originalUrl'>;
}

/**
 * The whole of a list handler: the page the request asks for (`limit` and `offset`, which the validator bounded and
 * defaulted from the spec; the same default from the generated operation table otherwise), its filters (the
 * operation's other query parameters, passed through as the generator types them), one `fetch` of that page, and
 * the 200 with the `{ data, pagination }` envelope and the RFC 8288 `Link` header (./pagination.ts).
 */
export async function page<O extends PaginatedOperationId, T>(
  ctx: ListContext<O>,
  fetch: (filter: ListFilter<O>, page: PageRequest) => Promise<Page<T>>,
): Promise<ListResult<T>> {
  const { limit, offset, ...filter } = ctx.query ?? {};
  const request = { limit: limit ?? operationTable[ctx.operationId].limit.default, offset: offset ?? 0 };
  return listResult(await fetch(filter as ListFilter<O>, request), request, ctx.baseUrl, ctx.req.originalUrl);
}

/**
 * Writes `result`: its headers; then `304 Not Modified` with no body when a GET's 200 carries an `ETag` that the
 * request's `If-None-Match` lists (weak comparison, RFC 9110 §13.1.2; the spec's `IfNoneMatch` parameter); else its
 * status with the JSON body, or no body when it has none (204, or a result without a body). A `HEAD` request (answered
 * as its path's GET, middleware.ts) is written the same way; Node leaves the body out.
 */
export function sendResult(req: Request, res: Response, result: HandlerOutcome): void {
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  const etag = result.headers?.ETag;
  if (
    (req.method === 'GET' || req.method === 'HEAD') &&
    result.status === 200 &&
    etag &&
    noneMatch(req.get('if-none-match'), etag)
  ) {
    res.status(304).end();
    return;
  }
  if (result.body === undefined) res.status(result.status).end();
  else res.status(result.status).json(result.body);
}
