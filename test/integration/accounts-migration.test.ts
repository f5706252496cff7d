/**
 * The accounts migration (docs/accounts.md, "Accounts") on a database of the previous release, on SQLite or
 * Postgres: existing users become owners without a password, their emails are normalised for sign-in (the oldest
 * keeps an email two users share), and down restores the previous schema, up again re-applies it.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openTestDatabase, TEST_DB } from '../support/server.js';

const MIGRATION = '20261126000100_create_accounts_and_sessions.ts';
const NOW = '2026-01-01T00:00:00.000Z';
const config = {
  directory: path.resolve(import.meta.dirname, '..', '..', 'server', 'db', 'migrations'),
  loadExtensions: ['.ts'],
};

async function pendingNames(knex: Knex): Promise<string[]> {
  const [, pending] = (await knex.migrate.list(config)) as [unknown, { file: string }[]];
  return pending.map((p) => p.file);
}

describe(`migration ${MIGRATION} (${TEST_DB})`, function () {
  this.timeout(60_000);

  it('makes existing users owners with normalised emails, and goes down and up again', async () => {
    const { db, dispose } = await openTestDatabase(TEST_DB, { migrated: false });
    const knex = db.knex;
    try {
      while ((await pendingNames(knex))[0] !== MIGRATION) await knex.migrate.up(config);
      await knex('tenants').insert([
        { id: 't1', name: 'One', created_at: NOW, updated_at: NOW },
        { id: 't2', name: 'Two', created_at: NOW, updated_at: NOW },
      ]);
      const user = (id: string, tenant: string, email: string | null, at: string) => ({
        id,
        tenant_id: tenant,
        name: id,
        email,
        created_at: at,
        updated_at: at,
      });
      await knex('users').insert([
        user('u1', 't1', ' Dana@Example.COM ', NOW),
        user('u2', 't2', 'dana@example.com', '2026-02-01T00:00:00.000Z'),
        user('u3', 't2', null, NOW),
      ]);
      await knex.migrate.up(config);
      const rows = await knex('users')
        .orderBy('id')
        .select('id', 'role', 'email', 'email_normalized', 'password_hash');
      expect(rows).to.deep.equal([
        {
          id: 'u1',
          role: 'owner',
          email: ' Dana@Example.COM ',
          email_normalized: 'dana@example.com',
          password_hash: null,
        },
        { id: 'u2', role: 'owner', email: 'dana@example.com', email_normalized: null, password_hash: null },
        { id: 'u3', role: 'owner', email: null, email_normalized: null, password_hash: null },
      ]);
      const duplicate = await knex('users')
        .where({ id: 'u3' })
        .update({ email_normalized: 'dana@example.com' })
        .catch((e: unknown) => e);
      expect(duplicate).to.be.instanceOf(Error);
      const badRole = await knex('users')
        .where({ id: 'u3' })
        .update({ role: 'superuser' })
        .catch((e: unknown) => e);
      expect(badRole).to.be.instanceOf(Error);
      for (const table of [
        'sessions',
        'one_time_links',
        'recovery_codes',
        'console_tokens',
        'sign_in_throttle',
      ])
        expect(await knex.schema.hasTable(table), table).to.equal(true);

      await knex.migrate.down(config);
      expect(await knex.schema.hasColumn('users', 'role')).to.equal(false);
      expect(await knex.schema.hasColumn('audit_logs', 'actor_via')).to.equal(false);
      expect(await knex.schema.hasTable('sessions')).to.equal(false);
      expect(await knex('users').count({ n: '*' }).first()).to.satisfy(
        (r: { n: unknown }) => Number(r.n) === 3,
      );
      await knex.migrate.latest(config);
      expect(await knex.schema.hasColumn('users', 'role')).to.equal(true);
    } finally {
      await dispose();
    }
  });
});
