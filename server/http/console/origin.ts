/**
 * Cross-site request checks of `/auth/*` (docs/accounts.md, "Cross-site requests"): a request that changes state
 * (any method but GET, HEAD and OPTIONS) must come from the deployment's own origin — `Origin` equal to the origin
 * of `MERIDIAN_PUBLIC_URL`, or without it to the request's own (`req.protocol` and `req.host`, which honour
 * `X-Forwarded-Proto` and `X-Forwarded-Host` from a trusted proxy) — and, where the browser sends `Sec-Fetch-Site`, it must say `same-origin`. A body must be
 * `application/json` (a cross-site form can send neither that type nor a matching Origin). `SameSite=Lax` on the
 * cookie is the second line.
 */
import type { RequestHandler } from 'express';
import { AppError } from '../../services/errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin a state-changing request must carry: the public URL's, or the request's own. */
function expectedOrigin(publicUrl: string | null, protocol: string, host: string | undefined): string | null {
  if (publicUrl) return new URL(publicUrl).origin;
  if (!host) return null;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * Refuses cross-site state-changing requests (403 `forbidden`) and non-JSON bodies (415).
 * @param publicUrl `MERIDIAN_PUBLIC_URL`, or null.
 */
export function sameOriginOnly(publicUrl: string | null): RequestHandler {
  return (req, _res, next) => {
    if (SAFE.has(req.method)) {
      next();
      return;
    }
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const expected = expectedOrigin(publicUrl, req.protocol, req.host);
    if ((site !== undefined && site !== 'same-origin') || !origin || origin !== expected) {
      throw new AppError(
        'forbidden',
        `Cross-site request refused: /auth requests that change state must come from ${expected ?? 'this deployment'} (Origin${site === undefined ? '' : ', Sec-Fetch-Site'}).`,
      );
    }
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (hasBody && !req.is('application/json'))
      throw new AppError('unsupported_media_type', 'Send the body as application/json.');
    next();
  };
}
