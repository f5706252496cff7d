/**
 * The agents on the NYC demo (docs/agents.md, Agents): `budget-health` names the five projects with the largest
 * forecast overrun by amount and `schedule-health` the five with the largest slip, each with its figures. The
 * expected five are computed here independently, straight from the CSV, by the importer's documented mapping
 * (server/import/nyc/mapping.ts, MAPPING): a PID's first reported Forecast Completion and Budget Forecast are its
 * baseline finish and budget; each report, in date order (one per date), moves the forecast finish and forecast
 * cost to the values it reports. They are compared with the agents' findings — project by project, figure by
 * figure.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { NYC_DATASET } from '../../server/bootstrap.js';
import { systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { importNycCapitalProjects } from '../../server/import/nyc/importer.js';
import { createJobRunner } from '../../server/jobs/index.js';
import { systemActor } from '../../server/services/context.js';
import { client } from '../support/client.js';
import { startTestServer, TEST_DB, type TestServer, type TestTenant } from '../support/server.js';

interface Expected {
  code: string;
  endDate: string;
  forecastEndDate: string | null;
  budget: number | null;
  forecastCost: number | null;
}

const usDate = (value: string | undefined): string | null => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec((value ?? '').trim());
  return m ? `${m[3]}-${m[1]}-${m[2]}` : null;
};

/** Each project's baseline and latest forecast, from the CSV alone. */
function fromCsv(): Map<string, Expected> {
  const rows = (
    parse(fs.readFileSync(NYC_DATASET), { columns: true, bom: true, skip_empty_lines: true }) as Record<
      string,
      string
    >[]
  )
    .map((r, line) => ({ r, line, date: usDate(r['Date Reported As Of']), pid: (r.PID ?? '').trim() }))
    .filter((x): x is typeof x & { date: string } => x.date !== null && /^\d+$/.test(x.pid));
  const byPid = new Map<string, typeof rows>();
  for (const row of rows) byPid.set(row.pid, [...(byPid.get(row.pid) ?? []), row]);
  const projects = new Map<string, Expected>();
  for (const [pid, list] of byPid) {
    list.sort((a, b) => a.date.localeCompare(b.date) || a.line - b.line);
    const amount = (r: Record<string, string>) => {
      const raw = (r['Budget Forecast'] ?? '').trim();
      const n = raw === '' ? Number.NaN : Number(raw);
      return Number.isFinite(n) && n >= 0 ? n : null;
    };
    const first = <T>(pick: (r: Record<string, string>) => T | null): T | null => {
      for (const { r } of list) {
        const v = pick(r);
        if (v !== null) return v;
      }
      return null;
    };
    const start = first((r) => usDate(r['Design Start']));
    const end = first((r) => usDate(r['Forecast Completion']));
    const name = first((r) => (r['Project Name'] ?? '').trim() || null);
    if (!start || !end || end < start || !name) continue; // no project for this PID
    const project: Expected = {
      code: `NYC-${pid}`,
      endDate: end,
      forecastEndDate: null,
      budget: first(amount),
      forecastCost: null,
    };
    let last = '';
    for (const { r, date } of list) {
      if (date === last) continue; // one report per date: a second one of the same day is already imported
      last = date;
      project.forecastEndDate = usDate(r['Forecast Completion']) ?? project.forecastEndDate;
      project.forecastCost = amount(r) ?? project.forecastCost;
    }
    projects.set(project.code, project);
  }
  return projects;
}

const days = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
const whole = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(n);

