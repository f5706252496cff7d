/**
 * From a validated request to its handler (docs/design.md, Auth and scopes): which operation the request calls,
 * whether the key may call it, the handler's typed context, and the call itself.
 *
 * Two middlewares, either side of the Idempotency-Key middleware (idempotency.ts):
 * - {@link resolveOperation}, right after express-openapi-validator: names the operation (from the route the
 *   validator matched) and checks the key's scope against the operation table's (403);
 * - {@link callHandler}, last: builds the context, calls the handler (through the Idempotency-Key reservation when
 *   the request holds one) and writes the result with {@link sendResult}.
 *
 * Scopes and header parameters come from the generated operation table (generated/operations.ts), not from walking
 * the spec at boot.
 */
import type { Request, RequestHandler } from 'express';
import { operationTable } from '../../generated/operations.js';
import { AppError } from '../services/errors.js';
import type { Principal } from '../services/identity/index.js';
import { actorOf, requireScope } from './auth.js';
import { sendResult } from './result.js';
import type { HandlerContext, HandlerMap, HandlerOutcome, OperationId } from './types.js';

/** What {@link resolveOperation} establishes about a request: the operation it calls, by a caller allowed to. */
export interface ResolvedOperation {
  operationId: OperationId;
  principal: Principal;
}

declare global {
  namespace Express {
    interface Request {
      /** Set by {@link resolveOperation} for every request that reaches a handler. */
      operation?: ResolvedOperation;
    }
  }
}

/** The request as express-openapi-validator leaves it: the matched operation and the path parameters. */
type ValidatedRequest = Request & {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
};

function isOperationId(id: string | undefined): id is OperationId {
  return id !== undefined && Object.hasOwn(operationTable, id);
}

/**
 * Middleware: resolves the operation the validator matched and checks the caller's scope.
 * @throws AppError 404 `not_found` when no operation of the table matches; 401 `unauthenticated` without a
 *   principal; 403 `forbidden` when the key lacks the operation's scope (the spec's `x-required-scope`).
 */
export function resolveOperation(): RequestHandler {
  return (req, _res, next) => {
    const operationId = (req as ValidatedRequest).openapi?.schema?.operationId;
    if (!isOperationId(operationId)) throw new AppError('not_found', 'No such operation.');
    const principal = req.principal;
    if (!principal) throw new AppError('unauthenticated', 'Authentication required.');
    requireScope(principal, operationTable[operationId].scope, operationId);
    req.operation = { operationId, principal };
    next();
  };
}

/** The request's {@link ResolvedOperation}; a wiring error (500) when {@link resolveOperation} has not run. */
export function operationOf(req: Request): ResolvedOperation {
  if (!req.operation) throw new Error('resolveOperation must run before this middleware');
  return req.operation;
}

/**
 * The handler's context. Its `path`, `query`, `headers` and `body` are typed per operation from the spec
 * (types.ts), and express-openapi-validator has checked (and coerced and defaulted) this request against the same
 * spec before it gets here. The compiler cannot see that link (Express types `req.query` as `ParsedQs` and
 * `req.body` as `any`): the one assertion below states it.
 */
function contextOf(
  req: Request,
  { operationId, principal }: ResolvedOperation,
  basePath: string,
): HandlerContext<OperationId> {
  const headers: Record<string, string> = {};
  for (const name of operationTable[operationId].headerParams) {
    const value = req.get(name);
    if (value !== undefined) headers[name] = value;
  }
  const input = {
    path: (req as ValidatedRequest).openapi?.pathParams ?? {},
    query: req.query,
    headers,
    body: req.body,
  } as Pick<HandlerContext<OperationId>, 'path' | 'query' | 'headers' | 'body'>;
  return {
    operationId,
    ...input,
    principal,
    actor: actorOf(req),
    baseUrl: `${req.protocol}://${req.get('host')}${basePath}`,
    basePath,
    req,
  };
}

/** Middleware: calls the resolved operation's handler and writes its result; errors go to the problem renderer. */
export function callHandler(handlers: HandlerMap, basePath: string): RequestHandler {
  return async (req, res) => {
    const operation = operationOf(req);
    // The map is typed per operation, but here the operation is only known at run time: its handler is called with
    // the context of "some operation", which contextOf built for this one.
    const handler = handlers[operation.operationId] as (
      c: HandlerContext<OperationId>,
    ) => Promise<HandlerOutcome>;
    const call = () => handler(contextOf(req, operation, basePath));
    sendResult(req, res, await (req.idempotency ? req.idempotency.run(call) : call()));
  };
}
