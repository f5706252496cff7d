/**
 * The SQL texts built once per query shape (server/repositories/sql.ts; docs/design.md, "The request pipeline"): one
 * cache per database, held by its Knex client, seen by its transactions, shared with no other database.
 */
import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../server/repositories/db.js';
import {
  type Executor,
  insertRow,
  runSql,
  SqlTexts,
  sqlOnce,
  updateRows,
} from '../../server/repositories/sql.js';
import { openTestDatabase } from '../support/server.js';

/** The texts a database's client holds. */
const textsOf = (db: Executor) => (db.client as { sqlTexts?: SqlTexts }).sqlTexts;

describe('SQL texts built once per shape, one cache per database', () => {
  let a: { db: Database; dispose: () => Promise<void> };
  let b: { db: Database; dispose: () => Promise<void> };
  before(async () => {
    a = await openTestDatabase();
    b = await openTestDatabase();
  });
  after(async () => {
    await a.dispose();
    await b.dispose();
  });

  it('is held by the Knex client: its transactions see the same cache, another database its own', async () => {
    const own = textsOf(a.db.knex);
    expect(own).to.be.instanceOf(SqlTexts);
    await a.db.knex.transaction(async (trx) => {
      expect(textsOf(trx)).to.equal(own);
    });
    expect(textsOf(b.db.knex)).to.be.instanceOf(SqlTexts).and.not.equal(own);
  });

  it('builds a read once per database and runs it with other values', async () => {
    let built = 0;
    const byName = sqlOnce((db: Executor, name: string) => {
      built++;
      return db('knex_migrations').select('name').where({ name });
    });
    const first = byName(a.db.knex, 'x');
    expect(byName(a.db.knex, 'y')).to.equal(first);
    expect(built).to.equal(1);
    const [migration] = await runSql<{ name: string }>(a.db.knex, first, [
      ((await a.db.knex('knex_migrations').select('name').first()) as { name: string }).name,
    ]);
    expect(migration?.name).to.match(/^\d{14}_.+\.ts$/);
    byName(b.db.knex, 'z');
    expect(built).to.equal(2);
  });

  it('refuses a shape that binds other values than its arguments', () => {
    const fixed = sqlOnce((db: Executor, _name: string) => db('knex_migrations').where({ name: 'constant' }));
    expect(() => fixed(a.db.knex, 'other')).to.throw(/binds other values than its arguments/);
  });

  it('writes rows with the texts of their column sets: insert, then a versioned update', async () => {
    const tenantId = uuidv7();
    const now = new Date().toISOString();
    await insertRow(a.db.knex, 'tenants', {
      id: tenantId,
      name: `SQL texts ${tenantId}`,
      plan: 'FREE',
      currency: 'USD',
      timezone: 'UTC',
      rate_limit_per_minute: null,
      settings: '{"llmEnabled":true}',
      created_at: now,
      updated_at: now,
    });
    const later = new Date(Date.now() + 1000).toISOString();
    expect(
      await updateRows(a.db.knex, 'tenants', { id: tenantId }, { name: 'Renamed', updated_at: later }),
    ).to.equal(1);
    expect(
      await updateRows(a.db.knex, 'tenants', { id: uuidv7() }, { name: 'Nobody', updated_at: later }),
    ).to.equal(0);
    const row = (await a.db.knex('tenants').where({ id: tenantId }).first()) as {
      name: string;
      updated_at: string;
    };
    expect(row).to.include({ name: 'Renamed', updated_at: later });
  });
});
