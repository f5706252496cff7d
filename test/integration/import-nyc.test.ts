/**
 * The importer on the real dataset (datasets/nyc-capital-projects-2019-09-01.csv), through the real services and a
 * real database (SQLite, or Postgres with MERIDIAN_TEST_DB=postgres), and read back over HTTP (docs/resources.md,
 * Status reports): every report of a PID is kept with its own date and values, nothing the CSV lacks is claimed, a
 * second run changes nothing.
 */
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { createApp } from '../../server/app.js';
import { NYC_DATASET } from '../../server/bootstrap.js';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { type ImportReport, importNycCapitalProjects } from '../../server/import/nyc/importer.js';
import { formatImportReport } from '../../server/import/nyc/report.js';
import type { Database } from '../../server/repositories/db.js';
import { listEvents } from '../../server/repositories/events.js';
import { systemActor } from '../../server/services/context.js';
import { buildServices, type Services } from '../../server/services/index.js';
import { client } from '../support/client.js';
import { openTestDatabase, TEST_DB } from '../support/server.js';

type Row = Record<string, string>;

/** The CSV's own values, read independently of the importer: `MM/DD/YYYY…` → `YYYY-MM-DD`, empty → null. */
const isoOf = (v: string): string | null => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(v.trim());
  return m ? `${m[3]}-${m[1]}-${m[2]}` : null;
};
const numOf = (v: string): number | null => (v.trim() === '' ? null : Number(v));

