/**
 * Citations of an answer (spec `Citation`): numbered in order of first mention, one per record (a record cited
 * twice keeps its first number), each with the record's API path under /v1 and the excerpt the statement rests on.
 */
import type { Schema } from '../../schemas.js';

export type Citation = Schema<'Citation'>;
export type CitationType = Schema<'CitationType'>;

/** A record to cite: what it is, its title, the excerpt supporting the statement and the field it rests on. */
export interface CitationSource {
  type: CitationType;
  id: string;
  title: string;
  excerpt: string;
  field?: string | undefined;
}

const PATHS: Record<CitationType, (id: string) => string> = {
  project: (id) => `/v1/projects/${id}`,
  risk: (id) => `/v1/risks/${id}`,
  issue: (id) => `/v1/issues/${id}`,
  milestone: (id) => `/v1/milestones/${id}`,
  resource: (id) => `/v1/resources/${id}`,
  allocation: (id) => `/v1/allocations/${id}`,
  status_report: (id) => `/v1/status-reports/${id}`,
};

/** The API path of a record (what a citation's `url` holds). */
export function urlOf(type: CitationType, id: string): string {
  return PATHS[type](id);
}

/** The citations of one answer, numbered as they are first cited. */
export class CitationList {
  readonly #items: Citation[] = [];
  readonly #byRecord = new Map<string, Citation>();

  /** Cites a record and returns its marker `[n]` (the same number when the record was cited before). */
  cite(source: CitationSource): string {
    return `[${this.indexOf(source)}]`;
  }

  /** Cites a record and returns its number. */
  indexOf(source: CitationSource): number {
    const key = `${source.type}:${source.id}`;
    const known = this.#byRecord.get(key);
    if (known) {
      // A record cited again for other fields: its excerpt gains the parts it lacked, so it still holds every
      // figure the answer takes from it.
      const parts = known.excerpt.split('; ');
      for (const part of source.excerpt.split('; ')) if (part && !parts.includes(part)) parts.push(part);
      known.excerpt = parts.join('; ');
      return known.index;
    }
    const citation: Citation = {
      index: this.#items.length + 1,
      type: source.type,
      id: source.id,
      title: source.title,
      url: urlOf(source.type, source.id),
      excerpt: source.excerpt,
      ...(source.field ? { field: source.field } : {}),
    };
    this.#items.push(citation);
    this.#byRecord.set(key, citation);
    return citation.index;
  }

  /** How many records are cited. */
  get size(): number {
    return this.#items.length;
  }

  /** The citations, by index. */
  list(): Citation[] {
    return [...this.#items];
  }
}

/**
 * The markers of citations `first`..`last` as the answer writes them: each one (`[1] [2] [3]`) up to four, else the
 * range `[1]–[12]`, which the spec defines as citing every index from the first to the last.
 */
export function markerRange(first: number, last: number): string {
  if (last < first) return '';
  if (last - first < 4) {
    const out: string[] = [];
    for (let i = first; i <= last; i++) out.push(`[${i}]`);
    return out.join('');
  }
  return `[${first}]–[${last}]`;
}
