/**
 * The NYC capital projects importer (`datasets/nyc-capital-projects-2019-09-01.csv`; docs/resources.md, Status reports:
 * the NYC importer): every CSV row is a status report of the project its PID names, submitted through
 * {@link StatusReportService} with its own date, so each report is kept, the newest one moves the project, and every
 * change has its audit row and events. What each column becomes is the mapping (./mapping.ts); the import counts the
 * rows each decision affected and returns the table with its counts ({@link ImportReport.mapping}).
 *
 * Exactly once: the rows of one PID are replayed in date order; each row is one transaction that stores the report
 * (and creates or updates the project) and writes the PID's checkpoint (./checkpoints.ts), so a crash leaves either
 * both or neither, and a second run skips every row at or before its PID's checkpoint.
 */
import path from 'node:path';
import { findProjectByCode } from '../../repositories/projects.js';
import type { Actor, BaseDeps } from '../../services/context.js';
import { AppError } from '../../services/errors.js';
import type { MilestoneService } from '../../services/milestones.js';
import type { ProjectService } from '../../services/projects.js';
import type { StatusReportService } from '../../services/status-reports.js';
import { inWrite } from '../../services/versioned.js';
import { type CheckpointStore, checkpointTable, NYC_SOURCE } from './checkpoints.js';
import { type ParsedRow, parseRow, readCsv } from './csv.js';
import { descriptivePatch, newProject, type ProjectPlan, planProject, reportInput } from './decisions.js';
import { MAPPING, type MappingCount, type MappingId, type MappingRule } from './mapping.js';
import { projectsWithDerivedMilestones, syncDerivedMilestones } from './milestones.js';

/** A row that was skipped, with its 1-based line in the file. */
export interface ImportNote {
  line: number;
  pid: string;
  reason: string;
}

/** What an import did. */
export interface ImportReport {
  /** The report `source` (`import:<file name>`). */
  source: string;
  rowsRead: number;
  projectsCreated: number;
  /** Reports stored by this run (each CSV row that became a report). */
  reportsStored: number;
  /** Of those, the ones older than a report the project already had (kept as history only). */
  reportsHistoryOnly: number;
  /** Rows at or before their PID's checkpoint: stored by an earlier run, skipped. */
  rowsAlreadyImported: number;
  /** Rows skipped, each with its line and reason. */
  skipped: ImportNote[];
  /** Skipped rows counted by reason (the `rule` of the mapping decision). */
  skippedByReason: Record<string, number>;
  /** Fields left null, counted by field and reason. */
  nullFields: { field: string; reason: string; rows: number }[];
  /** The mapping table with the rows each decision affected in this run. */
  mapping: MappingCount[];
  /** Derived milestones created or changed by this run (0 without a milestone service). */
  milestonesDerived: number;
}

/** Options of {@link importNycCapitalProjects}. */
export interface ImportOptions {
  /** The file's name (the report source is `import:<basename>`). */
  fileName: string;
  /** Called after each row with (rows done, rows total). */
  onProgress?: (done: number, total: number) => void;
  /** Where checkpoints live (default: the checkpoints table). */
  checkpoints?: CheckpointStore;
}

/** The services an import goes through. */
export interface ImportServices {
  projects: ProjectService;
  statusReports: StatusReportService;
  /** When given, each imported project's derived milestones are synchronised after its reports (./milestones.ts). */
  milestones?: MilestoneService;
}

/**
 * Imports the CSV text into the actor's tenant: every row of a PID that can have a project becomes one status report
 * (see `MAPPING`, ./mapping.ts). Idempotent: a second run of the same file stores nothing and changes nothing.
 * @throws Error when the file is not CSV with the dataset's header; rows that cannot be used are reported, not thrown.
 */
