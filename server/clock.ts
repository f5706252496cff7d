/**
 * The injected clock (docs/design.md, Shape of the system: time-based behaviour is tested by moving time, not by
 * sleeping). Calendar dates and a tenant's "today" are in server/dates.ts.
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
