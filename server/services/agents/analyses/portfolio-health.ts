/**
 * `portfolio-health` (docs/agents.md, Agents: measures): a health score (0–100) and RAG per open project from its
 * schedule, cost, risk, milestone and capacity signals (../measures.ts, `healthOf`), each deduction stated with its
 * figures and cited; the portfolio's distribution; at deep depth the projects whose RAG changed since their previous
 * status report.
 */
import type { CitationBuilder, CitationGroup } from '../citations.js';
import {
  costFigures,
  type Health,
  type HealthSignals,
  healthOf,
  money,
  type ProjectFacts,
  percent,
  plural,
  type Rag,
  type ReportPoint,
  ragOfStatus,
  round,
  signedDays,
  slipDays,
} from '../measures.js';
import type { MilestoneFacts, Portfolio, RiskFacts } from '../portfolio.js';
import { type Load, loadsOf } from './capacity.js';
import {
  type AnalysisResult,
  type Draft,
  isOpen,
  isOpenRisk,
  isOverdue,
  listing,
  renderFindings,
  type Severity,
  source,
  top,
} from './shared.js';

/** A project's health with the records behind each signal. */
export interface HealthRow {
  id: string;
  project: ProjectFacts;
  signals: HealthSignals;
  health: Health;
  overdue: MilestoneFacts[];
  /** Open CRITICAL and HIGH risks, highest score first. */
  highRisks: RiskFacts[];
  /** Over-allocated people with an allocation on the project in a conflicting period. */
  overAllocated: Load[];
}

/** The health of every open project of the snapshot, or of those `include` keeps (in the snapshot's order). */
export function healthRows(
  portfolio: Portfolio,
  include: (p: ProjectFacts) => boolean = isOpen,
): HealthRow[] {
  const loads = portfolio.allocations.length > 0 ? loadsOf(portfolio) : [];
  const overByProject = new Map<string, Load[]>();
  for (const l of loads) {
    const projects = new Set(l.conflicts.flatMap((c) => c.allocations.map((a) => a.projectId)));
    for (const id of projects) {
      const list = overByProject.get(id) ?? [];
      list.push(l);
      overByProject.set(id, list);
    }
  }
  return portfolio.projects.filter(include).map((p) => {
    const risks = (portfolio.risks.get(p.id) ?? []).filter(isOpenRisk);
    const highRisks = top(
      risks.filter((r) => r.severity === 'HIGH' || r.severity === 'CRITICAL'),
      (r) => r.score,
      risks.length,
    );
    const overdue = (portfolio.milestones.get(p.id) ?? []).filter((m) => isOverdue(m, portfolio.asOf));
    const overAllocated = overByProject.get(p.id) ?? [];
    const signals: HealthSignals = {
      slipDays: slipDays(p),
      overrunPercent: costFigures(p).overrunPercent,
      openCritical: highRisks.filter((r) => r.severity === 'CRITICAL').length,
      openHigh: highRisks.filter((r) => r.severity === 'HIGH').length,
      overdueMilestones: overdue.length,
      overAllocatedPeople: overAllocated.length,
    };
    return { id: p.id, project: p, signals, health: healthOf(signals), overdue, highRisks, overAllocated };
  });
}

/**
 * The reasons of a project's score, one clause per deduction, each with its figures and citations (and the unknown
 * signals said to be unknown).
 */
