/**
 * Accounts and console sessions (docs/accounts.md), one feature folder: accounts and one-time links
 * (./accounts.ts), passwords (./passwords.ts), sign-in (./sign-in.ts) and its throttling (./throttle.ts), TOTP
 * (./two-factor.ts), sessions and console access tokens (./sessions.ts), roles (./roles.ts).
 * {@link buildAccounts} wires them for one app.
 */
import type { ServiceDeps } from '../context.js';
import { AccountService } from './accounts.js';
import { PasswordHasher } from './passwords.js';
import { type SessionLifetimes, SessionService } from './sessions.js';
import { SignInService } from './sign-in.js';
import { SignInThrottle } from './throttle.js';
import { TwoFactorService } from './two-factor.js';

export { type AccountInput, AccountService, LINK_TTL_MS, linkUrl, type RedeemInput } from './accounts.js';
export { EMAIL_MAX_LENGTH, isEmailLike, normalizeEmail } from './emails.js';
export { PasswordHasher } from './passwords.js';
export { isRole, ROLES, scopesOfRole, withinRole } from './roles.js';
export { CONSOLE_TOKEN_PATTERN, CONSOLE_TOKEN_PREFIX, hashSecret } from './secrets.js';
export {
  type ClientInfo,
  CONSOLE_TOKEN_TTL_MS,
  isLive,
  type SessionLifetimes,
  SessionService,
  type SessionView,
} from './sessions.js';
export { consoleActor, SIGN_IN_REFUSED, type SignInResult, SignInService } from './sign-in.js';
export { type EnrolmentView, type RecoveryCodesProof, TwoFactorService } from './two-factor.js';

/** The account services of one app. */
export interface Accounts {
  accounts: AccountService;
  /** The app's password hasher (accepting an invitation sets a password: docs/members.md). */
  passwords: PasswordHasher;
  sessions: SessionService;
  signIn: SignInService;
  twoFactor: TwoFactorService;
}

/** Builds the account services of one app (one password hasher and one sign-in throttle between them). */
export function buildAccounts(deps: ServiceDeps, lifetimes: SessionLifetimes): Accounts {
  const passwords = new PasswordHasher();
  const sessions = new SessionService(deps, lifetimes);
  const throttle = new SignInThrottle(deps.db);
  const twoFactor = new TwoFactorService({ ...deps, passwords, throttle });
  return {
    accounts: new AccountService({ ...deps, passwords }),
    passwords,
    sessions,
    signIn: new SignInService({ ...deps, passwords, sessions, twoFactor, throttle }),
    twoFactor,
  };
}
