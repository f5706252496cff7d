/**
 * The Ask prompt for a model (docs/agents.md, "Bring your own model"), built to fit a small context:
 *
 * - records are numbered (`n`: 1, 2, … in the order of the evidence) and shown without any id: the model cites
 *   numbers, the server maps them back; a UUID is never in the prompt, so a model cannot copy one;
 * - each record is one compact JSON line with only the fields an answer rests on: names, codes, states, figures
 *   and dates (a project's computed overrun, overrun percentage and slip with them). Ids, bookkeeping and empty
 *   values are left out; a reference to another record sent becomes its number (`projectN`); free text
 *   (descriptions, summaries, snippets) is sent only when the answer came from full-text search, cut to
 *   {@link FREE_TEXT_CHARS} characters. A question about money only (budget, cost, overrun…) gets no schedule
 *   fields, one about the schedule only (late, slip, due, dates…) no money fields ({@link fieldsFor}); any other
 *   question gets both;
 * - records are added in order while the prompt stays within the token budget (llm/tokens.ts); the embedded
 *   engine's answer, with its `[n]` markers renumbered to the records sent, carries the figures of what did not
 *   fit (its sums, counts, rankings). When not even the question, that answer and the first record fit, there is
 *   no prompt (`prompt_too_large`).
 */
import type { Citation } from '../agents/citations.js';
import { escapeJson } from '../llm/model.js';
import { estimateTokens } from '../llm/tokens.js';
import type { ComposedAnswer } from './embedded.js';
import { type Evidence, type EvidenceRecord, evidenceRecords, figuresOf } from './evidence.js';

/** The most records one prompt carries, whatever the budget. */
export const MAX_RECORDS = 60;
/** The longest free text of a record sent (search answers only). */
export const FREE_TEXT_CHARS = 240;

