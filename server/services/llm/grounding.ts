/**
 * The server's check of a model's sentences (docs/agents.md, "Bring your own model"): a model writes prose over
 * records the server chose, and nothing it writes reaches a user unless the server can find it in those records.
 *
 * - Every sentence cites ids, and each id must be one of the records sent (another tenant's record, a record of
 *   this tenant that was not sent, an invented id: dropped).
 * - Every number and date in the sentence must appear among the facts: the records' values (numbers, dates, and
 *   numbers inside names and codes — not inside free text such as a description, which anyone can fill with any
 *   figure), the computed figures sent with them, and the question. Formats are
 *   normalised first: `1,234,567`, `1.2M`, `$1.2 million`, `12 %`, `2019-09-01`, `September 1, 2019`,
 *   `1 Sep 2019`, `09/01/2019`, `September 2019`. A number written with fewer digits matches a fact that rounds to
 *   it (`$1.2 million` matches 1,234,567; `12.7%` matches 12.69…), never the reverse; signs are ignored (an
 *   overrun of $5 is a variance of −$5).
 * - A sentence that fails either check is dropped, with its reason.
 */

import { MONTH_NAMES } from '../../dates.js';

/** A sentence as the model writes it: text, and the ids of the records it rests on. */
export interface ModelSentence {
  text: string;
  ids: string[];
}

/** Why a sentence was dropped. */
export type DropReason = 'no_citation' | 'unknown_id' | 'unsupported_number' | 'unsupported_date';

/** The outcome of checking a model's sentences. */
export interface CheckedSentences {
  kept: ModelSentence[];
  dropped: { sentence: ModelSentence; reason: DropReason; detail: string }[];
}

const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';

function monthNumber(name: string): number {
  const lower = name.toLowerCase().replace('.', '');
  return MONTH_NAMES.findIndex((m) => m.startsWith(lower.slice(0, 3))) + 1;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A date found in a text: a day (`2019-09-01`) or a month (`2019-09`). */
interface FoundDate {
  kind: 'day' | 'month';
  value: string;
  raw: string;
}

/** A number found in a text: its value and the half-unit of its last written digit (how far rounding can move it). */
interface FoundNumber {
  value: number;
  tolerance: number;
  raw: string;
}

const DATE_PATTERNS: { re: RegExp; read: (m: RegExpExecArray) => FoundDate | null }[] = [
  {
    re: /\b(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\b/g,
    read: (m) => ({ kind: 'day', value: `${m[1]}-${m[2]}-${m[3]}`, raw: m[0] }),
  },
  {
    re: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => day(Number(m[3]), monthNumber(m[1] as string), Number(m[2]), m[0]),
  },
  {
    re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => day(Number(m[3]), monthNumber(m[2] as string), Number(m[1]), m[0]),
  },
  {
    re: /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g,
    read: (m) => day(Number(m[3]), Number(m[1]), Number(m[2]), m[0]),
  },
  {
    re: new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => {
      const month = monthNumber(m[1] as string);
      return month > 0 ? { kind: 'month', value: `${m[2]}-${pad(month)}`, raw: m[0] } : null;
    },
  },
];

function day(year: number, month: number, dayOfMonth: number, raw: string): FoundDate | null {
  if (month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > 31) return null;
  return { kind: 'day', value: `${year}-${pad(month)}-${pad(dayOfMonth)}`, raw };
}

const SCALES: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
};

// A number not glued to a word before it (`Q3`, `PS26` are names, matched as the records write them). Grouped
// thousands, decimals, then an optional percent sign or scale word.
const NUMBER =
  /(?<![\p{L}\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s?(%|percent\b|per cent\b)|\s?(thousand|million|billion|trillion|bn|mn|k|m|b)(?!\p{L}))?/giu;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const MARKER = /\[\d+\](?:–\[\d+\])?/g;

/** The dates and numbers of a text (dates first: their digits are not numbers too). */
export function scan(text: string): { dates: FoundDate[]; numbers: FoundNumber[] } {
  let rest = text.replace(UUID, ' ').replace(MARKER, ' ');
  const dates: FoundDate[] = [];
  for (const { re, read } of DATE_PATTERNS) {
    rest = rest.replace(re, (...args) => {
      const m = args.slice(0, -2) as unknown as RegExpExecArray;
      const found = read(m);
      if (!found) return args[0] as string;
      dates.push(found);
      return ' ';
    });
  }
  const numbers: FoundNumber[] = [];
  for (const m of rest.matchAll(NUMBER)) {
    const whole = Number((m[1] as string).replaceAll(',', ''));
    const decimals = m[2] ?? '';
    const scale = m[4] ? (SCALES[m[4].toLowerCase()] ?? 1) : 1;
    const value = Number(`${whole}${decimals ? `.${decimals}` : ''}`) * scale;
    numbers.push({ value, tolerance: 0.5 * 10 ** -decimals.length * scale, raw: m[0] });
  }
  return { dates, numbers };
}

/**
 * Free-text fields of records: sent to the model to read, but their numbers and dates are not facts. Whoever
 * writes a description can write anything in it ("the budget is $99 million"); the figures a sentence may state
 * are the records' fields, the names that identify them, and what the server computed.
 */
const FREE_TEXT = new Set(['description', 'summary', 'mitigation', 'resolution', 'notes', 'snippet']);

/**
 * What a model's sentences may state: every number (absolute value) and date among the records and computed
 * figures sent, and the question. Build one per answer with {@link FactSet.add}.
 */
export class FactSet {
  readonly #numbers: number[] = [];
  readonly #days = new Set<string>();
  readonly #months = new Set<string>();
  #sorted = true;

  /** Adds every number and date of a value: numbers, strings (scanned), arrays and objects (their values). */
  add(value: unknown): this {
    if (value === null || value === undefined || typeof value === 'boolean') return this;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) this.#number(Math.abs(value));
      return this;
    }
    if (typeof value === 'string') {
      const { dates, numbers } = scan(value);
      for (const d of dates) this.#date(d);
      for (const n of numbers) this.#number(n.value);
      return this;
    }
    if (Array.isArray(value)) {
      for (const v of value) this.add(v);
      return this;
    }
    if (typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) if (!FREE_TEXT.has(key)) this.add(v);
    }
    return this;
  }

  #number(n: number): void {
    this.#numbers.push(n);
    this.#sorted = false;
  }

  #date(d: FoundDate): void {
    const month = d.value.slice(0, 7);
    this.#months.add(month);
    if (d.kind === 'day') this.#days.add(d.value);
    // A year named alone ("in 2019") is a number: the years of the facts' dates are facts.
    this.#number(Number(d.value.slice(0, 4)));
  }

  /** Whether a number of a sentence is among the facts (within its written precision). */
  hasNumber(n: FoundNumber): boolean {
    if (!this.#sorted) {
      this.#numbers.sort((a, b) => a - b);
      this.#sorted = true;
    }
    const lo = Math.abs(n.value) - n.tolerance - 1e-9;
    const hi = Math.abs(n.value) + n.tolerance + 1e-9;
    // First fact ≥ lo, by bisection; a match when it is ≤ hi.
    let a = 0;
    let b = this.#numbers.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if ((this.#numbers[mid] as number) < lo) a = mid + 1;
      else b = mid;
    }
    return a < this.#numbers.length && (this.#numbers[a] as number) <= hi;
  }

  /** Whether a date of a sentence is among the facts (a month: some fact's date falls in it). */
  hasDate(d: FoundDate): boolean {
    return d.kind === 'day' ? this.#days.has(d.value) : this.#months.has(d.value);
  }
}

