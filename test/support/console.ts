/**
 * A browser's side of console sign-in for tests (docs/accounts.md): a cookie jar holding the
 * `__Host-meridian_session` cookie, the same-origin `Origin` header a browser sends, and every answer checked
 * against the spec's `/auth/*` responses.
 */
import type { MeridianApp } from '../../server/app.js';
import type { UserRole } from '../../server/repositories/tenants.js';
import { systemActor } from '../../server/services/context.js';
import type { ApiResponse } from './client.js';
import { assertConformsAt } from './contract.js';

/** Options of one console request. */
export interface ConsoleCallOptions {
  body?: unknown;
  /** `Origin` to send; default the server's own, null for none. */
  origin?: string | null;
  headers?: Record<string, string>;
  /** The spec's path template when it differs from the path (`/auth/sessions/{id}`). */
  template?: string;
}

/** One browser signed in (or not) to the console of a test server. */
export class ConsoleBrowser {
  /** The session cookie's value, or null. */
  cookie: string | null = null;
  /** The raw `Set-Cookie` of the last answer that set one. */
  lastSetCookie: string | null = null;

  /** @param origin the server's origin, e.g. `http://127.0.0.1:41234`. */
  constructor(readonly origin: string) {}

  /** Sends `method path` with the cookie, as the console would; checks the answer against the spec. */
  async call<T = any>(
    method: string,
    path: string,
    options: ConsoleCallOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const origin = options.origin === undefined ? this.origin : options.origin;
    if (origin !== null && method !== 'GET') headers.origin = origin;
    if (this.cookie) headers.cookie = `__Host-meridian_session=${this.cookie}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.origin + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      this.lastSetCookie = setCookie;
      const value = /__Host-meridian_session=([^;]*)/.exec(setCookie)?.[1] ?? '';
      const expired = /Expires=Thu, 01 Jan 1970/i.test(setCookie);
      this.cookie = value && !expired ? value : null;
    }
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    const parsed = text && /json/.test(type) ? JSON.parse(text) : text || undefined;
    const seen: ApiResponse<T> = { status: res.status, headers: res.headers, body: parsed as T };
    assertConformsAt(method === 'HEAD' ? 'GET' : method, options.template ?? path, seen);
    return seen;
  }

  /** `POST /auth/sign-in`. */
  signIn(email: string, password: string) {
    return this.call('POST', '/auth/sign-in', { body: { email, password } });
  }

  /** `POST /auth/token`: the access token's value (asserts 200). */
  async token(): Promise<string> {
    const res = await this.call('POST', '/auth/token');
    if (res.status !== 200)
      throw new Error(`POST /auth/token answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.accessToken as string;
  }
}

/** A fresh password that passes the rules (15+ characters, on no list). */
export function newPassword(): string {
  return `plum ${Math.random().toString(36).slice(2, 10)} orbit ${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Creates an account of `role` in the tenant with a password, through the real setup link and `POST /auth/setup`
 * (which signs `browser` in). Returns its email, password and id.
 */
export async function createAccount(
  meridian: MeridianApp,
  browser: ConsoleBrowser,
  tenantId: string,
  role: UserRole,
  email = `${role}-${Math.random().toString(36).slice(2, 10)}@example.com`,
): Promise<{ email: string; password: string; userId: string }> {
  const { accounts } = meridian.services;
  const { account } = await accounts.findOrCreate(systemActor(tenantId), { tenantId, email, role });
  const { token } = await accounts.issueLink(systemActor(tenantId), account.id, 'setup');
  const password = newPassword();
  const res = await browser.call('POST', '/auth/setup', { body: { token, password } });
  if (res.status !== 200)
    throw new Error(`POST /auth/setup answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { email, password, userId: account.id };
}
