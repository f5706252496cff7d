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

/**
 * What a project's latest status report changed against the one before: status, phase, forecast finish and forecast
 * cost, each old → new, or that none of them moved; both reports cited.
 */
export function latestChange(w: AnswerWriter, p: ProjectRecord, reports: StoredStatusReport[]): string {
  const last = reports[reports.length - 1] as StoredStatusReport;
  const previous = reports[reports.length - 2];
  const l = w.report(last, p.name);
  if (!previous) return `The latest status report of ${p.name}, of ${last.asOf} [${l}], is its first.`;
  const v = w.report(previous, p.name);
  const money = (n: number | null) => (n === null ? 'unknown' : w.money(n));
  const fields: [string, string, string][] = [
    ['status', previous.status, last.status],
    ['phase', previous.phase ?? 'unknown', last.phase ?? 'unknown'],
    ['forecast finish', previous.forecastEndDate ?? 'unknown', last.forecastEndDate ?? 'unknown'],
    ['forecast cost', money(previous.forecastCost), money(last.forecastCost)],
  ];
  const changed = fields.filter(([, a, b]) => a !== b).map(([name, a, b]) => `${name} ${a} → ${b}`);
  const kept = fields.filter(([, a, b]) => a === b).map(([name, a]) => `${name} ${a}`);
  const head = `The latest status report of ${p.name}, of ${last.asOf} [${l}], against the one of ${previous.asOf} [${v}]`;
  return changed.length === 0
    ? `${head}: nothing changed (${kept.join(', ')}).`
    : `${head}: ${joinAnd(changed)}${kept.length ? `; unchanged: ${kept.join(', ')}` : ''}.`;
}
