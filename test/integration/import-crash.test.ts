/**
 * Exactly-once import under crashes (docs/resources.md, Status reports): the checkpoint of a PID is written in the
 * same transaction as the report it records. A child process runs the real import with the checkpoint store
 * injected and SIGKILLs itself inside a checkpoint write — after the row's report, project change, audit rows and
 * events are written, before the commit — and is restarted; the database must end exactly as after one clean import
 * (same reports, projects, versions, audit rows, events and checkpoints), on SQLite and on Postgres. A second test
 * fails the same write with an error instead of a kill.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { NYC_DATASET } from '../../server/bootstrap.js';
import { systemClock } from '../../server/clock.js';
import { type CheckpointStore, checkpointTable } from '../../server/import/nyc/checkpoints.js';
import { importNycCapitalProjects } from '../../server/import/nyc/importer.js';
import type { Database } from '../../server/repositories/db.js';
import { systemActor } from '../../server/services/context.js';
import { buildServices } from '../../server/services/index.js';
import { openTestDatabase, TEST_DB, type TestConnection } from '../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CSV = fs.readFileSync(NYC_DATASET);

interface Opened {
  db: Database;
  connection: TestConnection;
  dispose: () => Promise<void>;
  tenantId: string;
}

async function open(): Promise<Opened> {
  const { db, connection, dispose } = await openTestDatabase();
  const services = buildServices({ db, clock: systemClock }, { defaultRateLimitPerMinute: 1000 });
  const tenantId = (await services.tenants.create({ name: 'NYC' })).tenant.id;
  return { db, connection, dispose, tenantId };
}

/** Runs the import in a child process; resolves with its exit code, signal and output (never rejects). */
function runChild(
  target: Opened,
  crashAt: number,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'test/support/import-crash-child.ts'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          MERIDIAN_TEST_CONNECTION: JSON.stringify(target.connection),
          MERIDIAN_TENANT_ID: target.tenantId,
          MERIDIAN_CRASH_AT: String(crashAt),
        },
        timeout: 300_000,
      },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number; signal?: string }) | null;
        resolve({ code: e ? (e.code ?? null) : 0, signal: e?.signal ?? null, out: stdout + stderr });
      },
    );
  });
}

/** Everything an import writes, without ids and clock times: what must be the same after a crash and a restart. */
async function snapshot({ db, tenantId }: Opened) {
  const k = db.knex;
  const codes = new Map(
    (
      (await k('projects').where({ tenant_id: tenantId }).select('id', 'code')) as {
        id: string;
        code: string;
      }[]
    ).map((p) => [p.id, p.code]),
  );
  const projects = (await k('projects')
    .where({ tenant_id: tenantId })
    .orderBy('code')
    .select(
      'code',
      'name',
      'status',
      'start_date',
      'end_date',
      'forecast_end_date',
      'budget',
      'forecast_cost',
      'actual_cost',
      'progress',
      'tags',
      'borough',
      'managing_agency',
      'version',
    )) as Record<string, unknown>[];
  const reports = (
    (await k('status_reports').where({ tenant_id: tenantId }).select('*')) as Record<string, unknown>[]
  )
    .map((r) =>
      [
        codes.get(r.project_id as string),
        r.as_of,
        r.status,
        r.phase,
        r.forecast_end_date,
        r.forecast_cost === null ? null : Number(r.forecast_cost),
        r.baseline_end_date,
        r.baseline_budget === null ? null : Number(r.baseline_budget),
        Boolean(r.applied),
      ].join('|'),
    )
    .sort();
  const grouped = async (table: string, column: string) =>
    Object.fromEntries(
      (
        (await k(table)
          .where({ tenant_id: tenantId })
          .select(column)
          .count({ n: '*' })
          .groupBy(column)) as Record<string, unknown>[]
      ).map((r) => [r[column], Number(r.n)]),
    );
  const events = (
    (await k('events').where({ tenant_id: tenantId }).select('type', 'payload')) as {
      type: string;
      payload: string;
    }[]
  )
    .map(({ type, payload }) => {
      const d = JSON.parse(payload).data;
      return [type, d.project?.code, d.previousStatus, d.status, d.kind, d.amount].join('|');
    })
    .sort();
  const checkpoints = await k('import_checkpoints')
    .where({ tenant_id: tenantId })
    .orderBy('external_id')
    .select('external_id', 'last_reported_on');
  return { projects, reports, audit: await grouped('audit_logs', 'action'), events, checkpoints };
}

