/**
 * The one writer of success responses, for a handler's result and for an Idempotency-Key replay alike.
 */
import type { Request, Response } from 'express';
import { noneMatch } from '../services/concurrency.js';
import type { HandlerOutcome } from './types.js';

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
