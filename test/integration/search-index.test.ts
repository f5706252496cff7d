/**
 * The Ask agent's full-text index (repositories/search.ts) on the run's database (SQLite, or Postgres with
 * MERIDIAN_TEST_DB=postgres): its migration builds the documents of rows that already exist, identical to the ones
 * the write path keeps; a write that rolls back leaves no document; and the write path's sources are the ones the
 * latest search migration froze.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { systemClock } from '../../server/clock.js';
import * as searchMigration from '../../server/db/migrations/20261124000100_create_search_index.js';
import { risks } from '../../server/repositories/risks.js';
import { SEARCH_SOURCES, searchDocuments } from '../../server/repositories/search.js';
import { systemActor } from '../../server/services/context.js';
import { buildServices } from '../../server/services/index.js';
import { createRecord, inWrite } from '../../server/services/versioned.js';
import { openTestDatabase } from '../support/server.js';

const migrations = {
  directory: path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    'server',
    'db',
    'migrations',
  ),
  loadExtensions: ['.ts'],
};

describe('Full-text index', () => {
  it('uses the sources the latest search migration froze', () => {
    expect(SEARCH_SOURCES).to.deep.equal(searchMigration.searchSources);
  });

  it('is built by its migration for existing rows, the same documents the write path keeps', async () => {
    const { db, dispose } = await openTestDatabase();
    try {
      const services = buildServices({ db, clock: systemClock }, { defaultRateLimitPerMinute: 1000 });
      const { tenant } = await services.tenants.create({ name: 'Index', userName: 'u' });
      const actor = systemActor(tenant.id);
      const person = await services.resources.create(actor, {
        name: 'Dev Patel',
        role: 'Structural Engineer',
        skills: ['seismic retrofit'],
      });
      const project = await services.projects.create(actor, {
        name: 'Harbor Ferry Terminal',
        code: 'HF-1',
        description: 'Piers and gangways.',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        tags: ['Staten Island'],
        projectManagerId: person.id,
      });
      await services.risks.create(actor, {
        projectId: project.id,
        title: 'Storm surge',
        likelihood: 2,
        impact: 4,
        mitigation: 'Works outside the hurricane season.',
      });
      await services.issues.create(actor, { projectId: project.id, title: 'Gangway corrosion' });
      await services.milestones.create(actor, project.id, { name: 'Pier demolition', dueDate: '2026-03-01' });
      await services.statusReports.submit(actor, project.id, {
        asOf: '2025-12-31',
        status: 'ON_TRACK',
        summary: 'Gangway steel delivered early.',
      });
      await services.statusReports.submit(actor, project.id, { asOf: '2026-01-31', status: 'ON_TRACK' });
      const documents = async () =>
        (await db
          .knex('search_documents')
          .where({ tenant_id: tenant.id })
          .orderBy('record_id')
          .select('record_type', 'record_id', 'project_id', 'title', 'body')) as Record<string, unknown>[];
      const kept = await documents();
      // The report without a summary has no document.
      expect(kept.map((d) => d.record_type).sort()).to.deep.equal([
        'issue',
        'milestone',
        'project',
        'resource',
        'risk',
        'status_report',
      ]);

      // Take the index away and build it again from the rows, as the migration does on an existing database.
      await db.knex.migrate.down({ ...migrations, name: '20261124000100_create_search_index.ts' });
      expect(await db.knex.schema.hasTable('search_documents')).to.equal(false);
      await db.knex.migrate.latest(migrations);
      expect(await documents()).to.deep.equal(kept);
      const hits = await searchDocuments(db.knex, tenant.id, {
        terms: ['hurricane'],
        match: 'all',
        limit: 5,
      });
      expect(hits.map((h) => h.title)).to.deep.equal(['Storm surge']);
      const people = await searchDocuments(db.knex, tenant.id, {
        terms: ['seismic'],
        match: 'all',
        limit: 5,
      });
      expect(people.map((h) => h.id)).to.deep.equal([person.id]);
    } finally {
      await dispose();
    }
  });

  it('holds no document of a write that rolled back', async () => {
    const { db, dispose } = await openTestDatabase();
    try {
      const services = buildServices({ db, clock: systemClock }, { defaultRateLimitPerMinute: 1000 });
      const { tenant } = await services.tenants.create({ name: 'Rollback', userName: 'u' });
      const actor = systemActor(tenant.id);
      const project = await services.projects.create(actor, {
        name: 'Pumping station',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
      });
      const id = uuidv7();
      const failed = inWrite({ db, clock: systemClock }, actor, async (w) => {
        await createRecord(w, { table: risks, resourceType: 'risk' }, id, {
          projectId: project.id,
          title: 'Quicksand under the wet well',
          description: null,
          likelihood: 2,
          impact: 2,
          score: 4,
          severity: 'LOW',
          severitySource: 'DERIVED',
          status: 'OPEN',
          ownerId: null,
          mitigation: null,
          dueDate: null,
        });
        const inside = await searchDocuments(w.trx, tenant.id, {
          terms: ['quicksand'],
          match: 'all',
          limit: 5,
        });
        expect(inside.map((h) => h.id)).to.deep.equal([id]);
        throw new Error('the change fails after the insert');
      });
      await failed.then(
        () => expect.fail('the write should have failed'),
        (err: Error) => expect(err.message).to.equal('the change fails after the insert'),
      );
      expect(
        await searchDocuments(db.knex, tenant.id, { terms: ['quicksand'], match: 'all', limit: 5 }),
      ).to.deep.equal([]);
      expect(await db.knex('search_documents').where({ record_id: id }).first()).to.equal(undefined);
    } finally {
      await dispose();
    }
  });
});
