/**
 * The written status report of one project (docs/agents.md, Agents: `status-report`): its overall status (the
 * portfolio-health score and reasons, and at deep depth the move since the previous status report), schedule (slip,
 * overdue or next milestone, slip velocity), cost (variance at completion, cost to date, forecast growth) and its
 * risks, urgent issues and over-allocated people, every sentence cited.
 */
import { daysBetween } from '../../../../dates.js';
import {
  budgetGrowth,
  costFigures,
  money,
  percent,
  plural,
  ragOfStatus,
  round,
  signedDays,
  signedMoney,
  slipDays,
  slipVelocity,
} from '../../measures.js';
import type { Portfolio, RiskFacts } from '../../portfolio.js';
import { type HealthRow, reasons } from '../portfolio-health.js';
import { listing, source, top } from '../shared.js';
import type { SectionWriter } from './sections.js';

/** Writes the sections of one project's report. */
export function writeProject(
  w: SectionWriter,
  row: HealthRow,
  portfolio: Portfolio,
  risks: readonly RiskFacts[],
  issues: Portfolio['issues'] extends Map<string, infer T> ? T : never,
): void {
  const p = row.project;
  const { currency, asOf } = portfolio;
  const reports = portfolio.reports.get(p.id) ?? [];
  // Overall.
  w.say('overall', (g) =>
    row.health.score === null
      ? `Overall status unknown: there is neither a forecast finish nor a forecast cost to judge it by ${g.cite(source.slip(p))}${g.cite(source.cost(p, currency))}.`
      : `Overall status ${row.health.rag} (health score ${row.health.score} of 100): ${reasons(row, g, currency).join('; ')}.`,
  );
  w.say(
    'overall',
    (g) =>
      `The project is ${p.status}${p.progress === null ? ', with progress unknown' : `, ${p.progress} % complete`} ${g.cite(source.status(p))}.`,
  );
  const latest = reports[reports.length - 1];
  const previous = reports[reports.length - 2];
  if (portfolio.depth === 'deep' && latest) {
    w.say('overall', (g) => {
      if (!previous)
        return `The only status report on or before ${asOf} is of ${latest.asOf}, status ${latest.status} ${g.cite(source.report(latest, p.name, 'status', currency))}.`;
      const from = ragOfStatus(previous.status);
      const to = ragOfStatus(latest.status);
      return from && to && from !== to
        ? `Since the status report of ${previous.asOf} the reported status moved from ${previous.status} to ${latest.status} ${g.cite(source.report(previous, p.name, 'status', currency))}${g.cite(source.report(latest, p.name, 'status', currency))}.`
        : `The reported status is ${latest.status} on ${latest.asOf}, as on ${previous.asOf} ${g.cite(source.report(previous, p.name, 'status', currency))}${g.cite(source.report(latest, p.name, 'status', currency))}.`;
    });
  }
  // Schedule.
  const slip = slipDays(p);
  w.say('schedule', (g) =>
    slip === null
      ? `The baseline finish is ${p.endDate}; there is no forecast finish, so the slip is unknown ${g.cite(source.slip(p))}.`
      : `The baseline finish is ${p.endDate} and the forecast finish ${p.forecastEndDate}: ${slip > 0 ? `${signedDays(slip)} late` : slip < 0 ? `${-slip} days early` : 'on time'} ${g.cite(source.slip(p))}.`,
  );
  const milestones = portfolio.milestones.get(p.id) ?? [];
  if (row.overdue.length > 0) {
    for (const m of row.overdue.slice(0, 5))
      w.say(
        'schedule',
        (g) =>
          `Milestone ${m.name} was due ${m.dueDate} and is ${m.status}, ${plural(daysBetween(m.dueDate, asOf), 'day')} overdue ${g.cite(source.milestone(m))}.`,
      );
    if (row.overdue.length > 5)
      w.say(
        'schedule',
        (g) =>
          `${row.overdue.length - 5} more milestones are overdue ${g.cite(source.milestone(row.overdue[5] as (typeof row.overdue)[number]))}.`,
      );
  } else {
    const next = milestones
      .filter((m) => m.status === 'PENDING' && m.dueDate >= asOf)
      .sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id < b.id ? -1 : 1))[0];
    if (next)
      w.say(
        'schedule',
        (g) =>
          `No milestone is overdue; the next is ${next.name}, due ${next.dueDate} ${g.cite(source.milestone(next))}.`,
      );
    else if (milestones.length > 0)
      w.say(
        'schedule',
        (g) =>
          `No milestone is overdue or pending; ${plural(milestones.length, 'milestone')} recorded, e.g. ${milestones[0]?.name} ${g.cite(source.milestone(milestones[0] as (typeof milestones)[number]))}.`,
      );
    else w.say('schedule', (g) => `No milestone is recorded for the project ${g.cite(source.status(p))}.`);
  }
  if (portfolio.depth === 'deep') {
    const v = slipVelocity(reports);
    if (v)
      w.say(
        'schedule',
        (g) =>
          `The slip went from ${signedDays(v.first.scheduleSlipDays as number)} on ${v.first.asOf} ${g.cite(source.report(v.first, p.name, 'forecastEndDate', currency))} to ${signedDays(v.last.scheduleSlipDays as number)} on ${v.last.asOf} ${g.cite(source.report(v.last, p.name, 'forecastEndDate', currency))}: ${round(v.velocity, 1)} days per 30 days.`,
      );
  }
  // Cost.
  const c = costFigures(p);
  w.say('cost', (g) =>
    c.overrun === null
      ? `${p.budget === null ? 'There is no budget' : `The budget is ${money(p.budget, currency)}`}${p.forecastCost === null ? ' and no forecast at completion' : ` and the forecast at completion ${money(p.forecastCost, currency)}`}, so the variance at completion is unknown ${g.cite(source.cost(p, currency))}.`
      : `The budget is ${money(p.budget as number, currency)} and the forecast at completion ${money(p.forecastCost as number, currency)}: variance at completion ${signedMoney(c.varianceAtCompletion as number, currency)}${c.overrunPercent !== null && c.overrun > 0 ? ` (${percent(c.overrunPercent)} over budget)` : ''}, CPI proxy ${c.cpiProxy === null ? 'unknown' : round(c.cpiProxy, 3)} ${g.cite(source.cost(p, currency))}.`,
  );
  w.say('cost', (g) =>
    p.actualCost === null
      ? `The cost to date is unknown ${g.cite(source.actual(p, currency))}.`
      : `The cost to date is ${money(p.actualCost, currency)}${c.spentPercent === null ? '' : `, ${percent(c.spentPercent)} of the budget`} ${g.cite(source.actual(p, currency))}.`,
  );
  if (portfolio.depth === 'deep') {
    const growth = budgetGrowth(reports);
    if (growth)
      w.say(
        'cost',
        (g) =>
          `The forecast cost went from ${money(growth.first.forecastCost as number, currency)} on ${growth.first.asOf} ${g.cite(source.report(growth.first, p.name, 'forecastCost', currency))} to ${money(growth.last.forecastCost as number, currency)} on ${growth.last.asOf} ${g.cite(source.report(growth.last, p.name, 'forecastCost', currency))} (${signedMoney(growth.amount, currency)}${growth.percent === null ? '' : `, ${percent(growth.percent)}`}).`,
      );
  }
  // Risks and issues.
  if (risks.length === 0)
    w.say('risks', (g) => `No open risk is recorded for the project ${g.cite(source.status(p))}.`);
  else {
    const exposure = risks.reduce((s, r) => s + r.likelihood * r.impact, 0);
    const shown = top(risks, (r) => r.score, 3);
    w.say(
      'risks',
      (g) =>
        `${plural(risks.length, 'open risk')} with exposure ${exposure}; the highest: ${listing(shown.map((r) => `${r.title} (${r.likelihood} × ${r.impact} = ${r.score}, ${r.severity}, ${r.status}) ${g.cite(source.risk(r))}`))}.`,
    );
  }
  const urgent = top(
    issues.filter((i) => i.priority === 'HIGH' || i.priority === 'CRITICAL'),
    (i) => (i.priority === 'CRITICAL' ? 2 : 1),
    3,
  );
  for (const i of urgent)
    w.say(
      'risks',
      (g) =>
        `Issue ${i.title} is ${i.priority} and ${i.status}${i.dueDate ? `, due ${i.dueDate}` : ''} ${g.cite(source.issue(i))}.`,
    );
  for (const l of row.overAllocated.slice(0, 3))
    w.say(
      'risks',
      (g) =>
        `${l.resource.name}, allocated to the project, is over-allocated up to ${round(Math.max(...l.conflicts.map((x) => x.totalPercent)), 1)} % ${g.cite({ type: 'resource', id: l.resource.id, title: l.resource.name, excerpt: `over-allocated up to ${round(Math.max(...l.conflicts.map((x) => x.totalPercent)), 1)} % from ${portfolio.horizon.from} to ${portfolio.horizon.to}` })}.`,
    );
}
