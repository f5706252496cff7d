/**
 * The console's API client: the published TypeScript SDK (`@meridian/sdk`), sending the console access token of the
 * session as its Bearer credential. The token is fetched (and renewed) per request by {@link TokenSource}.
 */
import { APIError, Meridian } from '@meridian/sdk';
import { type Problem, ProblemError, type TokenSource } from './auth';

/** A client of this origin's `/v1` that authenticates with the session's access tokens. */
export function createClient(tokens: TokenSource): Meridian {
  return new Meridian({
    // Replaced on every request by the current access token (below); the SDK requires a credential up front.
    apiKey: 'mt_console',
    baseUrl: `${window.location.origin}/v1`,
    maxRetries: 1,
    fetch: async (input: Request) => {
      const token = await tokens.get();
      const request = new Request(input);
      request.headers.set('authorization', `Bearer ${token}`);
      return fetch(request);
    },
  });
}

/** The problem document behind an error (SDK or `/auth`), or a generic one. */
export function problemOf(err: unknown): Problem {
  if (err instanceof ProblemError) return err.problem;
  if (err instanceof APIError) {
    const p = (err as { problem?: Problem }).problem;
    return p ?? { title: err.message, status: err.status };
  }
  return {
    title: 'Something went wrong',
    status: 0,
    detail: err instanceof Error ? err.message : String(err),
  };
}

/** Whether an error is a stale `If-Match` (412): someone else changed the record. */
export function isStale(err: unknown): boolean {
  return problemOf(err).status === 412;
}
