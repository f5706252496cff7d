/**
 * The injected clock (docs/design.md: time-based behaviour is testable without sleeping).
 */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move by hand: `clock.advance(60_000)` moves it one minute on. */
export class ManualClock implements Clock {
  #ms: number;
  /** @param start the first instant (ISO string or Date). */
  constructor(start: string | Date = '2026-01-05T09:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.#ms += ms;
  }
}

/**
 * Calendar dates in IANA time zones. Building an `Intl.DateTimeFormat` costs hundreds of µs (11 % of the CPU of
 * GET /projects/{id} before issue 8), so each instance keeps one formatter per time zone. Services own an instance
 * (per app, never per module).
 */
export class ZonedCalendar {
  readonly #formats = new Map<string, Intl.DateTimeFormat>();

  /**
   * Today's date (`YYYY-MM-DD`) in `timeZone` at the instant `now`.
   * @throws RangeError for an unknown time zone (the spec only accepts IANA names).
   */
  today(timeZone: string, now: Date): string {
    let format = this.#formats.get(timeZone);
    if (!format) {
      // en-CA formats dates as YYYY-MM-DD.
      format = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      this.#formats.set(timeZone, format);
    }
    return format.format(now);
  }
}
