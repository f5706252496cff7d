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
import { expandedWords, matchName } from './names.js';
import { contentWords, isStopword, words } from './text.js';
import { nameWords } from './vocabulary.js';

/** The projects a question names, and the close matches it leaves undecided. */
export interface Subjects {
  projects: ProjectRecord[];
  /**
   * Two or more different projects that the question names about equally closely (none in full): the answer names
   * them and asks which is meant (docs/agents.md, Ask: subjects).
   */
  ambiguous: ProjectRecord[];
}

/**
 * The project(s) a question names: by code (`NYC-25`, `PID 25`), else by name — the whole name, spaces, hyphens and
 * abbreviations aside, or at least two thirds (and two) of its words, a word counting when it is the same word
 * with at most a typo or two, or when one question word joins two of the name's ("wastewater") (./names.ts).
 * Projects of one identical name are all subjects; two different names that match equally well are ambiguous: no
 * subject, both named in {@link Subjects.ambiguous}.
 * @param text the question through `normalise` (./text.ts).
 */
export async function subjectsOf(
  db: Executor,
  tenantId: string,
  question: string,
  text: string,
): Promise<Subjects> {
  const none: Subjects = { projects: [], ambiguous: [] };
  for (const [, prefix, digits] of question.matchAll(/\b([A-Za-z]{1,10})[- ]?(\d{1,9})\b/g)) {
    const code = `${(prefix as string).toUpperCase()}-${digits}`;
    const project = await findProjectByCode(db, tenantId, code);
    if (project) return { ...none, projects: [project] };
  }
  const pid = /\b(?:pid|project id|project number|project no\.?|project #) ?#?(\d{1,9})\b/i.exec(question);
  if (pid) {
    const project = await findProjectByCode(db, tenantId, `NYC-${pid[1]}`);
    if (project) return { ...none, projects: [project] };
  }
  const questionWords = expandedWords(question);
  const candidates = [...new Set([...nameWords(text), ...nameWords(questionWords.join(' '))])];
  if (candidates.length === 0) return none;
  const hits = await searchDocuments(db, tenantId, {
    terms: candidates.slice(0, 16),
    match: 'any',
    types: ['project'],
    limit: 60,
  });
  const phrase = ` ${words(text).join(' ')} `;
  const quoted = [...question.matchAll(/["“]([^"”]+)["”]/g)].map((m) => words(m[1] as string).join(' '));
  type Scored = { hit: SearchHit; exact: boolean; coverage: number; matched: number; name: string };
  const scored: Scored[] = [];
  for (const hit of hits) {
    const all = expandedWords(hit.title);
    const titleWords = all.filter((w) => !isStopword(w));
    const name = words(hit.title).join(' ');
    if (titleWords.length === 0) continue;
    const m = matchName(titleWords, all, questionWords);
    const exact =
      (titleWords.length >= 2 || quoted.includes(name)) && (phrase.includes(` ${name} `) || m.exact);
    const coverage = m.matched / m.total;
    if (exact || (m.matched >= 2 && coverage >= 2 / 3)) {
      scored.push({ hit, exact, coverage, matched: m.matched, name });
    }
  }
  if (scored.length === 0) return none;
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
    return { ...none, projects: found.sort((a, b) => at(a) - at(b)) };
  }
  const tied = scored.filter(
    (s) => s.exact === best.exact && s.coverage === best.coverage && s.matched === best.matched,
  );
  const ids = tied.map((s) => s.hit.id);
  if (tied.some((s) => s.name !== best.name)) {
    return { ...none, ambiguous: await findProjects(db, tenantId, { ids: ids.slice(0, 5) }) };
  }
  return { ...none, projects: await findProjects(db, tenantId, { ids }) };
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
