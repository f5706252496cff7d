/**
 * The embedded answer engine (docs/agents.md, Ask: the embedded engine): writes the answer to a question from the
 * evidence retrieval selected, by rule, offline and deterministically. Every figure it writes is a field of a cited
 * record (or a figure of one record — overrun, slip — that the record's citation excerpt states), a count of cited
 * records, or a sum of one field over cited records; every `[n]` is a citation of the answer.
 *
 * One writer per kind of finding (./writers/), registered in {@link WRITERS} as the agents register their analyses;
 * what the writers share — citations, excerpts, markers, the wording of filters — is ./writers/shared.ts.
 */
import type { Citation } from '../agents/citations.js';
import type { Evidence, EvidenceNote, Finding } from './evidence.js';
import { writeGroups } from './writers/groups.js';
import { writeOverAllocated, writePerson } from './writers/people.js';
import { writeProject } from './writers/project.js';
import { writePortfolio, writeProjectSum, writeProjects, writeRanking } from './writers/projects.js';
import { writeIssues, writeMilestones, writeRisks } from './writers/records.js';
import { writeSearch } from './writers/search.js';
import { AnswerWriter, type FindingWriter } from './writers/shared.js';

/** The `[n]` markers answers use, a run of five or more written as a range `[a]–[b]`. */
export { markers } from './writers/shared.js';

/** An answer with its citations, and the engine that wrote it. */
export interface ComposedAnswer {
  answer: string;
  citations: Citation[];
  engine: string;
}

/** An answer engine: evidence in, answer out (the model engine, ./model-engine.ts, implements the same). */
export interface AnswerEngine {
  /** The name the response's `engine` carries. */
  readonly name: string;
  compose(evidence: Evidence): Promise<ComposedAnswer>;
}

/** The writer of each kind of finding. */
const WRITERS: { [K in Finding['kind']]: FindingWriter<K> } = {
  project: writeProject,
  projects: writeProjects,
  projectSum: writeProjectSum,
  ranking: writeRanking,
  risks: writeRisks,
  issues: writeIssues,
  milestones: writeMilestones,
  overAllocated: writeOverAllocated,
  search: writeSearch,
  portfolio: writePortfolio,
  person: writePerson,
  groups: writeGroups,
  advice: () =>
    'Ask answers from your portfolio’s records and does not make decisions or give advice such as this. Ask what the records say instead: the project’s status, budget, risks, issues, milestones or history.',
};

/** A note of retrieval (evidence.ts, `EvidenceNote`) with `{i}` replaced by the markers of its i-th project. */
function writeNote(w: AnswerWriter, note: EvidenceNote): string {
  const marks = (note.projects ?? []).map(({ figures, fields }) => `[${w.project(figures, fields)}]`);
  return note.text.replace(/\{(\d+)\}/g, (_, i: string) => marks[Number(i)] ?? '');
}

/** The answer to a finding, written by the writer of its kind. */
function write(w: AnswerWriter, finding: Finding): string {
  return (WRITERS[finding.kind] as FindingWriter<Finding['kind']>)(w, finding);
}

/** Writes answers from evidence by rule. */
export class EmbeddedEngine implements AnswerEngine {
  readonly name = 'embedded';

  async compose(evidence: Evidence): Promise<ComposedAnswer> {
    const writer = new AnswerWriter(evidence.currency);
    const notes = evidence.notes ?? [];
    const before = notes.filter((n) => n.place === 'before').map((n) => writeNote(writer, n));
    const body = write(writer, evidence.finding);
    const after = notes.filter((n) => n.place === 'after').map((n) => writeNote(writer, n));
    const answer = [...before, body, ...after].join(' ');
    return { answer, citations: writer.cites.all(), engine: this.name };
  }
}
