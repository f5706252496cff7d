/**
 * Type machinery that turns openapi-typescript's `operations` interface into the resource methods' signatures: the
 * params object (request body fields and query parameters), the header parameters and the success body of each
 * operation, all typed from the spec.
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
type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : undefined;
type BodyOf<K extends OperationId> = [NonNullable<Op<K>['requestBody']>] extends [never]
  ? Empty
  : ContentOf<NonNullable<Op<K>['requestBody']>>;

/**
 * A query parameter that takes several values also takes one: `status: 'AT_RISK'` or
 * `status: ['AT_RISK', 'OFF_TRACK']`, both sent as the repeated key (`?status=AT_RISK&status=OFF_TRACK`).
 */
type OneOrMany<T> = { [P in keyof T]: NonNullable<T[P]> extends readonly (infer U)[] ? U | T[P] : T[P] };

/** The query parameters of an operation (`{ status?, limit?, offset?, … }` for `listProjects`). */
export type OperationQuery<K extends OperationId> = OneOrMany<Part<Op<K>['parameters']['query']>>;

/** The header parameters an operation declares (`{ 'If-Match'?: string }` for `updateProject`). */
export type OperationHeaders<K extends OperationId> = Part<Op<K>['parameters']['header']>;

/**
 * The params object of a resource method: the request body's fields and the query parameters, side by side
 * (`client.risks.create({ title, projectId, likelihood, impact })`, `client.projects.list({ status: 'AT_RISK' })`).
 * Path parameters are the method's leading arguments; header parameters go in `options.headers`.
 */
export type OperationParams<K extends OperationId> = Simplify<BodyOf<K> & OperationQuery<K>>;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206 | '2XX';
type Responses<K extends OperationId> = Op<K>['responses'];

/** The parsed body of an operation's success response (`undefined` for 204 No Content). */
export type OperationData<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends SuccessStatus ? ContentOf<Responses<K>[S]> : never;
}[keyof Responses<K>];

/** The record type of a list operation's pages (`Project` for `listProjects`). */
export type PageItem<K extends OperationId> = OperationData<K> extends { data: (infer T)[] } ? T : never;

/**
 * Per-request options: the operation's header parameters (`If-Match`, `If-None-Match`, `Idempotency-Key`, typed
 * from the spec) and any other header, and overrides of the client's settings.
 */
export interface RequestOptions<H = Empty> {
  /** Headers of this request: the operation's header parameters (typed), and any other (merged over the client's). */
  headers?: H & Record<string, string>;
  /** Timeout of each attempt in milliseconds (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Retries after the first attempt (default: the client's `maxRetries`). */
  maxRetries?: number;
  /** Aborts the request (and any pending retry); the call then rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
}

/**
 * What `.withResponse()` resolves to.
 *
 * - `data`: the parsed success body, typed from the spec (what awaiting the call gives);
 * - `requestId`: the response's `X-Request-Id` (quote it when reporting a problem);
 * - `response`: the raw `Response` (status, headers such as `ETag`, `Link`, `RateLimit`); its body is already read.
 */
export interface APIResult<T> {
  data: T;
  requestId: string | null;
  response: Response;
}
