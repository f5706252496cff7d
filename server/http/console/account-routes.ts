/**
 * `/auth/*` routes of a signed-in user's own account (docs/accounts.md): their name, sessions, password and
 * second factor (enrolment, new recovery codes, turning it off). Added to the router of ./routes.ts, after its cross-site check and validation.
 */
import type { Request } from 'express';
import type { Schema } from '../../schemas.js';
import { consoleActor, type RecoveryCodesProof } from '../../services/accounts/index.js';
import { AppError } from '../../services/errors.js';
import { clearSessionCookie } from './cookie.js';
import {
  answerSignIn,
  type ConsoleRoutes,
  clientOf,
  consoleUser,
  requireSession,
  sessionOf,
} from './session.js';

const requestIdOf = (req: Request) => req.requestId ?? null;

/** Adds the account routes: name, sessions, password, two-factor enrolment, recovery codes, turning it off. */
export function accountRoutes({ router, services }: ConsoleRoutes): void {
  const signedIn = requireSession(services);
  const accountOf = async (res: Parameters<typeof sessionOf>[0]) => {
    const account = await services.sessions.accountOf(sessionOf(res));
    if (!account) throw new AppError('unauthenticated', 'Sign in first: no console session, or it ended.');
    return account;
  };

  router.patch('/account', signedIn, async (req, res) => {
    const session = sessionOf(res);
    const actor = consoleActor({ id: session.userId, tenantId: session.tenantId }, requestIdOf(req));
    const account = await services.accounts.rename(actor, (req.body as Schema<'ConsoleAccountUpdate'>).name);
    const body: Schema<'ConsoleUser'> = consoleUser(account);
    res.status(200).json(body);
  });

  router.get('/sessions', signedIn, async (_req, res) => {
    const session = sessionOf(res);
    const body: Schema<'ConsoleSessionList'> = {
      data: await services.sessions.list(session.userId, session.id),
    };
    res.status(200).json(body);
  });

  router.delete('/sessions', signedIn, async (req, res) => {
    await services.sessions.signOutEverywhere(sessionOf(res), requestIdOf(req));
    clearSessionCookie(res);
    res.status(204).end();
  });

  router.delete('/sessions/:id', signedIn, async (req, res) => {
    const session = sessionOf(res);
    await services.sessions.revokeOther(session, String(req.params.id), requestIdOf(req));
    if (req.params.id === session.id) clearSessionCookie(res);
    res.status(204).end();
  });

  router.post('/password', signedIn, async (req, res) => {
    const session = sessionOf(res);
    const body = req.body as Schema<'ConsolePasswordChange'>;
    const actor = consoleActor({ id: session.userId, tenantId: session.tenantId }, requestIdOf(req));
    await services.accounts.changePassword(actor, session.id, body.currentPassword, body.newPassword);
    res.status(204).end();
  });

  const enrolling = requireSession(services, ['active', 'enrol_two_factor']);
  router.post('/two-factor/enrolment', enrolling, async (_req, res) => {
    const body: Schema<'ConsoleTwoFactorEnrolment'> = await services.twoFactor.begin(await accountOf(res));
    res.status(200).json(body);
  });

  router.post('/two-factor/enrolment/confirm', enrolling, async (req, res) => {
    const session = sessionOf(res);
    const account = await accountOf(res);
    const actor = consoleActor(account, requestIdOf(req));
    const recoveryCodes = await services.twoFactor.confirm(
      actor,
      account,
      (req.body as Schema<'ConsoleTwoFactorConfirm'>).code,
    );
    // A sign-in the tenant's requireTwoFactor held back is completed with a new session id.
    const user =
      session.stage === 'enrol_two_factor'
        ? answerSignIn(res, await services.signIn.activate(session, clientOf(req), requestIdOf(req))).user
        : consoleUser({ ...account, totpEnabledAt: 'now' });
    const body: Schema<'ConsoleRecoveryCodes'> = { recoveryCodes, status: 'signed_in', user };
    res.status(200).json(body);
  });

  router.post('/two-factor/recovery-codes', signedIn, async (req, res) => {
    const account = await accountOf(res);
    const recoveryCodes = await services.twoFactor.regenerateRecoveryCodes(
      consoleActor(account, requestIdOf(req)),
      account,
      req.body as RecoveryCodesProof,
      clientOf(req),
    );
    const body: Schema<'ConsoleRecoveryCodeList'> = { recoveryCodes };
    res.status(200).json(body);
  });

  router.delete('/two-factor', signedIn, async (req, res) => {
    const account = await accountOf(res);
    const { password } = req.body as Schema<'ConsolePasswordConfirmation'>;
    await services.twoFactor.disable(
      consoleActor(account, requestIdOf(req)),
      account,
      password,
      clientOf(req),
    );
    res.status(204).end();
  });
}
