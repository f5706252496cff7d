/**
 * Whether a model's answer answers (docs/agents.md, "Bring your own model"), beyond grounding.ts's check that each
 * sentence rests on the records sent:
 *
 * - no raw id: the prompt numbers the records and shows no UUID, and any UUID a model still writes (with the
 *   `[id: …]` or `(id …)` around it) is cut out of its text ({@link withoutIds});
 * - no restatement: a sentence that asks a question, or that only repeats the words of a question asking what,
 *   which, who, how many…, is dropped ({@link restates});
 * - complete: every figure, date, count and record name that the embedded engine's answer states appears in the
 *   model's answer ({@link missingFacts}). The embedded answer is the server's own answer to the same question;
 *   a model may say it better, never say less.
 */
import { scan } from './grounding.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID_WITH_LABEL = new RegExp(
  `\\s*(?:\\[\\s*(?:ids?\\s*[:=]?\\s*)?${UUID}(?:\\s*,\\s*${UUID})*\\s*\\]|\\(\\s*(?:ids?\\s*[:=]?\\s*)?${UUID}(?:\\s*,\\s*${UUID})*\\s*\\)|(?:\\bids?\\s*[:=]?\\s*)?${UUID})`,
  'gi',
);
const ANY_UUID = new RegExp(UUID, 'i');

/** A text with every UUID cut out, with its brackets and `id:` label, and the spaces tidied. */
export function withoutIds(text: string): string {
  return text
    .replace(UUID_WITH_LABEL, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** Whether a text holds a UUID. */
export function hasUuid(text: string): boolean {
  return ANY_UUID.test(text);
}

const STOP = new Set(
  'a an the of in on at to for by with and or is are was were be been has have had do does did it its this that these those there their our your my me we you they i what which who whom whose how many much when where why list show name give tell me all any please'.split(
    ' ',
  ),
);
const ASKS_FOR = /^\s*(what|which|who|whom|whose|how|when|where|why|list|show|name|give|tell|count)\b/i;

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));
}

/**
 * Whether a sentence restates the question rather than answering it: it is itself a question, or the question asks
 * for something (what, which, who, how many, list…) and the sentence says nothing but the question's own words.
 */
export function restates(sentence: string, question: string): boolean {
  const text = sentence.replace(/\[\d+\](?:–\[\d+\])?/g, ' ').trim();
  if (/\?\s*$/.test(text)) return true;
  if (!ASKS_FOR.test(question)) return false;
  const asked = new Set(words(question));
  const said = words(text);
  return said.length > 0 && said.every((w) => asked.has(w));
}

/** Counts written as words ("one project", "three risks") state the count. */
const COUNT_WORDS = 'zero one two three four five six seven eight nine ten eleven twelve'.split(' ');
const COUNT_WORD = new RegExp(`\\b(?:${COUNT_WORDS.join('|')})\\b`, 'gi');

function normalised(text: string): string {
  return text
    .toLowerCase()
    .replace(/[“”"'‘’]/g, '')
    .replace(/\s+/g, ' ');
}

/**
 * What the model's answer leaves out of the embedded answer: each number and date the embedded answer writes
 * (outside its `[n]` markers), and each of `names` (the records the embedded answer names) that the answer does not
 * write. A number matches when the two, each within its written precision, can be the same value (`$1.2 million`
 * states 1,234,567); a date matches the same day, or a month for a month. Names match case-insensitively.
 * @returns the missing facts as written by the embedded answer (empty: complete).
 */
export function missingFacts(answer: string, embedded: string, names: readonly string[]): string[] {
  const given = scan(answer.replace(COUNT_WORD, (w) => ` ${COUNT_WORDS.indexOf(w.toLowerCase())} `));
  const wanted = scan(embedded);
  const missing: string[] = [];
  for (const d of wanted.dates)
    if (!given.dates.some((g) => (d.kind === 'day' ? g.value === d.value : g.value.startsWith(d.value))))
      missing.push(d.raw);
  for (const n of wanted.numbers) {
    const found = given.numbers.some(
      (g) => Math.abs(Math.abs(g.value) - Math.abs(n.value)) <= g.tolerance + n.tolerance + 1e-9,
    );
    if (!found) missing.push(n.raw.trim());
  }
  const text = normalised(answer);
  for (const name of names) if (!text.includes(normalised(name).trim())) missing.push(name);
  return missing;
}

/**
 * The record numbers a sentence rests on: its `records`, or, when it gives none, the `[n]` markers it wrote in its
 * text (small models copy the server answer's markers instead of filling the field; the numbers are checked alike).
 */
export function recordsOf(sentence: { text: string; records: readonly number[] }): number[] {
  if (sentence.records.length > 0) return [...sentence.records];
  return [...sentence.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
}
