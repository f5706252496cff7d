/**
 * Console sessions on the HTTP side (docs/accounts.md, "Sessions"): reading the session a request's cookie names,
 * starting one and setting the cookie, and the bodies `/auth/*` answers with.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { Config } from '../../config.js';
import type { AccountRecord } from '../../repositories/accounts.js';
import type { SessionRecord, SessionStage } from '../../repositories/sessions.js';
import type { Schema } from '../../schemas.js';
import type { ClientInfo, SignInResult } from '../../services/accounts/index.js';
import { AppError } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import { sessionIdOf, setSessionCookie } from './cookie.js';

/** What a module adding routes to the `/auth` router (server/http/console/routes.ts) receives. */
export interface ConsoleRoutes {
  /** The router mounted at `/auth`: register paths relative to it (`/invitations/accept`). */
  router: Router;
  services: Services;
  config: Config;
}

/** Body of a sign-in step (spec `ConsoleSignInResult`). */
export type SignInResultBody = Schema<'ConsoleSignInResult'>;

/** The facts a session records about the request: User-Agent and client address (`trust proxy` honoured). */
export function clientOf(req: Request): ClientInfo {
  return { userAgent: req.get('user-agent') ?? null, address: req.ip ?? null };
}

/** A user as the console shows it (spec `ConsoleUser`). */
export function consoleUser(account: AccountRecord): Schema<'ConsoleUser'> {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    role: account.role,
    tenantId: account.tenantId,
    twoFactorEnabled: account.totpEnabledAt !== null,
  };
}

const STATUS: Record<SessionStage, SignInResultBody['status']> = {
  active: 'signed_in',
  two_factor: 'two_factor_required',
  enrol_two_factor: 'two_factor_enrolment_required',
};

/** Sets the cookie of a started session and returns the body that tells the console where sign-in stands. */
export function answerSignIn(res: Response, result: SignInResult): SignInResultBody {
  setSessionCookie(res, result.secret, result.session);
  return { status: STATUS[result.session.stage], user: consoleUser(result.account) };
}

/**
 * Starts a console session for the user with id `userId`, who proved who they are some other way (an accepted
 * invitation, an OpenID Connect sign-in), sets the `__Host-` cookie on `res`, and returns the body to answer with.
 * The session is `active`, unless the user has a second factor and `secondFactorDone` is false (then the console
 * asks for it), or the tenant requires one the user lacks (then enrolment comes first). Audited `auth.signed_in`
 * with `method` (e.g. `invitation`, `oidc`).
 * @throws AppError 401 `unauthenticated` when the user does not exist or is deactivated.
 */
export async function startConsoleSession(
  services: Services,
  req: Request,
  res: Response,
  userId: string,
  method: string,
  options: { secondFactorDone?: boolean } = {},
): Promise<SignInResultBody> {
  const account = await services.accounts.find(userId);
  if (!account) throw new AppError('unauthenticated', 'No such user.');
  const result = await services.signIn.startSignedIn(
    account,
    clientOf(req),
    req.requestId ?? null,
    method,
    options,
  );
  return answerSignIn(res, result);
}

/** The session of a request that passed {@link requireSession}. */
export function sessionOf(res: Response): SessionRecord {
  const session = res.locals.session as SessionRecord | undefined;
  if (!session) throw new Error('sessionOf called before requireSession');
  return session;
}

/**
 * Requires a live session of one of `stages` (by default a signed-in one) and keeps it in `res.locals.session`.
 * @throws AppError 401 `unauthenticated` otherwise.
 */
export function requireSession(services: Services, stages: SessionStage[] = ['active']): RequestHandler {
  return async (req, res, next) => {
    const id = sessionIdOf(req);
    const session = id === null ? null : await services.sessions.find(id);
    if (!session || !stages.includes(session.stage))
      throw new AppError(
        'unauthenticated',
        session ? 'Finish signing in first.' : 'Sign in first: no console session, or it ended.',
      );
    res.locals.session = session;
    next();
  };
}
