/**
 * The integrity check of `npm run eval` (docs/agents.md, Ask): reading figures, dates and `[n]` markers back out of
 * an answer, and checking that each marker resolves, each citation is used, and each figure and date comes from the
 * cited records (or is a threshold the question states, or a time word's reading).
 */
/** The numbers written in a text: `$1,234.50`, `-$4,318,643.37`, `12.5%`, `3,253` (dates are not numbers here). */
export function numbersIn(text: string): number[] {
  const withoutDates = text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ').replace(/\[\d+\]/g, ' ');
  const out: number[] = [];
  for (const m of withoutDates.matchAll(/(-?)[$€£]?(-?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?/g)) {
    const sign = m[1] === '-' || m[2] === '-' ? -1 : 1;
    out.push(sign * Number(`${(m[3] as string).replaceAll(',', '')}${m[4] ?? ''}`));
  }
  return out;
}

/** The ISO dates written in a text. */
export function datesIn(text: string): string[] {
  return [...text.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].map((m) => m[0]);
}

/** The citation indexes an answer refers to: `[n]` and every index of a range `[a]–[b]`. */
export function markersIn(text: string): number[] {
  const out: number[] = [];
  const rest = text.replace(/\[(\d+)\]–\[(\d+)\]/g, (_m, a: string, b: string) => {
    for (let i = Number(a); i <= Number(b); i++) out.push(i);
    return ' ';
  });
  for (const m of rest.matchAll(/\[(\d+)\]/g)) out.push(Number(m[1]));
  return out;
}

/** A citation of an Ask answer, as the API returns it. */
export interface AskCitation {
  index: number;
  type: string;
  id: string;
  title: string;
  url: string;
  excerpt: string;
}

/**
 * The integrity of an answer: markers that resolve, citations referred to, and figures that come from the cited
 * records (in an excerpt, a count of cited records, or a sum over the cited excerpts of one column of figures).
 */
export function integrityOf(fullAnswer: string, citations: AskCitation[], question = ''): string[] {
  const problems: string[] = [];
  // How a time word was read, and the date it was read against, are computed from the question and the latest
  // report date (docs/agents.md, Ask: the words PMOs use), not stated from a record: their dates are not checked.
  const answer = fullAnswer
    .replace(/“[^”]*” is read as \d{4}-\d{2}-\d{2}[^.]*\./g, ' ')
    .replace(/The data is historical:[^.]*\./g, ' ')
    .replace(
      /\breported(?: status [A-Z_]+(?: or [A-Z_]+)*)? between \d{4}-\d{2}-\d{2} and \d{4}-\d{2}-\d{2}/g,
      ' ',
    );
  const indexes = new Set(citations.map((c) => c.index));
  const used = new Set(markersIn(answer));
  for (const n of used) if (!indexes.has(n)) problems.push(`[${n}] resolves to no citation`);
  for (const c of citations)
    if (!used.has(c.index)) problems.push(`citation ${c.index} is never referred to`);
  citations.forEach((c, i) => {
    if (c.index !== i + 1) problems.push(`citation ${i + 1} has index ${c.index}`);
  });
  // A threshold the question states ("over $100 M") may be repeated: its figure, scaled, counts as given.
  const asked = [...question.matchAll(/(\d+(?:\.\d+)?)\s*(k|m|mm|million|b|bn|billion)?\b/gi)].map(
    (m) =>
      Number(m[1]) *
      ({ k: 1e3, m: 1e6, mm: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 }[(m[2] ?? '').toLowerCase()] ??
        1),
  );
  const excerptNumbers = [
    ...asked,
    ...citations.flatMap((c) => [...numbersIn(c.excerpt), ...numbersIn(c.title)]),
  ];
  const excerptDates = new Set(citations.flatMap((c) => datesIn(c.excerpt)));
  // Sums: the i-th figure of every excerpt, added up (a total over the cited records).
  const sums: number[] = [];
  const columns = citations.map((c) => numbersIn(c.excerpt));
  const width = Math.max(0, ...columns.map((c) => c.length));
  for (let i = 0; i < width; i++) sums.push(columns.reduce((s, c) => s + (c[i] ?? 0), 0));
  // Sums per group: the i-th figure of the excerpts of the citations one clause (between semicolons) refers to.
  const byIndex = new Map(citations.map((c) => [c.index, numbersIn(c.excerpt)]));
  for (const clause of answer.split('; ')) {
    const cited = markersIn(clause).map((n) => byIndex.get(n) ?? []);
    const wide = Math.max(0, ...cited.map((c) => c.length));
    for (let i = 0; i < wide; i++) sums.push(cited.reduce((s, c) => s + (c[i] ?? 0), 0));
  }
  const close = (a: number, b: number) => Math.abs(a - b) < 0.006 || Math.abs(a - b) <= Math.abs(b) * 1e-9;
  for (const n of numbersIn(answer)) {
    const grounded =
      excerptNumbers.some((e) => close(e, n) || close(Math.abs(e), n)) ||
      (Number.isInteger(n) && n >= 0 && n <= citations.length) ||
      sums.some((s) => close(s, n));
    if (!grounded) problems.push(`figure ${n} is in no cited record`);
  }
  for (const d of datesIn(answer)) if (!excerptDates.has(d)) problems.push(`date ${d} is in no cited record`);
  return problems;
}
