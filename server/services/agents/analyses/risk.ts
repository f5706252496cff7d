/**
 * `risk-assessment` (docs/agents.md, Agents): exposure (Σ likelihood × impact of the risks that are not CLOSED), the
 * 5 × 5 heat map, unmitigated HIGH/CRITICAL risks (still OPEN), overdue mitigations (OPEN or MITIGATING past their
 * due date), and candidate risks for open projects without any risk record, proposed from the signals the agent sees
 * — as recommendations only: it never creates a risk.
 */
import { daysBetween } from '../../../dates.js';
import type { CitationBuilder } from '../citations.js';
import {
  budgetGrowth,
  costFigures,
  money,
  type ProjectFacts,
  percent,
  plural,
  repeatedSlips,
  round,
  signedDays,
  signedMoney,
  slipDays,
} from '../measures.js';
import type { Portfolio, RiskFacts } from '../portfolio.js';
import {
  type AnalysisResult,
  type Draft,
  isOpen,
  isOpenRisk,
  listing,
  renderFindings,
  type Severity,
  source,
  top,
} from './shared.js';

/** Slip (days) from which a project without risks gets a candidate schedule risk. */
export const CANDIDATE_SLIP_DAYS = 90;
/** Overrun (% of budget) from which a project without risks gets a candidate cost risk. */
export const CANDIDATE_OVERRUN_PERCENT = 5;
/** Budget growth (%) across reports from which a candidate cost risk is proposed (deep). */
export const CANDIDATE_GROWTH_PERCENT = 10;

interface Candidate {
  id: string;
  project: ProjectFacts;
  /** Statements of the signals, written with the finding's citation group. */
  signals: ((g: Parameters<Draft['detail']>[0]) => string)[];
  titles: string[];
  weight: number;
}

