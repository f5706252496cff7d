/**
 * The HTTP side of a webhook delivery: one POST with a timeout, through the address policy's own DNS lookup, and
 * what it produced (status code, `Retry-After` and the body's first bytes, or an error text for the attempt record).
 */
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { type BodyExcerpt, bodyExcerpt, EXCERPT_BYTES, NO_BODY } from './body-excerpt.js';
import { checkLiteralTarget, guardedLookup, RefusedTargetError } from './targets.js';

/** What one HTTP attempt produced, with the first bytes of the response body (./body-excerpt.ts). */
export interface AttemptResponse extends BodyExcerpt {
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

/** What {@link post} got: the status line's answer, when it came, and the body's first bytes. */
interface Answer {
  statusCode: number;
  retryAfter: string | undefined;
  /** `performance.now()` at the status line (the attempt's duration ends there). */
  answeredAt: number;
  excerpt: BodyExcerpt;
}

/**
 * POSTs the body; resolves once the response's first {@link EXCERPT_BYTES} bytes (or its whole body, when
 * shorter) are read, or the response ends, fails or runs into the timeout: whatever the body does, an answer
 * with a status line is an answer. The rest of the body is not read (the response is destroyed).
 */
function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<Answer> {
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
        const answeredAt = performance.now();
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const settle = (more: boolean) => {
          if (settled) return;
          settled = true;
          resolve({
            statusCode: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            answeredAt,
            excerpt: bodyExcerpt(Buffer.concat(chunks), more),
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size > EXCERPT_BYTES) {
            settle(true);
            res.destroy();
          }
        });
        res.on('end', () => settle(false));
        // A body cut short by the timeout or the peer: the bytes read so far, marked as not the whole body.
        res.on('error', () => settle(true));
        res.on('close', () => settle(!res.complete));
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
      durationMs: Math.max(0, Math.round(res.answeredAt - t0)),
      ...res.excerpt,
    };
  } catch (err) {
    return {
      statusCode: null,
      retryAfter: undefined,
      error: describeError(err, options.timeoutMs),
      refused: err instanceof RefusedTargetError,
      timedOut: err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'),
      durationMs: elapsed(),
      ...NO_BODY,
    };
  }
}
