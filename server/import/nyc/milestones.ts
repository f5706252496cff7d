/**
 * Milestones derived from the NYC status reports (docs/resources.md, Status reports: the NYC importer): the data
 * has no milestones, but each project's report history says when its phase changed ("Design" → "Construction
 * Procurement" → "Construction") and how its forecast completion moved. Each phase change becomes a COMPLETED
 * milestone dated by the first report in the new phase, and the forecast completion a milestone due on the latest
 * forecast finish whose description is the slip history; every one is named "(derived)" and its description says
 * that it is derived and cites the status reports (by id and date) it comes from. Synchronised idempotently: a
 * milestone of the same name is updated only when its derivation changed.
 */
import { findMilestones, projectsWithMilestoneNamed } from '../../repositories/ask.js';
import type { Executor } from '../../repositories/sql.js';
import type { StoredStatusReport } from '../../repositories/status-reports.js';
import { statusReportHistory } from '../../repositories/status-reports.js';
import type { Actor, BaseDeps } from '../../services/context.js';
import type { MilestoneService } from '../../services/milestones.js';

/** A milestone as derived (the fields of POST /projects/{id}/milestones). */
export interface DerivedMilestone {
  name: string;
  dueDate: string;
  status: 'PENDING' | 'COMPLETED';
  description: string;
}

/** The suffix that labels a derived milestone's name. */
export const DERIVED = '(derived)';

const cite = (r: StoredStatusReport) => `status report ${r.id} of ${r.asOf}`;

/**
 * The milestones a project's report history implies, oldest first: one per phase change, and the forecast
 * completion (when any report forecasts a finish).
 * @param reports the project's status reports, oldest first.
 * @param baselineEnd the project's baseline end date.
 */
export function deriveMilestones(
  reports: readonly StoredStatusReport[],
  baselineEnd: string,
): DerivedMilestone[] {
  const out: DerivedMilestone[] = [];
  let previous: StoredStatusReport | null = null;
  const reached = new Set<string>();
  for (const r of reports) {
    if (!r.phase) continue;
    if (previous?.phase && previous.phase !== r.phase) {
      // A phase entered again (the data does go back from Construction to Design) is a milestone of its own.
      const again = reached.has(r.phase) ? ` again on ${r.asOf}` : '';
      reached.add(r.phase);
      out.push({
        name: `${r.phase} phase reached${again} ${DERIVED}`,
        dueDate: r.asOf,
        status: 'COMPLETED',
        description: `Derived from the status reports, not entered: the phase went from “${previous.phase}” (${cite(
          previous,
        )}) to “${r.phase}” (${cite(r)}).`,
      });
    }
    previous = r;
  }
  const forecasts = reports.filter((r) => r.forecastEndDate !== null);
  const latest = forecasts.at(-1);
  if (latest?.forecastEndDate) {
    const moves: string[] = [];
    let last: string | null = null;
    for (const r of forecasts) {
      if (r.forecastEndDate !== last) moves.push(`${r.forecastEndDate} (${cite(r)})`);
      last = r.forecastEndDate;
    }
    const done = /close[- ]?out|complete/i.test(latest.phase ?? '') || latest.status === 'COMPLETED';
    out.push({
      name: `Forecast completion ${DERIVED}`,
      dueDate: latest.forecastEndDate,
      status: done ? 'COMPLETED' : 'PENDING',
      description:
        `Derived from the status reports, not entered: baseline end ${baselineEnd}; the forecast finish went ${moves.join(
          ' → ',
        )}.`.slice(0, 10000),
    });
  }
  return out;
}

/**
 * Creates or updates a project's derived milestones through the milestone service (audit rows and events as for any
 * milestone); returns how many it created or changed.
 */
export async function syncDerivedMilestones(
  deps: BaseDeps,
  milestones: MilestoneService,
  actor: Actor,
  projectId: string,
  baselineEnd: string,
): Promise<number> {
  const history = await statusReportHistory(deps.db.knex, actor.tenantId, projectId);
  const wanted = deriveMilestones(history, baselineEnd);
  if (wanted.length === 0) return 0;
  const existing = new Map(
    (await findMilestones(deps.db.knex, actor.tenantId, { projectIds: [projectId] })).map((m) => [m.name, m]),
  );
  let written = 0;
  for (const m of wanted) {
    const current = existing.get(m.name);
    if (!current) {
      await milestones.create(actor, projectId, m);
      written++;
    } else if (current.dueDate !== m.dueDate || current.description !== m.description) {
      // The status is left as it is: the missed-milestone sweep may have marked the forecast MISSED.
      await milestones.update(actor, current.id, { dueDate: m.dueDate, description: m.description });
      written++;
    }
  }
  return written;
}

/** The tenant's projects that have a derived forecast-completion milestone (one query). */
export async function projectsWithDerivedMilestones(db: Executor, tenantId: string): Promise<Set<string>> {
  return new Set(await projectsWithMilestoneNamed(db, tenantId, `Forecast completion ${DERIVED}`));
}
