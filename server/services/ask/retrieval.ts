/**
 * Retrieval of the Ask agent (docs/agents.md, Ask: retrieval): from a question to the tenant's records that answer
 * it (evidence.ts). It names the project a question is about (by the request's `projectId`, a project code, or the
 * project's name in the question: subjects.ts) or the people it names, reads the intent (intents.ts) with the
 * tenant's facet vocabulary, and runs the intent's query (queries.ts) — full-text search when no rule claims the
 * question (text-search.ts). Every read is restricted to the caller's tenant (and to the project when `projectId`
 * is given).
 */
import { projectFacetValues } from '../../repositories/ask.js';
import { type ProjectRecord, projects } from '../../repositories/projects.js';
import type { Executor } from '../../repositories/sql.js';
import { notFound } from '../errors.js';
import type { Evidence } from './evidence.js';
import type { FacetValue } from './facets.js';
import { parseIntent } from './intents.js';
import { type AskTenant, findingOf } from './queries.js';
import { peopleOf, subjectsOf } from './subjects.js';
import { normalise, words } from './text.js';

export type { AskTenant } from './queries.js';
/** The sentence of a record's text that a search hit quotes (./text-search.ts). */
export { bestSentence } from './text-search.js';

/** The retrieval half of the Ask agent over one database (a read snapshot: see ./index.ts). */
export class Retrieval {
  constructor(private readonly db: Executor) {}

  /**
   * The evidence for a question.
   * @throws AppError 404 `not_found` when `projectId` names no project of the tenant.
   */
  async retrieve(tenant: AskTenant, question: string, projectId: string | null): Promise<Evidence> {
    const text = normalise(question);
    let subjects: ProjectRecord[] = [];
    if (projectId) {
      const project = await projects.find(this.db, tenant.id, projectId);
      if (!project) throw notFound('project', projectId);
      subjects = [project];
    } else {
      subjects = await subjectsOf(this.db, tenant.id, question, text);
    }
    const people = subjects.length > 0 ? [] : await peopleOf(this.db, tenant.id, text);
    const facets = subjects.length > 0 ? [] : await projectFacetValues(this.db, tenant.id);
    const intent = parseIntent(question, text, {
      hasSubject: subjects.length > 0,
      hasPerson: people.length > 0,
      subjectWords: [...subjects, ...people].flatMap((p) => words(p.name)),
      facets: facets as FacetValue[],
    });
    const finding = await findingOf({ db: this.db, tenant, subjects, projectId, people }, intent);
    return { question, projectId, currency: tenant.currency, finding };
  }
}
