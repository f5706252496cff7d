import type { Knex } from 'knex';
import { rebuildSearchIndex, type SearchSources } from '../../repositories/search.js';

// The Ask agent's full-text index (docs/agents.md, "Ask"): one document per searchable record in
// `search_documents`, and the database's own full-text machinery over it:
// - SQLite: FTS5 over `search_documents` as external content (`content_rowid` = its integer id), kept in step by
//   the three triggers the SQLite documentation gives for external-content tables; `porter unicode61` tokenizer.
// - Postgres: a generated tsvector (English; title weight A, body B) with a GIN index.
// The write path (services/versioned.ts for versioned records, repositories/status-reports.ts for status reports)
// upserts a record's document in the record's transaction; this migration builds the documents of the rows that
// exist already.
//
// The sources are frozen here (a later migration that changes what is indexed brings its own and rebuilds), so this
// migration runs the same on a fresh database and on an old one.
export const searchSources: SearchSources = {
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

export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.config.client === 'pg';
  await knex.schema.createTable('search_documents', (t) => {
    t.increments('id').primary();
    t.string('tenant_id', 36).notNullable().references('id').inTable('tenants');
    t.string('record_type', 32).notNullable();
    t.string('record_id', 36).notNullable().unique();
    t.string('project_id', 36).nullable();
    t.text('title').notNullable();
    t.text('body').notNullable();
    // Restrictions applied after the text match: by tenant (always), project (`projectId`) and type.
    t.index(['tenant_id', 'project_id']);
    t.index(['tenant_id', 'record_type']);
  });
  if (pg) {
    await knex.raw(`
      ALTER TABLE search_documents ADD COLUMN document tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')
      ) STORED`);
    await knex.raw('CREATE INDEX search_documents_document_gin ON search_documents USING GIN (document)');
  } else {
    await knex.raw(`
      CREATE VIRTUAL TABLE search_fts USING fts5(
        title, body, content='search_documents', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
      )`);
    await knex.raw(`
      CREATE TRIGGER search_documents_ai AFTER INSERT ON search_documents BEGIN
        INSERT INTO search_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
      END`);
    await knex.raw(`
      CREATE TRIGGER search_documents_ad AFTER DELETE ON search_documents BEGIN
        INSERT INTO search_fts(search_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
      END`);
    await knex.raw(`
      CREATE TRIGGER search_documents_au AFTER UPDATE ON search_documents BEGIN
        INSERT INTO search_fts(search_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
        INSERT INTO search_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
      END`);
  }
  await rebuildSearchIndex(knex, searchSources);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') await knex.raw('DROP TABLE IF EXISTS search_fts');
  await knex.schema.dropTable('search_documents');
}
