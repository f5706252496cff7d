/**
 * The console session cookie (docs/accounts.md, "Sessions"): `__Host-meridian_session`, `HttpOnly`, `Secure`,
 * `SameSite=Lax`, `Path=/`, no `Domain` (what the `__Host-` prefix demands), expiring with the session's absolute
 * lifetime. Browsers treat `http://127.0.0.1` and `http://localhost` as secure contexts, so the quick start keeps
 * the same cookie as a deployment behind TLS.
 */
import type { Request, Response } from 'express';
import type { SessionRecord } from '../../repositories/sessions.js';

/** The cookie's name. */
export const SESSION_COOKIE = '__Host-meridian_session';

/** The session id the request's cookie holds, or null. */
export function sessionIdOf(req: Request): string | null {
  const header = req.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : null;
  }
  return null;
}

/** Sets the cookie to a new session id. */
export function setSessionCookie(res: Response, secret: string, session: SessionRecord): void {
  res.cookie(SESSION_COOKIE, secret, {
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    path: '/',
    expires: new Date(session.absoluteExpiresAt),
    encode: (v) => v,
  });
}

/** Clears the cookie. */
export function clearSessionCookie(res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'lax', path: '/' });
}
