/**
 * The console's sign-in routes, `/auth/*` (docs/accounts.md), mounted at the server's root outside `/v1` and before
 * its Bearer chain. Pipeline: `Cache-Control: no-store` → cross-site check (./origin.ts) → JSON body → the
 * contract's `/auth` paths validated like every operation → handler. The cookie is read here and nowhere else:
 * `/v1` stays Bearer-only.
 *
 * Adding a route: describe it in the spec (a path with its own `servers`, tag "Console sign-in"), run
 * `npm run generate`, then add `router.<method>('/…', requireSession(services)?, handler)` (paths relative to
 * `/auth`) below, or in a module that receives the router (`ConsoleRoutes`, ./session.ts) passed in `extend`.
 */
import express, { type Request, type Router } from 'express';
import type { Config } from '../../config.js';
import type { Schema } from '../../schemas.js';
import { scopesOfRole } from '../../services/accounts/index.js';
import { AppError } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import {
  jsonBody,
  noStore,
  refuseNulCharacters,
  requireDeclaredBody,
  validateAgainstSpec,
} from '../middleware.js';
import { type LoadedSpec, pathsOf } from '../spec.js';
import { accountRoutes } from './account-routes.js';
import { clearSessionCookie, sessionIdOf } from './cookie.js';
import { sameOriginOnly } from './origin.js';
import {
  answerSignIn,
  type ConsoleRoutes,
  clientOf,
  consoleUser,
  requireSession,
  sessionOf,
} from './session.js';

/** The request's id for audit rows. */
const requestIdOf = (req: Request) => req.requestId ?? null;

/**
 * The `/auth` router. `extend` adds further routes (members' invitations, single sign-on) after the validator,
 * so they are checked against the contract like these.
 */
export function consoleAuthRoutes(
  services: Services,
  config: Config,
  spec: LoadedSpec,
  extend: ((routes: ConsoleRoutes) => void)[] = [],
): Router {
  const router = express.Router({ caseSensitive: true });
  router.use(noStore());
  router.use(sameOriginOnly(config.publicUrl));
  router.use(jsonBody());
  router.use(validateAgainstSpec(pathsOf(spec, false), config));
  router.use(requireDeclaredBody());
  router.use(refuseNulCharacters());
  const signedIn = requireSession(services);

  router.post('/sign-in', async (req, res) => {
    const body = req.body as Schema<'ConsoleSignIn'>;
    const result = await services.signIn.signIn(body, clientOf(req), requestIdOf(req));
    res.status(200).json(answerSignIn(res, result));
  });

  router.post('/sign-in/two-factor', requireSession(services, ['two_factor']), async (req, res) => {
    const body = req.body as Schema<'ConsoleSecondFactor'>;
    const result = await services.signIn.secondFactor(sessionOf(res), body, clientOf(req), requestIdOf(req));
    res.status(200).json(answerSignIn(res, result));
  });

  router.post('/setup', async (req, res) => {
    const account = await services.accounts.redeemLink(req.body as Schema<'ConsoleSetup'>);
    const result = await services.signIn.startSignedIn(
      account,
      clientOf(req),
      requestIdOf(req),
      'setup_link',
    );
    res.status(200).json(answerSignIn(res, result));
  });

  router.post('/sign-out', async (req, res) => {
    const id = sessionIdOf(req);
    const session = id === null ? null : await services.sessions.find(id);
    if (session) await services.sessions.signOut(session, requestIdOf(req));
    clearSessionCookie(res);
    res.status(204).end();
  });

  router.get(
    '/session',
    requireSession(services, ['active', 'two_factor', 'enrol_two_factor']),
    async (_req, res) => {
      const session = sessionOf(res);
      const account = await services.sessions.accountOf(session);
      if (!account) throw new AppError('unauthenticated', 'Sign in first: no console session, or it ended.');
      const tenant = await services.tenants.resolve(account.tenantId);
      const body: Schema<'ConsoleSessionState'> = {
        user: consoleUser(account),
        tenant: { id: tenant.id, name: tenant.name, requireTwoFactor: tenant.settings.requireTwoFactor },
        session: {
          id: session.id,
          stage: session.stage,
          createdAt: session.createdAt,
          expiresAt:
            session.idleExpiresAt < session.absoluteExpiresAt
              ? session.idleExpiresAt
              : session.absoluteExpiresAt,
          recoveryCodesLeft: await services.twoFactor.recoveryCodesLeft(account.id),
        },
      };
      res.status(200).json(body);
    },
  );

  router.post('/token', signedIn, async (_req, res) => {
    const session = sessionOf(res);
    const account = await services.sessions.accountOf(session);
    if (!account) throw new AppError('unauthenticated', 'Sign in first: no console session, or it ended.');
    const { token, expiresAt, expiresIn } = await services.sessions.issueToken(session);
    const body: Schema<'ConsoleAccessToken'> = {
      accessToken: token,
      tokenType: 'Bearer',
      expiresIn,
      expiresAt,
      scopes: scopesOfRole(account.role),
    };
    res.status(200).json(body);
  });

  accountRoutes({ router, services, config });
  for (const add of extend) add({ router, services, config });
  return router;
}
