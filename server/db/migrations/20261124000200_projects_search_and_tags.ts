import type { Knex } from 'knex';

// `q` and `tag` on GET /projects (docs/design.md, "Sorting and searching").
//
// `q` is a case-insensitive substring match on name, code and description. A B-tree cannot serve "contains", so
// each database gets a trigram index, the structure made for it:
// - Postgres: pg_trgm's GIN operator class over the three columns joined by line feeds, which serves
//   `ILIKE '%…%'` with one bitmap index scan (one index per column would take three, which the planner prices above a
//   sequential scan up to tens of thousands of rows). The line feed keeps a match from spanning two fields unless the
//   text itself holds one. pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the database owner may
//   create it. It is created in `public` (or found wherever it already is) and named with its schema, never in a
//   per-test schema whose DROP … CASCADE would take the extension, and every index built on it, away.
// - SQLite: an FTS5 table with the trigram tokenizer (case-insensitive) over a copy of the three columns in
//   `project_search`, kept in step by triggers on `projects` (so every write path, the importer's too, keeps it
//   current without knowing it exists). The copy has an INTEGER PRIMARY KEY for the FTS rowid because the rowid of
//   `projects` (a text primary key) is not stable across VACUUM or a table rebuild.
// This is not the Ask agent's full-text index (words, stems and ranking for questions): that one cannot find "rookl"
// in "Brooklyn", this one cannot rank; each serves its own query.
//
// `tag` reuses the filter index of the descriptive fields (`project_facets`, facet `tag`): written by the project
// service with the other facets; this migration writes the rows of the projects that exist.

/** What `q` searches on Postgres; the repository's ILIKE repeats this expression (repositories/projects.ts). */
const SEARCH_TEXT_PG = "name || chr(10) || coalesce(code, '') || chr(10) || coalesce(description, '')";

/** Where pg_trgm lives (creating it in `public` when it is not installed yet). */
async function trigramSchema(knex: Knex): Promise<string> {
  const find = async () =>
    (
      (await knex.raw(
        "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
      )) as { rows: { schema: string }[] }
    ).rows[0]?.schema;
  const existing = await find();
  if (existing) return existing;
  try {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  } catch (err) {
    // Two migrations creating it at once: the loser sees a unique violation; the winner's is there now.
    if ((err as { code?: string }).code !== '23505') throw err;
  }
  const created = await find();
  if (!created) throw new Error('pg_trgm could not be created');
  return created;
}

export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.config.client === 'pg';
  if (pg) {
    const schema = await trigramSchema(knex);
    await knex.raw(
      `CREATE INDEX projects_search_trgm ON projects USING gin ((${SEARCH_TEXT_PG}) "${schema}".gin_trgm_ops)`,
    );
  } else {
    await knex.raw(`
      CREATE TABLE project_search (
        id INTEGER PRIMARY KEY,
        project_id varchar(36) NOT NULL UNIQUE,
        tenant_id varchar(36) NOT NULL,
        name text NOT NULL,
        code text,
        description text
      )`);
    await knex.raw(`
      CREATE VIRTUAL TABLE project_search_fts USING fts5(
        name, code, description, content='project_search', content_rowid='id', tokenize='trigram'
      )`);
    // The external-content triggers of the SQLite documentation (fts5.html, "External Content Tables").
    await knex.raw(`
      CREATE TRIGGER project_search_ai AFTER INSERT ON project_search BEGIN
        INSERT INTO project_search_fts(rowid, name, code, description)
          VALUES (new.id, new.name, new.code, new.description);
      END`);
    await knex.raw(`
      CREATE TRIGGER project_search_ad AFTER DELETE ON project_search BEGIN
        INSERT INTO project_search_fts(project_search_fts, rowid, name, code, description)
          VALUES ('delete', old.id, old.name, old.code, old.description);
      END`);
    await knex.raw(`
      CREATE TRIGGER project_search_au AFTER UPDATE ON project_search BEGIN
        INSERT INTO project_search_fts(project_search_fts, rowid, name, code, description)
          VALUES ('delete', old.id, old.name, old.code, old.description);
        INSERT INTO project_search_fts(rowid, name, code, description)
          VALUES (new.id, new.name, new.code, new.description);
      END`);
    // The copy follows the projects table.
    await knex.raw(`
      CREATE TRIGGER projects_search_ai AFTER INSERT ON projects BEGIN
        INSERT INTO project_search(project_id, tenant_id, name, code, description)
          VALUES (new.id, new.tenant_id, new.name, new.code, new.description);
      END`);
    await knex.raw(`
      CREATE TRIGGER projects_search_au AFTER UPDATE OF name, code, description ON projects BEGIN
        UPDATE project_search SET name = new.name, code = new.code, description = new.description
          WHERE project_id = new.id;
      END`);
    await knex.raw(`
      CREATE TRIGGER projects_search_ad AFTER DELETE ON projects BEGIN
        DELETE FROM project_search WHERE project_id = old.id;
      END`);
    await knex.raw(`
      INSERT INTO project_search(project_id, tenant_id, name, code, description)
        SELECT id, tenant_id, name, code, description FROM projects ORDER BY tenant_id, created_at, id`);
  }

  // Tags of the existing projects into the filter index (lower-cased and trimmed, as facetKey() does).
  const rows = (await knex('projects').select('id', 'tenant_id', 'tags').whereNot('tags', '[]')) as {
    id: string;
    tenant_id: string;
    tags: string;
  }[];
  for (const row of rows) {
    const values = [
      ...new Set((JSON.parse(row.tags) as string[]).map((t) => t.trim().toLowerCase()).filter(Boolean)),
    ];
    if (values.length > 0)
      await knex('project_facets').insert(
        values.map((value) => ({ tenant_id: row.tenant_id, project_id: row.id, facet: 'tag', value })),
      );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('project_facets').where('facet', 'tag').delete();
  if (knex.client.config.client === 'pg') {
    await knex.raw('DROP INDEX IF EXISTS projects_search_trgm');
    return;
  }
  for (const trigger of ['projects_search_ai', 'projects_search_au', 'projects_search_ad'])
    await knex.raw(`DROP TRIGGER IF EXISTS ${trigger}`);
  await knex.raw('DROP TABLE IF EXISTS project_search_fts');
  await knex.raw('DROP TABLE IF EXISTS project_search');
}
