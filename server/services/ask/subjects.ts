/**
 * Who and what a question names (docs/agents.md, Ask: retrieval): the projects — by code, or by name as a phrase or
 * by most of its words — and the people named in full. Found through the tenant's search documents, so a name is
 * matched the way full-text search matches it, and read back restricted to the tenant.
 */
import { findProjects, findResources } from '../../repositories/ask.js';
import { findProjectByCode, type ProjectRecord } from '../../repositories/projects.js';
import type { ResourceRecord } from '../../repositories/resources.js';
import { type SearchHit, searchDocuments } from '../../repositories/search.js';
import type { Executor } from '../../repositories/sql.js';
import { contentWords, words } from './text.js';
import { nameWords } from './vocabulary.js';

/**
 * The project(s) a question names: by code (`NYC-25`), else by name — the whole name as a phrase of the question,
 * or at least two thirds (and two) of its words. Projects of one identical name are all subjects; two different
 * names that match equally well make the question ambiguous (no subject: full-text search lists both).
 * @param text the question through `normalise` (./text.ts).
 */
export async function subjectsOf(
  db: Executor,
  tenantId: string,
  question: string,
  text: string,
): Promise<ProjectRecord[]> {
  for (const [, code] of question.matchAll(/\b([A-Za-z]{1,10}-\d{1,9})\b/g)) {
    const project = await findProjectByCode(db, tenantId, (code as string).toUpperCase());
    if (project) return [project];
  }
  const questionWords = contentWords(text);
  const candidates = nameWords(text);
  if (candidates.length === 0) return [];
  const hits = await searchDocuments(db, tenantId, {
    terms: candidates.slice(0, 16),
    match: 'any',
    types: ['project'],
    limit: 40,
  });
  const phrase = ` ${words(text).join(' ')} `;
  const quoted = [...question.matchAll(/["“]([^"”]+)["”]/g)].map((m) => words(m[1] as string).join(' '));
  type Scored = { hit: SearchHit; exact: boolean; coverage: number; matched: number; name: string };
  const scored: Scored[] = [];
  for (const hit of hits) {
    const titleWords = contentWords(hit.title);
    const name = words(hit.title).join(' ');
    if (titleWords.length === 0) continue;
    const exact = (titleWords.length >= 2 || quoted.includes(name)) && phrase.includes(` ${name} `);
    const matched = titleWords.filter((w) => questionWords.includes(w)).length;
    const coverage = matched / titleWords.length;
    if (exact || (matched >= 2 && coverage >= 2 / 3)) scored.push({ hit, exact, coverage, matched, name });
  }
  if (scored.length === 0) return [];
  scored.sort(
    (a, b) =>
      Number(b.exact) - Number(a.exact) ||
      (b.exact ? b.name.length - a.name.length : 0) ||
      b.coverage - a.coverage ||
      b.matched - a.matched,
  );
  const best = scored[0] as Scored;
  if (best.exact) {
    // Every project named in full ("Compare A and B"), in the order the question names them; a name inside a
    // longer name that also matched is not a second project.
    const exact = scored.filter(
      (s) => s.exact && !scored.some((o) => o.exact && o.name !== s.name && o.name.includes(s.name)),
    );
    const found = await findProjects(db, tenantId, { ids: exact.map((s) => s.hit.id) });
    const at = (p: ProjectRecord) => phrase.indexOf(` ${words(p.name).join(' ')} `);
    return found.sort((a, b) => at(a) - at(b));
  }
  const tied = scored.filter(
    (s) =>
      s.exact === best.exact &&
      s.coverage === best.coverage &&
      s.matched === best.matched &&
      (!best.exact || s.name.length === best.name.length),
  );
  if (tied.some((s) => s.name !== best.name)) return [];
  return findProjects(db, tenantId, { ids: tied.map((s) => s.hit.id) });
}

/** The people (resources) a question names by their full name (two words or more), in the order it names them. */
export async function peopleOf(db: Executor, tenantId: string, text: string): Promise<ResourceRecord[]> {
  const candidates = contentWords(text);
  if (candidates.length < 2) return [];
  const hits = await searchDocuments(db, tenantId, {
    terms: candidates.slice(0, 16),
    match: 'any',
    types: ['resource'],
    limit: 20,
  });
  const phrase = ` ${words(text).join(' ')} `;
  const named = hits.filter(
    (h) => words(h.title).length >= 2 && phrase.includes(` ${words(h.title).join(' ')} `),
  );
  if (named.length === 0) return [];
  const at = (r: ResourceRecord) => phrase.indexOf(` ${words(r.name).join(' ')} `);
  return (
    await findResources(
      db,
      tenantId,
      named.map((h) => h.id),
    )
  ).sort((a, b) => at(a) - at(b));
}
