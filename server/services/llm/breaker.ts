/**
 * The circuit breaker in front of the language model (docs/agents.md, "Bring your own model"): a model server that
 * is down or failing would otherwise cost every ask its full deadline before the embedded engine answers.
 *
 * - closed: every call goes to the model; `failures` consecutive transport failures (a timeout, a 5xx, a 4xx other
 *   than 429, a refused connection) open it. A reply of any shape (even malformed JSON) is a live model and resets
 *   the count; a 429 is a live model that is busy and counts neither way.
 * - open: no call goes out (`circuit_open`) until `cooldownMs` have passed since it opened.
 * - half-open: the first call after the cool-down is the probe; calls that arrive while it runs are refused as if
 *   open. The probe's success closes the breaker, its failure opens it again for another cool-down.
 *
 * The state is read by `GET /readyz` (as a detail: a dead model never makes the server unready, the embedded
 * engine answers) and is per app (held by the {@link LanguageModel}, never module state).
 */

/** The breaker's state as `GET /readyz` shows it. */
export interface BreakerState {
  state: 'closed' | 'open' | 'half_open';
  /** Consecutive failures counted (reset by a success). */
  consecutiveFailures: number;
  /** When the breaker last opened (ISO 8601), while open or half-open. */
  openedAt?: string;
  /** When an open breaker lets the next probe through (ISO 8601). */
  probeAfter?: string;
}

/** A circuit breaker over calls to one model. */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #now: () => number;
  #failures = 0;
  #openedAt: number | null = null;
  #probing = false;

  /**
   * @param options.failures consecutive failures that open the breaker (≥ 1).
   * @param options.cooldownMs how long it stays open before a probe, in ms.
   * @param options.now the time in ms since the epoch (default `Date.now`; the deadline of a call is real time too).
   */
  constructor(options: { failures: number; cooldownMs: number; now?: () => number }) {
    this.#threshold = Math.max(1, options.failures);
    this.#cooldownMs = Math.max(0, options.cooldownMs);
    this.#now = options.now ?? Date.now;
  }

  /**
   * Whether a call may go out now. Returns a release token: `'call'` (closed), `'probe'` (this call is the
   * half-open probe) or `null` (refused: open, or a probe is already running).
   */
  admit(): 'call' | 'probe' | null {
    if (this.#openedAt === null) return 'call';
    if (this.#probing || this.#now() - this.#openedAt < this.#cooldownMs) return null;
    this.#probing = true;
    return 'probe';
  }

  /** Records a live model's reply: closes the breaker. */
  succeeded(): void {
    this.#failures = 0;
    this.#openedAt = null;
    this.#probing = false;
  }

  /** Records a call that ended without counting either way (a 429): a probe that ends so reopens the wait. */
  neutral(admitted: 'call' | 'probe'): void {
    if (admitted === 'probe') {
      this.#probing = false;
      this.#openedAt = this.#now();
    }
  }

  /** Records a transport failure: opens the breaker at the threshold, or again after a failed probe. */
  failed(admitted: 'call' | 'probe'): void {
    this.#failures += 1;
    if (admitted === 'probe' || this.#failures >= this.#threshold) {
      this.#openedAt = this.#now();
      this.#probing = false;
    }
  }

  /** The state, for `GET /readyz`. */
  state(): BreakerState {
    const failures = { consecutiveFailures: this.#failures };
    if (this.#openedAt === null) return { state: 'closed', ...failures };
    const openedAt = new Date(this.#openedAt).toISOString();
    const probeAt = this.#openedAt + this.#cooldownMs;
    if (this.#probing || this.#now() >= probeAt) return { state: 'half_open', ...failures, openedAt };
    return { state: 'open', ...failures, openedAt, probeAfter: new Date(probeAt).toISOString() };
  }
}
