/**
 * The HTTP side of a webhook delivery: one POST with a timeout, through the address policy's own DNS lookup, and
 * what it produced (status code and `Retry-After`, or an error text for the attempt record).
 */
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { checkLiteralTarget, guardedLookup, RefusedTargetError } from './targets.js';

/** What one HTTP attempt produced. */
export interface AttemptResponse {
  /** The status code, or null when no response came (timeout, refused connection, refused target). */
  statusCode: number | null;
  retryAfter: string | undefined;
  /** Why no response came, or null. */
  error: string | null;
  /**
   * The address policy refused the target (./targets.ts: credentials in the URL, plain http or a non-public
   * address while private targets are not allowed): no request was sent, and a later attempt would be refused too.
   */
  refused: boolean;
  /** No answer came within the timeout (the circuit breaker counts these; ./delivery-outcome.ts). */
  timedOut: boolean;
  durationMs: number;
}

/** POSTs the body; resolves at the response's status line (the body is drained and ignored). */
function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<{ statusCode: number; retryAfter: string | undefined }> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(timeoutMs),
        // The address policy runs in the connection's own lookup (no window for DNS rebinding). Redirects are
        // never followed: node:http does not, and a 3xx is a failed attempt.
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        res.resume();
        res.on('error', () => undefined);
        resolve({ statusCode: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function describeError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
    const code = (err as { code?: string }).code;
    const message = err.message.slice(0, 300);
    return code && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return String(err).slice(0, 300);
}

/**
 * Sends one attempt: checks a literal target against the address policy, POSTs with a timeout and reports what
 * happened. Never throws: every failure is an attempt with an error.
 * @param headers the signed Standard Webhooks headers.
 */
export async function sendAttempt(
  rawUrl: string,
  body: string | null,
  headers: () => Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<AttemptResponse> {
  const t0 = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - t0));
  try {
    if (body === null) throw new Error('the event payload is missing');
    const url = new URL(rawUrl);
    checkLiteralTarget(url, options.allowPrivate);
    const res = await post(url, body, headers(), options.timeoutMs, options.allowPrivate);
    return {
      statusCode: res.statusCode,
      retryAfter: res.retryAfter,
      error: null,
      refused: false,
      timedOut: false,
      durationMs: elapsed(),
    };
  } catch (err) {
    return {
      statusCode: null,
      retryAfter: undefined,
      error: describeError(err, options.timeoutMs),
      refused: err instanceof RefusedTargetError,
      timedOut: err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'),
      durationMs: elapsed(),
    };
  }
}