/** The risk-assessment analysis. */
export function riskAssessment(portfolio: Portfolio, cite: CitationBuilder): AnalysisResult {
  const { asOf, depth, currency } = portfolio;
  const projects = portfolio.projects;
  const byId = new Map(projects.map((p) => [p.id, p]));
  const all: RiskFacts[] = [];
  for (const p of projects) all.push(...(portfolio.risks.get(p.id) ?? []));
  const open = all.filter(isOpenRisk);
  const cells = Array.from({ length: 5 }, () => [0, 0, 0, 0, 0]);
  for (const r of open) {
    const row = cells[r.likelihood - 1] as number[];
    row[r.impact - 1] = (row[r.impact - 1] ?? 0) + 1;
  }
  const exposure = open.reduce((s, r) => s + r.likelihood * r.impact, 0);
  const high = (r: RiskFacts) => r.severity === 'HIGH' || r.severity === 'CRITICAL';
  const unmitigated = open.filter((r) => high(r) && r.status === 'OPEN');
  const overdue = open.filter(
    (r) => (r.status === 'OPEN' || r.status === 'MITIGATING') && r.dueDate !== null && r.dueDate < asOf,
  );
  const openProjects = projects.filter(isOpen);
  const withoutRisks = openProjects.filter((p) => (portfolio.risks.get(p.id) ?? []).length === 0);

  // Candidate risks: the signals a project without risk records shows.
  const candidates: Candidate[] = [];
  if (depth !== 'quick') {
    for (const p of withoutRisks) {
      const c: Candidate = { id: p.id, project: p, signals: [], titles: [], weight: 0 };
      const slip = slipDays(p);
      if (slip !== null && slip >= CANDIDATE_SLIP_DAYS) {
        c.titles.push('Schedule slip');
        c.signals.push((g) => `its forecast finish is ${signedDays(slip)} late ${g.cite(source.slip(p))}`);
        c.weight += slip;
      }
      const cost = costFigures(p);
      if (cost.overrunPercent !== null && cost.overrunPercent >= CANDIDATE_OVERRUN_PERCENT) {
        c.titles.push('Cost overrun');
        c.signals.push(
          (g) =>
            `its forecast cost is ${signedMoney(cost.overrun as number, currency)} (${percent(cost.overrunPercent as number)}) over budget ${g.cite(source.cost(p, currency))}`,
        );
        c.weight += (cost.overrunPercent as number) * 10;
      }
      if (depth === 'deep') {
        const reports = portfolio.reports.get(p.id) ?? [];
        const slips = repeatedSlips(reports);
        if (slips.length >= 2) {
          c.titles.push('Repeated slips');
          const shown = slips.slice(-3);
          c.signals.push(
            (g) =>
              `its forecast finish moved later in ${plural(slips.length, 'status report')} (${shown
                .map((r) => `${r.asOf} ${g.cite(source.report(r, p.name, 'forecastEndDate', currency))}`)
                .join(', ')})`,
          );
          c.weight += slips.length * 30;
        }
        const growth = budgetGrowth(reports);
        if (growth && growth.percent !== null && growth.percent >= CANDIDATE_GROWTH_PERCENT) {
          c.titles.push('Budget growth');
          c.signals.push(
            (g) =>
              `its forecast cost grew ${percent(growth.percent as number)} from ${money(growth.first.forecastCost as number, currency)} ${g.cite(source.report(growth.first, p.name, 'forecastCost', currency))} to ${money(growth.last.forecastCost as number, currency)} ${g.cite(source.report(growth.last, p.name, 'forecastCost', currency))}`,
          );
          c.weight += growth.percent * 10;
        }
      }
      if (c.signals.length > 0) candidates.push(c);
    }
  }

  const metrics: Record<string, number | null> = {
    risks: all.length,
    openRisks: open.length,
    exposure,
    averageScore: open.length ? round(exposure / open.length, 2) : null,
    criticalRisks: open.filter((r) => r.severity === 'CRITICAL').length,
    highRisks: open.filter((r) => r.severity === 'HIGH').length,
    unmitigatedHighRisks: unmitigated.length,
    overdueMitigations: overdue.length,
    projectsWithoutRisks: withoutRisks.length,
  };
  if (depth !== 'quick') metrics.candidateRisks = candidates.length;
  const heatMap = { cells };
  const base =
    `${plural(open.length, 'open risk')} (exposure ${exposure}); ${unmitigated.length} HIGH or CRITICAL still unmitigated; ` +
    `${plural(overdue.length, 'mitigation')} overdue; ${plural(withoutRisks.length, 'open project')} without any risk record`;
  if (depth === 'quick') return { summary: `${base}.`, findings: [], metrics, heatMap };

  const worst = top(unmitigated, (r) => r.score, 3);
  const summary =
    base +
    (candidates.length > 0 ? `, ${plural(candidates.length, 'candidate risk')} proposed for them` : '') +
    (worst.length > 0
      ? `. Highest unmitigated: ${listing(worst.map((r) => `${r.title} (${r.score}, ${r.severity}) ${cite.cite(source.risk(r))}`))}.`
      : '.');

  const drafts: Draft[] = [];
  const flagged = new Map<string, RiskFacts>();
  for (const r of [...unmitigated, ...overdue]) flagged.set(r.id, r);
  const unmitigatedIds = new Set(unmitigated.map((r) => r.id));
  for (const r of flagged.values()) {
    const project = byId.get(r.projectId);
    const isUnmitigated = unmitigatedIds.has(r.id);
    const late = r.dueDate !== null && r.dueDate < asOf && r.status !== 'ACCEPTED';
    const severity: Severity = r.severity === 'CRITICAL' ? 'CRITICAL' : high(r) ? 'HIGH' : 'MEDIUM';
    drafts.push({
      severity,
      category: 'risk',
      title: isUnmitigated ? `Unmitigated ${r.severity} risk: ${r.title}` : `Overdue mitigation: ${r.title}`,
      recommendation: isUnmitigated
        ? 'Agree a mitigation and an owner for this risk and move it to MITIGATING, or record why it is ACCEPTED.'
        : 'Chase the mitigation owner: either complete the mitigation or set a realistic due date.',
      rank: r.score * 1_000 + (late && r.dueDate ? daysBetween(r.dueDate, asOf) : 0),
      key: r.id,
      detail: (g) =>
        `${project ? `${project.name}: ` : ''}${r.title} — likelihood ${r.likelihood} × impact ${r.impact} = ${r.score} (${r.severity}), ${r.status}${r.mitigation ? '' : ' with no mitigation'} ${g.cite(source.risk(r))}` +
        (late && r.dueDate
          ? `; its due date ${r.dueDate} passed ${plural(daysBetween(r.dueDate, asOf), 'day')} ago ${g.cite(source.riskDue(r))}`
          : '') +
        '.',
    });
  }
  const topRight = top(
    open.filter((r) => r.likelihood >= 4 && r.impact >= 4),
    (r) => r.score,
    5,
  );
  if (open.length > 0) {
    drafts.push({
      severity: 'INFO',
      category: 'risk',
      title: `Exposure ${exposure} over ${plural(open.length, 'open risk')}`,
      recommendation:
        'Review the top-right of the heat map (likelihood ≥ 4 and impact ≥ 4) at the next risk review.',
      rank: exposure,
      key: 'exposure',
      detail: (g) =>
        `Heat map (risks per impact 1 → 5): ${[4, 3, 2, 1, 0]
          .map((l) => `likelihood ${l + 1}: ${(cells[l] as number[]).join(', ')}`)
          .join('; ')}` +
        (topRight.length > 0
          ? `; likelihood and impact both 4 or 5: ${listing(topRight.map((r) => `${r.title} ${g.cite(source.risk(r))}`))}.`
          : '; no risk has likelihood and impact both 4 or 5.'),
    });
  }
  for (const c of candidates) {
    drafts.push({
      severity: c.weight >= 180 ? 'MEDIUM' : 'LOW',
      category: 'risk',
      title: `${c.project.name}: no risk recorded, but ${c.titles.join(' and ').toLowerCase()}`,
      recommendation: `Consider registering a risk ("${c.titles.join(' / ')} on ${c.project.name}") with its likelihood, impact, owner and mitigation. The agent proposes it; it creates nothing.`,
      rank: c.weight,
      key: c.id,
      detail: (g) => `${c.project.name} has no risk record, yet ${listing(c.signals.map((s) => s(g)))}.`,
    });
  }
  if (depth === 'deep') {
    const byProject = new Map<string, RiskFacts[]>();
    for (const r of open) {
      const list = byProject.get(r.projectId) ?? [];
      list.push(r);
      byProject.set(r.projectId, list);
    }
    for (const [projectId, risks] of byProject) {
      const project = byId.get(projectId);
      if (!project) continue;
      const e = risks.reduce((s, r) => s + r.likelihood * r.impact, 0);
      const shown = top(risks, (r) => r.score, 3);
      drafts.push({
        severity: 'INFO',
        category: 'risk',
        title: `${project.name}: exposure ${e} over ${plural(risks.length, 'open risk')}`,
        recommendation: 'Keep the register current: close risks that passed and re-score the rest.',
        rank: e,
        key: projectId,
        detail: (g) =>
          `Highest scores: ${listing(shown.map((r) => `${r.title} ${r.score} (${r.severity}) ${g.cite(source.risk(r))}`))}.`,
      });
    }
  }
  return { summary, findings: renderFindings(cite, drafts), metrics, heatMap };
}
