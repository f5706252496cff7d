/**
 * Citations (spec `Citation`; docs/agents.md, Agents: output): the records an agent's output or an Ask answer rests
 * on, numbered so that every `[n]` marker in a text refers to the citation whose `index` is n. Shared by the six
 * analysis agents and the Ask agent, so both number, dedupe and render citations the same way.
 *
 * - One {@link CitationBuilder} per output (an agent run, an answer): indices start at 1 and follow first use, so the
 *   same input always yields the same numbering.
 * - Citing the same record for the same field twice gives the same citation (and index); the same record cited for
 *   another field is another citation, since its `field` and `excerpt` differ.
 * - `url` is the record's API path under `/v1` (a GET of it answers the record to a caller of its tenant).
 * - `field` names the field the statement rests on (`forecastCost`, `dueDate`, …) where there is one.
 */
import type { Schema } from '../../schemas.js';

/** Kind of record a citation points at (spec `CitationType`). */
export type CitationType = Schema<'CitationType'>;

/** A citation as the API shows it (spec `Citation`). */
export type Citation = Schema<'Citation'>;

/** What a caller knows about a record it cites; the builder adds `index` and `url`. */
export interface CitationSource {
  type: CitationType;
  id: string;
  /** The record's name or title. */
  title: string;
  /** The part of the record that supports the statement, e.g. `budget 48,500,000 USD; forecastCost 51,200,000 USD`. */
  excerpt: string;
  /** The field the statement rests on, e.g. `forecastCost`; omitted when the whole record is meant. */
  field?: string | undefined;
  /**
   * The record's API path under `/v1` when it is not `/{collection}/{id}` (the default for every type but
   * `status_report`, whose path depends on its project: see {@link statusReportUrl}).
   */
  url?: string | undefined;
}

/** The collection path of each citable type whose records have a `GET /{collection}/{id}`. */
const COLLECTIONS: Partial<Record<CitationType, string>> = {
  project: 'projects',
  risk: 'risks',
  issue: 'issues',
  milestone: 'milestones',
  resource: 'resources',
  allocation: 'allocations',
};

/**
 * The API path of a record, e.g. `/v1/risks/{id}`.
 * @throws Error for a type without a `/{collection}/{id}` path (give `url` in the source instead).
 */
export function recordUrl(type: CitationType, id: string): string {
  const collection = COLLECTIONS[type];
  if (!collection) throw new Error(`a ${type} citation needs an explicit url`);
  return `/v1/${collection}/${id}`;
}

/** The API path of one status report: `/v1/status-reports/{id}` (spec `getStatusReport`). */
export function statusReportUrl(id: string): string {
  return `/v1/status-reports/${id}`;
}

/** `[n]` for each index, in the order given: `[2][5]`. Empty for none. */
export function markers(indices: readonly number[]): string {
  return indices.map((n) => `[${n}]`).join('');
}

const MARKER = /\[(\d+)\]/g;

/** The indices of every `[n]` marker in a text, in order of appearance (with repeats). */
export function markersIn(text: string): number[] {
  return [...text.matchAll(MARKER)].map((m) => Number(m[1]));
}

function keyOf(source: Pick<CitationSource, 'type' | 'id' | 'field'>): string {
  return `${source.type}:${source.id}:${source.field ?? ''}`;
}

/**
 * Numbers and dedupes the citations of one output. `cite` returns the `[n]` marker to put in the text; `all()`
 * lists every citation by index; a {@link CitationGroup} collects the citations one finding uses.
 */
export class CitationBuilder {
  readonly #byKey = new Map<string, Citation>();
  readonly #list: Citation[] = [];

  /** The citation of a source (the existing one when this record and field were cited before). */
  citation(source: CitationSource): Citation {
    const key = keyOf(source);
    const known = this.#byKey.get(key);
    if (known) return known;
    const citation: Citation = {
      index: this.#list.length + 1,
      type: source.type,
      id: source.id,
      title: source.title,
      url: source.url ?? recordUrl(source.type, source.id),
      excerpt: source.excerpt,
      ...(source.field !== undefined ? { field: source.field } : {}),
    };
    this.#byKey.set(key, citation);
    this.#list.push(citation);
    return citation;
  }

  /** Cites a source and returns its marker, e.g. `[3]`. */
  cite(source: CitationSource): string {
    return markers([this.citation(source).index]);
  }

  /** A group that records which citations one finding (or section) uses, numbered by this builder. */
  group(): CitationGroup {
    return new CitationGroup(this);
  }

  /** Every citation so far, by index. */
  all(): Citation[] {
    return [...this.#list];
  }

  /** How many citations there are. */
  get size(): number {
    return this.#list.length;
  }

  /** The citation with this index, or undefined. */
  byIndex(index: number): Citation | undefined {
    return this.#list[index - 1];
  }
}

/** The citations one finding uses (each once, by index), numbered by its {@link CitationBuilder}. */
export class CitationGroup {
  readonly #builder: CitationBuilder;
  readonly #used = new Map<number, Citation>();

  constructor(builder: CitationBuilder) {
    this.#builder = builder;
  }

  /** Cites a source and returns its marker, e.g. `[3]`; the citation joins this group. */
  cite(source: CitationSource): string {
    const citation = this.#builder.citation(source);
    this.#used.set(citation.index, citation);
    return markers([citation.index]);
  }

  /** The group's citations, by index. */
  list(): Citation[] {
    return [...this.#used.values()].sort((a, b) => a.index - b.index);
  }
}

/**
 * The markers of a text that resolve to no citation of `citations` (empty when every `[n]` resolves): what the
 * agents' and Ask's tests hold to be empty.
 */
export function unresolvedMarkers(text: string, citations: readonly Pick<Citation, 'index'>[]): number[] {
  const known = new Set(citations.map((c) => c.index));
  return markersIn(text).filter((n) => !known.has(n));
}
