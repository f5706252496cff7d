/**
 * `schedule-health` (docs/agents.md, Agents): slip in days (forecastEndDate − endDate) per project, the largest
 * slips, overdue milestones and, at deep depth, slip velocity and repeated slips across the status reports. The
 * marking of overdue milestones as MISSED happens before the snapshot is read (../index.ts), so this stays a pure
 * function.
 */
import { daysBetween } from '../../../dates.js';
import type { CitationBuilder } from '../citations.js';
import {
  median,
  type ProjectFacts,
  plural,
  repeatedSlips,
  round,
  signedDays,
  slipDays,
  slipVelocity,
} from '../measures.js';
import type { MilestoneFacts, Portfolio } from '../portfolio.js';
import {
  type AnalysisResult,
  type Draft,
  isLive,
  isOverdue,
  listing,
  renderFindings,
  type Severity,
  source,
  top,
} from './shared.js';

/** Severity of a slip: HIGH from 180 days, MEDIUM from 30, LOW above 0. */
export function slipSeverity(days: number): Severity {
  return days >= 180 ? 'HIGH' : days >= 30 ? 'MEDIUM' : 'LOW';
}

/** The projects of the largest slip: how many `schedule-health` names. */
export const LARGEST = 5;

interface Slip {
  id: string;
  project: ProjectFacts;
  days: number;
}