export function reasons(row: HealthRow, g: CitationGroup, currency: string): string[] {
  const out: string[] = [];
  const p = row.project;
  const points = (signal: string) => row.health.penalties.find((x) => x.signal === signal)?.points ?? 0;
  const minus = (signal: string) => (points(signal) > 0 ? ` (−${points(signal)})` : '');
  const s = row.signals;
  if (s.slipDays === null) out.push(`schedule unknown: no forecast finish ${g.cite(source.slip(p))}`);
  else
    out.push(
      `schedule ${s.slipDays > 0 ? `${signedDays(s.slipDays)} late` : 'on or ahead of baseline'}: forecast ${p.forecastEndDate} against ${p.endDate}${minus('schedule')} ${g.cite(source.slip(p))}`,
    );
  if (s.overrunPercent === null)
    out.push(
      `cost unknown: ${p.budget === null ? 'no budget' : 'no forecast cost'} ${g.cite(source.cost(p, currency))}`,
    );
  else
    out.push(
      `cost ${s.overrunPercent > 0 ? `${percent(s.overrunPercent)} over budget` : 'within budget'}: forecast ${money(p.forecastCost as number, currency)} against ${money(p.budget as number, currency)}${minus('cost')} ${g.cite(source.cost(p, currency))}`,
    );
  if (row.highRisks.length > 0) {
    const shown = row.highRisks.slice(0, 3);
    out.push(
      `${plural(row.highRisks.length, 'open HIGH/CRITICAL risk')}${minus('risk')}: ${shown.map((r) => `${r.title} (${r.score}) ${g.cite(source.risk(r))}`).join(', ')}`,
    );
  }
  if (row.overdue.length > 0) {
    const shown = row.overdue.slice(0, 3);
    out.push(
      `${plural(row.overdue.length, 'overdue milestone')}${minus('milestones')}: ${shown.map((m) => `${m.name} due ${m.dueDate} ${g.cite(source.milestone(m))}`).join(', ')}`,
    );
  }
  if (row.overAllocated.length > 0) {
    const shown = row.overAllocated.slice(0, 3);
    out.push(
      `${plural(row.overAllocated.length, 'over-allocated person', 'over-allocated people')}${minus('capacity')}: ${shown
        .map(
          (l) =>
            `${l.resource.name} ${g.cite({ type: 'resource', id: l.resource.id, title: l.resource.name, excerpt: `over-allocated up to ${round(Math.max(...l.conflicts.map((x) => x.totalPercent)), 1)} %` })}`,
        )
        .join(', ')}`,
    );
  }
  return out;
}

/** The RAG change between a project's latest two reports on or before asOf, or null. */
export function ragChange(
  reports: readonly ReportPoint[],
): { from: Rag; to: Rag; previous: ReportPoint; latest: ReportPoint } | null {
  const latest = reports[reports.length - 1];
  const previous = reports[reports.length - 2];
  if (!latest || !previous) return null;
  const from = ragOfStatus(previous.status);
  const to = ragOfStatus(latest.status);
  if (!from || !to || from === to) return null;
  return { from, to, previous, latest };
}

const RAG_ORDER: Record<Rag, number> = { GREEN: 0, AMBER: 1, RED: 2 };

