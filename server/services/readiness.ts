/**
 * Readiness (docs/design.md, Operations): what `GET /readyz` answers (server/http/probes.ts). Readiness is the
 * database answering within a bound and its schema being current; liveness (`GET /healthz`) is the process
 * answering at all and needs no service.
 */
import { type Database, pendingMigrations, pingDatabase } from '../repositories/db.js';
import type { BreakerState } from './llm/breaker.js';

/** How long the readiness check waits for the database before calling it unreachable (ms). */
export const READINESS_TIMEOUT_MS = 2_000;

/** One readiness check's outcome. */
export type CheckState = 'ok' | 'unreachable' | 'pending' | 'unknown';

/** The outcome of {@link ReadinessService.check}. */
export interface Readiness {
  ready: boolean;
  checks: {
    /** `ok`, or `unreachable` when a trivial query failed or took longer than {@link READINESS_TIMEOUT_MS}. */
    database: CheckState;
    /** `ok`, `pending` (migrations not applied yet) or `unknown` (the database could not be asked). */
    migrations: CheckState;
  };
  /** The migrations not applied yet, by file name (empty when current or unknown). */
  pendingMigrations: string[];
  /**
   * What does not decide readiness but an operator wants to see: the language model's circuit breaker when a
   * model is configured (docs/agents.md, "Bring your own model": a dead model never makes the server unready).
   */
  details?: { languageModel: BreakerState & { model: string } };
}

/**
 * Readiness checks over one database. Once the schema has been seen current it stays current for this process
 * (its migration files are fixed at deploy; a newer deploy only adds migrations this process does not know), so
 * after the first success a check costs one `SELECT 1`.
 */
export class ReadinessService {
  readonly #db: Database;
  readonly #timeoutMs: number;
  readonly #model: { name: string; breakerState(): BreakerState } | null;
  #schemaCurrent = false;

  /** @param options.timeoutMs how long a check waits for the database (default {@link READINESS_TIMEOUT_MS}). */
  constructor(options: {
    db: Database;
    timeoutMs?: number;
    /** The configured language model, whose breaker state is a detail of every answer. */
    model?: { name: string; breakerState(): BreakerState } | null;
  }) {
    this.#db = options.db;
    this.#model = options.model ?? null;
    this.#timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  }

  /** Checks the database and the schema; never throws (a failed check is a state, not an error). */
  async check(): Promise<Readiness> {
    const state = await this.#check();
    if (!this.#model) return state;
    return {
      ...state,
      details: { languageModel: { model: this.#model.name, ...this.#model.breakerState() } },
    };
  }

  async #check(): Promise<Readiness> {
    const reachable = await this.#withinBound(pingDatabase(this.#db));
    if (!reachable) {
      return {
        ready: false,
        checks: { database: 'unreachable', migrations: 'unknown' },
        pendingMigrations: [],
      };
    }
    if (this.#schemaCurrent)
      return { ready: true, checks: { database: 'ok', migrations: 'ok' }, pendingMigrations: [] };
    let pending: string[] | null = null;
    await this.#withinBound(
      pendingMigrations(this.#db).then((names) => {
        pending = names;
      }),
    );
    if (pending === null) {
      return {
        ready: false,
        checks: { database: 'unreachable', migrations: 'unknown' },
        pendingMigrations: [],
      };
    }
    const names: string[] = pending;
    this.#schemaCurrent = names.length === 0;
    return {
      ready: this.#schemaCurrent,
      checks: { database: 'ok', migrations: this.#schemaCurrent ? 'ok' : 'pending' },
      pendingMigrations: names,
    };
  }

  /** True when `work` settles successfully within the bound. */
  async #withinBound(work: Promise<unknown>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.#timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([work.then(() => true).catch(() => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
