/**
 * `npm run eval -- --engine llm`'s model figures (docs/agents.md, Bring your own model): how many answers the model
 * wrote, how many fell back and why, how many sentences the server dropped, and the latency percentiles of the
 * asks (p50, p95, max; nearest-rank), so that a deployment can size `MERIDIAN_LLM_TIMEOUT_MS` from a run.
 */
import type { QuestionScore } from './score.js';

/** The nearest-rank percentile `p` (0–100) of `values` (ms), or 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** The lines printed after the table: the model's share, the fallback reasons, latency by engine. */
export function modelReport(scores: readonly QuestionScore[]): string[] {
  const written = scores.filter((s) => s.engine === 'model');
  const reasons = new Map<string, number>();
  for (const s of scores)
    if (s.fallbackReason) reasons.set(s.fallbackReason, (reasons.get(s.fallbackReason) ?? 0) + 1);
  const dropped = written.reduce((n, s) => n + (s.sentencesDropped ?? 0), 0);
  const fallback =
    [...reasons]
      .sort((a, b) => b[1] - a[1])
      .map(([r, n]) => `${r} ${n}`)
      .join(', ') || 'none';
  const latency = (list: readonly QuestionScore[]) => {
    const ms = list.map((s) => Math.round(s.ms));
    return `p50 ${percentile(ms, 50)} ms, p95 ${percentile(ms, 95)} ms, max ${percentile(ms, 100)} ms (${ms.length} asks)`;
  };
  return [
    `model wrote ${written.length} of ${scores.length} answers; sentences dropped by the server's checks: ${dropped}`,
    `fell back: ${fallback}`,
    `latency, all asks: ${latency(scores)}`,
    `latency, answers the model wrote: ${latency(written)}`,
  ];
}