/** The schedule-health analysis. */
export function scheduleHealth(portfolio: Portfolio, cite: CitationBuilder): AnalysisResult {
  const { asOf, depth } = portfolio;
  const live = portfolio.projects.filter(isLive);
  const slips: Slip[] = [];
  const unknown: ProjectFacts[] = [];
  for (const p of live) {
    const days = slipDays(p);
    if (days === null) unknown.push(p);
    else slips.push({ id: p.id, project: p, days });
  }
  const slipping = slips.filter((s) => s.days > 0);
  const overdueByProject: { id: string; project: ProjectFacts; milestones: MilestoneFacts[] }[] = [];
  let overdue = 0;
  let missed = 0;
  for (const p of live) {
    const late = (portfolio.milestones.get(p.id) ?? []).filter((m) => isOverdue(m, asOf));
    if (late.length === 0) continue;
    late.sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id < b.id ? -1 : 1));
    overdue += late.length;
    missed += late.filter((m) => m.status === 'MISSED').length;
    overdueByProject.push({ id: p.id, project: p, milestones: late });
  }

  const metrics: Record<string, number | null> = {
    projects: live.length,
    projectsWithForecast: slips.length,
    forecastUnknown: unknown.length,
    projectsSlipping: slipping.length,
    averageSlipDays: slips.length ? round(slips.reduce((s, x) => s + x.days, 0) / slips.length, 1) : null,
    medianSlipDays: median(slips.map((s) => s.days)),
    maxSlipDays: slips.length ? Math.max(...slips.map((s) => s.days)) : null,
    overdueMilestones: overdue,
    missedMilestones: missed,
  };

  // Deep: trends from the status reports.
  const velocities: { id: string; project: ProjectFacts; v: NonNullable<ReturnType<typeof slipVelocity>> }[] =
    [];
  let repeated = 0;
  if (depth === 'deep') {
    for (const p of live) {
      const reports = portfolio.reports.get(p.id) ?? [];
      const v = slipVelocity(reports);
      if (v) velocities.push({ id: p.id, project: p, v });
      if (repeatedSlips(reports).length >= 2) repeated++;
    }
    metrics.projectsWithSlipVelocity = velocities.length;
    metrics.averageSlipVelocity = velocities.length
      ? round(velocities.reduce((s, x) => s + x.v.velocity, 0) / velocities.length, 1)
      : null;
    metrics.projectsSlippingRepeatedly = repeated;
  }

  const largest = top(slipping, (s) => s.days, LARGEST);
  const overdueText = `${plural(overdue, 'milestone')} overdue${missed ? ` (${missed} MISSED)` : ''}`;
  if (depth === 'quick') {
    return {
      summary:
        `${plural(live.length, 'project')}: ${slips.length} with a forecast finish, ${slipping.length} slipping ` +
        `(median slip ${metrics.medianSlipDays ?? 'unknown'} days, largest ${metrics.maxSlipDays ?? 'unknown'}); ` +
        `${unknown.length} without a forecast (slip unknown); ${overdueText}.`,
      findings: [],
      metrics,
    };
  }

  const summary =
    `${plural(live.length, 'project')}: ${slipping.length} slip beyond their baseline finish` +
    (largest[0]
      ? `, the largest ${listing(largest.slice(0, 3).map((s) => `${s.project.name} ${signedDays(s.days)} ${cite.cite(source.slip(s.project))}`))}`
      : '') +
    `; ${unknown.length} have no forecast finish (slip unknown); ${overdueText}.`;

  const drafts: Draft[] = [];
  if (largest.length > 0) {
    const worst = (largest[0] as Slip).days;
    drafts.push({
      severity: slipSeverity(worst),
      category: 'schedule',
      title: `The ${largest.length === 1 ? 'project' : `${largest.length} projects`} with the largest slip: up to ${signedDays(worst)}`,
      recommendation:
        'Review the recovery plans of these projects with their managers; where the forecast finish is credible, decide whether to re-baseline it.',
      rank: worst,
      key: 'largest',
      detail: (g) =>
        `Forecast finish against the baseline finish: ${listing(
          largest.map(
            (s) =>
              `${s.project.name}: baseline ${s.project.endDate}, forecast ${s.project.forecastEndDate} (${signedDays(s.days)}) ${g.cite(source.slip(s.project))}`,
          ),
        )}.`,
    });
  }
  for (const o of overdueByProject) {
    const oldest = o.milestones[0] as MilestoneFacts;
    const lateDays = daysBetween(oldest.dueDate, asOf);
    const shown = o.milestones.slice(0, 5);
    drafts.push({
      severity: lateDays > 30 ? 'HIGH' : 'MEDIUM',
      category: 'schedule',
      title: `${o.project.name}: ${plural(o.milestones.length, 'overdue milestone')}`,
      recommendation:
        'Confirm a new date for each overdue milestone with its owner, or record it as completed if it was; ' +
        'update the forecast finish if the critical path moved.',
      rank: o.milestones.length * 1_000 + lateDays,
      key: o.id,
      detail: (g) =>
        `${listing(
          shown.map(
            (m) =>
              `${m.name} (due ${m.dueDate}, ${m.status}, ${plural(daysBetween(m.dueDate, asOf), 'day')} overdue) ${g.cite(source.milestone(m))}`,
          ),
        )}${o.milestones.length > shown.length ? `, and ${o.milestones.length - shown.length} more` : ''}.`,
    });
  }
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5);
    drafts.push({
      severity: 'INFO',
      category: 'schedule',
      title: `${plural(unknown.length, 'project')} without a forecast finish`,
      recommendation: 'Ask the project managers for a forecast finish date: their slip is unknown, not zero.',
      rank: unknown.length,
      key: 'unknown',
      detail: (g) =>
        `No forecastEndDate, so the slip is unknown and left out of the figures: ${listing(
          shown.map((p) => `${p.name} ${g.cite(source.slip(p))}`),
        )}${unknown.length > shown.length ? `, and ${unknown.length - shown.length} more` : ''}.`,
    });
  }
  if (depth === 'deep') {
    const inLargest = new Set(largest.map((s) => s.id));
    const velocityOf = new Map(velocities.map((x) => [x.id, x.v]));
    for (const s of slipping) {
      if (inLargest.has(s.id)) continue;
      const v = velocityOf.get(s.id) ?? null;
      drafts.push({
        severity: slipSeverity(s.days),
        category: 'schedule',
        title: `${s.project.name}: forecast finish ${signedDays(s.days)} against the baseline`,
        recommendation: 'Review the recovery plan and decide whether to re-baseline the finish date.',
        rank: s.days,
        key: s.id,
        detail: (g) =>
          `Baseline finish ${s.project.endDate}, forecast ${s.project.forecastEndDate} (${signedDays(s.days)}) ${g.cite(source.slip(s.project))}` +
          (v
            ? `; the slip went from ${signedDays(v.first.scheduleSlipDays as number)} ${g.cite(source.report(v.first, s.project.name, 'forecastEndDate', portfolio.currency))} to ${signedDays(v.last.scheduleSlipDays as number)} ${g.cite(source.report(v.last, s.project.name, 'forecastEndDate', portfolio.currency))}, ${round(v.velocity, 1)} days per 30 days`
            : '') +
          '.',
      });
    }
    const fastest = top(
      velocities.filter((x) => x.v.velocity > 0),
      (x) => x.v.velocity,
      LARGEST,
    );
    if (fastest.length > 0) {
      const worst = (fastest[0] as (typeof fastest)[number]).v.velocity;
      drafts.push({
        severity: worst >= 30 ? 'HIGH' : worst >= 5 ? 'MEDIUM' : 'LOW',
        category: 'schedule',
        title: `Fastest-slipping projects: up to ${round(worst, 1)} days of slip per 30 days`,
        recommendation:
          'A finish date that keeps moving is not under control: ask for a re-plan with a critical-path review.',
        rank: worst,
        key: 'velocity',
        detail: (g) =>
          `Slip velocity (change of slip between the earliest and latest status report, per 30 days): ${listing(
            fastest.map(
              (x) =>
                `${x.project.name} ${round(x.v.velocity, 1)} days per 30 days, from ${signedDays(x.v.first.scheduleSlipDays as number)} on ${x.v.first.asOf} ${g.cite(source.report(x.v.first, x.project.name, 'forecastEndDate', portfolio.currency))} to ${signedDays(x.v.last.scheduleSlipDays as number)} on ${x.v.last.asOf} ${g.cite(source.report(x.v.last, x.project.name, 'forecastEndDate', portfolio.currency))}`,
            ),
          )}.`,
      });
    }
  }
  return { summary, findings: renderFindings(cite, drafts), metrics };
}
