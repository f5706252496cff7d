/**
 * The agents' prose written by a model (docs/agents.md, Bring your own model): with a model configured and enabled
 * for the tenant, the model rewrites an output's `summary` and, for `status-report`, the sentences of the report's
 * `overall`, `schedule`, `cost` and `risks` sections. It sees only what the analysis selected and computed: the
 * metrics, the findings and the cited records (each citation's type, id, title and excerpt), as delimited data.
 * Metrics, findings, citations and the `decisions` section stay computed.
 *
 * Every sentence is checked as Ask's are (services/llm/grounding.ts): its ids must be among the output's
 * citations, its numbers and dates among the metrics, findings, excerpts and computed prose. A sentence that
 * fails is dropped; if the summary or any rewritten section loses its substance, or the model fails, the whole
 * output keeps its computed prose and says why (`fallbackReason`).
 */
import { z } from 'zod';
import type { Schema } from '../../schemas.js';
import { recordsOf, withoutIds } from '../llm/answers.js';
import {
  type CheckedSentences,
  checkSentences,
  FactSet,
  keepsSubstance,
  type ModelSentence,
} from '../llm/grounding.js';
import { delimited, type LanguageModel } from '../llm/model.js';
import { estimateTokens } from '../llm/tokens.js';
import { markdown } from './analyses/status-report-quality/sections.js';
import type { AgentId } from './catalogue.js';

type AgentOutput = Schema<'AgentOutput'>;

/** The report sections a model may rewrite (`decisions` are findings: computed). */
export const PROSE_SECTIONS = ['overall', 'schedule', 'cost', 'risks'] as const;

const sentences = z
  .array(
    z.object({
      text: z.string().max(2000).describe('One sentence, without record numbers or [n] markers.'),
      records: z
        .array(z.number().int())
        .max(50)
        .describe('The numbers n of the records this sentence rests on.'),
    }),
  )
  .max(20);

const SUMMARY_SCHEMA = z.object({ summary: sentences.describe('A one-paragraph summary of the analysis.') });
const REPORT_SCHEMA = z.object({
  summary: sentences.describe('A one-paragraph summary of the status report.'),
  sections: z.object({
    overall: sentences,
    schedule: sentences,
    cost: sentences,
    risks: sentences,
  }),
});

/**
 * The output with model prose, or unchanged but for `engine: embedded` and the `fallbackReason`. An output that
 * cites no record is not sent (there is nothing to ground a sentence in).
 */
export async function withModelProse(
  model: LanguageModel,
  agentId: AgentId,
  output: AgentOutput,
): Promise<AgentOutput> {
  if (output.citations.length === 0) return output;
  const fallback = (reason: Schema<'ModelFallbackReason'>): AgentOutput => ({
    ...output,
    engine: 'embedded',
    fallbackReason: reason,
  });
  const report = agentId === 'status-report' ? output.report : undefined;
  const data = {
    agentId,
    asOf: output.asOf,
    metrics: output.metrics,
    findings: output.findings.map((f) => ({
      severity: f.severity,
      category: f.category,
      title: f.title,
      detail: f.detail,
      recommendation: f.recommendation,
    })),
    records: output.citations.map((c) => ({
      n: c.index,
      type: c.type,
      title: c.title,
      excerpt: c.excerpt,
      ...(c.field ? { field: c.field } : {}),
    })),
    computedSummary: output.summary,
    ...(report
      ? {
          computedReport: Object.fromEntries(report.sections.map((s) => [s.id, s.sentences])),
        }
      : {}),
  };
  const task = report
    ? 'Write the summary and the overall, schedule, cost and risks sections of this status report'
    : `Write the summary of this ${agentId} analysis`;
  // Records are numbered by their citation index ([n] in the computed prose is record n); no id is shown.
  const prompt = `${task} for a portfolio manager, from the analysis and records below (cite records by n).\n${delimited(data)}`;
  if (estimateTokens(prompt) > model.promptBudget(report ? REPORT_SCHEMA : SUMMARY_SCHEMA))
    return fallback('prompt_too_large');
  const byIndex = new Map(output.citations.map((c) => [c.index, c.id.toLowerCase()]));
  const toIds = (list: { text: string; records: number[] }[]): ModelSentence[] =>
    list.map((s) => ({
      text: withoutIds(s.text),
      ids: recordsOf(s).map((n) => byIndex.get(n) ?? `record ${n}`),
    }));
  let summaryReply: ModelSentence[];
  let sectionReplies: Record<(typeof PROSE_SECTIONS)[number], ModelSentence[]> | null = null;
  if (report) {
    const reply = await model.complete(REPORT_SCHEMA, prompt, 'status_report');
    if (!reply.ok) return fallback(reply.reason);
    summaryReply = toIds(reply.value.summary);
    const v = reply.value.sections;
    sectionReplies = {
      overall: toIds(v.overall),
      schedule: toIds(v.schedule),
      cost: toIds(v.cost),
      risks: toIds(v.risks),
    };
  } else {
    const reply = await model.complete(SUMMARY_SCHEMA, prompt, 'summary');
    if (!reply.ok) return fallback(reply.reason);
    summaryReply = toIds(reply.value.summary);
  }

  const allowed = new Set(output.citations.map((c) => c.id.toLowerCase()));
  const { records: _shown, ...figures } = data;
  const facts = new FactSet().add(figures).add(data.records.map(({ n: _n, ...r }) => r));
  const check = (list: ModelSentence[]) => checkSentences(list, allowed, facts);
  const summary = check(summaryReply);
  const sections = new Map<string, CheckedSentences>();
  if (sectionReplies) for (const id of PROSE_SECTIONS) sections.set(id, check(sectionReplies[id]));
  if (!keepsSubstance(summary) || [...sections.values()].some((s) => !keepsSubstance(s))) {
    return fallback('ungrounded');
  }

  const indexOf = new Map<string, number>();
  for (const c of output.citations)
    if (!indexOf.has(c.id.toLowerCase())) indexOf.set(c.id.toLowerCase(), c.index);
  const render = (s: ModelSentence) => {
    const text = s.text
      .replace(/\s*\[\d+\]/g, '')
      .trim()
      .replace(/[.!?]$/, '');
    return `${text} ${[...new Set(s.ids.map((id) => `[${indexOf.get(id)}]`))].join('')}.`;
  };
  const dropped = summary.dropped.length + [...sections.values()].reduce((n, s) => n + s.dropped.length, 0);
  const result: AgentOutput = {
    ...output,
    summary: summary.kept.map(render).join(' '),
    engine: 'model',
    model: model.name,
    sentencesDropped: dropped,
  };
  if (report) {
    const rewritten = report.sections.map((s) => {
      const checked = sections.get(s.id);
      return checked ? { ...s, sentences: checked.kept.map(render) } : s;
    });
    result.report = { ...report, sections: rewritten, text: markdown(report.title, rewritten) };
  }
  return result;
}
