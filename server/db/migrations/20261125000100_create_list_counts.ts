import type { Knex } from 'knex';

// The exact `total` of the hottest list filters without counting rows (docs/design.md, "The request pipeline", List
// totals).
//
// `pagination.total` is documented as the number of records in the whole filtered list, so it must stay exact. A
// `count(*)` walks every index entry of the filter: on a tenant with 100,000 projects, GET /projects?status=AT_RISK
// counted ≈ 14,000 entries per page (59 % of its CPU), GET /risks?severity=HIGH ≈ 56,000 (≈ 2.9 ms). `list_counts`
// holds, per tenant, the number of rows of each value of the columns those lists filter on alone, kept by triggers in
// the transaction of every write (every write path, the importer's and the cascade deletes' too, without knowing it
// exists), so a list filtered by one of them alone reads its total with one primary-key seek. Lists with other
// filters, or several, still count their rows.
//
// Counted: projects by `status`; risks by `severity` and by `status`. A write that changes a counted column moves one
// unit between two rows; on Postgres the counter row is locked until the writing transaction ends, so concurrent
// writes of the same tenant, table and value queue on it for the rest of their transaction (they already serialise
// on the tenant's rate limit and outbox far more).

/** The counted columns, table → columns; repositories read the totals with `countedTotal` (repositories/lists.ts). */
const COUNTED: Record<string, string[]> = { projects: ['status'], risks: ['severity', 'status'] };

function sqliteTriggers(table: string, columns: string[]): string[] {
  const bump = (row: 'new' | 'old', col: string, delta: 1 | -1) =>
    `INSERT INTO list_counts (tenant_id, list, field, value, n) VALUES (${row}.tenant_id, '${table}', '${col}', ${row}.${col}, ${delta})
       ON CONFLICT (tenant_id, list, field, value) DO UPDATE SET n = n + (${delta});`;
  const out = [
    `CREATE TRIGGER ${table}_counts_ai AFTER INSERT ON ${table} BEGIN
       ${columns.map((c) => bump('new', c, 1)).join('\n       ')}
     END`,
    `CREATE TRIGGER ${table}_counts_ad AFTER DELETE ON ${table} BEGIN
       ${columns.map((c) => bump('old', c, -1)).join('\n       ')}
     END`,
  ];
  for (const col of columns) {
    out.push(`CREATE TRIGGER ${table}_counts_au_${col} AFTER UPDATE OF ${col}, tenant_id ON ${table}
       WHEN old.${col} IS NOT new.${col} OR old.tenant_id IS NOT new.tenant_id BEGIN
       ${bump('old', col, -1)}
       ${bump('new', col, 1)}
     END`);
  }
  return out;
}

function pgTriggers(table: string, columns: string[]): string[] {
  const bump = (row: 'NEW' | 'OLD', col: string, delta: 1 | -1) =>
    `INSERT INTO list_counts (tenant_id, list, field, value, n) VALUES (${row}.tenant_id, '${table}', '${col}', ${row}.${col}::text, ${delta})
         ON CONFLICT (tenant_id, list, field, value) DO UPDATE SET n = list_counts.n + (${delta});`;
  const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
  return [
    `CREATE FUNCTION ${table}_counts() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'INSERT' THEN
         ${columns.map((c) => bump('NEW', c, 1)).join('\n         ')}
       ELSIF TG_OP = 'DELETE' THEN
         ${columns.map((c) => bump('OLD', c, -1)).join('\n         ')}
       ELSIF OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR ${changed} THEN
         ${columns
           .map(
             (
               c,
             ) => `IF OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR OLD.${c} IS DISTINCT FROM NEW.${c} THEN
           ${bump('OLD', c, -1)}
           ${bump('NEW', c, 1)}
         END IF;`,
           )
           .join('\n         ')}
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER ${table}_counts AFTER INSERT OR DELETE OR UPDATE OF tenant_id, ${columns.join(', ')}
       ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_counts()`,
  ];
}

export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.config.client === 'pg';
  await knex.schema.createTable('list_counts', (t) => {
    t.string('tenant_id', 36).notNullable();
    t.string('list', 40).notNullable();
    t.string('field', 40).notNullable();
    t.string('value', 40).notNullable();
    t.bigInteger('n').notNullable();
    t.primary(['tenant_id', 'list', 'field', 'value']);
  });
  for (const [table, columns] of Object.entries(COUNTED)) {
    for (const col of columns) {
      await knex.raw(
        `INSERT INTO list_counts (tenant_id, list, field, value, n)
           SELECT tenant_id, ?, ?, ${col}, count(*) FROM ${table} GROUP BY tenant_id, ${col}`,
        [table, col],
      );
    }
    for (const sql of pg ? pgTriggers(table, columns) : sqliteTriggers(table, columns)) await knex.raw(sql);
  }
}

export async function down(knex: Knex): Promise<void> {
  const pg = knex.client.config.client === 'pg';
  for (const [table, columns] of Object.entries(COUNTED)) {
    if (pg) {
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_counts ON ${table}`);
      await knex.raw(`DROP FUNCTION IF EXISTS ${table}_counts()`);
    } else {
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_counts_ai`);
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_counts_ad`);
      for (const col of columns) await knex.raw(`DROP TRIGGER IF EXISTS ${table}_counts_au_${col}`);
    }
  }
  await knex.schema.dropTable('list_counts');
}