/** The portfolio-health analysis. */
export function portfolioHealth(portfolio: Portfolio, cite: CitationBuilder): AnalysisResult {
  const { depth, currency } = portfolio;
  const rows = healthRows(portfolio);
  const scored = rows.filter((r) => r.health.score !== null);
  const count = (rag: Rag) => scored.filter((r) => r.health.rag === rag).length;
  const metrics: Record<string, number | null> = {
    projects: rows.length,
    healthScored: scored.length,
    healthUnknown: rows.length - scored.length,
    green: count('GREEN'),
    amber: count('AMBER'),
    red: count('RED'),
    averageHealthScore: scored.length
      ? round(scored.reduce((s, r) => s + (r.health.score as number), 0) / scored.length, 1)
      : null,
  };
  const changes: { id: string; row: HealthRow; change: NonNullable<ReturnType<typeof ragChange>> }[] = [];
  if (depth === 'deep') {
    for (const row of rows) {
      const change = ragChange(portfolio.reports.get(row.id) ?? []);
      if (change) changes.push({ id: row.id, row, change });
    }
    metrics.ragChanged = changes.length;
    metrics.ragImproved = changes.filter((c) => RAG_ORDER[c.change.to] < RAG_ORDER[c.change.from]).length;
    metrics.ragWorsened = changes.filter((c) => RAG_ORDER[c.change.to] > RAG_ORDER[c.change.from]).length;
  }
  const distribution =
    `${plural(rows.length, 'open project')}: ${metrics.green} GREEN, ${metrics.amber} AMBER, ${metrics.red} RED, ` +
    `${metrics.healthUnknown} unknown (no forecast finish and no forecast cost); average health score ` +
    `${metrics.averageHealthScore ?? 'unknown'}`;
  if (depth === 'quick') return { summary: `${distribution}.`, findings: [], metrics };

  const worst = top(scored, (r) => -(r.health.score as number), 3);
  const summary =
    distribution +
    (worst.length > 0
      ? `. Lowest scores: ${listing(worst.map((r) => `${r.project.name} ${r.health.score} ${cite.cite(source.status(r.project))}`))}.`
      : '.');

  const drafts: Draft[] = [];
  const severityOf = (score: number): Severity => (score < 25 ? 'CRITICAL' : score < 50 ? 'HIGH' : 'MEDIUM');
  for (const row of scored) {
    const rag = row.health.rag as Rag;
    if (rag === 'GREEN' || (rag === 'AMBER' && depth !== 'deep')) continue;
    const score = row.health.score as number;
    const largest = [...row.health.penalties].sort((a, b) => b.points - a.points)[0];
    drafts.push({
      severity: severityOf(score),
      category: 'health',
      title: `${row.project.name}: ${rag} (health score ${score})`,
      recommendation:
        largest?.signal === 'schedule'
          ? 'The schedule drives the score: review the recovery plan and the forecast finish.'
          : largest?.signal === 'cost'
            ? 'The cost drives the score: review the forecast at completion and how the overrun is funded.'
            : largest?.signal === 'risk'
              ? 'Open HIGH/CRITICAL risks drive the score: agree mitigations and owners.'
              : largest?.signal === 'milestones'
                ? 'Overdue milestones drive the score: re-plan them with their owners.'
                : 'Over-allocated people drive the score: rebalance their allocations.',
      rank: 100 - score,
      key: row.id,
      detail: (g) => `Health score ${score} of 100 (${rag}): ${reasons(row, g, currency).join('; ')}.`,
    });
  }
  const unknown = rows.filter((r) => r.health.score === null);
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5);
    drafts.push({
      severity: 'INFO',
      category: 'health',
      title: `${plural(unknown.length, 'project')} whose health is unknown`,
      recommendation:
        'Ask for a forecast finish and a forecast cost: without either the health cannot be judged.',
      rank: unknown.length,
      key: 'unknown',
      detail: (g) =>
        `No forecast finish and no forecast cost (or no budget): ${listing(
          shown.map(
            (r) =>
              `${r.project.name} ${g.cite(source.slip(r.project))}${g.cite(source.cost(r.project, currency))}`,
          ),
        )}${unknown.length > shown.length ? `, and ${unknown.length - shown.length} more` : ''}.`,
    });
  }
  if (depth === 'deep' && changes.length > 0) {
    const worsened = changes.filter((c) => RAG_ORDER[c.change.to] > RAG_ORDER[c.change.from]);
    const improved = changes.filter((c) => RAG_ORDER[c.change.to] < RAG_ORDER[c.change.from]);
    const line = (c: (typeof changes)[number], g: CitationGroup) =>
      `${c.row.project.name} ${c.change.from} → ${c.change.to} (${c.change.previous.asOf} ${g.cite(source.report(c.change.previous, c.row.project.name, 'status', currency))} → ${c.change.latest.asOf} ${g.cite(source.report(c.change.latest, c.row.project.name, 'status', currency))})`;
    if (worsened.length > 0) {
      const shown = worsened.slice(0, 10);
      drafts.push({
        severity: 'MEDIUM',
        category: 'health',
        title: `${plural(worsened.length, 'project')} worsened since the previous status report`,
        recommendation: 'Ask the managers of these projects what changed and what they need.',
        rank: worsened.length,
        key: 'worsened',
        detail: (g) =>
          `${listing(shown.map((c) => line(c, g)))}${worsened.length > shown.length ? `, and ${worsened.length - shown.length} more` : ''}.`,
      });
    }
    if (improved.length > 0) {
      const shown = improved.slice(0, 10);
      drafts.push({
        severity: 'INFO',
        category: 'health',
        title: `${plural(improved.length, 'project')} improved since the previous status report`,
        recommendation: 'Confirm the recovery is real before easing oversight.',
        rank: improved.length,
        key: 'improved',
        detail: (g) =>
          `${listing(shown.map((c) => line(c, g)))}${improved.length > shown.length ? `, and ${improved.length - shown.length} more` : ''}.`,
      });
    }
  }
  return { summary, findings: renderFindings(cite, drafts), metrics };
}
