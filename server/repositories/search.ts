/**
 * The full-text index of the Ask agent (docs/agents.md, "Ask"): one document per searchable record (its title and
 * body text, its tenant and project) in `search_documents`, kept in step with the records by the one write path
 * (services/versioned.ts) in the record's own transaction.
 *
 * - SQLite (the embedded default): an FTS5 table `search_fts` over `search_documents` (external content, kept in step
 *   by triggers on `search_documents`), tokenizer `porter unicode61`, ranked by `bm25()` (lower is better).
 * - Postgres: a generated `tsvector` column `document` (English configuration, title weighted A, body B) with a GIN
 *   index, queried with `websearch_to_tsquery` and ranked by `ts_rank_cd`.
 *
 * What a record's document says is a SQL expression over its own table ({@link SearchSource}), so the write path
 * (one record) and a migration's rebuild (every record) produce the same text. A migration freezes the sources it
 * builds with; {@link SEARCH_SOURCES} must equal the latest of them (test/integration/search-index.test.ts,
 * "uses the sources the latest search migration froze").
 */
import type { Executor } from './sql.js';
import { isPostgres } from './sql.js';

/** How one record type becomes a document: SQL expressions over the columns of its table. */
export interface SearchSource {
  /** The table holding the records (every row has `id` and `tenant_id`). */
  table: string;
  /** The project the record belongs to (`id` for a project; `NULL` for records of no project). */
  projectId: string;
  /** The title: the record's name. */
  title: string;
  /** The body: the record's descriptive text (NOT NULL: every part is `coalesce`d). */
  body: string;
  /**
   * Only rows matching this SQL condition have a document (status reports without a summary have none). For records
   * that never change (status reports); a record that stops matching would keep its old document.
   */
  where?: string;
}

/** The record types with a document, keyed by the audit `resourceType` of the write path. */
export type SearchSources = Readonly<Record<string, SearchSource>>;

/**
 * What is indexed today: projects (name, code, description, category, borough, agencies, tags), risks (title,
 * description, mitigation), issues, milestones, resources (name, role, skills) and the summaries of status reports.
 * Equal to the sources of the latest search migration.
 */
export const SEARCH_SOURCES: SearchSources = {
  project: {
    table: 'projects',
    projectId: 'id',
    title: 'name',
    body:
      "coalesce(code, '') || ' ' || coalesce(description, '') || ' ' || coalesce(category, '') || ' ' || " +
      "coalesce(borough, '') || ' ' || coalesce(managing_agency, '') || ' ' || coalesce(client_agency, '') || ' ' || " +
      "coalesce(tags, '')",
  },
  milestone: {
    table: 'milestones',
    projectId: 'project_id',
    title: 'name',
    body: "coalesce(description, '')",
  },
  risk: {
    table: 'risks',
    projectId: 'project_id',
    title: 'title',
    body: "coalesce(description, '') || ' ' || coalesce(mitigation, '')",
  },
  issue: {
    table: 'issues',
    projectId: 'project_id',
    title: 'title',
    body: "coalesce(description, '')",
  },
  resource: {
    table: 'resources',
    projectId: 'NULL',
    title: 'name',
    body: "coalesce(role, '') || ' ' || coalesce(skills, '')",
  },
  status_report: {
    table: 'status_reports',
    projectId: 'project_id',
    title: "''",
    body: "coalesce(phase, '') || ' ' || summary",
    where: "summary IS NOT NULL AND summary <> ''",
  },
};

function upsertSql(type: string, source: SearchSource, where: string): string {
  // The SELECT always has a WHERE: SQLite's parser needs one before an upsert's ON CONFLICT. The DO UPDATE is
  // skipped when the text did not change, so a change of status or cost does not churn the index.
  return `INSERT INTO search_documents (tenant_id, record_type, record_id, project_id, title, body)
    SELECT tenant_id, '${type}', id, ${source.projectId}, ${source.title}, ${source.body}
    FROM ${source.table} WHERE ${where}${source.where ? ` AND (${source.where})` : ''}
    ON CONFLICT (record_id) DO UPDATE SET project_id = excluded.project_id, title = excluded.title,
      body = excluded.body
    WHERE search_documents.title <> excluded.title OR search_documents.body <> excluded.body
      OR coalesce(search_documents.project_id, '') <> coalesce(excluded.project_id, '')`;
}

