/**
 * The console's routes of members and single sign-on (docs/members.md), added to the `/auth` router (./routes.ts)
 * after its cross-site check, JSON body and contract validation:
 * - `POST /auth/invitations/preview`: what an open invitation offers (tenant, email, role, expiry);
 * - `POST /auth/invitations/accept`: the invitation's account is created and signed in;
 * - `GET /auth/sso/start`: to the tenant's OpenID Connect provider, the flow's transaction sealed in a cookie;
 * - `GET /auth/sso/callback`: back from the provider; the person's account is found or created and signed in.
 * The callback is a top-level GET navigation from the provider, so it carries no `Origin` to check: the sealed
 * transaction (state, nonce, PKCE verifier) in a `SameSite=Lax` cookie is what binds it to the browser that started.
 */
import type { Request, Response } from 'express';
import type { Schema } from '../../schemas.js';
import { SSO_TRANSACTION_TTL_MS } from '../../services/people/sso-sign-in.js';
import { type ConsoleRoutes, startConsoleSession } from './session.js';

/** The cookie that holds a single sign-on in progress. */
const SSO_COOKIE = '__Host-meridian_sso';
const COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' } as const;

/** The origin the request came to (`trust proxy` honoured for the protocol). */
function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

/** The value of the single sign-on cookie, or undefined. */
function ssoCookieOf(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SSO_COOKIE) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Adds the invitation and single sign-on routes to the `/auth` router. */
export function peopleRoutes({ router, services }: ConsoleRoutes): void {
  router.post('/invitations/preview', async (req: Request, res: Response) => {
    res
      .status(200)
      .json(await services.joins.previewInvitation((req.body as Schema<'InvitationToken'>).token));
  });

  router.post('/invitations/accept', async (req: Request, res: Response) => {
    const user = await services.joins.acceptInvitation(req.body as Schema<'InvitationAcceptance'>);
    res.status(200).json(await startConsoleSession(services, req, res, user.id, 'invitation'));
  });

  router.get('/sso/start', async (req: Request, res: Response) => {
    const { authorizationUrl, transaction } = await services.ssoSignIn.begin(
      String(req.query.tenant),
      requestOrigin(req),
    );
    res.cookie(SSO_COOKIE, transaction, { ...COOKIE_OPTIONS, maxAge: SSO_TRANSACTION_TTL_MS });
    res.redirect(303, authorizationUrl);
  });

  router.get('/sso/callback', async (req: Request, res: Response) => {
    const url = new URL(req.originalUrl, requestOrigin(req));
    // The transaction is used once, whatever the outcome.
    res.clearCookie(SSO_COOKIE, COOKIE_OPTIONS);
    const identity = await services.ssoSignIn.complete(url, ssoCookieOf(req));
    const user = await services.joins.ssoAccount(identity, req.requestId ?? null);
    // The provider authenticated the person (its own second factor included): the session is signed in.
    await startConsoleSession(services, req, res, user.id, 'oidc', { secondFactorDone: true });
    res.redirect(303, '/console/');
  });
}
