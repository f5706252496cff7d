/**
 * The model engine of the Ask agent (docs/agents.md, Bring your own model): a second composer behind the same
 * retrieval and the same citation builder as the embedded engine. It never retrieves: the model is given exactly the
 * records of the evidence (`evidenceRecords`, the closed set an answer may cite) as delimited data with their ids, the
 * figures the server computed from them (each project's overrun and slip, counts, and the embedded engine's own
 * answer), and writes sentences that each name the ids they rest on. The server checks every sentence
 * (services/llm/grounding.ts), drops those that fail, and cites the survivors through the {@link CitationBuilder};
 * when the answer loses its substance, or the model fails, the embedded answer is given instead, with the reason.
 */
import { z } from 'zod';
import { type Citation, CitationBuilder, type CitationSource, statusReportUrl } from '../agents/citations.js';
import { checkSentences, FactSet, keepsSubstance } from '../llm/grounding.js';
import { delimited, type LanguageModel, type ModelFallbackReason } from '../llm/model.js';
import type { ComposedAnswer } from './embedded.js';
import { type Evidence, type EvidenceRecord, evidenceRecords, figuresOf } from './evidence.js';

/** The most records one prompt carries (a portfolio question can find hundreds; the first ones are sent). */
export const MAX_RECORDS = 60;

/** The reply the model must give (validated by the AI SDK against this schema). */
export const SENTENCES_SCHEMA = z.object({
  sentences: z
    .array(
      z.object({
        text: z.string().max(2000).describe('One sentence of the answer, without ids or [n] markers.'),
        ids: z.array(z.string().max(64)).max(50).describe('The ids of the records this sentence rests on.'),
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

/** Fields no answer rests on (bookkeeping) and the tenant id, left out of what the model sees. */
const HIDDEN = new Set(['tenantId', 'version', 'createdAt', 'updatedAt', 'deletedAt', 'etag']);

/** A record as the model sees it: its fields (bookkeeping left out) and, for a project, its computed figures. */
function dataOf(r: EvidenceRecord): Record<string, unknown> {
  const fields = Object.fromEntries(
    Object.entries(r.record as Record<string, unknown>).filter(
      ([k, v]) => !HIDDEN.has(k) && v !== null && v !== undefined && v !== '',
    ),
  );
  if (r.type === 'project') {
    const f = figuresOf(r.record as Parameters<typeof figuresOf>[0]);
    return {
      ...fields,
      computed: {
        overrun: f.overrun,
        overrunPercent: f.overrunPercent === null ? null : Math.round(f.overrunPercent * 10) / 10,
        slipDays: f.slipDays,
      },
    };
  }
  return fields;
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

  /**
   * The model's answer to the evidence, or `embedded` with the reason when the model fails or its answer loses
   * its substance. With no record in the evidence, the model is not asked (the embedded "nothing found" stands).
   */
  async compose(evidence: Evidence, embedded: ComposedAnswer): Promise<ModelComposedAnswer> {
    const records = evidenceRecords(evidence.finding).slice(0, MAX_RECORDS);
    if (records.length === 0) return embedded;
    const fallback = (reason: ModelFallbackReason): ModelComposedAnswer => ({
      ...embedded,
      fallbackReason: reason,
    });

    const sent = records.map((r) => ({ type: r.type, id: r.id, data: dataOf(r) }));
    const computed = {
      recordsFound: evidenceRecords(evidence.finding).length,
      recordsSent: sent.length,
      currency: evidence.currency,
      // The embedded engine's answer: the server's own figures (sums, counts, rankings), with record ids for [n].
      serverAnswer: withIds(embedded.answer, embedded.citations),
    };
    const prompt = [
      `Question: ${JSON.stringify(evidence.question)}`,
      'Answer the question from these records of the portfolio (each with its id) and the figures computed from them:',
      delimited({ records: sent, computed }),
    ].join('\n');
    const reply = await this.model.complete(SENTENCES_SCHEMA, prompt, 'answer');
    if (!reply.ok) return fallback(reply.reason);

    const facts = new FactSet().add(sent).add(computed).add(evidence.question);
    const checked = checkSentences(
      reply.value.sentences,
      new Set(records.map((r) => r.id.toLowerCase())),
      facts,
    );
    if (!keepsSubstance(checked)) return fallback('ungrounded');

    const byId = new Map(
      records.map((r, i) => [r.id.toLowerCase(), { record: r, data: sent[i]?.data ?? {} }]),
    );
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
    return {
      answer: text.join(' '),
      citations: cites.all(),
      engine: 'model',
      model: this.model.name,
      sentencesDropped: checked.dropped.length,
    };
  }
}

/** The embedded answer with each `[n]` (and range `[a]–[b]`) replaced by the cited records' ids. */
function withIds(answer: string, citations: readonly Citation[]): string {
  const idOf = (n: number) => citations[n - 1]?.id ?? '?';
  return answer
    .replace(/\[(\d+)\]–\[(\d+)\]/g, (_, a: string, b: string) => {
      const ids: string[] = [];
      for (let n = Number(a); n <= Number(b); n++) ids.push(idOf(n));
      return `[ids: ${ids.join(', ')}]`;
    })
    .replace(/\[(\d+)\]/g, (_, n: string) => `[id: ${idOf(Number(n))}]`);
}
