/**
 * SQL built once per query shape (server/repositories/sql.ts `shapedSql`; docs/design.md, "The request pipeline"):
 * a shape's later runs bind their own values where the first build put its stand-ins, on the real database of the
 * run (SQLite, or Postgres with MERIDIAN_TEST_DB=postgres).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Database } from '../../server/repositories/db.js';
import { runSql, shapedSql } from '../../server/repositories/sql.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

describe(`SQL built once per shape (${TEST_DB})`, () => {
  let db: Database;
  let dispose: () => Promise<void>;
  before(async () => {
    ({ db, dispose } = await openTestDatabase(TEST_DB));
  });
  after(async () => dispose());

  const tenants = (values: readonly Knex.Value[]) =>
    db
      .knex('tenants')
      .select('name')
      .where('name', '>=', values[0] as string)
      .andWhere('name', '<', values[1] as string)
      .orderBy('name')
      .limit(values[2] as number)
      .offset(values[3] as number);

  it('binds each run its own values in the places the first build found, constants included', async () => {
    const at = new Date().toISOString();
    for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta'])
      await db.knex('tenants').insert({ id: randomUUID(), name, created_at: at, updated_at: at });
    const run = async (values: Knex.Value[]) => {
      const { sql, bindings } = shapedSql(db.knex, 'test tenants by name', values, tenants);
      return (await runSql<{ name: string }>(db.knex, sql, bindings)).map((r) => r.name);
    };
    expect(await run(['A', 'C', 10, 0])).to.deep.equal(['Alpha', 'Bravo']);
    // Same shape, other values: an offset of 0 and of 1 both bind (the text always has OFFSET).
    expect(await run(['B', 'E', 10, 1])).to.deep.equal(['Charlie', 'Delta']);
    expect(await run(['A', 'Z', 1, 3])).to.deep.equal(['Delta']);
  });

  it('refuses a shape whose query binds a value it changed', () => {
    expect(() =>
      shapedSql(db.knex, 'test changed value', ['a'], (values) =>
        db.knex('tenants').where('name', String(values[0]).toUpperCase()),
      ),
    ).to.throw(/binds a value it changed/);
  });
});
