/**
 * The `Idempotency-Key` protocol on POST (docs/design.md, Idempotency; the spec's `IdempotencyKey` parameter): the
 * first request with a key reserves it and its result is stored; a retry with the same key and the same request gets
 * the stored result again (`Idempotent-Replayed: true`) without running the handler; the rules about a different
 * request (422) or one still in flight (409) live in the service.
 *
 * One rule is the HTTP layer's: a response that carries a one-time secret (a new API key, a webhook secret) is never
 * stored, so a replay of such a request answers 409 instead of the secret.
 */
import type { RequestHandler } from 'express';
import { AppError } from '../services/errors.js';
import { fingerprintOf, type IdempotencyService, type StoredResponse } from '../services/idempotency.js';
import { operationOf } from './dispatch.js';
import { sendResult } from './result.js';
import type { HandlerOutcome, OperationId } from './types.js';

/** Operations whose success body carries a secret shown once: never stored, and their replays answer 409. */
export const ONE_TIME_SECRETS: ReadonlySet<OperationId> = new Set<OperationId>([
  'createApiKey',
  'rollApiKey',
  'createWebhook',
  'rotateWebhookSecret',
]);

/** A reserved key: runs the handler once and settles the reservation with its outcome. */
export interface IdempotentCall {
  /** Stores the handler's result under the key, or releases the key when the handler throws (then rethrows). */
  run(handler: () => Promise<HandlerOutcome>): Promise<HandlerOutcome>;
}

declare global {
  namespace Express {
    interface Request {
      /** Set by {@link idempotencyKeys} when this POST reserved its Idempotency-Key. */
      idempotency?: IdempotentCall;
    }
  }
}

function secretNotReplayable(first: StoredResponse): AppError {
  const location = first.headers.Location;
  return new AppError(
    'conflict',
    'A request with this Idempotency-Key already succeeded' +
      (location ? ` (${location})` : '') +
      '. Its response carried a one-time secret, which Meridian does not keep, so it cannot be replayed: ' +
      'use the record it created (rotate or revoke it if the secret was lost).',
  );
}

/**
 * Middleware (after the operation is resolved, before the handler): for a POST with `Idempotency-Key`, replays the
 * stored result, or reserves the key and sets `req.idempotency` for the handler call to settle.
 * @throws AppError 409 `conflict` (the first request is still in flight, or its response held a one-time secret),
 *   422 `idempotency_key_reused` (the key was used for a different request).
 */
export function idempotencyKeys(service: IdempotencyService): RequestHandler {
  return async (req, res, next) => {
    const key = req.method === 'POST' ? req.get('idempotency-key') : undefined;
    if (key === undefined) {
      next();
      return;
    }
    const { operationId, principal } = operationOf(req);
    const tenantId = principal.tenant.id;
    // Over the request as sent (method, path, raw body), before the validator filled in defaults.
    const reservation = await service.begin(tenantId, key, fingerprintOf(req.method, req.path, req.rawBody));
    const secret = ONE_TIME_SECRETS.has(operationId);
    if (reservation.kind === 'replay') {
      if (secret) throw secretNotReplayable(reservation.response);
      const { status, headers, body } = reservation.response;
      sendResult(req, res, { status, headers: { ...headers, 'Idempotent-Replayed': 'true' }, body });
      return;
    }
    req.idempotency = {
      async run(handler) {
        let result: HandlerOutcome;
        try {
          result = await handler();
        } catch (err) {
          await service.release(tenantId, key);
          throw err;
        }
        await service.complete(tenantId, key, {
          status: result.status,
          headers: result.headers ?? {},
          // A one-time secret (API key, webhook secret) is never stored, not even for a replay.
          body: secret ? undefined : result.body,
        });
        return result;
      },
    };
    next();
  };
}
