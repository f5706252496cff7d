/**
 * Single sign-on through OpenID Connect (docs/members.md, "Single sign-on"): the authorization code flow with PKCE
 * (S256), `state` and `nonce`, by `openid-client` 6 against the tenant's provider. {@link SsoSignInService.begin}
 * returns the provider's authorization URL and the flow's transaction sealed by the secret box (the browser keeps
 * it in a cookie; nothing is stored server-side); {@link SsoSignInService.complete} checks the callback against
 * it, exchanges the code and returns the person's verified claims. Matching them to an account is the members'
 * side (./sso-accounts.ts).
 */
import * as oidc from 'openid-client';
import { findTenant } from '../../repositories/tenants.js';
import type { ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import { type OpenedSso, redirectUriOf, type SsoSettingsService } from './sso-settings.js';

/** How long a sign-in may take between leaving for the provider and coming back, in ms. */
export const SSO_TRANSACTION_TTL_MS = 10 * 60_000;
/** How long a provider's discovery document is reused, in ms. */
const DISCOVERY_TTL_MS = 5 * 60_000;
/** The secret box context of a sealed transaction. */
const TRANSACTION_CONTEXT = 'sso_transaction';

/** What a finished sign-in tells about the person (from the ID token and the UserInfo endpoint). */
export interface SsoIdentity {
  tenantId: string;
  /** The tenant's configuration (without its secret) as it was when the sign-in finished. */
  sso: Omit<OpenedSso, 'clientSecret'>;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

interface Transaction {
  tenantId: string;
  /** The redirect URI the provider was given (the code exchange repeats it). */
  redirectUri: string;
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
}

/** Options of {@link SsoSignInService}. */
export interface SsoSignInOptions extends ServiceDeps {
  settings: SsoSettingsService;
  /** Let `openid-client` talk to `http` issuers (`MERIDIAN_SSO_ALLOW_HTTP`). */
  allowHttp: boolean;
}

/** Runs the authorization code flow; holds the providers' discovery documents for a few minutes. */
export class SsoSignInService {
  readonly #deps: ServiceDeps;
  readonly #settings: SsoSettingsService;
  readonly #allowHttp: boolean;
  readonly #configs = new Map<string, { key: string; config: oidc.Configuration; until: number }>();

  constructor(options: SsoSignInOptions) {
    this.#deps = options;
    this.#settings = options.settings;
    this.#allowHttp = options.allowHttp;
  }

  /**
   * Starts a sign-in for a tenant: the provider's authorization URL and the sealed transaction to keep. The
   * callback is under the public URL, or `requestOrigin` without one.
   * @throws AppError 404 when the tenant has no single sign-on (or is not on the Enterprise plan); 503 when the
   *   provider's discovery document cannot be read.
   */
  async begin(
    tenantId: string,
    requestOrigin: string,
  ): Promise<{ authorizationUrl: string; transaction: string }> {
    const tenant = await findTenant(this.#deps.db.knex, tenantId);
    const sso = tenant?.plan === 'ENTERPRISE' ? await this.#settings.opened(tenantId) : null;
    if (!sso) throw new AppError('not_found', 'Single sign-on is not configured for this tenant.');
    const config = await this.#configuration(sso);
    const transaction: Transaction = {
      tenantId,
      redirectUri: redirectUriOf(this.#settings.linkBase(requestOrigin)),
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      expiresAt: this.#deps.clock.now().getTime() + SSO_TRANSACTION_TTL_MS,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: transaction.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.verifier),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
    });
    return {
      authorizationUrl: url.href,
      transaction: this.#deps.secrets.seal(JSON.stringify(transaction), TRANSACTION_CONTEXT),
    };
  }

  /**
   * Finishes a sign-in from the provider's redirect to the callback: checks `state`, exchanges the code with the
   * PKCE verifier, verifies the ID token (signature, issuer, audience, nonce) and reads the UserInfo claims.
   * @throws AppError 401 `unauthenticated` for a missing, expired or foreign transaction, an error answered by the
   *   provider, or a code the provider refuses (the sign-in failed); 404 when the tenant's single sign-on was removed
   *   meanwhile.
   */
  async complete(callbackUrl: URL, sealed: string | undefined): Promise<SsoIdentity> {
    const transaction = this.#openTransaction(sealed);
    const providerError = callbackUrl.searchParams.get('error');
    if (providerError !== null) {
      throw new AppError(
        'unauthenticated',
        `The identity provider refused the sign-in (${providerError.slice(0, 64)}).`,
      );
    }
    const sso = await this.#settings.opened(transaction.tenantId);
    if (!sso) throw new AppError('not_found', 'Single sign-on is not configured for this tenant.');
    const config = await this.#configuration(sso);
    // The callback URL as the provider was told it (the server may sit behind a proxy): same path, same query.
    const current = new URL(transaction.redirectUri);
    current.search = callbackUrl.search;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: transaction.verifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new AppError(
        'unauthenticated',
        `The sign-in could not be completed: ${(error as Error).message}`,
      );
    }
    const claims = tokens.claims();
    if (!claims) throw new AppError('unauthenticated', 'The identity provider sent no ID token.');
    let info: Record<string, unknown> = claims;
    try {
      info = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    } catch {
      // A provider without a UserInfo endpoint puts the claims into the ID token; those are used as they are.
    }
    const { clientSecret: _secret, ...settings } = sso;
    return {
      tenantId: transaction.tenantId,
      sso: settings,
      subject: claims.sub,
      email: typeof info.email === 'string' ? info.email : null,
      emailVerified: info.email_verified === true,
      name: typeof info.name === 'string' && info.name.trim() !== '' ? info.name.trim() : null,
    };
  }

  #openTransaction(sealed: string | undefined): Transaction {
    const refuse = () =>
      new AppError(
        'unauthenticated',
        'This sign-in was not started here, or took longer than 10 minutes: start single sign-on again.',
      );
    if (!sealed) throw refuse();
    let transaction: Transaction;
    try {
      transaction = JSON.parse(this.#deps.secrets.open(sealed, TRANSACTION_CONTEXT)) as Transaction;
    } catch {
      throw refuse();
    }
    if (!(transaction.expiresAt > this.#deps.clock.now().getTime())) throw refuse();
    return transaction;
  }

  /** The provider's configuration for this client, discovered at most every DISCOVERY_TTL_MS. */
  async #configuration(sso: OpenedSso): Promise<oidc.Configuration> {
    const key = JSON.stringify([sso.issuerUrl, sso.clientId, sso.clientSecret]);
    const now = this.#deps.clock.now().getTime();
    const held = this.#configs.get(sso.tenantId);
    if (held && held.key === key && held.until > now) return held.config;
    let config: oidc.Configuration;
    try {
      config = await oidc.discovery(
        new URL(sso.issuerUrl),
        sso.clientId,
        undefined,
        oidc.ClientSecretBasic(sso.clientSecret),
        { timeout: 10, ...(this.#allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}) },
      );
    } catch (error) {
      throw new AppError(
        'service_unavailable',
        `The identity provider's discovery document could not be read (${(error as Error).message}).`,
        { headers: { 'Retry-After': '30' } },
      );
    }
    this.#configs.set(sso.tenantId, { key, config, until: now + DISCOVERY_TTL_MS });
    return config;
  }
}
