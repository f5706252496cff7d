/**
 * The typed handler map: `{ [operationId]: Handler }` derived from the generated `operations`, so `tsc` fails when
 * an operation of the spec has no handler or a handler returns a status or body the spec does not allow
 * (docs/design.md: our "server stub generated from the spec").
 */
import type { Request } from 'express';
import type { operations } from '../../generated/openapi.js';
import type { OperationId } from '../../generated/operations.js';
import type { Actor } from '../services/context.js';
import type { Principal } from '../services/identity/index.js';

export type { OperationId };

type ResponsesOf<O extends OperationId> = operations[O]['responses'];

/** The 2xx statuses an operation declares. */
export type SuccessStatus<O extends OperationId> = Extract<keyof ResponsesOf<O>, 200 | 201 | 202 | 204>;

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/** One allowed result of an operation: a declared 2xx status with the body the spec gives it. */
export type HandlerResult<O extends OperationId> = {
  [S in SuccessStatus<O>]: JsonOf<ResponsesOf<O>[S]> extends undefined
    ? { status: S; body?: undefined; headers?: Record<string, string> }
    : { status: S; body: JsonOf<ResponsesOf<O>[S]>; headers?: Record<string, string> };
}[SuccessStatus<O>];

type ParamsOf<O extends OperationId> = operations[O]['parameters'];
type Part<P, K extends string> = P extends { [key in K]?: infer V }
  ? V extends undefined
    ? never
    : V
  : never;

/** The request body type of an operation (undefined when it takes none). */
export type BodyOf<O extends OperationId> = operations[O] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : operations[O] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;

/** What a handler receives: validated path, query, header and body, the caller, and helpers. */
export interface HandlerContext<O extends OperationId> {
  operationId: O;
  path: Part<ParamsOf<O>, 'path'>;
  query: Part<ParamsOf<O>, 'query'>;
  headers: Part<ParamsOf<O>, 'header'>;
  body: BodyOf<O>;
  principal: Principal;
  actor: Actor;
  /** Absolute URL of the API root, e.g. `http://127.0.0.1:8080/v1` (for `Link`). */
  baseUrl: string;
  /** The configured base path, e.g. `/v1` (for `Location`: ./result.ts). */
  basePath: string;
  req: Request;
}

/**
 * A handler's result with its operation erased: what the dispatcher writes (result.ts) and the Idempotency-Key
 * store keeps. Every {@link HandlerResult} is one.
 */
export interface HandlerOutcome {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A handler for one operation. */
export type Handler<O extends OperationId> = (ctx: HandlerContext<O>) => Promise<HandlerResult<O>>;

/** The complete map: one handler per operationId of the spec. */
export type HandlerMap = { [O in OperationId]: Handler<O> };