const HIDDEN = new Set(['tenantId', 'version', 'createdAt', 'updatedAt', 'deletedAt', 'etag', 'searchText']);
const FREE_TEXT = new Set(['description', 'summary', 'mitigation', 'resolution', 'notes', 'snippet']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A record as sent: its number, its type, its compact fields. */
export interface SentRecord {
  n: number;
  record: EvidenceRecord;
  data: Record<string, unknown>;
}

/** The prompt and what it sent. */
export interface AskPrompt {
  prompt: string;
  /** The records sent, numbered from 1. */
  sent: SentRecord[];
  /** The figures sent beside the records (the embedded answer with record numbers, counts, the currency). */
  computed: Record<string, unknown>;
  /** The prompt's estimated tokens. */
  tokens: number;
}

const MONEY_FIELD = /budget|cost|overrun|spend|amount|variance/i;
const SCHEDULE_FIELD = /date|due|slip|start|finish|asOf/i;
const MONEY_QUESTION = /budget|cost|overrun|over\b|spen[dt]|money|dollar|\$|expens|fund|afford|price/i;
const SCHEDULE_QUESTION =
  /late|slip|date|due|when|finish|start|end|schedul|delay|overdue|miss|deadline|histor|timeline|month|year|week/i;

/**
 * Which field names a question needs: a predicate that refuses the schedule fields of a question about money
 * only, and the money fields of a question about the schedule only (both kinds of question, or neither: every field).
 */
export function fieldsFor(question: string): (key: string) => boolean {
  const money = MONEY_QUESTION.test(question);
  const schedule = SCHEDULE_QUESTION.test(question);
  if (money === schedule) return () => true;
  return money ? (key) => !SCHEDULE_FIELD.test(key) : (key) => !MONEY_FIELD.test(key);
}

/** The compact fields of a record: no ids, no bookkeeping, no empty values; references to records sent as `xN`. */
function compact(
  r: EvidenceRecord,
  numberOf: ReadonlyMap<string, number>,
  withText: boolean,
  needed: (key: string) => boolean,
) {
  const out: Record<string, unknown> = { n: 0, type: r.type };
  for (const [key, value] of Object.entries(r.record as Record<string, unknown>)) {
    if (HIDDEN.has(key) || key === 'id' || value === null || value === undefined || value === '') continue;
    if (!needed(key)) continue;
    if (typeof value === 'string' && UUID.test(value)) {
      const n = numberOf.get(value.toLowerCase());
      if (n !== undefined && key.endsWith('Id')) out[`${key.slice(0, -2)}N`] = n;
      continue;
    }
    if (FREE_TEXT.has(key)) {
      if (withText && typeof value === 'string') out[key] = value.slice(0, FREE_TEXT_CHARS);
      continue;
    }
    if (typeof value === 'object' && !Array.isArray(value)) continue;
    if (Array.isArray(value) && value.some((v) => typeof v === 'object' || UUID.test(String(v)))) continue;
    out[key] = value;
  }
  if (r.type === 'project') {
    const f = figuresOf(r.record as Parameters<typeof figuresOf>[0]);
    if (f.overrun !== null && needed('overrun')) out.overrun = f.overrun;
    if (f.overrunPercent !== null && needed('overrun'))
      out.overrunPercent = Math.round(f.overrunPercent * 10) / 10;
    if (f.slipDays !== null && needed('slipDays')) out.slipDays = f.slipDays;
  }
  return out;
}

/** The embedded answer with each `[n]` (and range `[a]–[b]`) renumbered to the records sent (others left out). */
function renumbered(answer: string, citations: readonly Citation[], numberOf: ReadonlyMap<string, number>) {
  const sentNumber = (i: number) => {
    const id = citations[i - 1]?.id;
    return id === undefined ? undefined : numberOf.get(id.toLowerCase());
  };
  const markers = (list: (number | undefined)[]) => {
    const ns = [...new Set(list.filter((n): n is number => n !== undefined))];
    return ns.length === 0 ? '' : `[${ns.join(', ')}]`;
  };
  return answer
    .replace(/\[(\d+)\]–\[(\d+)\]/g, (_, a: string, b: string) => {
      const list: (number | undefined)[] = [];
      for (let i = Number(a); i <= Number(b); i++) list.push(sentNumber(i));
      return markers(list);
    })
    .replace(/\[(\d+)\]/g, (_, i: string) => markers([sentNumber(Number(i))]));
}

const line = (value: unknown) => escapeJson(JSON.stringify(value));

/**
 * The prompt for `evidence`, within `budget` tokens (estimated), or null when not even the first record fits.
 * @param budget the tokens the prompt may spend (LanguageModel.promptBudget).
 */
export function askPrompt(evidence: Evidence, embedded: ComposedAnswer, budget: number): AskPrompt | null {
  const all = evidenceRecords(evidence.finding);
  const candidates = all.slice(0, MAX_RECORDS);
  const numberOf = new Map(candidates.map((r, i) => [r.id.toLowerCase(), i + 1]));
  const withText = evidence.finding.kind === 'search';
  const needed = fieldsFor(evidence.question);
  const lines = candidates.map((r, i) => ({ ...compact(r, numberOf, withText, needed), n: i + 1 }));
  const head = [
    `Question: ${JSON.stringify(evidence.question)}`,
    'Answer the question from these records (one JSON object a line; cite a record by its number n) and the',
    "server's answer on the last line (its [n] are record numbers; it holds the figures of records not listed):",
  ].join('\n');
  const computedFor = (count: number) => ({
    serverAnswer: renumbered(
      embedded.answer,
      embedded.citations,
      new Map([...numberOf].filter(([, n]) => n <= count)),
    ),
    recordsFound: all.length,
    recordsSent: count,
    currency: evidence.currency,
  });
  // The server answer with every marker is the longest it can be: a conservative share of the budget.
  let spent = estimateTokens(`${head}\n<data>\n${line(computedFor(candidates.length))}\n</data>`);
  let count = 0;
  for (const l of lines) {
    const cost = estimateTokens(line(l)) + 1;
    if (spent + cost > budget) break;
    spent += cost;
    count += 1;
  }
  if (count === 0) return null;
  const computed = computedFor(count);
  const body = [...lines.slice(0, count).map(line), line(computed)].join('\n');
  const prompt = `${head}\n<data>\n${body}\n</data>`;
  const sent = candidates.slice(0, count).map((record, i) => {
    const { n: _n, ...data } = lines[i] as Record<string, unknown>;
    return { n: i + 1, record, data };
  });
  return { prompt, sent, computed, tokens: estimateTokens(prompt) };
}
