/**
 * Retrieval of the Ask agent (docs/agents.md, Ask: retrieval): from a question to the tenant's records that answer
 * it (evidence.ts). It names the project a question is about (by the request's `projectId`, a project code, or the
 * project's name in the question: subjects.ts) or the people it names, reads the intent (intents.ts) with the
 * tenant's facet vocabulary, and runs the intent's query (queries.ts) — full-text search when no rule claims the
 * question (text-search.ts). Every read is restricted to the caller's tenant (and to the project when `projectId`
 * is given).
 */
import { latestReportDate, projectFacetValues } from '../../repositories/ask.js';
import { type ProjectRecord, projects } from '../../repositories/projects.js';
import type { Executor } from '../../repositories/sql.js';
import { notFound } from '../errors.js';
import { scopeIn } from './describing.js';
import type { Evidence, EvidenceNote } from './evidence.js';
import { type FacetValue, facetsIn } from './facets.js';
import { parseIntent, projectFilterOf } from './intents.js';
import { ambiguityNote, gapNote, referenceNote, scopedProject, scopeNote } from './notes.js';
import { describePeriod, periodIn, referenceDate } from './periods.js';
import { type AskTenant, findingOf } from './queries.js';
import { peopleOf, subjectsOf } from './subjects.js';
import { money, normalise, words } from './text.js';

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
    const notes: EvidenceNote[] = [];
    let subjects: ProjectRecord[] = [];
    let scopeWords: string[] = [];
    if (projectId) {
      const project = await projects.find(this.db, tenant.id, projectId);
      if (!project) throw notFound('project', projectId);
      subjects = [project];
    } else {
      const named = await subjectsOf(this.db, tenant.id, question, text);
      subjects = named.projects;
      if (named.ambiguous.length > 0) notes.push(ambiguityNote(named.ambiguous));
    }
    const facets = (subjects.length > 0 ? [] : await projectFacetValues(this.db, tenant.id)) as FacetValue[];
    const scope = subjects.length === 0 && !projectId ? scopeIn(text) : null;
    if (scope) {
      const filter = projectFilterOf(text, facetsIn(question, facets));
      const chosen = await scopedProject(this.db, tenant.id, scope, filter);
      if (chosen) {
        subjects = [chosen.project];
        scopeWords = words(text);
        notes.push(scopeNote(scope, chosen, filter, (n) => money(n, tenant.currency)));
      }
    }
    const people = subjects.length > 0 ? [] : await peopleOf(this.db, tenant.id, text);
    const intent = parseIntent(question, text, {
      hasSubject: subjects.length > 0,
      hasPerson: people.length > 0,
      subjectWords: [...subjects, ...people].flatMap((p) => words(p.name)).concat(scopeWords),
      facets: scope ? [] : facets,
    });
    // Time words and "missed" / "upcoming" are judged against today, or the data's latest report when it is historical.
    const ref = referenceDate(tenant.today, await latestReportDate(this.db, tenant.id));
    // A time word matters to the intents that filter projects, milestones or allocations by date.
    const usesTime = 'filter' in intent || intent.kind === 'overAllocated';
    const period = usesTime ? periodIn(text, ref.date) : null;
    const dated = period !== null || intent.kind === 'milestones' || intent.kind === 'overAllocated';
    if (ref.basis === 'data' && dated && !period) notes.push(referenceNote(ref));
    if (period) {
      notes.push({ place: 'before', text: describePeriod(period, ref, tenant.timeZone) });
      if ('filter' in intent && intent.kind !== 'milestones') {
        const { statuses, ...rest } = intent.filter;
        intent.filter = {
          ...rest,
          reported: { from: period.from, to: period.to, ...(statuses ? { statuses } : {}) },
        };
      }
    }
    // Advice is declined whatever the question describes: nothing is cited.
    if (intent.kind === 'advice') notes.length = 0;
    const finding = await findingOf(
      {
        db: this.db,
        tenant: { ...tenant, today: ref.date, historical: ref.basis === 'data' },
        subjects,
        projectId,
        people,
        period,
      },
      intent,
    );
    const gap = await gapNote(this.db, tenant.id, finding);
    if (gap) notes.push(gap);
    return { question, projectId, currency: tenant.currency, finding, ...(notes.length ? { notes } : {}) };
  }
}
