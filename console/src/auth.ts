/**
 * The console's calls to `/auth/*` (docs/accounts.md): sign-in, setup link, second factor, session state and the
 * short-lived access token the console sends to `/v1` through the SDK. The session itself is the HttpOnly cookie;
 * the token lives in memory only and is renewed a minute before it expires.
 */

/** A problem document (RFC 9457) as the API sends it. */
export interface Problem {
  title: string;
  status: number;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

/** An `/auth` call that answered with a problem. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
  }
}

/** The signed-in user (spec `ConsoleUser`). */
export interface ConsoleUser {
  id: string;
  name: string;
  email: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  tenantId: string;
  twoFactorEnabled: boolean;
}

/** Spec `ConsoleSignInResult`. */
export interface SignInResult {
  status: 'signed_in' | 'two_factor_required' | 'two_factor_enrolment_required';
  user: ConsoleUser;
}

/** Spec `ConsoleSessionState`. */
export interface SessionState {
  user: ConsoleUser;
  tenant: { id: string; name: string; requireTwoFactor: boolean };
  session: {
    id: string;
    stage: 'active' | 'two_factor' | 'enrol_two_factor';
    expiresAt: string;
    /** Unused recovery codes of the user's second factor (0 without one). */
    recoveryCodesLeft: number;
  };
}

/** Calls `/auth<path>` with a JSON body; resolves to the JSON answer (or null for 204). @throws ProblemError */
export async function authCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/auth${path}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null as T;
  const json = (await res.json().catch(() => ({ title: res.statusText, status: res.status }))) as unknown;
  if (!res.ok) throw new ProblemError(json as Problem);
  return json as T;
}

/** The session, or null when signed out (401). */
export async function currentSession(): Promise<SessionState | null> {
  try {
    return await authCall<SessionState>('GET', '/session');
  } catch (err) {
    if (err instanceof ProblemError && err.problem.status === 401) return null;
    throw err;
  }
}

/** Renewed this long before a token expires. */
const RENEW_BEFORE_MS = 60_000;

/** Console access tokens from `POST /auth/token`, renewed before they expire; one request in flight at a time. */
export class TokenSource {
  #token: string | null = null;
  #expiresAt = 0;
  #pending: Promise<string> | null = null;

  /** A token valid for at least another minute. @throws ProblemError when the session has ended. */
  get(): Promise<string> {
    if (this.#token && this.#expiresAt - Date.now() > RENEW_BEFORE_MS) return Promise.resolve(this.#token);
    this.#pending ??= authCall<{ accessToken: string; expiresAt: string }>('POST', '/token')
      .then((t) => {
        this.#token = t.accessToken;
        this.#expiresAt = Date.parse(t.expiresAt);
        return t.accessToken;
      })
      .finally(() => {
        this.#pending = null;
      });
    return this.#pending;
  }

  /** Forgets the token (sign-out). */
  clear(): void {
    this.#token = null;
    this.#expiresAt = 0;
  }
}
