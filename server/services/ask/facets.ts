/**
 * The facet vocabulary of the Ask agent (docs/agents.md, Ask: filters): the values of the tenant's projects'
 * borough, category, managing and client agency and tags, read from its data by retrieval, and which of them a
 * question names. Pure.
 */

/**
 * A descriptive field of projects a question can filter on: the NYC columns (borough, category, managing and client
 * agency, each a comma-separated list matched item by item), `agency` (the managing or the client agency: an agency
 * named without saying which role) and the project's tags.
 */
export type FacetField = 'borough' | 'category' | 'agency' | 'managingAgency' | 'clientAgency' | 'tags';

/** One value of a facet in the tenant's projects, as written there (the vocabulary of facet filters). */
export interface FacetValue {
  field: FacetField;
  value: string;
}

/** A facet filter: projects whose field has one of these values. */
export interface FacetFilter {
  field: FacetField;
  values: string[];
}

/** Which field a value named in a question filters when several fields have it (see {@link facetsIn}). */
const FACET_PRIORITY: FacetField[] = [
  'borough',
  'category',
  'agency',
  'managingAgency',
  'clientAgency',
  'tags',
];

/**
 * The facet values a question names as whole words, grouped by field: short all-caps values (agency acronyms like
 * `DEP`) only in capitals, so "it" never matches `IT`; others case-insensitively. An agency is the managing agency
 * when the question says "managed by" (or "manages", "run by"), the client agency when it says "client" (or "on
 * behalf of"), and either otherwise (`agency`). A value several fields have filters the first of borough, category,
 * agency, tags. A value inside a longer value that also matched ("Queens" in "Queens Borough") is not a second
 * filter.
 */
export function facetsIn(question: string, vocabulary: readonly FacetValue[]): FacetFilter[] {
  const byValue = new Map<string, FacetValue[]>();
  for (const entry of vocabulary) {
    const value = entry.value.trim();
    if (value.length < 2) continue;
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    const acronym = value.length <= 5 && value === value.toUpperCase() && /^[A-Z0-9&/+-]+$/.test(value);
    const rx = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, acronym ? 'u' : 'iu');
    if (!rx.test(question)) continue;
    const key = value.toLowerCase();
    byValue.set(key, [...(byValue.get(key) ?? []), { field: entry.field, value }]);
  }
  const keys = [...byValue.keys()].filter((k) => ![...byValue.keys()].some((o) => o !== k && o.includes(k)));
  const role = /\bclient\b|\bon behalf of\b/i.test(question)
    ? 'clientAgency'
    : /\bmanag(?:ed|es|e|ing)\b|\brun by\b/i.test(question)
      ? 'managingAgency'
      : 'agency';
  const out = new Map<FacetField, string[]>();
  for (const key of keys) {
    const options = (byValue.get(key) ?? []).map((o) =>
      o.field === 'managingAgency' || o.field === 'clientAgency' ? { ...o, field: role as FacetField } : o,
    );
    const chosen = FACET_PRIORITY.map((f) => options.find((o) => o.field === f)).find((o) => o !== undefined);
    if (!chosen) continue;
    const values = out.get(chosen.field) ?? [];
    if (!values.includes(chosen.value)) values.push(chosen.value);
    out.set(chosen.field, values);
  }
  return FACET_PRIORITY.filter((f) => out.has(f)).map((field) => ({ field, values: out.get(field) ?? [] }));
}
