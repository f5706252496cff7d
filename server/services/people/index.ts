/**
 * Members, invitations and single sign-on (docs/members.md), one feature folder: members and their roles
 * (./members.ts), invitations (./invitations.ts), joining by invitation or single sign-on (./joins.ts), the
 * tenant's single sign-on settings (./sso-settings.ts) and flow (./sso-sign-in.ts), and the mailer (./mailer.ts).
 * {@link buildPeople} wires them over the app's dependencies.
 */
import type { Logger } from 'pino';
import type { MailConfig } from '../../config.js';
import type { PasswordHasher } from '../accounts/passwords.js';
import type { ServiceDeps } from '../context.js';
import type { PrincipalCache } from '../identity/principals.js';
import { InvitationService } from './invitations.js';
import { JoinService } from './joins.js';
import { Mailer } from './mailer.js';
import { MemberService } from './members.js';
import { SsoSettingsService } from './sso-settings.js';
import { SsoSignInService } from './sso-sign-in.js';

export { InvitationService } from './invitations.js';
export { JoinService } from './joins.js';
export { Mailer } from './mailer.js';
export { MemberService } from './members.js';
export { SsoSettingsService } from './sso-settings.js';
export { SsoSignInService } from './sso-sign-in.js';

/** The people services of one app. */
export interface People {
  members: MemberService;
  invitations: InvitationService;
  joins: JoinService;
  ssoSettings: SsoSettingsService;
  ssoSignIn: SsoSignInService;
  mailer: Mailer;
}

/** What {@link buildPeople} needs besides the shared dependencies. */
export interface PeopleOptions {
  principals: PrincipalCache;
  passwords: PasswordHasher;
  /** `MERIDIAN_PUBLIC_URL`, or null: links then use the origin each request came to. */
  publicUrl: string | null;
  mail: MailConfig | null;
  ssoAllowHttp: boolean;
  logger?: Logger | undefined;
}

/** Builds the people services of one app. */
export function buildPeople(deps: ServiceDeps, options: PeopleOptions): People {
  const mailer = new Mailer(options.mail, options.logger);
  const ssoSettings = new SsoSettingsService({
    ...deps,
    allowHttp: options.ssoAllowHttp,
    publicUrl: options.publicUrl,
  });
  return {
    members: new MemberService({ ...deps, principals: options.principals }),
    invitations: new InvitationService({ ...deps, mailer, publicUrl: options.publicUrl }),
    joins: new JoinService({ ...deps, passwords: options.passwords }),
    ssoSettings,
    ssoSignIn: new SsoSignInService({ ...deps, settings: ssoSettings, allowHttp: options.ssoAllowHttp }),
    mailer,
  };
}