describe(`agents on the NYC demo (${TEST_DB})`, function () {
  this.timeout(300_000);
  let server: TestServer;
  let tenant: TestTenant;
  let expected: Map<string, Expected>;
  before(async () => {
    server = await startTestServer();
    tenant = await server.createTenant('NYC Capital Projects (agents test)');
    await importNycCapitalProjects(
      { db: server.db, clock: systemClock },
      server.meridian.services,
      systemActor(tenant.tenantId),
      fs.readFileSync(NYC_DATASET),
      { fileName: NYC_DATASET },
    );
    expected = fromCsv();
  });
  after(async () => server.close());

  async function runAgent(agentId: string): Promise<any> {
    const api = client(server.baseUrl, tenant.keys.write);
    const res = await api.post('runAgent', '/agents/run', { body: { agentId, depth: 'standard' } });
    await createJobRunner({
      services: server.meridian.services,
      clock: systemClock,
      config: loadConfig({ NODE_ENV: 'test' }),
    }).drain();
    const done = await api.get('getAgentExecution', `/agents/executions/${res.body.executionId}`);
    expect(done.body.status).to.equal('COMPLETED');
    return done.body.output;
  }

  /** The codes of the projects a finding cites, in order. */
  async function codesOf(finding: any): Promise<string[]> {
    const api = client(server.baseUrl, tenant.keys.read);
    const codes: string[] = [];
    for (const c of finding.citations) {
      const project = await api.get('getProject', c.url.slice('/v1'.length));
      codes.push(project.body.code);
    }
    return codes;
  }

  it('budget-health cites the five largest forecast overruns by amount, with budget, forecast and overrun', async () => {
    const overruns = [...expected.values()]
      .filter((p) => p.budget !== null && p.forecastCost !== null && p.forecastCost > p.budget)
      .map((p) => ({ ...p, overrun: (p.forecastCost as number) - (p.budget as number) }))
      .sort((a, b) => b.overrun - a.overrun);
    const five = overruns.slice(0, 5);
    // The sixth is strictly smaller: the five are well defined.
    expect((overruns[5] as (typeof overruns)[number]).overrun).to.be.lessThan(
      (five[4] as (typeof five)[number]).overrun,
    );
    const output = await runAgent('budget-health');
    const finding = output.findings.find((f: { title: string }) =>
      f.title.includes('largest forecast overrun by amount'),
    );
    expect(await codesOf(finding)).to.deep.equal(five.map((p) => p.code));
    for (const p of five) {
      expect(finding.detail).to.contain(
        `budget ${whole(p.budget as number)} USD, forecast ${whole(p.forecastCost as number)} USD, overrun ${whole(p.overrun)} USD`,
      );
    }
    expect(finding.citations.every((c: { field: string }) => c.field === 'forecastCost')).to.equal(true);
    expect(output.metrics.projectsOverBudget).to.equal(overruns.length);
    expect(output.metrics.largestOverrun).to.equal((five[0] as (typeof five)[number]).overrun);
    console.log(
      `      budget-health, largest overruns: ${five.map((p) => `${p.code} ${whole(p.overrun)} USD`).join('; ')}`,
    );
  });

  it('schedule-health cites the five largest slips, with baseline and forecast finish', async () => {
    const slips = [...expected.values()]
      .filter((p) => p.forecastEndDate !== null)
      .map((p) => ({ ...p, slip: days(p.endDate, p.forecastEndDate as string) }))
      .sort((a, b) => b.slip - a.slip);
    const five = slips.slice(0, 5);
    expect((slips[5] as (typeof slips)[number]).slip).to.be.lessThan((five[4] as (typeof five)[number]).slip);
    const output = await runAgent('schedule-health');
    const finding = output.findings.find((f: { title: string }) => f.title.includes('largest slip'));
    expect(await codesOf(finding)).to.deep.equal(five.map((p) => p.code));
    for (const p of five) {
      expect(finding.detail).to.contain(
        `baseline ${p.endDate}, forecast ${p.forecastEndDate} (+${p.slip} days)`,
      );
    }
    expect(output.metrics.maxSlipDays).to.equal((five[0] as (typeof five)[number]).slip);
    expect(output.metrics.projectsSlipping).to.equal(slips.filter((p) => p.slip > 0).length);
    console.log(
      `      schedule-health, largest slips: ${five.map((p) => `${p.code} +${p.slip} days`).join('; ')}`,
    );
  });
});
