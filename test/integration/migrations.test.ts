/**
 * The migration that makes a project's `actual_cost` and `progress` nullable (docs/resources.md, Unknown is null) on a
 * database that has children: SQLite must rebuild the projects table, and Knex's own rebuild inside the migration
 * transaction would run the children's foreign keys (an ON DELETE CASCADE child loses its rows, knex #6213). Every
 * child row must survive, on both databases, up and down again; the old importer's unknown zeros become null, a
 * cost someone set stays.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openTestDatabase, TEST_DB } from '../support/server.js';

const REBUILD = '20261123000100_projects_unknown_cost_and_progress.ts';
const NOW = '2026-01-01T00:00:00.000Z';

const config = {
  directory: path.resolve(import.meta.dirname, '..', '..', 'server', 'db', 'migrations'),
  loadExtensions: ['.ts'],
};

async function pendingNames(knex: Knex): Promise<string[]> {
  const [, pending] = (await knex.migrate.list(config)) as [unknown, { file: string }[]];
  return pending.map((p) => p.file);
}

describe(`migration ${REBUILD} on a database with children (${TEST_DB})`, function () {
  this.timeout(60_000);

  it('keeps every child row (even an ON DELETE CASCADE one), the indexes and the foreign keys, up and down', async () => {
    const { db, dispose } = await openTestDatabase(TEST_DB, { migrated: false });
    const knex = db.knex;
    try {
      // Up to just before the rebuild, as a database of the previous release.
      while ((await pendingNames(knex))[0] !== REBUILD) {
        await knex.migrate.up(config);
      }
      const t = 'tenant-1';
      await knex('tenants').insert({ id: t, name: 'T', created_at: NOW, updated_at: NOW });
      const project = (id: string, code: string | null) => ({
        id,
        tenant_id: t,
        code,
        name: id,
        status: 'ON_TRACK',
        start_date: '2026-01-01',
        end_date: '2026-12-31',
        actual_cost: 0,
        progress: 0,
        created_at: NOW,
        updated_at: NOW,
      });
      // p-nyc: made by the old importer (a checkpoint names its code); p-set: an imported project whose actual cost
      // someone set to 0 (an audit row says so); p-user: created through the API.
      await knex('projects').insert([
        project('p-nyc', 'NYC-1'),
        project('p-set', 'NYC-2'),
        project('p-user', null),
      ]);
      await knex('import_checkpoints').insert([
        {
          tenant_id: t,
          source: 'nyc-capital-projects',
          external_id: 'NYC-1',
          last_reported_on: '2019-09-01',
        },
        {
          tenant_id: t,
          source: 'nyc-capital-projects',
          external_id: 'NYC-2',
          last_reported_on: '2019-09-01',
        },
      ]);
      await knex('audit_logs').insert({
        id: 'a-1',
        tenant_id: t,
        occurred_at: NOW,
        action: 'project.updated',
        resource_type: 'project',
        resource_id: 'p-set',
        changes: JSON.stringify({ actualCost: { from: 5, to: 0 } }),
      });
      await knex('resources').insert({
        id: 'r-1',
        tenant_id: t,
        name: 'R',
        created_at: NOW,
        updated_at: NOW,
      });
      const child = { tenant_id: t, project_id: 'p-nyc', created_at: NOW, updated_at: NOW };
      await knex('milestones').insert({
        ...child,
        id: 'm-1',
        name: 'M',
        due_date: '2026-06-01',
        status: 'PENDING',
      });
      await knex('risks').insert({
        ...child,
        id: 'k-1',
        title: 'K',
        likelihood: 2,
        impact: 2,
        score: 4,
        severity: 'LOW',
        severity_source: 'DERIVED',
        status: 'OPEN',
      });
      await knex('issues').insert({ ...child, id: 'i-1', title: 'I', status: 'OPEN', priority: 'LOW' });
      await knex('allocations').insert({
        ...child,
        id: 'l-1',
        resource_id: 'r-1',
        start_date: '2026-01-01',
        end_date: '2026-02-01',
        allocation_percent: 50,
      });
      // A child that cascades: exactly what Knex's in-transaction rebuild empties.
      await knex.schema.createTable('cascade_children', (c) => {
        c.string('id', 36).primary();
        c.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
      });
      await knex('cascade_children').insert([
        { id: 'c-1', project_id: 'p-nyc' },
        { id: 'c-2', project_id: 'p-user' },
      ]);
      const children = async () => {
        const out: Record<string, number> = {};
        for (const table of ['milestones', 'risks', 'issues', 'allocations', 'cascade_children']) {
          out[table] = Number((await knex(table).count({ n: '*' }))[0]?.n);
        }
        return out;
      };
      const before = await children();
      expect(before).to.deep.equal({
        milestones: 1,
        risks: 1,
        issues: 1,
        allocations: 1,
        cascade_children: 2,
      });

      await knex.migrate.latest(config);
      expect(await pendingNames(knex)).to.deep.equal([]);
      expect(await children()).to.deep.equal(before);
      const costs = Object.fromEntries(
        (
          (await knex('projects').orderBy('id').select('id', 'actual_cost', 'progress')) as Record<
            string,
            unknown
          >[]
        ).map((r) => [
          r.id,
          [
            r.actual_cost === null ? null : Number(r.actual_cost),
            r.progress === null ? null : Number(r.progress),
          ],
        ]),
      );
      expect(costs).to.deep.equal({ 'p-nyc': [null, null], 'p-set': [0, null], 'p-user': [0, 0] });
      // Nullable without a default now; the new columns are there.
      await knex('projects').insert({
        ...project('p-new', null),
        actual_cost: undefined,
        progress: undefined,
      });
      const fresh = await knex('projects').where({ id: 'p-new' }).first();
      expect([fresh.actual_cost, fresh.progress, fresh.borough]).to.deep.equal([null, null, null]);
      if (TEST_DB === 'sqlite') {
        expect(
          ((await knex.raw('PRAGMA foreign_keys')) as { foreign_keys: number }[])[0]?.foreign_keys,
        ).to.equal(1);
        expect(await knex.raw('PRAGMA foreign_key_check')).to.deep.equal([]);
        const indexes = (
          (await knex.raw(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'projects' AND sql IS NOT NULL",
          )) as { name: string }[]
        ).map((r) => r.name);
        expect(indexes).to.include.members([
          'projects_tenant_id_code_unique',
          'projects_tenant_id_created_at_id_index',
          'projects_tenant_id_status_created_at_id_index',
        ]);
        // The foreign keys still hold: a child of no project is refused.
        let refused = false;
        await knex('milestones')
          .insert({
            ...child,
            id: 'm-2',
            project_id: 'p-none',
            name: 'M',
            due_date: '2026-06-01',
            status: 'PENDING',
          })
          .catch(() => {
            refused = true;
          });
        expect(refused).to.equal(true);
      }

      // Down past the rebuild and up again: still every child row.
      await knex('projects').where({ id: 'p-new' }).delete();
      while (!(await pendingNames(knex)).includes(REBUILD)) await knex.migrate.down(config);
      expect(await children()).to.deep.equal(before);
      const restored = await knex('projects').where({ id: 'p-nyc' }).first();
      expect([Number(restored.actual_cost), Number(restored.progress)]).to.deep.equal([0, 0]);
      await knex.migrate.latest(config);
      expect(await children()).to.deep.equal(before);
    } finally {
      await knex.schema.dropTableIfExists('cascade_children').catch(() => undefined);
      await dispose();
    }
  });
});
