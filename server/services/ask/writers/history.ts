/**
 * A project's history from its status reports (docs/agents.md, Ask: the history intent): the span, each change of
 * status, and how the forecast finish and cost moved, every report cited, oldest first.
 */
import type { ProjectRecord } from '../../../repositories/projects.js';
import type { StoredStatusReport } from '../../../repositories/status-reports.js';
import { joinAnd, plural } from '../text.js';
import { type AnswerWriter, markers } from './shared.js';

/** The history of a project from its status reports (oldest first). */
export function history(w: AnswerWriter, p: ProjectRecord, reports: StoredStatusReport[]): string {
  if (reports.length === 0) return `No status reports are recorded for ${p.name}.`;
  const first = reports[0] as StoredStatusReport;
  const last = reports[reports.length - 1] as StoredStatusReport;
  // Every report is cited, oldest first, so the count and each report named below rest on cited records.
  const all = reports.map((r) => w.report(r, p.name));
  const span =
    reports.length === 1
      ? `${p.name} has 1 status report, of ${first.asOf} ${markers(all)}`
      : `${p.name} has ${plural(reports.length, 'status report')} ${markers(all)}, from ${first.asOf} [${w.report(first, p.name)}] to ${last.asOf} [${w.report(last, p.name)}]`;
  const changes: StoredStatusReport[] = [];
  reports.forEach((r, i) => {
    if (i === 0 || r.status !== (reports[i - 1] as StoredStatusReport).status) changes.push(r);
  });
  const shown = changes.slice(-10);
  const moves = shown.map((r) => `${r.status} on ${r.asOf} [${w.report(r, p.name)}]`);
  const statusText =
    changes.length === 1
      ? `its status stayed ${first.status} throughout`
      : `its status went ${changes.length > shown.length ? '… ' : ''}${moves.join(' → ')}`;
  const moved: string[] = [];
  const finishes = reports.filter((r) => r.forecastEndDate !== null);
  if (finishes.length >= 2) {
    const a = finishes[0] as StoredStatusReport;
    const b = finishes[finishes.length - 1] as StoredStatusReport;
    moved.push(
      `the forecast finish moved from ${a.forecastEndDate} [${w.report(a, p.name)}] to ${b.forecastEndDate} [${w.report(b, p.name)}]`,
    );
  }
  const costs = reports.filter((r) => r.forecastCost !== null);
  if (costs.length >= 2) {
    const a = costs[0] as StoredStatusReport;
    const b = costs[costs.length - 1] as StoredStatusReport;
    moved.push(
      `the forecast cost from ${w.money(a.forecastCost as number)} [${w.report(a, p.name)}] to ${w.money(b.forecastCost as number)} [${w.report(b, p.name)}]`,
    );
  }
  return `${span}; ${statusText}${moved.length ? `; ${joinAnd(moved)}` : ''}.`;
}
