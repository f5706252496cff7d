/**
 * The custom `fetch` given to openapi-fetch: retries, backoff, `Retry-After`, the idempotency key and timeouts.
 *
 * openapi-fetch middleware cannot re-send a request, so retries live here: the Request built by openapi-fetch is
 * never sent itself; each attempt sends a clone, so the body is intact on every attempt.
 */
import { APIConnectionError, APIUserAbortError, TimeoutError } from './errors.js';
import { uuid } from './runtime.js';

/** The `fetch` the SDK calls: the global one by default, or the one given to `new Meridian({ fetch })`. */
export type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/** Settings of one call. */
export interface SendOptions {
  fetch: Fetch;
  maxRetries: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * Per-call state: the timer of the attempt whose response is returned keeps running while openapi-fetch reads the
 * body (so a stalled body also times out); the caller clears it with `dispose()` once the call has settled.
 */
export class CallContext {
  timedOut = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  arm(ms: number, controller: AbortController): void {
    this.disarm();
    this.timedOut = false;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      controller.abort(new Error(`request timed out after ${ms} ms`));
    }, ms);
    // A timer must never keep the process alive on its own (e.g. after the raw client's last response).
    this.timer.unref?.();
  }

  disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disarm();
  }
}

/** First retry after 0.5 s, doubling per retry (the openai/Stainless SDKs' schedule). */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Computed backoff never exceeds 8 s. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** A server's `Retry-After` is honoured up to 60 s; longer (or unparseable) values fall back to the backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Whether a response status is worth retrying: 408, 429 and 5xx except 501 (not implemented is permanent).
 * 409 is not retried: it is a state conflict, or an identical request still in flight.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501);
}

/**
 * The delay before retry number `retry` (0-based): the server's `Retry-After` (seconds or an HTTP date, RFC 9110
 * §10.2.3) or `retry-after-ms` when present and within 0–60 s, else 0.5 s × 2^retry capped at 8 s, minus up to 25 %
 * of random jitter so that clients do not retry in lockstep.
 */
export function retryDelayMs(retry: number, headers?: Headers, now: number = Date.now()): number {
  const fromServer = retryAfterMs(headers, now);
  if (fromServer !== undefined && fromServer >= 0 && fromServer <= MAX_RETRY_AFTER_MS) return fromServer;
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return base * (1 - Math.random() * 0.25);
}

/** Parses `retry-after-ms` / `Retry-After` into milliseconds from `now`; undefined when absent or unparseable. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms` milliseconds. @throws {@link APIUserAbortError} (rejects) when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError('request aborted by the caller'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError('request aborted by the caller'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends `request` with retries. Returns the first non-retryable response, or the last response once `maxRetries`
 * retries are spent (the caller turns an error status into an exception).
 *
 * - POST without an `Idempotency-Key` gets one (a UUID) here, once, so every attempt carries the same key and the
 *   server replays instead of repeating the effect (spec: "Idempotency").
 * - Each attempt has its own AbortController armed for `timeoutMs`; the caller's `signal` aborts everything.
 *
 * @throws {@link TimeoutError} when the last attempt timed out; {@link APIConnectionError} when it failed without a
 *   response; {@link APIUserAbortError} when the caller aborted.
 */
export async function send(request: Request, options: SendOptions, ctx: CallContext): Promise<Response> {
  if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
    request.headers.set('Idempotency-Key', uuid());
  }
  for (let attempt = 0; ; attempt++) {
    const retriesLeft = options.maxRetries - attempt;
    const controller = new AbortController();
    const signal = options.signal ? anySignal(options.signal, controller) : controller.signal;
    const attemptRequest = new Request(request.clone(), { signal });
    ctx.arm(options.timeoutMs, controller);
    let response: Response;
    try {
      response = await options.fetch(attemptRequest);
    } catch (error) {
      ctx.disarm();
      if (options.signal?.aborted)
        throw new APIUserAbortError('request aborted by the caller', { cause: error });
      const timedOut = ctx.timedOut;
      if (retriesLeft > 0) {
        await sleep(retryDelayMs(attempt), options.signal);
        continue;
      }
      if (timedOut) {
        throw new TimeoutError(`${request.method} ${request.url} timed out after ${options.timeoutMs} ms`, {
          cause: error,
        });
      }
      throw new APIConnectionError(`${request.method} ${request.url} failed: ${describe(error)}`, {
        cause: error,
      });
    }
    if (retriesLeft > 0 && isRetryableStatus(response.status)) {
      ctx.disarm();
      const delay = retryDelayMs(attempt, response.headers);
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, options.signal);
      continue;
    }
    return response;
  }
}

/** The attempt's signal that also follows the caller's (AbortSignal.any exists from Node 20.3 on). */
function anySignal(caller: AbortSignal, controller: AbortController): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([caller, controller.signal]);
  if (caller.aborted) controller.abort(caller.reason);
  else caller.addEventListener('abort', () => controller.abort(caller.reason), { once: true });
  return controller.signal;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
