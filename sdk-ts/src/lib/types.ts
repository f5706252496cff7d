/**
 * Type machinery that turns openapi-typescript's `operations` interface into the SDK's method signatures:
 * flattened params (path + query fields, `body`, `headers`) and the success body of each operation.
 */
import type { OperationId } from '../generated/operations.js';
import type { operations } from '../generated/schema.js';

/** Flattens an intersection into one object type (for readable hovers and excess-property checks). */
export type Simplify<T> = { [K in keyof T]: T[K] };

/** The empty object type (no fields). */
type Empty = Record<never, never>;

/** `T` without `undefined`, or `Empty` when nothing is left (openapi-typescript writes `path?: never` for "none"). */
type Part<T> = [NonNullable<T>] extends [never] ? Empty : NonNullable<T>;

type Op<K extends OperationId> = operations[K];
type PathPart<K extends OperationId> = Part<Op<K>['parameters']['path']>;
type QueryPart<K extends OperationId> = Part<Op<K>['parameters']['query']>;
type HeaderPart<K extends OperationId> =
  Part<Op<K>['parameters']['header']> extends infer H
    ? [keyof H] extends [never]
      ? Empty
      : Empty extends H
        ? { headers?: H }
        : { headers: H }
    : never;
type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : undefined;
type BodyPart<K extends OperationId> = [NonNullable<Op<K>['requestBody']>] extends [never]
  ? Empty
  : Op<K> extends { requestBody: infer B }
    ? { body: ContentOf<B> }
    : { body?: ContentOf<NonNullable<Op<K>['requestBody']>> };

/**
 * The single argument of `client.<operationId>(params)`: the operation's path and query parameters as top-level
 * fields, its request body as `body` and its header parameters (e.g. `If-Match`, `Idempotency-Key`) as `headers`,
 * all typed from the spec.
 *
 * @example `client.updateProject({ id, body: { status: 'AT_RISK' }, headers: { 'If-Match': etag } })`
 */
export type OperationParams<K extends OperationId> = Simplify<
  PathPart<K> & QueryPart<K> & HeaderPart<K> & BodyPart<K>
>;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206 | '2XX';
type Responses<K extends OperationId> = Op<K>['responses'];

/** The parsed body of an operation's success response (`undefined` for 204 No Content). */
export type OperationData<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends SuccessStatus ? ContentOf<Responses<K>[S]> : never;
}[keyof Responses<K>];

/** The operations whose success body is a page `{ data: T[], pagination }`: the ones `paginate()` accepts. */
export type ListOperationId = {
  [K in OperationId]: OperationData<K> extends { data: unknown[]; pagination: unknown } ? K : never;
}[OperationId];

/** The item type of a list operation's pages. */
export type ListItem<K extends ListOperationId> = OperationData<K> extends { data: (infer T)[] } ? T : never;

/** Params of a list operation for `paginate()`: `offset` is managed by the iterator (pass one to start later). */
export type ListParams<K extends ListOperationId> = OperationParams<K>;

/**
 * What every operation method resolves to.
 *
 * - `data`: the parsed success body, typed from the spec;
 * - `requestId`: the response's `X-Request-Id` (quote it when reporting a problem);
 * - `response`: the raw `Response` (status, headers such as `ETag`, `Link`, `RateLimit`); its body is already read.
 */
export interface APIResult<T> {
  data: T;
  requestId: string | null;
  response: Response;
}

/** Per-request overrides of the client's settings. */
export interface RequestOptions {
  /** Extra request headers (merged over the client's; typed header parameters go in `params.headers`). */
  headers?: Record<string, string>;
  /** Timeout of each attempt in milliseconds (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Retries after the first attempt (default: the client's `maxRetries`). */
  maxRetries?: number;
  /** Aborts the request (and any pending retry); the call then rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
}
