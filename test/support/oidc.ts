/**
 * A real OpenID Connect provider for the single sign-on tests: `oidc-provider` (the certified Node implementation)
 * on 127.0.0.1, port 0, with one confidential client that must use PKCE, and accounts the test declares. Its login
 * and consent interactions are answered by a small handler instead of a browser: the login signs in the account the
 * test chose ({@link OidcProviderFixture.signInAs}), the consent grants what the client asked for. Tokens, ID token
 * signatures, PKCE and the code exchange are the provider's own; nothing is mocked.
 *
 * {@link Browser} follows redirects across the provider and Meridian with a cookie jar per origin, as a browser
 * would on a top-level navigation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** An account of the provider. */
export interface OidcAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
  name?: string;
}

/** The one client registered at the provider. */
export interface OidcClientRegistration {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** A running provider. */
export class OidcProviderFixture {
  readonly issuer: string;
  readonly client: OidcClientRegistration;
  /** Accounts by `sub`. */
  readonly accounts = new Map<string, OidcAccount>();
  /** The account the next login interaction signs in (by `sub`). */
  current: string | null = null;
  readonly #server: http.Server;

  private constructor(issuer: string, client: OidcClientRegistration, server: http.Server) {
    this.issuer = issuer;
    this.client = client;
    this.#server = server;
  }

  /**
   * Starts a provider on 127.0.0.1 with one client. The redirect URI must be known before the provider starts
   * (it is part of the client's registration), so the test starts Meridian first.
   */
  static async start(client: OidcClientRegistration, accounts: OidcAccount[]): Promise<OidcProviderFixture> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fixture = new OidcProviderFixture(issuer, client, server);
    for (const account of accounts) fixture.accounts.set(account.sub, account);
    const configuration: Configuration = {
      clients: [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: [client.redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      // Every authorization request must carry a PKCE challenge (S256), confidential client or not.
      pkce: { required: () => true },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      cookies: { keys: ['meridian-test-oidc-cookie-key'] },
      findAccount: (_ctx, sub) => {
        const account = fixture.accounts.get(sub);
        if (!account) return undefined;
        return {
          accountId: sub,
          claims: () => ({
            sub,
            email: account.email,
            email_verified: account.emailVerified,
            ...(account.name ? { name: account.name } : {}),
          }),
        };
      },
    };
    const provider = new Provider(issuer, configuration);
    const callback = provider.callback();
    server.on('request', (req, res) => {
      if (req.url?.startsWith('/interaction/')) {
        fixture.#interact(provider, req, res).catch((error: Error) => {
          res.statusCode = 500;
          res.end(error.message);
        });
        return;
      }
      callback(req, res);
    });
    return fixture;
  }

  /** Login signs in `current`; consent grants the scopes and claims the client asked for. */
  async #interact(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!this.current) throw new Error('OIDC fixture: no account chosen (signInAs)');
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: this.current } },
        {
          mergeWithLastSubmission: false,
        },
      );
      return;
    }
    const grant = new provider.Grant({
      accountId: details.session?.accountId as string,
      clientId: this.client.clientId,
    });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  /** Chooses the account the next login signs in. */
  signInAs(sub: string): void {
    this.current = sub;
  }

  /** Stops the provider. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** One step of a {@link Browser} navigation. */
export interface Hop {
  url: string;
  status: number;
  location: string | null;
  setCookies: string[];
  body: string;
}

/**
 * Top-level navigations with redirects followed by hand and a cookie jar per origin (name → value; attributes
 * ignored, which is what a browser does for same-origin navigations over 127.0.0.1).
 */
export class Browser {
  readonly jars = new Map<string, Map<string, string>>();

  /** The cookies this browser holds for `url`'s origin, as a `Cookie` header value. */
  cookieHeader(url: string): string {
    const jar = this.jars.get(new URL(url).origin);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  /** The value of one cookie held for `url`'s origin, or undefined. */
  cookie(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).origin)?.get(name);
  }

  /**
   * GETs `url` and follows redirects (at most `maxHops`) until a response that is not a redirect, or until
   * `stop(url)` says the next URL is where the test wants to take over (it is then not fetched: the last hop's
   * `location` names it). Returns every hop.
   */
  async navigate(
    url: string,
    options: { maxHops?: number; stop?: (next: URL) => boolean } = {},
  ): Promise<Hop[]> {
    const hops: Hop[] = [];
    let next: string | null = url;
    for (let i = 0; next && i < (options.maxHops ?? 20); i++) {
      const hop = await this.get(next);
      hops.push(hop);
      if (!hop.location || hop.status < 300 || hop.status >= 400) break;
      const target = new URL(hop.location, hop.url);
      if (options.stop?.(target)) break;
      next = target.href;
    }
    return hops;
  }

  /** One GET with this browser's cookies; stores the cookies it sets. */
  async get(url: string): Promise<Hop> {
    const cookie = this.cookieHeader(url);
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { accept: 'text/html,application/json', ...(cookie ? { cookie } : {}) },
    });
    const setCookies = res.headers.getSetCookie();
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      // An expired or emptied cookie is deleted.
      if (value === '' || /max-age=0\b/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
        jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(origin, jar);
    return {
      url,
      status: res.status,
      location: res.headers.get('location'),
      setCookies,
      body: await res.text(),
    };
  }
}
