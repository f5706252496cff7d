/**
 * The Ask agent (`POST /agents/ask`; docs/design.md, "Ask"; issue 11): a question about the tenant's portfolio
 * answered from the tenant's own records, every figure cited. Two halves: retrieval (retrieval.ts: the project the
 * question names, the intent rules of intents.ts or full-text search, and the records that answer it) and an answer
 * engine that writes the answer from that evidence (embedded.ts by default; a second engine plugs in through
 * {@link AnswerEngine} and the response names which one answered).
 */
import { inReadSnapshot } from '../../repositories/common.js';
import { findTenant } from '../../repositories/tenants.js';
import type { Schema } from '../../schemas.js';
import type { Actor, BaseDeps } from '../context.js';
import { AppError } from '../errors.js';
import { todayIn } from '../team.js';
import { type AnswerEngine, EmbeddedEngine } from './embedded.js';
import type { Evidence } from './evidence.js';
import { Retrieval } from './retrieval.js';

export type AskRequest = Schema<'AskRequest'>;
export type AskAnswer = Schema<'AskAnswer'>;

/** Ask use cases. */
export class AskService {
  readonly #engine: AnswerEngine;

  constructor(
    private readonly deps: BaseDeps,
    engine: AnswerEngine = new EmbeddedEngine(),
  ) {
    this.#engine = engine;
  }

  /**
   * Answers a question from the caller's tenant's records (restricted to one project when `projectId` is given).
   * Reads only; deterministic for the same records, question and date.
   * @throws AppError 404 `not_found` when `projectId` names no project of the tenant.
   */
  async ask(actor: Actor, input: AskRequest): Promise<AskAnswer> {
    const evidence = await this.evidence(actor, input);
    const { answer, citations, engine } = await this.#engine.compose(evidence);
    return { answer, citations, engine: engine as AskAnswer['engine'] };
  }

  /** The evidence retrieval selects for a question (what every engine answers from). */
  async evidence(actor: Actor, input: AskRequest): Promise<Evidence> {
    return inReadSnapshot(this.deps.db.knex, async (db) => {
      const tenant = await findTenant(db, actor.tenantId);
      if (!tenant) throw new AppError('not_found', 'The tenant of this key no longer exists.');
      const today = todayIn(tenant.timezone, this.deps.clock.now());
      return new Retrieval(db).retrieve(
        { id: tenant.id, currency: tenant.currency, today },
        input.question,
        input.projectId ?? null,
      );
    });
  }
}
