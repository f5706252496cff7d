/**
 * `budget-health` (docs/agents.md, Agents): variance at completion (budget − forecastCost), overrun and overrun %,
 * the cost performance index proxy (budget ÷ forecastCost) per project and for the portfolio, the largest overruns
 * by amount and by percentage, and at deep depth budget growth across the status reports.
 */
import type { CitationBuilder } from '../citations.js';
import {
  budgetGrowth,
  type CostFigures,
  costFigures,
  money,
  type ProjectFacts,
  percent,
  plural,
  round,
  signedMoney,
} from '../measures.js';
import type { Portfolio } from '../portfolio.js';
import {
  type AnalysisResult,
  type Draft,
  isLive,
  listing,
  renderFindings,
  type Severity,
  source,
  top,
} from './shared.js';

/** Severity of an overrun: HIGH from 10 % of budget, MEDIUM from 5 %, LOW above 0. */
export function overrunSeverity(overrunPercent: number | null): Severity {
  if (overrunPercent === null) return 'MEDIUM';
  return overrunPercent >= 10 ? 'HIGH' : overrunPercent >= 5 ? 'MEDIUM' : 'LOW';
}

/** How many projects the "largest overruns" findings name. */
export const LARGEST = 5;

interface Costed {
  id: string;
  project: ProjectFacts;
  c: CostFigures;
}

