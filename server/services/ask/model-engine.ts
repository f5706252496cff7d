/**
 * The model engine of the Ask agent (docs/agents.md, Bring your own model): a second composer behind the same
 * retrieval and the same citation builder as the embedded engine. It never retrieves: the model is given the records
 * of the evidence (`evidenceRecords`, the closed set an answer may cite), numbered and compact, within the prompt's
 * token budget (model-prompt.ts), with the embedded engine's own answer, and writes sentences that each name the
 * numbers of the records they rest on. The server maps the numbers back to records, cuts any id out of the text,
 * drops the sentences that restate the question or fail the grounding check (services/llm/grounding.ts), requires
 * the figures and names of the embedded answer (services/llm/answers.ts), and cites the survivors through the
 * {@link CitationBuilder}; when the answer loses its substance or is incomplete, the prompt would not fit, or the
 * model fails, the embedded answer is given instead, with the reason.
 */
import { z } from 'zod';
import { type Citation, CitationBuilder, type CitationSource, statusReportUrl } from '../agents/citations.js';
import { hasUuid, missingFacts, recordsOf, restates, withoutIds } from '../llm/answers.js';
import { checkSentences, FactSet, type ModelSentence } from '../llm/grounding.js';
import type { LanguageModel, ModelFallbackReason } from '../llm/model.js';
import type { ComposedAnswer } from './embedded.js';
import { type Evidence, type EvidenceRecord, evidenceRecords } from './evidence.js';
import { askPrompt } from './model-prompt.js';

export { MAX_RECORDS } from './model-prompt.js';

/** The reply the model must give (validated against this schema). */
export const SENTENCES_SCHEMA = z.object({
  sentences: z
    .array(
      z.object({
        text: z
          .string()
          .max(2000)
          .describe('One sentence of the answer, without record numbers or [n] markers.'),
        records: z
          .array(z.number().int())
          .max(50)
          .describe('The numbers n of the records this sentence rests on.'),
      }),
    )
    .max(40),
});

/** An answer as the Ask agent returns it, with what the model did. */
export interface ModelComposedAnswer extends ComposedAnswer {
  model?: string;
  sentencesDropped?: number;
  fallbackReason?: ModelFallbackReason;
}

/** What a record is called in a citation. */
function titleOf(r: EvidenceRecord): string {
  const record = r.record as Record<string, unknown>;
  if (typeof record.name === 'string') return record.name;
  if (typeof record.title === 'string') return record.title;
  if (r.type === 'status_report') return `Status report of ${String(record.asOf)}`;
  if (r.type === 'allocation') return `Allocation of ${String(record.allocationPercent)}%`;
  return r.id;
}

/** The excerpt of a record the embedded engine did not cite: its first fields as `name value` pairs. */
function excerptOf(data: Record<string, unknown>): string {
  return Object.entries(data)
    .filter(([k, v]) => k !== 'id' && k !== 'computed' && (typeof v !== 'object' || v === null))
    .slice(0, 8)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join('; ')
    .slice(0, 500);
}

/** Writes Ask answers with the model, checked; falls back to the embedded answer. */
export class ModelEngine {
  constructor(private readonly model: LanguageModel) {}

  #hasRecords(evidence: Evidence): boolean {
    return evidenceRecords(evidence.finding).length > 0;
  }

  /**
   * The model's answer to the evidence, or `embedded` with the reason when the model fails or its answer loses
   * its substance. With no record in the evidence, the model is not asked (the embedded "nothing found" stands).
   */
  async compose(evidence: Evidence, embedded: ComposedAnswer): Promise<ModelComposedAnswer> {
    const fallback = (reason: ModelFallbackReason): ModelComposedAnswer => ({
      ...embedded,
      fallbackReason: reason,
    });
    const built = askPrompt(evidence, embedded, this.model.promptBudget(SENTENCES_SCHEMA));
    if (built === null) {
      // Nothing to send (no record found), or not even the first record fits the context.
      return this.#hasRecords(evidence) ? fallback('prompt_too_large') : embedded;
    }
    const { prompt, sent, computed } = built;
    const reply = await this.model.complete(SENTENCES_SCHEMA, prompt, 'answer');
    if (!reply.ok) return fallback(reply.reason);

    // Record numbers back to ids (a number not sent stays unknown and fails the check); ids cut out of the text.
    const idOf = new Map(sent.map((s) => [s.n, s.record.id.toLowerCase()]));
    const sentences: ModelSentence[] = reply.value.sentences.map((s) => ({
      text: withoutIds(s.text),
      ids: recordsOf(s).map((n) => idOf.get(n) ?? `record ${n}`),
    }));
    const asked = sentences.filter((s) => !restates(s.text, evidence.question));
    const restated = sentences.length - asked.length;
    const facts = new FactSet()
      .add(sent.map((s) => s.data))
      .add(computed)
      .add(evidence.question);
    const checked = checkSentences(asked, new Set(idOf.values()), facts);
    // Substance (grounding.ts, keepsSubstance): at least one sentence kept, and no fewer kept than lost.
    const lost = checked.dropped.length + restated;
    if (checked.kept.length === 0 || checked.kept.length < lost)
      return fallback(
        restated > 0 && restated >= checked.dropped.length ? 'restates_question' : 'ungrounded',
      );
    const names = embedded.citations.map((c) => c.title).filter((t) => t && embedded.answer.includes(t));
    const said = checked.kept.map((s) => s.text).join(' ');
    if (missingFacts(said, withoutMarkers(embedded.answer), names).length > 0)
      return fallback('missing_facts');

    const byId = new Map(sent.map((s) => [s.record.id.toLowerCase(), { record: s.record, data: s.data }]));
    const embeddedCitations = new Map<string, Citation>();
    for (const c of embedded.citations) if (!embeddedCitations.has(c.id)) embeddedCitations.set(c.id, c);
    const cites = new CitationBuilder();
    const text = checked.kept.map((s) => {
      const markers = s.ids.map((id) => {
        const known = embeddedCitations.get(id);
        const found = byId.get(id) as { record: EvidenceRecord; data: Record<string, unknown> };
        const source: CitationSource = known
          ? {
              type: known.type,
              id: known.id,
              title: known.title,
              excerpt: known.excerpt,
              field: known.field,
              url: known.url,
            }
          : {
              type: found.record.type,
              id: found.record.id,
              title: titleOf(found.record),
              excerpt: excerptOf(found.data),
              ...(found.record.type === 'status_report' ? { url: statusReportUrl(found.record.id) } : {}),
            };
        return `[${cites.citation(source).index}]`;
      });
      const sentence = s.text.replace(/\s*\[\d+\](?:–\[\d+\])?/g, '').trim();
      const body = /[.!?]$/.test(sentence) ? sentence.slice(0, -1) : sentence;
      return `${body} ${[...new Set(markers)].join('')}${/[!?]$/.test(sentence) ? sentence.slice(-1) : '.'}`;
    });
    const answer = text.join(' ');
    // The prompt shows no id and the text was cleaned of any; an id that still shows is never served.
    if (hasUuid(answer)) return fallback('ungrounded');
    return {
      answer,
      citations: cites.all(),
      engine: 'model',
      model: this.model.name,
      sentencesDropped: checked.dropped.length + restated,
    };
  }
}

/** A text without its `[n]` markers (and ranges `[a]–[b]`). */
function withoutMarkers(text: string): string {
  return text.replace(/\[\d+\](?:–\[\d+\])?/g, ' ');
}
