/**
 * The answer to a question no rule claims (docs/agents.md, Ask: full-text search): the records that match best,
 * each quoted by the sentence of its text that matched, or {@link NOTHING_FOUND} with no citation.
 */
import type { Finding, SearchEvidence } from '../evidence.js';
import type { AnswerWriter } from './shared.js';

/** The text an answer gives when nothing relevant was found (and it cites nothing). */
export const NOTHING_FOUND =
  "Nothing in your portfolio's records answers this question: no project, risk, issue, milestone or person matches it.";

const TYPE_NAMES: Record<string, string> = {
  project: 'project',
  risk: 'risk',
  issue: 'issue',
  milestone: 'milestone',
  resource: 'person',
  allocation: 'allocation',
  status_report: 'status report',
};

/** One line per hit: `risk “Title” of Project: “the sentence that matched” [n]`, each hit cited. */
export function hitLines(w: AnswerWriter, hits: SearchEvidence[]): string[] {
  return hits.map((h) => {
    const title =
      'asOf' in h.record
        ? `${h.project?.name ?? 'Project'}: status report of ${h.record.asOf}`
        : 'name' in h.record
          ? h.record.name
          : h.record.title;
    const i = w.ref({
      type: h.type,
      id: h.record.id,
      title,
      excerpt:
        'asOf' in h.record
          ? `asOf ${h.record.asOf}; status ${h.record.status}; summary ${h.snippet}`
          : h.snippet,
      field:
        h.type === 'status_report'
          ? 'summary'
          : h.type === 'project' || h.type === 'milestone' || h.type === 'resource'
            ? 'name'
            : 'title',
    });
    const of = h.project ? ` of ${h.project.name}` : '';
    const said = h.snippet.toLowerCase().startsWith(title.toLowerCase()) ? '' : `: “${h.snippet}”`;
    return `${TYPE_NAMES[h.type]} “${title}”${of}${said} [${i}]`;
  });
}

/** The `search` finding: the best hits, or that nothing matches. */
export function writeSearch(w: AnswerWriter, finding: Extract<Finding, { kind: 'search' }>): string {
  if (finding.hits.length === 0) return NOTHING_FOUND;
  return `The records that match best: ${hitLines(w, finding.hits).join('; ')}.`;
}
