/**
 * The synthetic demo tenant (server/demo/): the same plan for the same anchor date, written through the real services
 * into a real database, with what every agent needs (people with roles and skills, over-bookings, missed milestones,
 * risks with history), its own admin key, and a second start that finds it and writes nothing.
 */
import { expect } from 'chai';
import { systemClock } from '../../server/clock.js';
import { ensureSyntheticTenant, SYNTHETIC_TENANT_NAME } from '../../server/demo/synthetic.js';
import { syntheticPlan } from '../../server/demo/synthetic-plan.js';
import { listAllAllocations } from '../../server/repositories/allocations.js';
import type { Database } from '../../server/repositories/db.js';
import { findConflicts } from '../../server/services/allocation-conflicts.js';
import { buildServices, type Services } from '../../server/services/index.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

describe(`synthetic demo tenant (${TEST_DB})`, function () {
  this.timeout(120_000);
  let db: Database;
  let dispose: () => Promise<void>;
  let services: Services;

  before(async () => {
    ({ db, dispose } = await openTestDatabase());
    services = buildServices({ db, clock: systemClock }, { defaultRateLimitPerMinute: 1000 });
  });
  after(() => dispose());

  it('draws the same plan for the same anchor date', () => {
    expect(syntheticPlan('2026-11-25')).to.deep.equal(syntheticPlan('2026-11-25'));
    const plan = syntheticPlan('2026-11-25');
    expect(plan.projects).to.have.length(36);
    expect(plan.people.length).to.be.within(60, 120);
  });

  it('creates the tenant with people, over-bookings, missed milestones and risks with history, once', async () => {
    const now = new Date('2026-11-25T15:00:00Z');
    const first = await ensureSyntheticTenant({ db, clock: systemClock }, services, now);
    expect(first.created).to.equal(true);
    expect(first.newKey).to.match(/^mk_live_/);
    const t = first.tenantId;
    const count = async (table: string, where: Record<string, unknown> = {}) =>
      Number(
        (
          await db
            .knex(table)
            .where({ tenant_id: t, ...where })
            .count({ n: '*' })
        )[0]?.n,
      );
    expect(await count('projects')).to.equal(36);
    expect(await count('resources'))
      .to.equal(first.counts.people)
      .and.to.be.within(60, 120);
    expect(await count('milestones', { status: 'MISSED' })).to.be.greaterThan(0);
    expect(await count('issues')).to.be.greaterThan(10);
    expect(await count('status_reports')).to.be.greaterThan(100);
    // Risks with history: more risk versions in the audit log than risks.
    expect(await count('audit_logs', { resource_type: 'risk' })).to.be.greaterThan(await count('risks'));
    const conflicts = findConflicts(await listAllAllocations(db.knex, t, { from: '2026-11-25' }));
    expect(new Set(conflicts.map((c) => c.resourceId)).size).to.be.greaterThan(5);
    const tenant = await db.knex('tenants').where({ id: t }).first();
    expect(tenant.name).to.equal(SYNTHETIC_TENANT_NAME);

    const started = Date.now();
    const again = await ensureSyntheticTenant({ db, clock: systemClock }, services, now);
    expect(again).to.deep.include({ tenantId: t, created: false, newKey: null });
    expect(Date.now() - started).to.be.lessThan(500);
    expect(await count('projects')).to.equal(36);
  });
});