export async function importNycCapitalProjects(
  deps: BaseDeps,
  services: ImportServices,
  actor: Actor,
  csvText: string | Buffer,
  options: ImportOptions,
): Promise<ImportReport> {
  const records = readCsv(csvText);
  const checkpoints = options.checkpoints ?? checkpointTable;
  const source = `import:${path.basename(options.fileName)}` as const;
  const counts = new Map<MappingId, number>(MAPPING.map((m) => [m.id, 0]));
  const count = (id: MappingId, n = 1) => counts.set(id, (counts.get(id) ?? 0) + n);
  const report: Omit<ImportReport, 'skippedByReason' | 'nullFields' | 'mapping' | 'milestonesDerived'> = {
    source,
    rowsRead: records.length,
    projectsCreated: 0,
    reportsStored: 0,
    reportsHistoryOnly: 0,
    rowsAlreadyImported: 0,
    skipped: [],
  };
  const skip = (line: number, pid: string, id: MappingId, detail = '') => {
    count(id);
    const rule = MAPPING.find((m) => m.id === id)?.rule ?? id;
    report.skipped.push({ line, pid, reason: detail ? `${rule} (${detail})` : rule });
  };

  const byPid = new Map<string, ParsedRow[]>();
  for (const { record, info } of records) {
    const parsed = parseRow(record, info.lines);
    if ('skip' in parsed) skip(parsed.line, parsed.pid, parsed.skip, parsed.detail);
    else byPid.set(parsed.pid, [...(byPid.get(parsed.pid) ?? []), parsed]);
  }
  const plans = new Map<string, ProjectPlan>();
  const rows: ParsedRow[] = [];
  for (const [pid, pidRows] of byPid) {
    pidRows.sort((a, b) => a.asOf.localeCompare(b.asOf) || a.line - b.line);
    const plan = planProject(pid, pidRows);
    if ('skip' in plan) {
      for (const r of pidRows) skip(r.line, pid, plan.skip, plan.detail);
      continue;
    }
    plans.set(pid, plan);
    rows.push(...pidRows);
  }
  // Replay order: report date, then PID, then file order, so events come out in the order things happened.
  rows.sort((a, b) => a.asOf.localeCompare(b.asOf) || Number(a.pid) - Number(b.pid) || a.line - b.line);

  const touched = new Set<string>();
  let done = report.skipped.length;
  const progress = () => options.onProgress?.(++done, records.length);
  for (const row of rows) {
    const plan = plans.get(row.pid) as ProjectPlan;
    const checkpoint = await checkpoints.get(deps.db.knex, actor.tenantId, NYC_SOURCE, plan.code);
    if (checkpoint !== null && row.asOf <= checkpoint) {
      report.rowsAlreadyImported++;
      progress();
      continue;
    }
    const tally: MappingId[] = [];
    try {
      const outcome = await inWrite(deps, actor, async (w) => {
        let project = await findProjectByCode(w.trx, actor.tenantId, plan.code);
        const created = project === null;
        if (project === null) project = await services.projects.createIn(w, newProject(plan, row, tally));
        const input = reportInput(row, project, tally);
        const stored = await services.statusReports.submitIn(w, project.id, input, source);
        if (stored.applied) {
          const patch = descriptivePatch(row, project, created, tally);
          if (Object.keys(patch).length > 0) await services.projects.updateIn(w, project.id, patch);
        }
        await checkpoints.set(w.trx, actor.tenantId, NYC_SOURCE, plan.code, row.asOf);
        return { created, applied: stored.applied };
      });
      for (const id of tally) count(id);
      touched.add(plan.code);
      report.reportsStored++;
      if (outcome.created) report.projectsCreated++;
      if (!outcome.applied) report.reportsHistoryOnly++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      skip(row.line, row.pid, 'skipRefused', err.message);
    }
    progress();
  }

  let milestonesDerived = 0;
  if (services.milestones) {
    // Projects that got reports in this run, and those without derived milestones yet (imported before them).
    const derived = await projectsWithDerivedMilestones(deps.db.knex, actor.tenantId);
    for (const plan of plans.values()) {
      const project = await findProjectByCode(deps.db.knex, actor.tenantId, plan.code);
      if (!project || (derived.has(project.id) && !touched.has(plan.code))) continue;
      milestonesDerived += await syncDerivedMilestones(
        deps,
        services.milestones,
        actor,
        project.id,
        project.endDate,
      );
    }
  }
  return { ...report, ...summary(counts), milestonesDerived };
}

/** The mapping table with the rows each decision affected, and from it the skipped rows and null fields by reason. */
function summary(
  counts: Map<MappingId, number>,
): Pick<ImportReport, 'skippedByReason' | 'nullFields' | 'mapping'> {
  const mapping = MAPPING.map((m) => ({ ...m, rows: counts.get(m.id) ?? 0 }));
  const skippedByReason: Record<string, number> = {};
  for (const m of mapping) if ('skips' in m && m.rows > 0) skippedByReason[m.rule] = m.rows;
  const nullFields = mapping
    .filter((m) => 'nulls' in m && m.rows > 0)
    .map((m) => ({
      field: (m as MappingRule).nulls as string,
      reason: `${m.column}: ${m.rule}`,
      rows: m.rows,
    }));
  return { skippedByReason, nullFields, mapping };
}