async function duplicates({ db, tenantId }: Opened): Promise<number> {
  const rows = await db
    .knex('status_reports')
    .where({ tenant_id: tenantId })
    .select('project_id', 'as_of')
    .count({ n: '*' })
    .groupBy('project_id', 'as_of')
    .havingRaw('count(*) > 1');
  return rows.length;
}

const count = async ({ db, tenantId }: Opened, table: string) =>
  Number((await db.knex(table).where({ tenant_id: tenantId }).count({ n: '*' }))[0]?.n);

describe(`NYC import: crash between report and checkpoint (${TEST_DB})`, function () {
  this.timeout(900_000);
  let reference: Opened;
  let expected: Awaited<ReturnType<typeof snapshot>>;
  const opened: Opened[] = [];

  before(async () => {
    reference = await open();
    opened.push(reference);
    const services = buildServices(
      { db: reference.db, clock: systemClock },
      { defaultRateLimitPerMinute: 1000 },
    );
    await importNycCapitalProjects(
      { db: reference.db, clock: systemClock },
      services,
      systemActor(reference.tenantId),
      CSV,
      { fileName: NYC_DATASET },
    );
    expected = await snapshot(reference);
    expect(expected.reports).to.have.length(2189);
  });
  after(async () => {
    for (const o of opened) await o.dispose();
  });

  it('SIGKILLed inside the checkpoint write (twice), then restarted: each report applied exactly once', async () => {
    const target = await open();
    opened.push(target);
    // Killed in the very first row's transaction: the project it created, its report and events all vanish.
    const auditBefore = await count(target, 'audit_logs');
    const first = await runChild(target, 1);
    expect(first.signal, first.out).to.equal('SIGKILL');
    expect(first.out).to.contain('killing myself in checkpoint write 1');
    for (const table of ['projects', 'status_reports', 'import_checkpoints', 'events'])
      expect(await count(target, table), table).to.equal(0);
    expect(await count(target, 'audit_logs')).to.equal(auditBefore);
    // Restarted, and killed again mid-way: the 700th row's report is lost with its transaction, the 699 before stay.
    const second = await runChild(target, 700);
    expect(second.signal, second.out).to.equal('SIGKILL');
    expect(await count(target, 'status_reports')).to.equal(699);
    const createdAudits = await target.db
      .knex('audit_logs')
      .where({ tenant_id: target.tenantId, action: 'status_report.created' })
      .count({ n: '*' });
    expect(Number(createdAudits[0]?.n)).to.equal(699);
    // Restarted to the end.
    const third = await runChild(target, 0);
    expect(third.code, third.out).to.equal(0);
    expect(JSON.parse(third.out.trim().split('\n').at(-1) as string)).to.deep.equal({
      reportsStored: 2189 - 699,
      rowsAlreadyImported: 699,
    });
    expect(await duplicates(target)).to.equal(0);
    expect(await snapshot(target)).to.deep.equal(expected);
    console.log(
      `      ${TEST_DB}: killed at rows 1 and 700, restarted: ${expected.reports.length} reports, ` +
        `${expected.projects.length} projects, 0 duplicates, state identical to one clean import`,
    );
  });

  it('failing the checkpoint write with an error rolls the row back; the next run applies it once', async () => {
    const target = await open();
    opened.push(target);
    const deps = { db: target.db, clock: systemClock };
    const services = buildServices(deps, { defaultRateLimitPerMinute: 1000 });
    let writes = 0;
    const failing: CheckpointStore = {
      get: checkpointTable.get,
      async set(trx, ...rest) {
        if (++writes === 1500) throw new Error('injected fault between report and checkpoint');
        return checkpointTable.set(trx, ...rest);
      },
    };
    const actor = systemActor(target.tenantId);
    let failure: unknown = null;
    await importNycCapitalProjects(deps, services, actor, CSV, {
      fileName: NYC_DATASET,
      checkpoints: failing,
    }).catch((err: unknown) => {
      failure = err;
    });
    expect((failure as Error | null)?.message).to.equal('injected fault between report and checkpoint');
    expect(await count(target, 'status_reports')).to.equal(1499);
    const again = await importNycCapitalProjects(deps, services, actor, CSV, { fileName: NYC_DATASET });
    expect([again.reportsStored, again.rowsAlreadyImported]).to.deep.equal([2189 - 1499, 1499]);
    expect(await duplicates(target)).to.equal(0);
    expect(await snapshot(target)).to.deep.equal(expected);
  });
});
