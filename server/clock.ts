/**
 * The injected clock (DESIGN.md: time-based behaviour is testable without sleeping).
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
