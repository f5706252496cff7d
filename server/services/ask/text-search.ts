/**
 * Full-text search as the Ask agent uses it (docs/agents.md, Ask: full-text search), over the tenant's search
 * documents (repositories/search.ts): search with relaxation, turned into evidence that quotes the sentence of each
 * record that matched best, and the filter that keeps the records whose document holds every term.
 */
import {
  findIssues,
  findMilestones,
  findProjects,
  findResources,
  findRisks,
} from '../../repositories/ask.js';
import { type SearchHit, searchDocuments } from '../../repositories/search.js';
import type { Executor } from '../../repositories/sql.js';
import { findStatusReport } from '../../repositories/status-reports.js';
import type { CitationType } from '../agents/citations.js';
import type { SearchEvidence } from './evidence.js';
import { clip, words } from './text.js';

/** Most full-text hits an answer cites. */
const SEARCH_LIMIT = 5;
/** Most search terms used (the first ones of the question). */
const MAX_TERMS = 8;

/** The sentence of a text that contains most of the terms (by their first five letters, a crude stem). */
export function bestSentence(text: string, terms: readonly string[]): string {
  const stems = terms.map((t) => t.slice(0, Math.min(5, t.length)));
  let best = '';
  let bestScore = -1;
  for (const sentence of text.split(/(?<=[.!?;])\s+|\n+/)) {
    const ws = words(sentence);
    const score = stems.filter((s) => ws.some((w) => w.startsWith(s))).length;
    if (score > bestScore) {
      best = sentence;
      bestScore = score;
    }
  }
  return clip(best, 200);
}

function* subsets<T>(items: readonly T[], size: number, start = 0, prefix: T[] = []): Generator<T[]> {
  if (prefix.length === size) {
    yield prefix;
    return;
  }
  for (let i = start; i <= items.length - (size - prefix.length); i++) {
    yield* subsets(items, size, i + 1, [...prefix, items[i] as T]);
  }
}

/** The descriptive text of a record (what a search hit quotes): description, mitigation, role and skills. */
function describedText(record: SearchEvidence['record']): string {
  const r = record as Partial<Record<'description' | 'mitigation' | 'role' | 'summary', string | null>> & {
    skills?: string[];
  };
  return [r.description, r.mitigation, r.role, r.skills?.join(', '), r.summary].filter((t) => t).join('\n');
}

/** Keeps the records whose document contains every term (no terms: all of them). */
export async function textFilter<R extends { id: string }>(
  db: Executor,
  tenantId: string,
  type: string,
  terms: string[],
  list: R[],
): Promise<R[]> {
  if (terms.length === 0) return list;
  const hits = await searchDocuments(db, tenantId, {
    terms: terms.slice(0, MAX_TERMS),
    match: 'all',
    types: [type],
    limit: 10_000,
  });
  const ids = new Set(hits.map((h) => h.id));
  return list.filter((r) => ids.has(r.id));
}

/**
 * Full-text search with relaxation: documents containing every term, else those containing the most terms in any
 * subset of at least 60 % of them (and never a single term of several; at most 24 subset queries), best first, at
 * most five; restricted to `types` and to the project `projectId` when given.
 */
export async function searchEvidence(
  db: Executor,
  tenantId: string,
  allTerms: string[],
  types: string[] | undefined,
  projectId: string | null,
): Promise<SearchEvidence[]> {
  const terms = allTerms.slice(0, MAX_TERMS);
  if (terms.length === 0) return [];
  const query = { types, projectId: projectId ?? undefined, limit: SEARCH_LIMIT };
  let hits = await searchDocuments(db, tenantId, { ...query, terms, match: 'all' });
  const floor = Math.max(terms.length >= 2 ? 2 : 1, Math.ceil(terms.length * 0.6));
  let queries = 0;
  for (let size = terms.length - 1; hits.length === 0 && size >= floor && queries < 24; size--) {
    const found = new Map<string, SearchHit>();
    for (const subset of subsets(terms, size)) {
      if (++queries > 24) break;
      for (const hit of await searchDocuments(db, tenantId, {
        ...query,
        terms: subset,
        match: 'all',
      })) {
        const seen = found.get(hit.id);
        if (!seen || seen.rank < hit.rank) found.set(hit.id, hit);
      }
    }
    hits = [...found.values()]
      .sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1))
      .slice(0, SEARCH_LIMIT);
  }
  return evidenceOf(db, tenantId, hits, terms);
}

/** The hits' records, each with its project and the sentence that matched best, in the hits' order. */
async function evidenceOf(
  db: Executor,
  tenantId: string,
  hits: SearchHit[],
  terms: string[],
): Promise<SearchEvidence[]> {
  const idsOf = (type: string) => hits.filter((h) => h.type === type).map((h) => h.id);
  const records = new Map<string, SearchEvidence['record']>();
  const put = (list: { id: string }[]) => {
    for (const r of list) records.set(r.id, r as SearchEvidence['record']);
  };
  const projectIds = [...new Set(hits.map((h) => h.projectId).filter((id): id is string => id !== null))];
  const owners = await findProjects(db, tenantId, { ids: projectIds });
  put(owners.filter((p) => idsOf('project').includes(p.id)));
  if (idsOf('risk').length) put(await findRisks(db, tenantId, { ids: idsOf('risk') }));
  if (idsOf('issue').length) put(await findIssues(db, tenantId, { ids: idsOf('issue') }));
  if (idsOf('milestone').length) put(await findMilestones(db, tenantId, { ids: idsOf('milestone') }));
  if (idsOf('resource').length) put(await findResources(db, tenantId, idsOf('resource')));
  for (const id of idsOf('status_report')) {
    const report = await findStatusReport(db, tenantId, id);
    if (report) put([report]);
  }
  const ownerById = new Map(owners.map((p) => [p.id, p]));
  return hits.flatMap((hit) => {
    const record = records.get(hit.id);
    if (!record) return [];
    const snippet = bestSentence(`${hit.title ? `${hit.title}.\n` : ''}${describedText(record)}`, terms);
    return [
      {
        type: hit.type as CitationType,
        record,
        project: hit.projectId && hit.type !== 'project' ? (ownerById.get(hit.projectId) ?? null) : null,
        snippet,
      },
    ];
  });
}
