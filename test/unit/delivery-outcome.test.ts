/**
 * The webhook retry policy as pure functions (docs/webhooks.md, "Events and webhooks"): `deliveryOutcome` (2xx, 410,
 * 429/503 with Retry-After, the schedule and its last step, refused targets, the circuit breaker's back-off),
 * `breakerDelayMs` and `failureWindow` (the 5-day rule).
 */
import { expect } from 'chai';
import {
  breakerDelayMs,
  DISABLE_AFTER_FAILING_MS,
  DISABLE_AFTER_TIMEOUTS,
  deliveryOutcome,
  failureWindow,
  MAX_BREAKER_DELAY_MS,
  MAX_RETRY_AFTER_MS,
  UNHEALTHY_AFTER_TIMEOUTS,
} from '../../server/services/webhooks/index.js';

describe('deliveryOutcome', () => {
  const now = new Date('2026-05-04T08:00:10.000Z');
  const attemptedAt = '2026-05-04T08:00:09.500Z';
  const schedule = [0, 5_000, 300_000, 1_800_000];
  const outcome = (statusCode: number | null, attempt: number, retryAfter?: string) =>
    deliveryOutcome({ statusCode, retryAfter, attempt, schedule, attemptedAt, now });
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it('succeeds on any 2xx, closing the failure window', () => {
    for (const code of [200, 201, 202, 204, 299]) {
      expect(outcome(code, 1)).to.deep.equal({
        status: 'SUCCEEDED',
        nextAttemptAt: null,
        endpoint: 'success',
      });
    }
    expect(outcome(200, 4).status).to.equal('SUCCEEDED');
  });

  it('fails at once on 410 Gone and disables the endpoint, naming when', () => {
    expect(outcome(410, 1)).to.deep.equal({
      status: 'FAILED',
      nextAttemptAt: null,
      endpoint: { disable: `The endpoint answered 410 Gone at ${attemptedAt}.` },
    });
  });

  it('follows the schedule after a failure: entry n is the wait after attempt n', () => {
    expect(outcome(500, 1)).to.deep.equal({
      status: 'PENDING',
      nextAttemptAt: at(5_000),
      endpoint: 'failure',
    });
    expect(outcome(null, 2).nextAttemptAt).to.equal(at(300_000));
    expect(outcome(302, 3).nextAttemptAt).to.equal(at(1_800_000));
    // 3xx, 4xx and no answer at all are failures alike.
    expect(outcome(404, 1).status).to.equal('PENDING');
  });

  it('fails after the last step of the schedule', () => {
    expect(outcome(500, 4)).to.deep.equal({ status: 'FAILED', nextAttemptAt: null, endpoint: 'failure' });
    expect(outcome(503, 4, '1').status).to.equal('FAILED');
  });

  it('honours Retry-After on 429 and 503 only (seconds or HTTP date), bounded to one hour', () => {
    expect(outcome(429, 1, '7').nextAttemptAt).to.equal(at(7_000));
    expect(outcome(503, 1, '86400').nextAttemptAt).to.equal(at(MAX_RETRY_AFTER_MS));
    expect(outcome(503, 1, 'Mon, 04 May 2026 08:01:10 GMT').nextAttemptAt).to.equal(at(60_000));
    // Without a usable header, or on another status, the schedule's step.
    expect(outcome(429, 1).nextAttemptAt).to.equal(at(5_000));
    expect(outcome(429, 1, '-5').nextAttemptAt).to.equal(at(5_000));
    expect(outcome(500, 1, '7').nextAttemptAt).to.equal(at(5_000));
  });
});

describe('failureWindow (the 5-day rule)', () => {
  const now = new Date('2026-05-09T08:00:00.000Z');
  it('opens on the first failure since the last success', () => {
    expect(failureWindow(null, now)).to.equal('open');
  });
  it('keeps it open for up to 5 days, then disables', () => {
    const since = (ms: number) => new Date(now.getTime() - ms).toISOString();
    expect(failureWindow(since(DISABLE_AFTER_FAILING_MS - 1), now)).to.equal('keep');
    expect(failureWindow(since(DISABLE_AFTER_FAILING_MS), now)).to.equal('disable');
    expect(DISABLE_AFTER_FAILING_MS).to.equal(5 * 24 * 3_600_000);
  });
});

describe('the circuit breaker and refused targets', () => {
  const now = new Date('2026-05-04T08:00:10.000Z');
  const base = { attempt: 1, schedule: [0, 5_000, 60_000], attemptedAt: now.toISOString(), now };
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it('fails a delivery whose target the address policy refused at once, whatever attempts remain', () => {
    expect(deliveryOutcome({ ...base, statusCode: null, refused: true })).to.deep.equal({
      status: 'FAILED',
      nextAttemptAt: null,
      endpoint: 'failure',
    });
  });

  it('backs off an unhealthy endpoint: none under 3 timeouts in a row, then 1 min doubling, at most 1 h', () => {
    expect([0, 1, 2, 3, 4, 5, 9, 20].map(breakerDelayMs)).to.deep.equal([
      0,
      0,
      0,
      60_000,
      120_000,
      240_000,
      3_600_000,
      MAX_BREAKER_DELAY_MS,
    ]);
    expect(UNHEALTHY_AFTER_TIMEOUTS).to.equal(3);
    expect(DISABLE_AFTER_TIMEOUTS).to.equal(10);
    // The later of the schedule's step and the breaker's delay.
    expect(deliveryOutcome({ ...base, statusCode: null, timeoutStreak: 2 }).nextAttemptAt).to.equal(
      at(5_000),
    );
    expect(deliveryOutcome({ ...base, statusCode: null, timeoutStreak: 4 }).nextAttemptAt).to.equal(
      at(120_000),
    );
  });
});
