/**
 * Questions that describe records instead of naming them (docs/agents.md, Ask: grouping and scoping): "which
 * borough has the most delayed projects" (a grouping over a facet), "the largest project", "the most delayed DEP
 * project" (a scope: one project chosen by a ranking, then answered about), "projects over $100 M" (a money
 * threshold). Pure: read from the normalised question.
 */
import type { SumField } from './vocabulary.js';
import { firstMatch, MONEY_RX, SUM_FIELDS } from './vocabulary.js';

/** What projects are grouped by: a facet of the data, the project manager or the status. */
export type GroupField = 'borough' | 'category' | 'managingAgency' | 'clientAgency' | 'manager' | 'status';

/** A grouping question: the field, and what each group is measured by (a count, or the sum of a money field). */
export interface Grouping {
  by: GroupField;
  measure: 'count' | SumField;
}

const GROUP_WORDS: [RegExp, GroupField][] = [
  [/\bboroughs?\b/, 'borough'],
  [/\bcategor(?:y|ies)\b|\btypes? of projects?\b|\bkinds? of projects?\b/, 'category'],
  [/\bclient agenc(?:y|ies)\b|\bclients?\b/, 'clientAgency'],
  [/\bagenc(?:y|ies)\b|\bdepartments?\b|\boffices?\b/, 'managingAgency'],
  [/\b(?:project )?managers?\b|\bpms\b/, 'manager'],
  [/\bstatus(?:es)?\b|\brag\b/, 'status'],
];

/**
 * The grouping a question asks for ("which borough has the most …", "budget by agency", "projects per status",
 * "compare Brooklyn and Queens" with `comparing` set to the facet its values belong to), or null.
 */
export function groupingIn(text: string, comparing: GroupField | null): Grouping | null {
  let by: GroupField | null = /\bwho (?:manages|runs|leads) the most\b/.test(text) ? 'manager' : null;
  for (const [rx, field] of by ? [] : GROUP_WORDS) {
    const source = rx.source;
    const asked = new RegExp(
      `\\b(?:which|what|by|per|each|every|across|among|between|breakdown of|split of)\\b(?: \\w+){0,2} (?:${source})|(?:${source}) (?:has|have|had|with|is|are) the (?:most|largest|biggest|highest|fewest|least|smallest|lowest)`,
    );
    if (asked.test(text)) {
      by = field;
      break;
    }
  }
  if (!by && comparing && /\bcompare\b|\bversus\b|\bvs\b|\bagainst\b|\bor\b.*\bmore\b/.test(text))
    by = comparing;
  if (!by) return null;
  const money = /\bbudgets?\b|\bcosts?\b|\bspen[dt]\w*|\bmoney\b|\bworth\b|\bvalue\b|\bdollars?\b/.test(text);
  const measure = money ? (firstMatch(SUM_FIELDS, text) ?? 'budget') : 'count';
  return { by, measure };
}

/** What a scope ranks by: budget (largest), slip (most delayed), overrun (most over budget). */
export type ScopeMeasure = 'budget' | 'slip' | 'overrun';

/** A scope: one project described by a superlative ("the largest project", "the most delayed DEP project"). */
export interface Scope {
  measure: ScopeMeasure;
  /** The words that described it, e.g. "the most delayed DEP project". */
  words: string;
}

/** The project a question describes by a superlative, or null (a plural "projects" is a ranking, not a scope). */
export function scopeIn(text: string): Scope | null {
  const m =
    /\bthe (largest|biggest|most expensive|costliest|highest[- ]budget|most delayed|latest|most late|furthest behind|most behind|most slipped|slowest|most over[- ]budget|worst overrun|most overrun|worst)\b((?: [\w&-]+){0,4}?) (?:project|job|scheme)\b(?!s)/.exec(
      text,
    );
  if (!m) return null;
  const word = m[1] as string;
  const measure: ScopeMeasure = /over|worst/.test(word)
    ? 'overrun'
    : /delayed|late|behind|slipped|slowest/.test(word)
      ? 'slip'
      : 'budget';
  return { measure, words: m[0] };
}

/** A money threshold on a project field: `min` and/or `max` in the tenant's currency. */
export interface MoneyThreshold {
  field: SumField;
  min?: number;
  max?: number;
}

const SCALE: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
};

/** The money threshold a question states ("over $100 M" → budget ≥ 100,000,000; "forecast under 5m"), or null. */
export function moneyThresholdIn(text: string): MoneyThreshold | null {
  const m = MONEY_RX.exec(text);
  if (!m || (!m[2] && !m[4])) return null;
  const amount = Number((m[3] as string).replace(/,/g, '')) * (SCALE[m[4] ?? ''] ?? 1);
  if (!Number.isFinite(amount)) return null;
  const field = firstMatch(SUM_FIELDS, text) ?? 'budget';
  return /^(?:under|below|less than|at most)$/.test(m[1] as string)
    ? { field, max: amount }
    : { field, min: amount };
}
