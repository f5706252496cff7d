/**
 * Names as people write them (docs/agents.md, Ask: subjects): how closely a question's words name a project,
 * whatever the spacing, hyphenation, common abbreviations and small typos ("wastewater" / "waste water", "WWTP",
 * "St." / "Street", "Bklyn", "Crotn"). Pure: the candidates come from full-text search (subjects.ts).
 */
import { words } from './text.js';

/** Abbreviations of NYC and engineering project names, expanded before names are compared. */
const ABBREVIATIONS: Record<string, string> = {
  wwtp: 'waste water treatment plant',
  wpcp: 'water pollution control plant',
  wtp: 'water treatment plant',
  st: 'street',
  sts: 'streets',
  ave: 'avenue',
  av: 'avenue',
  blvd: 'boulevard',
  pkwy: 'parkway',
  hwy: 'highway',
  rd: 'road',
  bklyn: 'brooklyn',
  bk: 'brooklyn',
  bx: 'bronx',
  si: 'staten island',
  ps: 'public school',
  hs: 'high school',
  is: 'intermediate school',
  ctr: 'center',
  bldg: 'building',
  rehab: 'rehabilitation',
  recon: 'reconstruction',
  reconstr: 'reconstruction',
  improv: 'improvements',
  dept: 'department',
  intl: 'international',
};

/** The words of a name or question with abbreviations expanded (`is` only when written in capitals: "IS 25"). */
export function expandedWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const w = raw.toLowerCase();
    const long = ABBREVIATIONS[w];
    if (long && (w !== 'is' || raw === 'IS') && (w !== 'si' || raw === 'SI')) out.push(...long.split(' '));
    else out.push(...words(w));
  }
  return out;
}

/** Levenshtein distance, bounded: returns `max + 1` as soon as it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/** Two words are the same name word: equal, or (five letters or more) one typo apart, two from nine letters. */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (/\d/.test(a) || /\d/.test(b) || Math.min(a.length, b.length) < 5) return false;
  return editDistance(a, b, a.length >= 9 ? 2 : 1) <= (a.length >= 9 ? 2 : 1);
}

/** How many of a name's words a question's words cover, joined words counting for the pair they join. */
export interface NameMatch {
  /** Name words covered. */
  matched: number;
  /** Name words in all. */
  total: number;
  /** The question spells the whole name, in order, spaces and hyphens aside. */
  exact: boolean;
}

/**
 * Matches a name's content words against a question's words: a question word covers a name word it equals
 * ({@link sameWord}), or two adjacent name words it joins ("wastewater" covers "waste water").
 * @param nameContent the name's content words (no stop words), through {@link expandedWords}.
 * @param question the question's words through {@link expandedWords}.
 */
export function matchName(
  nameContent: readonly string[],
  nameAll: readonly string[],
  question: readonly string[],
): NameMatch {
  const covered = new Set<number>();
  const joinedName = nameAll.join('');
  const joinedQuestion = question.join('');
  for (let i = 0; i < nameContent.length; i++) {
    const w = nameContent[i] as string;
    if (question.some((q) => sameWord(q, w))) covered.add(i);
    const next = nameContent[i + 1];
    if (next !== undefined && question.some((q) => q === w + next || sameWord(q, w + next))) {
      covered.add(i);
      covered.add(i + 1);
    }
  }
  return {
    matched: covered.size,
    total: nameContent.length,
    exact: joinedName.length >= 6 && joinedQuestion.includes(joinedName),
  };
}