describe(`import nyc-capital-projects (real CSV, ${TEST_DB})`, function () {
  this.timeout(300_000);
  let db: Database;
  let dispose: () => Promise<void>;
  let services: Services;
  let tenantId: string;
  let first: ImportReport;
  let server: Server;
  let api: ReturnType<typeof client>;
  const csv = fs.readFileSync(NYC_DATASET);
  const rows = parse(csv, { columns: true, bom: true, skip_empty_lines: true }) as Row[];
  const byPid = new Map<string, Row[]>();
  for (const r of rows) byPid.set(r.PID as string, [...(byPid.get(r.PID as string) ?? []), r]);
  const snapshot = async () =>
    db
      .knex('projects')
      .where({ tenant_id: tenantId })
      .orderBy('code')
      .select('code', 'status', 'version', 'updated_at', 'forecast_cost');
  const count = async (table: string) =>
    Number((await db.knex(table).where({ tenant_id: tenantId }).count({ n: '*' }))[0]?.n);

  before(async () => {
    ({ db, dispose } = await openTestDatabase());
    const deps = { db, clock: systemClock };
    services = buildServices(deps, { defaultRateLimitPerMinute: 1000 });
    tenantId = (await services.tenants.create({ name: 'NYC' })).tenant.id;
    first = await importNycCapitalProjects(deps, services, systemActor(tenantId), csv, {
      fileName: NYC_DATASET,
    });
    // The same database over HTTP, as a user reads it.
    const meridian = createApp({ config: loadConfig({ NODE_ENV: 'test' }), db, clock: systemClock });
    server = await new Promise((resolve) => {
      const s = meridian.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const key = (
      await meridian.services.apiKeys.create(systemActor(tenantId), {
        name: 'reader',
        scopes: ['read'],
      })
    ).key;
    api = client(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, key);
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await dispose();
  });

  it('closes with its counts: reports stored, projects, rows skipped by reason, fields null by reason', () => {
    console.log(
      formatImportReport(first)
        .split('\n')
        .filter((l) => !l.startsWith('skipped line'))
        .map((l) => `      ${l}`)
        .join('\n'),
    );
    expect(first.rowsRead).to.equal(2259);
    // 378 PIDs: 22 never report a Design Start and 1 never a Forecast Completion, so no project is invented for them.
    expect(first.projectsCreated).to.equal(355);
    expect(first.reportsStored).to.equal(2189);
    expect(first.reportsHistoryOnly).to.equal(0);
    expect(first.reportsStored + first.skipped.length).to.equal(2259);
    expect(first.skippedByReason).to.deep.equal({
      'the PID never reports a Design Start: a project needs a start date and none is invented': 69,
      'the PID never reports a Forecast Completion: a project needs a finish date and none is invented': 1,
    });
    for (const note of first.skipped) expect(note.line).to.be.within(2, 2268);
    const nulls = Object.fromEntries(first.nullFields.map((n) => [`${n.field} | ${n.reason}`, n.rows]));
    expect(nulls).to.include({
      'report actualCost | (none): the CSV has no actual cost': 2189,
      'report progress | (none): the CSV has no percent complete': 2189,
      'report forecastCost | Budget Forecast: not an amount ≥ 0 (a negative forecast): not reported': 1,
    });
    // Every decision of the mapping table carries a count, and the per-row decisions account for every report.
    const rowsOf = (id: string) => first.mapping.find((m) => m.id === id)?.rows;
    expect(first.mapping.every((m) => Number.isInteger(m.rows))).to.equal(true);
    expect(
      (rowsOf('forecastCost') ?? 0) +
        (rowsOf('forecastCostNull') ?? 0) +
        (rowsOf('forecastCostInvalid') ?? 0),
    ).to.equal(2189);
    const statuses = ['statusPlanned', 'statusOnTrack', 'statusAtRisk', 'statusOffTrack', 'statusUnchanged'];
    expect(statuses.reduce((n, id) => n + (rowsOf(id) ?? 0), 0)).to.equal(2189);
  });

  it('keeps every report of a PID with the CSV dates and values (GET /projects/{id}/status-reports)', async () => {
    let checked = 0;
    for (const [pid, pidRows] of byPid) {
      const project = await services.projects.findByCode(systemActor(tenantId), `NYC-${pid}`);
      if (!project) {
        // Only the PIDs the skip reasons name have no project.
        const never = (column: string) => pidRows.every((r) => r[column]?.trim() === '');
        expect(never('Design Start') || never('Forecast Completion'), `PID ${pid}`).to.equal(true);
        continue;
      }
      const history = await services.statusReports.history(tenantId, project.id);
      const expected = pidRows
        .map((r) => ({
          asOf: isoOf(r['Date Reported As Of'] as string),
          phase: r['Current Phase']?.trim() || null,
          forecastEndDate: isoOf(r['Forecast Completion'] as string),
          forecastCost: numOf(r['Budget Forecast'] as string),
          budgetChangeLatest: numOf(r['Latest Budget Changes'] as string),
          budgetChangeTotal: numOf(r['Total Budget Changes'] as string),
          scheduleChangeLatestDays: numOf(r['Latest Schedule Changes'] as string),
          scheduleChangeTotalDays: numOf(r['Total Schedule Changes'] as string),
        }))
        .map((e) => ({
          ...e,
          forecastCost: e.forecastCost !== null && e.forecastCost < 0 ? null : e.forecastCost,
        }))
        .sort((a, b) => (a.asOf as string).localeCompare(b.asOf as string));
      expect(
        history.map((h) => ({
          asOf: h.asOf,
          phase: h.phase,
          forecastEndDate: h.forecastEndDate,
          forecastCost: h.forecastCost,
          budgetChangeLatest: h.budgetChangeLatest,
          budgetChangeTotal: h.budgetChangeTotal,
          scheduleChangeLatestDays: h.scheduleChangeLatestDays,
          scheduleChangeTotalDays: h.scheduleChangeTotalDays,
        })),
        `NYC-${pid}`,
      ).to.deep.equal(expected);
      for (const h of history) {
        expect(h).to.include({ actualCost: null, progress: null, summary: null, applied: true });
        expect(h.source).to.equal('import:nyc-capital-projects-2019-09-01.csv');
      }
      // The project stands where its newest report left it.
      const lastForecast =
        [...history].reverse().find((h) => h.forecastEndDate !== null)?.forecastEndDate ?? null;
      expect(project.forecastEndDate, `NYC-${pid} forecastEndDate`).to.equal(lastForecast);
      expect(project.status).to.equal(history.at(-1)?.status);
      checked++;
    }
    expect(checked).to.equal(355);

    // Over HTTP: all of PID 3's reports, newest first, with the CSV's dates.
    const nyc3 = await services.projects.findByCode(systemActor(tenantId), 'NYC-3');
    const res = await api.get('listProjectStatusReports', `/projects/${nyc3?.id}/status-reports`, {
      query: { limit: 100 },
    });
    expect(res.status).to.equal(200);
    const dates = (byPid.get('3') ?? [])
      .map((r) => isoOf(r['Date Reported As Of'] as string))
      .sort()
      .reverse();
    expect(res.body.data.map((r: { asOf: string }) => r.asOf)).to.deep.equal(dates);
    expect(res.body.pagination.total).to.equal(dates.length);
    // 05/01/2014: Design, Budget Forecast 182980960, Forecast Completion 01/14/2020 (the baseline itself).
    const oldest = res.body.data.at(-1);
    expect(oldest).to.include({
      asOf: '2014-05-01',
      phase: 'Design',
      forecastCost: 182980960,
      forecastEndDate: '2020-01-14',
      budgetChangeLatest: -1915400,
      budgetChangeTotal: -4318643.37,
      scheduleChangeLatestDays: 1,
      scheduleChangeTotalDays: 270,
      scheduleSlipDays: 0,
      costVariance: 0,
      status: 'ON_TRACK',
    });
    // 02/01/2015: 168751769 and 07/19/2020 against that baseline.
    expect(res.body.data.at(-2)).to.include({
      asOf: '2015-02-01',
      scheduleSlipDays: 187,
      costVariance: 14229191,
    });
    const since = await api.get('listStatusReports', '/status-reports', {
      query: { projectId: nyc3?.id, since: '2019-01-01', until: '2019-09-01' },
    });
    expect(since.body.data.map((r: { asOf: string }) => r.asOf)).to.deep.equal(
      dates.filter((d) => (d as string) >= '2019-01-01'),
    );
  });

  it('claims no cost or progress the CSV lacks: actualCost, progress and what depends on them are null', async () => {
    const claimed = await db
      .knex('projects')
      .where({ tenant_id: tenantId })
      .andWhere((q) => q.whereNotNull('actual_cost').orWhereNotNull('progress'))
      .count({ n: '*' });
    expect(Number(claimed[0]?.n)).to.equal(0);
    const page = await api.get('listProjects', '/projects', { query: { limit: 100 } });
    for (const p of page.body.data) expect(p).to.include({ actualCost: null, progress: null });
    const detail = await api.get('getProject', `/projects/${page.body.data[0].id}`);
    expect(detail.body.budgetSummary).to.include({ actualCost: null, remaining: null, percentSpent: null });
    expect(detail.body.budgetSummary.budget).to.be.a('number');
  });

  it('keeps Category, Borough, Managing Agency and Client Agency in named fields that filter', async () => {
    const p3 = await services.projects.findByCode(systemActor(tenantId), 'NYC-3');
    expect(p3).to.include({
      category: 'Wastewater Treatment',
      borough: 'Brooklyn',
      managingAgency: 'DEP',
      clientAgency: 'DEP',
      startDate: '2013-09-23',
      endDate: '2020-01-14',
      budget: 182980960,
    });
    // "DEP projects in Brooklyn", computed from the CSV: the newest row of each imported PID.
    const expected = new Set<string>();
    for (const [pid, pidRows] of byPid) {
      const last = pidRows.at(-1) as Row;
      const boroughs = (last.Borough ?? '').split(',').map((b) => b.trim().toLowerCase());
      if (last['Managing Agency'] === 'DEP' && boroughs.includes('brooklyn')) expected.add(`NYC-${pid}`);
    }
    const codes = new Set<string>();
    for (const c of [...expected]) {
      if (!(await services.projects.findByCode(systemActor(tenantId), c))) expected.delete(c);
    }
    const res = await api.get('listProjects', '/projects', {
      query: { managingAgency: 'DEP', borough: 'Brooklyn', limit: 100 },
    });
    expect(res.status).to.equal(200);
    for (const p of res.body.data) {
      codes.add(p.code);
      expect(p.managingAgency).to.equal('DEP');
      expect(p.borough.toLowerCase()).to.contain('brooklyn');
    }
    expect(codes).to.deep.equal(expected);
    expect(codes.size).to.equal(6);
    // A list matches item by item: "Manhattan" finds "Manhattan, Bronx" too; case does not matter.
    const listed = await api.get('listProjects', '/projects', { query: { borough: 'bronx', limit: 100 } });
    const boroughs = new Set(listed.body.data.map((p: { borough: string }) => p.borough));
    expect(boroughs.has('Bronx')).to.equal(true);
    expect([...boroughs].some((b) => (b as string).includes(','))).to.equal(true);
  });

  it('writes an audit row for every change and emits the events a PATCH would', async () => {
    const actions = (await db
      .knex('audit_logs')
      .where({ tenant_id: tenantId })
      .select('action')
      .count({ n: '*' })
      .groupBy('action')) as unknown as { action: string; n: unknown }[];
    const byAction = Object.fromEntries(actions.map((r) => [r.action, Number(r.n)]));
    expect(byAction['project.created']).to.equal(355);
    expect(byAction['status_report.created']).to.equal(2189);
    const changes = await listEvents(db.knex, tenantId, 'project.status_changed');
    const overruns = await listEvents(db.knex, tenantId, 'budget.overrun_detected');
    const statusUpdates = (await db
      .knex('audit_logs')
      .where({ tenant_id: tenantId, action: 'project.updated' })
      .select('changes')) as { changes: string }[];
    expect(changes.length).to.equal(statusUpdates.filter((r) => 'status' in JSON.parse(r.changes)).length);
    expect(changes.length).to.be.greaterThan(100);
    const kinds = overruns.map((e) => JSON.parse(e.payload).data.kind);
    expect(kinds.filter((k: string) => k === 'FORECAST').length).to.be.greaterThan(50);
    expect(kinds.filter((k: string) => k === 'ACTUAL').length).to.equal(0);
    console.log(
      `      NYC import events: ${changes.length} project.status_changed, ${overruns.length} budget.overrun_detected`,
    );
  });

  it('derives milestones from each project’s phase changes and forecast finish, citing the reports', async () => {
    expect(first.milestonesDerived).to.be.greaterThan(355);
    const rows = (await db
      .knex('milestones')
      .where({ tenant_id: tenantId })
      .select('project_id', 'name', 'description', 'status', 'due_date')) as {
      project_id: string;
      name: string;
      description: string;
      status: string;
      due_date: string;
    }[];
    expect(
      rows.every((m) => m.name.endsWith('(derived)') && m.description.startsWith('Derived from')),
    ).to.equal(true);
    const forecasts = rows.filter((m) => m.name === 'Forecast completion (derived)');
    expect(forecasts.length).to.be.greaterThan(300);
    const phases = rows.filter((m) => m.name.includes('phase reached'));
    expect(phases.length).to.be.greaterThan(50);
    // Every report a description cites is a report of the milestone's own project, dated as cited.
    for (const m of phases.slice(0, 25)) {
      const cited = [...m.description.matchAll(/status report ([0-9a-f-]{36}) of (\d{4}-\d{2}-\d{2})/g)];
      expect(cited.length).to.equal(2);
      for (const [, id, asOf] of cited) {
        const report = await db.knex('status_reports').where({ id, tenant_id: tenantId }).first();
        expect(report.project_id).to.equal(m.project_id);
        expect(report.as_of).to.equal(asOf);
      }
      expect(m.due_date).to.equal(cited[1]?.[2]);
      expect(m.status).to.equal('COMPLETED');
    }
  });

  it('changes nothing on a second run of the same file', async () => {
    const eventsBefore = (await listEvents(db.knex, tenantId)).length;
    const before = await snapshot();
    const audits = await count('audit_logs');
    const reports = await count('status_reports');
    const again = await importNycCapitalProjects(
      { db, clock: systemClock },
      services,
      systemActor(tenantId),
      csv,
      { fileName: NYC_DATASET },
    );
    expect(again.projectsCreated).to.equal(0);
    expect(again.reportsStored).to.equal(0);
    expect(again.rowsAlreadyImported).to.equal(2189);
    expect(await snapshot()).to.deep.equal(before);
    expect(await count('audit_logs')).to.equal(audits);
    expect(await count('status_reports')).to.equal(reports);
    expect((await listEvents(db.knex, tenantId)).length).to.equal(eventsBefore);
  });
});
