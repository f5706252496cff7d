/**
 * The retry policy of webhook deliveries as pure functions (docs/webhooks.md, "Events and webhooks"):
 * 2xx succeeds; 410 Gone fails the delivery and disables the endpoint; 429 and 503 honour `Retry-After` (at most
 * 1 h); a target the address policy refuses fails at once (no request was sent, and none would be); anything else
 * takes the next step of the schedule, and fails after the last. The 5-day rule (an endpoint
 * failing continuously for 5 days is disabled) is `failureWindow` in ./deliveries.ts, judged in the
 * transaction that records the failure.
 */
import type { Schema } from '../../schemas.js';

/** Attempts timed out in a row after which an endpoint is unhealthy: its attempts back off. */
export const UNHEALTHY_AFTER_TIMEOUTS = 3;
/** Attempts timed out in a row after which an endpoint is disabled (audited as `webhook.updated` by the system). */
export const DISABLE_AFTER_TIMEOUTS = 10;
/** Longest back-off of an unhealthy endpoint's attempts. */
export const MAX_BREAKER_DELAY_MS = 60 * 60 * 1000;

/**
 * The circuit breaker's least delay before an endpoint's next attempt, in ms, after `streak` attempts timed out in a
 * row: none while healthy (under {@link UNHEALTHY_AFTER_TIMEOUTS}), then 1 min doubling per further timeout, at most
 * 1 h (docs/webhooks.md, "Events and webhooks": "Circuit breaker").
 */
export function breakerDelayMs(streak: number): number {
  if (streak < UNHEALTHY_AFTER_TIMEOUTS) return 0;
  return Math.min(60_000 * 2 ** (streak - UNHEALTHY_AFTER_TIMEOUTS), MAX_BREAKER_DELAY_MS);
}

/** Upper bound of a honoured `Retry-After`. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** `Retry-After` (delay-seconds or an HTTP-date) as a delay in ms from `now`, bounded to [0, 1 h]; null if absent. */
export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (value === undefined || value.trim() === '') return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    // An HTTP-date (RFC 9110 §5.6.7) names a weekday and month; anything else (e.g. "-5") is malformed.
    if (!/^[A-Za-z]{3},? /.test(trimmed)) return null;
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** What one attempt's answer means for the delivery and its endpoint. */
export interface DeliveryOutcome {
  status: Schema<'WebhookDeliveryStatus'>;
  /** ISO instant of the next attempt while PENDING, else null. */
  nextAttemptAt: string | null;
  /** `success` closes the endpoint's failure window, `failure` opens or keeps it, `disable` disables it now. */
  endpoint: 'success' | 'failure' | { disable: string };
}

/**
 * Decides the outcome of attempt number `attempt` (1-based) of a delivery.
 * @param input.statusCode the answer's status, or null when none came (timeout, connection error, refused target).
 * @param input.retryAfter the answer's `Retry-After` header (honoured on 429 and 503 only).
 * @param input.schedule delays in ms: entry n is the wait before attempt n + 1 (entry 0, "immediately", is the
 *   first attempt's); its length is the number of attempts.
 * @param input.attemptedAt ISO instant the attempt started (named in the 410 reason).
 * @param input.now when the answer came: delays count from here.
 */
export function deliveryOutcome(input: {
  statusCode: number | null;
  retryAfter?: string | undefined;
  /** The address policy refused the target: the delivery fails now (a retry would be refused the same way). */
  refused?: boolean;
  /** The endpoint's attempts timed out in a row, this one counted: an unhealthy endpoint's next attempt waits. */
  timeoutStreak?: number;
  attempt: number;
  schedule: readonly number[];
  attemptedAt: string;
  now: Date;
}): DeliveryOutcome {
  const { statusCode: code, attempt, schedule, now } = input;
  if (code !== null && code >= 200 && code < 300) {
    return { status: 'SUCCEEDED', nextAttemptAt: null, endpoint: 'success' };
  }
  if (code === 410) {
    return {
      status: 'FAILED',
      nextAttemptAt: null,
      endpoint: { disable: `The endpoint answered 410 Gone at ${input.attemptedAt}.` },
    };
  }
  if (input.refused || attempt >= schedule.length)
    return { status: 'FAILED', nextAttemptAt: null, endpoint: 'failure' };
  const honoured = code === 429 || code === 503 ? retryAfterMs(input.retryAfter, now) : null;
  const delay = Math.max(honoured ?? schedule[attempt] ?? 0, breakerDelayMs(input.timeoutStreak ?? 0));
  return {
    status: 'PENDING',
    nextAttemptAt: new Date(now.getTime() + delay).toISOString(),
    endpoint: 'failure',
  };
}
