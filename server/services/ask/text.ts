/**
 * Text helpers of the Ask agent: normalising a question, its content words, and the one way each kind of figure is
 * written in an answer (so `npm run eval` can read every figure back by value).
 */

/** The question in lower case with typographic quotes and dashes made plain and whitespace collapsed. */
export function normalise(question: string): string {
  return question
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a text: runs of letters and digits (apostrophes inside a word dropped: "project's" → "projects"). */
export function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/(\p{L})'(\p{L})/gu, '$1$2')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * Words that carry no subject in a question to a portfolio: function words, question words and the verbs and nouns
 * every question uses. The intent vocabulary is removed separately (see vocabulary.ts, `searchTerms`).
 */
const STOPWORDS = new Set(
  `a about above after again against all also am an and any anything are aren as at be because been before being
  below between both but by can could currently did do does doing done down during each either else ever every
  few for from further get gets getting give given go going got had has have having he her here hers him his how
  i if in into is isn it its itself just know let like list lot lots many may me might mine more most much must my
  need needs no nor not now of off on once only or other our ours out over own please right said same say says
  see shall she should show so some something still such tell than that the their theirs them then there these
  they thing things this those through to too under until up upon us very via was we were what whats when where
  whether which while who whom whose why will with within without would yet you your yours
  anybody everybody someone anyone everyone info information detail details describe summary summarise summarize
  overview explain find found look looking mention mentions mentioned mentioning regarding concerning related
  relating record records data portfolio portfolios our current latest`.split(/\s+/),
);

/** Whether a word is a stopword (see {@link STOPWORDS}). */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** The content words of a text, in order, without stopwords and repeats. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (!isStopword(w) && !out.includes(w)) out.push(w);
  return out;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};

/** A small count in a question ("top 3", "five largest"), or null. Digits or English words one to twenty. */
export function countIn(text: string): number | null {
  const digits =
    /\b(?:top|largest|biggest|worst|first|highest|longest|greatest)\s+(\d{1,3})\b|\b(\d{1,3})\s+(?:largest|biggest|worst|highest|longest|greatest|most|projects?)\b/.exec(
      text,
    );
  const value = digits?.[1] ?? digits?.[2];
  if (value) return Number(value);
  for (const [word, n] of Object.entries(NUMBER_WORDS)) {
    if (new RegExp(`\\b${word}\\b`).test(text)) return n;
  }
  return null;
}

// ------------------------------------------------------------------------------------------------ figures

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 0 });
const withCents = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/**
 * An amount of money as the answer writes it: exact to the cent (cents shown when there are any), thousands grouped,
 * with the currency's sign for USD/EUR/GBP and the ISO code otherwise (`$51,200,000`, `-$4,318,643.37`, `$0.50`,
 * `1,200 CHF`).
 */
export function money(amount: number, currency: string): string {
  const sign = amount < 0 ? '-' : '';
  const cents = Math.round(Math.abs(amount) * 100);
  const abs = cents % 100 === 0 ? grouped.format(cents / 100) : withCents.format(cents / 100);
  const symbol = ({ USD: '$', EUR: '€', GBP: '£' } as Record<string, string>)[currency];
  return symbol ? `${sign}${symbol}${abs}` : `${sign}${abs} ${currency}`;
}

/** A percentage with one decimal (`5.6%`). */
export function percent(value: number): string {
  return `${oneDecimal.format(value)}%`;
}

/** A whole number, thousands grouped (`1,234`). */
export function integer(value: number): string {
  return grouped.format(Math.round(value));
}

/** "1 project" / "3 projects". */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${integer(count)} ${count === 1 ? noun : pluralNoun}`;
}

/** "a, b and c". */
export function joinAnd(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** "a, b or c". */
export function joinOr(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

/** The text cut to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
