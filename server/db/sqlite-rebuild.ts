/**
 * A SQLite table rebuild that loses no child row: SQLite's own twelve-step procedure ("Making Other Kinds Of Table
 * Schema Changes", sqlite.org/lang_altertable.html), for the changes `ALTER TABLE` cannot make (a NOT NULL dropped,
 * a default removed).
 *
 * Why not Knex's `.alter()`: Knex rebuilds the table inside the migration's transaction, where
 * `PRAGMA foreign_keys = OFF` is a no-op, so dropping the old table runs its foreign keys: `ON DELETE CASCADE`
 * children are deleted and the others make the drop fail (knex #6213; docs/toolchain.md, "Knex with better-sqlite3
 * and pg"). Here the pragma is switched off *before* the transaction (the migration must export
 * `config = { transaction: false }`), the table is copied, dropped and renamed, its indexes and triggers are
 * re-created from their stored DDL (so indexes other migrations added survive), `PRAGMA foreign_key_check` must come
 * back empty before the commit, and the pragma is restored afterwards, even on failure.
 */
import type { Knex } from 'knex';

interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * Rebuilds `table` with the CREATE TABLE statement `rewrite` makes of the current one (it receives the stored DDL
 * and returns the new DDL for the same table name; columns are copied by name, so the new DDL may add nullable
 * columns but must keep every existing one). Runs in one transaction; the caller must not be inside one.
 * @throws Error when `rewrite` changes nothing or a foreign key would be left dangling (nothing is changed then).
 */
export async function rebuildSqliteTable(
  knex: Knex,
  table: string,
  rewrite: (createSql: string) => string,
): Promise<void> {
  const pragma = (await knex.raw('PRAGMA foreign_keys')) as { foreign_keys: number }[];
  const foreignKeysWereOn = pragma[0]?.foreign_keys === 1;
  await knex.raw('PRAGMA foreign_keys = OFF');
  try {
    await knex.transaction(async (trx) => {
      const rows = (await trx.raw(
        'SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL',
        [table],
      )) as SchemaRow[];
      const create = rows.find((r) => r.type === 'table')?.sql;
      if (!create) throw new Error(`rebuildSqliteTable: no table ${table}`);
      const rewritten = rewrite(create);
      if (rewritten === create) throw new Error(`rebuildSqliteTable: the new DDL of ${table} is unchanged`);
      const temp = `${table}__rebuild`;
      const renamed = rewritten.replace(/^CREATE TABLE\s+(`[^`]+`|"[^"]+"|\S+)/i, `CREATE TABLE \`${temp}\``);
      const columns = ((await trx.raw(`PRAGMA table_info(\`${table}\`)`)) as { name: string }[]).map(
        (c) => `\`${c.name}\``,
      );
      await trx.raw(renamed);
      await trx.raw(
        `INSERT INTO \`${temp}\` (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM \`${table}\``,
      );
      await trx.raw(`DROP TABLE \`${table}\``);
      await trx.raw(`ALTER TABLE \`${temp}\` RENAME TO \`${table}\``);
      for (const row of rows) if (row.type !== 'table' && row.sql) await trx.raw(row.sql);
      const dangling = (await trx.raw('PRAGMA foreign_key_check')) as unknown[];
      if (dangling.length > 0) {
        throw new Error(
          `rebuildSqliteTable: ${dangling.length} foreign keys would dangle after rebuilding ${table}`,
        );
      }
    });
  } finally {
    if (foreignKeysWereOn) await knex.raw('PRAGMA foreign_keys = ON');
  }
}
