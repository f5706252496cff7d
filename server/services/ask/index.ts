/**
 * The Ask agent (`POST /agents/ask`; docs/agents.md, Ask): a question about the tenant's portfolio answered from the
 * tenant's own records, every figure cited. Two halves:
 *
 * - retrieval (retrieval.ts): the project or people the question names (subjects.ts), its intent (intents.ts, with
 *   the words of vocabulary.ts and the facet values of facets.ts) and the records that answer it (queries.ts, or
 *   full-text search in text-search.ts), read in one snapshot;
 * - an answer engine that writes the answer from that evidence (evidence.ts): embedded.ts by default, one writer
 *   per kind of finding (writers/). Another engine plugs in through {@link AnswerEngine} and the response names
 *   which one answered. With a model configured and not switched off for the tenant (`settings.llmEnabled`),
 *   model-engine.ts writes the answer over the same evidence, checked by the server, with the embedded answer as
 *   its fallback (docs/agents.md, Bring your own model).
 */

import { findTenant } from '../../repositories/tenants.js';
import { inReadSnapshot } from '../../repositories/transactions.js';
import type { Schema } from '../../schemas.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import type { LanguageModel } from '../llm/model.js';
import { type AnswerEngine, EmbeddedEngine } from './embedded.js';
import type { Evidence } from './evidence.js';
import { ModelEngine } from './model-engine.js';
import { Retrieval } from './retrieval.js';

export type AskRequest = Schema<'AskRequest'>;
export type AskAnswer = Schema<'AskAnswer'>;

/** Options of {@link AskService}. */
export interface AskServiceOptions extends Pick<ServiceDeps, 'db' | 'clock' | 'calendar'> {
  /** The engine that answers without a model, and whenever the model fails (default: the embedded engine). */
  engine?: AnswerEngine;
  /** The configured language model (`MERIDIAN_LLM_*`), or null. */
  model?: LanguageModel | null;
}

/** Ask use cases. */
export class AskService {
  private readonly deps: Pick<ServiceDeps, 'db' | 'clock' | 'calendar'>;
  readonly #engine: AnswerEngine;
  readonly #model: ModelEngine | null;

  constructor(options: AskServiceOptions) {
    this.deps = options;
    this.#engine = options.engine ?? new EmbeddedEngine();
    this.#model = options.model ? new ModelEngine(options.model) : null;
  }

  /**
   * Answers a question from the caller's tenant's records (restricted to one project when `projectId` is given).
   * Reads only; deterministic for the same records, question and date when the embedded engine answers.
   * @throws AppError 404 `not_found` when `projectId` names no project of the tenant.
   */
  async ask(actor: Actor, input: AskRequest): Promise<AskAnswer> {
    const { evidence, llmEnabled } = await this.#retrieve(actor, input);
    const embedded = await this.#engine.compose(evidence);
    const answer = this.#model && llmEnabled ? await this.#model.compose(evidence, embedded) : embedded;
    return { ...answer, engine: answer.engine as AskAnswer['engine'] };
  }

  /** The evidence retrieval selects for a question (what every engine answers from). */
  async evidence(actor: Actor, input: AskRequest): Promise<Evidence> {
    return (await this.#retrieve(actor, input)).evidence;
  }

  /** The evidence, and whether the tenant lets a model write answers (read in the same snapshot). */
  async #retrieve(actor: Actor, input: AskRequest): Promise<{ evidence: Evidence; llmEnabled: boolean }> {
    return inReadSnapshot(this.deps.db.knex, async (db) => {
      const tenant = await findTenant(db, actor.tenantId);
      if (!tenant) throw new AppError('not_found', 'The tenant of this key no longer exists.');
      // The tenant's today in its time zone, through the app's calendar (server/dates.ts).
      const today = this.deps.calendar.today(tenant.timezone, this.deps.clock.now());
      const evidence = await new Retrieval(db).retrieve(
        { id: tenant.id, currency: tenant.currency, today, timeZone: tenant.timezone },
        input.question,
        input.projectId ?? null,
      );
      return { evidence, llmEnabled: tenant.settings.llmEnabled };
    });
  }
}
