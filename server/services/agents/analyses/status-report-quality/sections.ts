/**
 * The sections of the written status report (docs/agents.md, Agents: `status-report`) and the writer that fills
 * them: each sentence is written with a citation group of its own, so its `[n]` markers are numbered in reading
 * order; and the report as Markdown.
 */
import type { Schema } from '../../../../schemas.js';
import type { CitationBuilder, CitationGroup } from '../../citations.js';

/** A section of the report (spec `StatusReportSection`). */
export type Section = Schema<'StatusReportSection'>;
/** Which section: overall, schedule, cost, risks, decisions. */
export type SectionId = Section['id'];

const TITLES: Record<SectionId, string> = {
  overall: 'Overall status',
  schedule: 'Schedule',
  cost: 'Cost',
  risks: 'Risks and issues',
  decisions: 'Decisions needed',
};

/** Writes sentences into sections, each cited through one group per sentence. */
export class SectionWriter {
  readonly sections: Section[] = (['overall', 'schedule', 'cost', 'risks', 'decisions'] as SectionId[]).map(
    (id) => ({ id, title: TITLES[id], sentences: [] }),
  );
  constructor(private readonly cite: CitationBuilder) {}

  /** Appends a sentence to a section, written with a citation group of its own. */
  say(id: SectionId, sentence: (g: CitationGroup) => string): void {
    (this.sections.find((s) => s.id === id) as Section).sentences.push(sentence(this.cite.group()));
  }
}

/** The report as Markdown: the title as a heading, then each section (also used when a model rewrites the sentences). */
export function markdown(title: string, sections: readonly Section[]): string {
  return [`# ${title}`, ...sections.map((s) => `## ${s.title}\n\n${s.sentences.join(' ')}`)].join('\n\n');
}
