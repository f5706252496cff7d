import type { Knex } from 'knex';
import { isPostgres } from '../../repositories/sql.js';
import { rebuildSqliteTable } from '../sqlite-rebuild.js';

// Unknown is null (docs/resources.md, "Unknown is null"): a project's `actual_cost` and `progress`
// become nullable without a default, so a cost or progress nobody reported is null, not 0.
//
// Postgres drops the NOT NULL and the default in place. SQLite cannot, so the table is rebuilt with SQLite's
// procedure (server/db/sqlite-rebuild.ts): foreign keys are switched off outside any transaction, so the rebuild
// cannot delete or orphan a child row (knex #6213); hence no migration transaction here.
//
// Data: projects the NYC importer of earlier versions created (it holds a checkpoint for their code) got 0 for both
// fields although the CSV has neither; those zeros become null unless someone has since set the field (an audit row
// of a project update names it).
export const config = { transaction: false };

const COLUMNS = ['actual_cost', 'progress'] as const;
const AUDIT_FIELD: Record<(typeof COLUMNS)[number], string> = {
  actual_cost: 'actualCost',
  progress: 'progress',
};

async function clearImportedZeros(trx: Knex.Transaction): Promise<void> {
  for (const column of COLUMNS) {
    await trx('projects')
      .where(column, 0)
      .whereExists((q) =>
        q
          .select(trx.raw('1'))
          .from('import_checkpoints as c')
          .whereRaw('c.tenant_id = projects.tenant_id')
          .andWhere('c.source', 'nyc-capital-projects')
          .whereRaw('c.external_id = projects.code'),
      )
      .whereNotExists((q) =>
        q
          .select(trx.raw('1'))
          .from('audit_logs as a')
          .whereRaw('a.tenant_id = projects.tenant_id')
          .andWhere('a.resource_type', 'project')
          .whereRaw('a.resource_id = projects.id')
          .andWhere('a.action', 'project.updated')
          .andWhere('a.changes', 'like', `%"${AUDIT_FIELD[column]}"%`),
      )
      .update({ [column]: null });
  }
}

export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.transaction(async (trx) => {
      await trx.raw(
        'ALTER TABLE projects ALTER COLUMN actual_cost DROP NOT NULL, ALTER COLUMN actual_cost DROP DEFAULT, ' +
          'ALTER COLUMN progress DROP NOT NULL, ALTER COLUMN progress DROP DEFAULT',
      );
      await clearImportedZeros(trx);
    });
    return;
  }
  await rebuildSqliteTable(knex, 'projects', (sql) =>
    sql
      .replace("`actual_cost` float not null default '0'", '`actual_cost` float null')
      .replace("`progress` integer not null default '0'", '`progress` integer null'),
  );
  await knex.transaction(clearImportedZeros);
}

export async function down(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    for (const column of COLUMNS)
      await trx('projects')
        .whereNull(column)
        .update({ [column]: 0 });
  });
  if (isPostgres(knex)) {
    await knex.raw(
      'ALTER TABLE projects ALTER COLUMN actual_cost SET DEFAULT 0, ALTER COLUMN actual_cost SET NOT NULL, ' +
        'ALTER COLUMN progress SET DEFAULT 0, ALTER COLUMN progress SET NOT NULL',
    );
    return;
  }
  await rebuildSqliteTable(knex, 'projects', (sql) =>
    sql
      .replace('`actual_cost` float null', "`actual_cost` float not null default '0'")
      .replace('`progress` integer null', "`progress` integer not null default '0'"),
  );
}
