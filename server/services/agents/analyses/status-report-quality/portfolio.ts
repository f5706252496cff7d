/**
 * The written status report of the portfolio (docs/agents.md, Agents: `status-report`): the open projects by RAG
 * with the lowest health scores (and at deep depth those whose RAG changed), the largest slips and overdue
 * milestones, variance at completion over the costed projects with the largest overruns, and the open risks,
 * projects without any risk and over-allocated people, every sentence cited.
 */
import {
  costFigures,
  money,
  plural,
  type Rag,
  ragOfStatus,
  round,
  signedDays,
  signedMoney,
} from '../../measures.js';
import type { Portfolio, RiskFacts } from '../../portfolio.js';
import type { HealthRow } from '../portfolio-health.js';
import { listing, source, top } from '../shared.js';
import type { SectionWriter } from './sections.js';

/** Writes the sections of the portfolio's report. */
export function writePortfolio(
  w: SectionWriter,
  rows: readonly HealthRow[],
  portfolio: Portfolio,
  risks: readonly RiskFacts[],
): void {
  const { currency } = portfolio;
  const scored = rows.filter((r) => r.health.score !== null);
  if (rows.length === 0) {
    w.say('overall', () => 'The portfolio has no open project.');
    return;
  }
  const lowest = top(scored, (r) => -(r.health.score as number), 3);
  const n = (rag: Rag) => scored.filter((r) => r.health.rag === rag).length;
  w.say(
    'overall',
    (g) =>
      `${plural(rows.length, 'open project')}: ${n('GREEN')} GREEN, ${n('AMBER')} AMBER, ${n('RED')} RED and ${rows.length - scored.length} unknown` +
      (lowest.length > 0
        ? `; the lowest health scores are ${listing(lowest.map((r) => `${r.project.name} ${r.health.score} ${g.cite(source.status(r.project))}`))}.`
        : ` ${g.cite(source.status((rows[0] as HealthRow).project))}.`),
  );
  if (portfolio.depth === 'deep') {
    const changed = rows
      .map((r) => {
        const reports = portfolio.reports.get(r.id) ?? [];
        const latest = reports[reports.length - 1];
        const previous = reports[reports.length - 2];
        const from = previous ? ragOfStatus(previous.status) : null;
        const to = latest ? ragOfStatus(latest.status) : null;
        return from && to && from !== to && latest && previous ? { r, from, to, latest, previous } : null;
      })
      .filter((x) => x !== null);
    if (changed.length > 0) {
      const shown = changed.slice(0, 3);
      w.say(
        'overall',
        (g) =>
          `${plural(changed.length, 'project')} changed RAG since the previous status report, e.g. ${listing(shown.map((c) => `${c.r.project.name} ${c.from} → ${c.to} ${g.cite(source.report(c.previous, c.r.project.name, 'status', currency))}${g.cite(source.report(c.latest, c.r.project.name, 'status', currency))}`))}.`,
      );
    }
  }
  // Schedule.
  const known = rows.filter((r) => r.signals.slipDays !== null);
  const slipping = rows.filter((r) => (r.signals.slipDays ?? 0) > 0);
  const largest = top(slipping, (r) => r.signals.slipDays as number, 3);
  if (largest.length > 0)
    w.say(
      'schedule',
      (g) =>
        `${slipping.length} of the ${known.length} projects with a forecast finish slip beyond their baseline; the largest: ${listing(largest.map((r) => `${r.project.name} ${signedDays(r.signals.slipDays as number)} ${g.cite(source.slip(r.project))}`))}.`,
    );
  else if (known.length > 0)
    w.say(
      'schedule',
      (g) =>
        `None of the ${known.length} projects with a forecast finish slips beyond its baseline ${g.cite(source.slip((known[0] as HealthRow).project))}.`,
    );
  const unknown = rows.filter((r) => r.signals.slipDays === null);
  if (unknown.length > 0)
    w.say(
      'schedule',
      (g) =>
        `${plural(unknown.length, 'project')} ${unknown.length === 1 ? 'has' : 'have'} no forecast finish (slip unknown), e.g. ${listing(unknown.slice(0, 3).map((r) => `${r.project.name} ${g.cite(source.slip(r.project))}`))}.`,
    );
  const overdue = rows.flatMap((r) => r.overdue.map((m) => ({ m, r })));
  if (overdue.length > 0) {
    const shown = [...overdue]
      .sort((a, b) =>
        a.m.dueDate < b.m.dueDate ? -1 : a.m.dueDate > b.m.dueDate ? 1 : a.m.id < b.m.id ? -1 : 1,
      )
      .slice(0, 3);
    w.say(
      'schedule',
      (g) =>
        `${plural(overdue.length, 'milestone')} ${overdue.length === 1 ? 'is' : 'are'} overdue, the oldest ${listing(shown.map((x) => `${x.m.name} of ${x.r.project.name}, due ${x.m.dueDate} ${g.cite(source.milestone(x.m))}`))}.`,
    );
  }
  // Cost.
  const costed = rows.filter((r) => costFigures(r.project).overrun !== null);
  if (costed.length > 0) {
    const budget = costed.reduce((s, r) => s + (r.project.budget as number), 0);
    const forecast = costed.reduce((s, r) => s + (r.project.forecastCost as number), 0);
    const over = costed.filter((r) => (costFigures(r.project).overrun as number) > 0);
    const biggest = top(over, (r) => costFigures(r.project).overrun as number, 3);
    w.say(
      'cost',
      (g) =>
        `Over the ${costed.length} projects with a budget and a forecast cost, the forecast at completion is ${money(forecast, currency)} against ${money(budget, currency)}: variance at completion ${signedMoney(budget - forecast, currency)}, CPI proxy ${forecast > 0 ? round(budget / forecast, 3) : 'unknown'}` +
        (biggest.length > 0
          ? `; ${over.length} over budget, the largest ${listing(biggest.map((r) => `${r.project.name} ${signedMoney(costFigures(r.project).overrun as number, currency)} ${g.cite(source.cost(r.project, currency))}`))}.`
          : ` ${g.cite(source.cost((costed[0] as HealthRow).project, currency))}.`),
    );
  }
  const noCost = rows.filter((r) => costFigures(r.project).overrun === null);
  if (noCost.length > 0)
    w.say(
      'cost',
      (g) =>
        `${plural(noCost.length, 'project')} ${noCost.length === 1 ? 'has' : 'have'} no budget or no forecast cost (variance unknown), e.g. ${listing(noCost.slice(0, 3).map((r) => `${r.project.name} ${g.cite(source.cost(r.project, currency))}`))}.`,
    );
  // Risks.
  if (risks.length > 0) {
    const exposure = risks.reduce((s, r) => s + r.likelihood * r.impact, 0);
    const shown = top(risks, (r) => r.score, 3);
    w.say(
      'risks',
      (g) =>
        `${plural(risks.length, 'open risk')} with exposure ${exposure}; the highest: ${listing(shown.map((r) => `${r.title} (${r.score}, ${r.severity}) ${g.cite(source.risk(r))}`))}.`,
    );
  }
  const bare = rows.filter((r) => (portfolio.risks.get(r.id) ?? []).length === 0);
  if (bare.length > 0)
    w.say(
      'risks',
      (g) =>
        `${plural(bare.length, 'open project')} ${bare.length === 1 ? 'has' : 'have'} no risk record, e.g. ${listing(bare.slice(0, 3).map((r) => `${r.project.name} ${g.cite(source.status(r.project))}`))}.`,
    );
  const over = new Map<string, HealthRow['overAllocated'][number]>();
  for (const r of rows) for (const l of r.overAllocated) over.set(l.id, l);
  if (over.size > 0) {
    const shown = [...over.values()].slice(0, 3);
    w.say(
      'risks',
      (g) =>
        `${plural(over.size, 'person', 'people')} allocated to these projects ${over.size === 1 ? 'is' : 'are'} over-allocated, e.g. ${listing(shown.map((l) => `${l.resource.name} ${g.cite({ type: 'resource', id: l.resource.id, title: l.resource.name, excerpt: `over-allocated up to ${round(Math.max(...l.conflicts.map((x) => x.totalPercent)), 1)} %` })}`))}.`,
    );
  }
}
