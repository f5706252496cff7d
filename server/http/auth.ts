/**
 * Authentication (`Authorization: Bearer <key>`, seed) and scope checks (docs/design.md: read, write, admin).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ApiKeyScope } from '../repositories/tenants.js';
import type { Actor } from '../services/context.js';
import { AppError } from '../services/errors.js';
import { type AuthenticationService, hasScope, type Principal } from '../services/identity/index.js';

declare global {
  namespace Express {
    interface Request {
      /** Set by {@link authenticate} for every request under `/v1` that presented a valid key. */
      principal?: Principal;
      /** The request id (also the `X-Request-Id` response header). */
      requestId?: string;
      /** The JSON body's bytes as received (for the Idempotency-Key fingerprint). */
      rawBody?: Buffer;
    }
  }
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="meridian"' };

/**
 * Resolves the Bearer key to a principal, or answers 401 `unauthenticated` with `WWW-Authenticate: Bearer`
 * when the header is missing or malformed or the key is unknown, expired or revoked. The key is checked first: each
 * failure is then reported to `onFailure` (the failed-authentication limit), which may answer another error (429)
 * instead; a valid key is never reported, so never refused by that limit (docs/design.md, "Limits").
 */
export function authenticate(
  authentication: AuthenticationService,
  onFailure: (req: Request) => Promise<AppError | null> = async () => null,
): RequestHandler {
  return async (req: Request, _res: Response, rawNext: NextFunction) => {
    const next = (err?: unknown) => {
      if (err instanceof AppError && err.code === 'unauthenticated') {
        onFailure(req).then(
          (instead) => rawNext(instead ?? err),
          (failure: unknown) => rawNext(failure),
        );
        return;
      }
      rawNext(err);
    };
    const header = req.get('authorization');
    if (!header) {
      next(
        new AppError('unauthenticated', 'Send the API key as "Authorization: Bearer <key>".', {
          headers: CHALLENGE,
        }),
      );
      return;
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match?.[1]) {
      next(
        new AppError('unauthenticated', 'The Authorization header must be "Bearer <key>".', {
          headers: { 'WWW-Authenticate': 'Bearer realm="meridian", error="invalid_request"' },
        }),
      );
      return;
    }
    try {
      req.principal = await authentication.authenticate(match[1]);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** @throws AppError 403 `forbidden` when the key lacks the operation's scope (the spec's `x-required-scope`). */
export function requireScope(principal: Principal, required: ApiKeyScope, operationId: string): void {
  if (!hasScope(principal.apiKey.scopes, required)) {
    throw new AppError(
      'forbidden',
      `${operationId} needs the "${required}" scope; this key has ${principal.apiKey.scopes.map((s) => `"${s}"`).join(', ') || 'none'}.`,
    );
  }
}

/** The service-layer actor of an authenticated request. */
export function actorOf(req: Request): Actor {
  const principal = req.principal;
  if (!principal) throw new Error('actorOf called before authentication');
  // Audit rows written with a console access token name the user and "console", never the token.
  return {
    tenantId: principal.tenant.id,
    userId: principal.user.id,
    apiKeyId: principal.via === 'api_key' ? principal.apiKey.id : null,
    via: principal.via,
    requestId: req.requestId ?? null,
    timeZone: principal.tenant.timezone,
  };
}