/**
 * Writes (or rewrites) the document of one record from its row, in the caller's transaction. A type without a
 * source has no document: nothing happens.
 */
export async function indexRecord(
  db: Executor,
  type: string,
  tenantId: string,
  id: string,
  sources: SearchSources = SEARCH_SOURCES,
): Promise<void> {
  const source = sources[type];
  if (!source) return;
  await db.raw(upsertSql(type, source, 'tenant_id = ? AND id = ?'), [tenantId, id]);
}

/** Removes the document of a deleted record (a type without a source has none: nothing happens). */
export async function removeRecord(
  db: Executor,
  type: string,
  id: string,
  sources: SearchSources = SEARCH_SOURCES,
): Promise<void> {
  if (!sources[type]) return;
  await db('search_documents').where({ record_id: id }).delete();
}

/** Writes the documents of every record of the given types (migrations: the index of existing rows). */
export async function rebuildSearchIndex(db: Executor, sources: SearchSources): Promise<void> {
  for (const [type, source] of Object.entries(sources)) {
    await db.raw(upsertSql(type, source, '1 = 1'));
  }
}

/** A full-text query: the terms, whether all or any must match, and the restrictions. */
export interface SearchQuery {
  /** Words (letters and digits only; anything else is dropped). */
  terms: readonly string[];
  /** `all`: every term must occur in the document; `any`: at least one. */
  match: 'all' | 'any';
  /** Only documents of this project (the project's own and its records'). */
  projectId?: string | undefined;
  /** Only these record types. */
  types?: readonly string[] | undefined;
  limit: number;
}

/** A matching document: the record it stands for and its rank (higher is better on both databases). */
export interface SearchHit {
  type: string;
  id: string;
  projectId: string | null;
  title: string;
  body: string;
  rank: number;
}

function cleanTerms(terms: readonly string[]): string[] {
  return terms.map((t) => t.replace(/[^\p{L}\p{N}]+/gu, '')).filter((t) => t.length > 0);
}

/**
 * The tenant's documents matching the query, best first (ties by record id, so the order is deterministic).
 * SQLite ranks with `bm25(search_fts, 4, 1)` (the title counts four times the body); Postgres with
 * `ts_rank_cd` over the A/B-weighted vector.
 */
export async function searchDocuments(
  db: Executor,
  tenantId: string,
  query: SearchQuery,
): Promise<SearchHit[]> {
  const terms = cleanTerms(query.terms);
  if (terms.length === 0) return [];
  const filters: string[] = [];
  const filterArgs: string[] = [];
  if (query.projectId) {
    filters.push('d.project_id = ?');
    filterArgs.push(query.projectId);
  }
  if (query.types && query.types.length > 0) {
    filters.push(`d.record_type IN (${query.types.map(() => '?').join(', ')})`);
    filterArgs.push(...query.types);
  }
  const extra = filters.map((f) => ` AND ${f}`).join('');
  let rows: Record<string, unknown>[];
  if (isPostgres(db)) {
    const text = terms.join(query.match === 'all' ? ' ' : ' or ');
    const result = (await db.raw(
      `SELECT d.record_type, d.record_id, d.project_id, d.title, d.body, ts_rank_cd(d.document, q) AS rank
       FROM search_documents d, websearch_to_tsquery('english', ?) q
       WHERE d.tenant_id = ? AND d.document @@ q${extra}
       ORDER BY rank DESC, d.record_id LIMIT ?`,
      [text, tenantId, ...filterArgs, query.limit],
    )) as { rows: Record<string, unknown>[] };
    rows = result.rows;
  } else {
    const match = terms.map((t) => `"${t}"`).join(query.match === 'all' ? ' AND ' : ' OR ');
    rows = (await db.raw(
      `SELECT d.record_type, d.record_id, d.project_id, d.title, d.body, -bm25(search_fts, 4.0, 1.0) AS rank
       FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
       WHERE search_fts MATCH ? AND d.tenant_id = ?${extra}
       ORDER BY rank DESC, d.record_id LIMIT ?`,
      [match, tenantId, ...filterArgs, query.limit],
    )) as Record<string, unknown>[];
  }
  return rows.map((row) => ({
    type: String(row.record_type),
    id: String(row.record_id),
    projectId: (row.project_id as string | null) ?? null,
    title: String(row.title),
    body: String(row.body),
    rank: Number(row.rank),
  }));
}
