/**
 * The importer on the real dataset (datasets/nyc-capital-projects-2019-09-01.csv), through the real services and a
 * real database (SQLite, or Postgres with MERIDIAN_TEST_DB=postgres).
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { NYC_DATASET } from '../../server/bootstrap.js';
import { systemClock } from '../../server/clock.js';
import type { Database } from '../../server/repositories/db.js';
import { listEvents } from '../../server/repositories/events.js';
import { systemActor } from '../../server/services/context.js';
import { type ImportReport, importNycCapitalProjects } from '../../server/services/import-nyc.js';
import { buildServices, type Services } from '../../server/services/index.js';
import { openTestDatabase } from '../support/server.js';

describe('import nyc-capital-projects (real CSV)', function () {
  this.timeout(180_000);
  let db: Database;
  let dispose: () => Promise<void>;
  let services: Services;
  let tenantId: string;
  let first: ImportReport;
  const csv = fs.readFileSync(NYC_DATASET);
  const snapshot = async () =>
    db
      .knex('projects')
      .where({ tenant_id: tenantId })
      .orderBy('code')
      .select('code', 'status', 'version', 'updated_at', 'forecast_cost');
  const auditCount = async () =>
    Number((await db.knex('audit_logs').where({ tenant_id: tenantId }).count({ n: '*' }))[0]?.n);

  before(async () => {
    ({ db, dispose } = await openTestDatabase());
    const deps = { db, clock: systemClock };
    services = buildServices(deps, { defaultRateLimitPerMinute: 1000 });
    tenantId = (await services.identity.createTenant({ name: 'NYC' })).tenant.id;
    first = await importNycCapitalProjects(deps, services.projects, systemActor(tenantId), csv);
  });
  after(async () => dispose());

  it('reads every status report and creates a project per PID that can be started', () => {
    expect(first.rowsRead).to.equal(2259);
    // 378 PIDs; 23 never report a Design Start, so nothing is invented for them.
    expect(first.projectsCreated).to.equal(355);
    expect(first.rowsUpdated + first.rowsUnchanged + first.projectsCreated + first.skipped.length).to.equal(
      2259,
    );
  });

  it('reports each skipped row with its line and reason', () => {
    const reasons = new Map<string, number>();
    for (const note of first.skipped) {
      expect(note.line).to.be.within(2, 2268);
      expect(note.pid).to.match(/^\d+$/);
      const kind = note.reason.replace(/".*"/, '…').replace(/\d{4}-\d{2}-\d{2}/g, 'D');
      reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
    }
    expect(Object.fromEntries(reasons)).to.deep.equal({
      'first report of the project has no Design Start (needed for startDate)': 74,
      'first report of the project has no Forecast Completion (needed for endDate)': 3,
      'Budget Forecast … is not an amount ≥ 0': 1,
    });
    const negative = first.skipped.find((n) => n.reason.startsWith('Budget Forecast'));
    expect(negative?.reason).to.equal('Budget Forecast "-4102606" is not an amount ≥ 0');
  });

  it('maps the CSV into real projects (codes, baseline, forecast, tags)', async () => {
    const p3 = await services.projects.findByCode(systemActor(tenantId), 'NYC-3');
    expect(p3).to.not.equal(null);
    expect(p3?.name).to.equal('26th Ward Waste Water Treatment Plant Preliminary Treatment Improvements');
    // First report (05/01/2014): Design Start 09/23/2013, Forecast Completion 01/14/2020, Budget Forecast 182980960.
    expect(p3?.startDate).to.equal('2013-09-23');
    expect(p3?.endDate).to.equal('2020-01-14');
    expect(p3?.budget).to.equal(182980960);
    expect(p3?.tags).to.include.members(['Wastewater Treatment', 'Brooklyn', 'DEP']);
    expect(p3?.forecastCost).to.be.a('number');
    const statuses = (await db
      .knex('projects')
      .where({ tenant_id: tenantId })
      .select('status')
      .count({ n: '*' })
      .groupBy('status')) as unknown as { status: string; n: unknown }[];
    const byStatus = Object.fromEntries(statuses.map((r) => [r.status, Number(r.n)]));
    expect(byStatus.AT_RISK).to.be.greaterThan(0);
    expect(Object.values(byStatus).reduce((a: number, b) => a + (b as number), 0)).to.equal(355);
  });

  it('writes an audit row for every change it makes', async () => {
    // One project.created per project, one project.updated per applied report that changed something.
    const rows = (await db
      .knex('audit_logs')
      .where({ tenant_id: tenantId })
      .select('action')
      .count({ n: '*' })
      .groupBy('action')) as unknown as { action: string; n: unknown }[];
    const byAction = Object.fromEntries(rows.map((r) => [r.action, Number(r.n)]));
    expect(byAction['project.created']).to.equal(355);
    expect(byAction['project.updated']).to.equal(first.rowsUpdated);
  });

  it('produces real events: status changes and forecast budget overruns', async () => {
    const changes = await listEvents(db.knex, tenantId, 'project.status_changed');
    const overruns = await listEvents(db.knex, tenantId, 'budget.overrun_detected');
    const statusUpdates = (await db
      .knex('audit_logs')
      .where({ tenant_id: tenantId, action: 'project.updated' })
      .select('changes')) as { changes: string }[];
    // One event per applied report that changed the status, no more, no fewer.
    expect(changes.length).to.equal(statusUpdates.filter((r) => 'status' in JSON.parse(r.changes)).length);
    expect(changes.length).to.be.greaterThan(100);
    const kinds = overruns.map((e) => JSON.parse(e.payload).data.kind);
    expect(kinds.filter((k: string) => k === 'FORECAST').length).to.be.greaterThan(50);
    // Every overrun names a real crossing: the amount is above the budget it reports.
    for (const e of overruns) {
      const { amount, budget, overrun } = JSON.parse(e.payload).data;
      expect(amount).to.be.greaterThan(budget);
      expect(overrun).to.be.closeTo(amount - budget, 0.01);
    }
    console.log(
      `      NYC import events: ${changes.length} project.status_changed, ${overruns.length} budget.overrun_detected`,
    );
  });

  it('changes nothing on a second run of the same file', async () => {
    const eventsBefore = (await listEvents(db.knex, tenantId)).length;
    const before = await snapshot();
    const audits = await auditCount();
    const again = await importNycCapitalProjects(
      { db, clock: systemClock },
      services.projects,
      systemActor(tenantId),
      csv,
    );
    expect(again.projectsCreated).to.equal(0);
    expect(again.rowsUpdated).to.equal(0);
    expect(again.partial).to.deep.equal([]);
    expect(again.rowsAlreadyImported + again.skipped.length).to.equal(2259);
    expect(await snapshot()).to.deep.equal(before);
    expect(await auditCount()).to.equal(audits);
    expect((await listEvents(db.knex, tenantId)).length).to.equal(eventsBefore);
  });
});