/** The budget-health analysis. */
export function budgetHealth(portfolio: Portfolio, cite: CitationBuilder): AnalysisResult {
  const { currency, depth } = portfolio;
  const live = portfolio.projects.filter(isLive);
  const costed: Costed[] = [];
  const unknown: ProjectFacts[] = [];
  let actual = 0;
  let actualUnknown = 0;
  for (const p of live) {
    if (p.actualCost === null) actualUnknown++;
    else actual += p.actualCost;
    const c = costFigures(p);
    if (c.overrun === null) unknown.push(p);
    else costed.push({ id: p.id, project: p, c });
  }
  const over = costed.filter((x) => (x.c.overrun as number) > 0);
  const totalBudget = costed.reduce((s, x) => s + (x.project.budget as number), 0);
  const totalForecast = costed.reduce((s, x) => s + (x.project.forecastCost as number), 0);
  const byAmount = top(over, (x) => x.c.overrun as number, LARGEST);
  const withPercent = over.filter((x) => x.c.overrunPercent !== null);
  const byPercent = top(withPercent, (x) => x.c.overrunPercent as number, LARGEST);

  const metrics: Record<string, number | null> = {
    projects: live.length,
    projectsWithForecast: costed.length,
    forecastUnknown: unknown.length,
    totalBudget: costed.length ? round(totalBudget) : null,
    totalForecastCost: costed.length ? round(totalForecast) : null,
    varianceAtCompletion: costed.length ? round(totalBudget - totalForecast) : null,
    cpiProxy: totalForecast > 0 ? round(totalBudget / totalForecast, 3) : null,
    projectsOverBudget: over.length,
    totalOverrun: round(over.reduce((s, x) => s + (x.c.overrun as number), 0)),
    largestOverrun: byAmount[0] ? round(byAmount[0].c.overrun as number) : null,
    largestOverrunPercent: byPercent[0] ? round(byPercent[0].c.overrunPercent as number, 1) : null,
    actualCost: live.length > actualUnknown ? round(actual) : null,
    actualCostUnknown: actualUnknown,
  };
  const growth: { id: string; project: ProjectFacts; g: NonNullable<ReturnType<typeof budgetGrowth>> }[] = [];
  if (depth === 'deep') {
    for (const p of live) {
      const g = budgetGrowth(portfolio.reports.get(p.id) ?? []);
      if (g) growth.push({ id: p.id, project: p, g });
    }
    const percents = growth.filter((x) => x.g.percent !== null).map((x) => x.g.percent as number);
    metrics.projectsWithBudgetGrowth = growth.filter((x) => x.g.amount > 0).length;
    metrics.averageBudgetGrowthPercent = percents.length
      ? round(percents.reduce((s, x) => s + x, 0) / percents.length, 1)
      : null;
  }

  const portfolioLine =
    costed.length > 0
      ? `forecast cost ${money(totalForecast, currency)} against a budget of ${money(totalBudget, currency)} ` +
        `(variance at completion ${signedMoney(totalBudget - totalForecast, currency)}, CPI proxy ${metrics.cpiProxy ?? 'unknown'})`
      : 'no project has both a budget and a forecast cost';
  if (depth === 'quick') {
    return {
      summary:
        `${plural(live.length, 'project')}: ${portfolioLine}; ${over.length} over budget` +
        `${byAmount[0] ? ` (largest overrun ${money(byAmount[0].c.overrun as number, currency)})` : ''}; ` +
        `${unknown.length} without a budget or forecast cost (unknown).`,
      findings: [],
      metrics,
    };
  }
  const summary =
    `${plural(live.length, 'project')}: ${portfolioLine}; ${over.length} over budget` +
    (byAmount[0]
      ? `, the largest overruns ${listing(
          byAmount
            .slice(0, 3)
            .map(
              (x) =>
                `${x.project.name} ${signedMoney(x.c.overrun as number, currency)} ${cite.cite(source.cost(x.project, currency))}`,
            ),
        )}`
      : '') +
    `; ${unknown.length} without a budget or forecast cost (unknown, left out).`;

  const line = (x: Costed, g: Parameters<Draft['detail']>[0]) =>
    `${x.project.name}: budget ${money(x.project.budget as number, currency)}, forecast ${money(x.project.forecastCost as number, currency)}, overrun ${money(x.c.overrun as number, currency)}` +
    `${x.c.overrunPercent === null ? '' : ` (${percent(x.c.overrunPercent)})`} ${g.cite(source.cost(x.project, currency))}`;
  const drafts: Draft[] = [];
  if (byAmount.length > 0) {
    const worst = byAmount[0] as Costed;
    drafts.push({
      severity: overrunSeverity(Math.max(...byAmount.map((x) => x.c.overrunPercent ?? 0))),
      category: 'budget',
      title: `The ${byAmount.length === 1 ? 'project' : `${byAmount.length} projects`} with the largest forecast overrun by amount: up to ${money(worst.c.overrun as number, currency)}`,
      recommendation:
        'Review these forecasts at completion with the project managers: confirm the drivers, the funding of the overrun, or the scope to cut.',
      rank: worst.c.overrun as number,
      key: 'amount',
      detail: (g) => `Forecast at completion above budget: ${listing(byAmount.map((x) => line(x, g)))}.`,
    });
  }
  if (byPercent.length > 0) {
    const worst = byPercent[0] as Costed;
    drafts.push({
      severity: overrunSeverity(worst.c.overrunPercent),
      category: 'budget',
      title: `The ${byPercent.length === 1 ? 'project' : `${byPercent.length} projects`} with the largest forecast overrun by percentage: up to ${percent(worst.c.overrunPercent as number)}`,
      recommendation:
        'A large overrun relative to budget points at an estimate or scope problem: ask for a re-estimate and a change request.',
      rank: worst.c.overrunPercent as number,
      key: 'percent',
      detail: (g) => `Overrun as a percentage of budget: ${listing(byPercent.map((x) => line(x, g)))}.`,
    });
  }
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5);
    drafts.push({
      severity: 'INFO',
      category: 'budget',
      title: `${plural(unknown.length, 'project')} without a budget or a forecast cost`,
      recommendation: 'Ask for a budget and a forecast at completion: their variance is unknown, not zero.',
      rank: unknown.length,
      key: 'unknown',
      detail: (g) =>
        `Variance at completion unknown (left out of the totals): ${listing(
          shown.map((p) => `${p.name} ${g.cite(source.cost(p, currency))}`),
        )}${unknown.length > shown.length ? `, and ${unknown.length - shown.length} more` : ''}.`,
    });
  }
  if (depth === 'deep') {
    const named = new Set([...byAmount, ...byPercent].map((x) => x.id));
    for (const x of over) {
      if (named.has(x.id)) continue;
      drafts.push({
        severity: overrunSeverity(x.c.overrunPercent),
        category: 'budget',
        title: `${x.project.name}: forecast ${money(x.c.overrun as number, currency)} over budget`,
        recommendation: 'Confirm the forecast at completion and how the overrun is funded.',
        rank: x.c.overrun as number,
        key: x.id,
        detail: (g) =>
          `${line(x, g)}; CPI proxy ${round(x.c.cpiProxy as number, 3)}; cost to date ${
            x.project.actualCost === null
              ? `unknown ${g.cite(source.actual(x.project, currency))}`
              : `${money(x.project.actualCost, currency)} ${g.cite(source.actual(x.project, currency))}`
          }.`,
      });
    }
    const grown = top(
      growth.filter((x) => x.g.amount > 0),
      (x) => x.g.amount,
      LARGEST,
    );
    if (grown.length > 0) {
      const worst = grown[0] as (typeof grown)[number];
      drafts.push({
        severity: overrunSeverity(worst.g.percent),
        category: 'budget',
        title: `Largest budget growth across status reports: up to ${money(worst.g.amount, currency)}`,
        recommendation:
          'Growth between reports shows where estimates are not holding: review the change history.',
        rank: worst.g.amount,
        key: 'growth',
        detail: (g) =>
          `Forecast cost from the earliest to the latest status report: ${listing(
            grown.map(
              (x) =>
                `${x.project.name} ${money(x.g.first.forecastCost as number, currency)} on ${x.g.first.asOf} ${g.cite(source.report(x.g.first, x.project.name, 'forecastCost', currency))} → ${money(x.g.last.forecastCost as number, currency)} on ${x.g.last.asOf} ${g.cite(source.report(x.g.last, x.project.name, 'forecastCost', currency))} (${signedMoney(x.g.amount, currency)}${x.g.percent === null ? '' : `, ${percent(x.g.percent)}`})`,
            ),
          )}.`,
      });
    }
  }
  return { summary, findings: renderFindings(cite, drafts), metrics };
}