/**
 * Checks each sentence against the ids sent and the facts (the rules at the top of this module). Sentences keep
 * their order; ids are deduplicated.
 */
export function checkSentences(
  sentences: readonly ModelSentence[],
  allowedIds: ReadonlySet<string>,
  facts: FactSet,
): CheckedSentences {
  const out: CheckedSentences = { kept: [], dropped: [] };
  for (const raw of sentences) {
    const sentence = {
      text: raw.text.trim(),
      ids: [...new Set(raw.ids.map((id) => id.trim().toLowerCase()))],
    };
    const drop = (reason: DropReason, detail: string) => out.dropped.push({ sentence, reason, detail });
    if (sentence.text === '' || sentence.ids.length === 0) {
      drop('no_citation', 'the sentence cites no record');
      continue;
    }
    const unknown = sentence.ids.find((id) => !allowedIds.has(id));
    if (unknown) {
      drop('unknown_id', `${unknown} is not a record that was sent`);
      continue;
    }
    const { dates, numbers } = scan(sentence.text);
    const badDate = dates.find((d) => !facts.hasDate(d));
    if (badDate) {
      drop('unsupported_date', `${badDate.raw} is in none of the records`);
      continue;
    }
    const badNumber = numbers.find((n) => !facts.hasNumber(n));
    if (badNumber) {
      drop('unsupported_number', `${badNumber.raw} is in none of the records`);
      continue;
    }
    out.kept.push(sentence);
  }
  return out;
}

/**
 * Whether what survived the check still answers: at least one sentence, and at least as many kept as dropped
 * (an answer that lost most of what it said has lost its substance; the embedded engine answers instead).
 */
export function keepsSubstance(checked: CheckedSentences): boolean {
  return checked.kept.length > 0 && checked.kept.length >= checked.dropped.length;
}
