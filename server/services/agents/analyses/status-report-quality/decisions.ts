/**
 * The decisions a written status report asks for (docs/agents.md, Agents: `status-report`): re-baseline or recover
 * a finish 30 days or more late, fund an overrun or cut scope, agree new dates for overdue milestones, rebalance an
 * over-allocated person (one project only) and mitigate each open HIGH or CRITICAL risk — most pressing first. Each
 * is a sentence of the report's last section and a finding.
 */
import type { CitationGroup } from '../../citations.js';
import { costFigures, money, percent, plural, round, signedDays } from '../../measures.js';
import type { RiskFacts } from '../../portfolio.js';
import type { HealthRow } from '../portfolio-health.js';
import { type Severity, source, top } from '../shared.js';

/** A decision the report asks for: a sentence and the finding it becomes. */
export interface Decision {
  severity: Severity;
  title: string;
  rank: number;
  key: string;
  sentence: (g: CitationGroup) => string;
  recommendation: string;
}

/** The decisions a report asks for, most pressing first. */
export function decisionsOf(
  rows: readonly HealthRow[],
  risks: readonly RiskFacts[],
  currency: string,
  single: boolean,
): Decision[] {
  const out: Decision[] = [];
  for (const row of rows) {
    const p = row.project;
    if (!single && row.health.rag !== 'RED') continue;
    const slip = row.signals.slipDays;
    if (slip !== null && slip >= 30)
      out.push({
        severity: slip >= 180 ? 'HIGH' : 'MEDIUM',
        title: `${p.name}: re-baseline or recover the finish date`,
        rank: slip,
        key: `${p.id}:schedule`,
        recommendation: 'Decide whether to re-baseline the finish date or fund a recovery plan.',
        sentence: (g) =>
          `Decide whether to re-baseline ${p.name}'s finish date or fund a recovery: the forecast ${p.forecastEndDate} is ${signedDays(slip)} against ${p.endDate} ${g.cite(source.slip(p))}.`,
      });
    const c = costFigures(p);
    if (c.overrun !== null && c.overrun > 0)
      out.push({
        severity: (c.overrunPercent ?? 0) >= 10 ? 'HIGH' : 'MEDIUM',
        title: `${p.name}: fund the overrun or cut scope`,
        rank: c.overrunPercent ?? 0,
        key: `${p.id}:cost`,
        recommendation: 'Decide how the forecast overrun is funded, or which scope is cut.',
        sentence: (g) =>
          `Decide how to fund ${p.name}'s forecast overrun of ${money(c.overrun as number, currency)}${c.overrunPercent === null ? '' : ` (${percent(c.overrunPercent)})`}, or what scope to cut ${g.cite(source.cost(p, currency))}.`,
      });
    if (row.overdue.length > 0)
      out.push({
        severity: 'MEDIUM',
        title: `${p.name}: new dates for ${plural(row.overdue.length, 'overdue milestone')}`,
        rank: row.overdue.length,
        key: `${p.id}:milestones`,
        recommendation: 'Agree new dates for the overdue milestones with their owners.',
        sentence: (g) =>
          `Agree new dates for ${p.name}'s ${plural(row.overdue.length, 'overdue milestone')}, starting with ${(row.overdue[0] as (typeof row.overdue)[number]).name} ${g.cite(source.milestone(row.overdue[0] as (typeof row.overdue)[number]))}.`,
      });
    for (const l of single ? row.overAllocated.slice(0, 3) : [])
      out.push({
        severity: 'MEDIUM',
        title: `Rebalance ${l.resource.name}'s allocations`,
        rank: Math.max(...l.conflicts.map((x) => x.totalPercent)),
        key: `${p.id}:${l.id}`,
        recommendation: 'Move or shorten one of the overlapping allocations.',
        sentence: (g) =>
          `Rebalance ${l.resource.name}'s allocations: up to ${round(Math.max(...l.conflicts.map((x) => x.totalPercent)), 1)} % ${g.cite({ type: 'resource', id: l.resource.id, title: l.resource.name, excerpt: `over-allocated up to ${round(Math.max(...l.conflicts.map((x) => x.totalPercent)), 1)} %` })}.`,
      });
  }
  for (const r of top(
    risks.filter((x) => (x.severity === 'HIGH' || x.severity === 'CRITICAL') && x.status === 'OPEN'),
    (x) => x.score,
    5,
  ))
    out.push({
      severity: r.severity === 'CRITICAL' ? 'CRITICAL' : 'HIGH',
      title: `Mitigate ${r.title}`,
      rank: r.score,
      key: r.id,
      recommendation: 'Approve a mitigation and an owner for this risk, or record why it is accepted.',
      sentence: (g) =>
        `Approve a mitigation and an owner for ${r.title} (${r.likelihood} × ${r.impact} = ${r.score}, ${r.severity}, still OPEN) ${g.cite(source.risk(r))}.`,
    });
  const order: Record<Severity, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1, INFO: 0 };
  return out.sort(
    (a, b) => order[b.severity] - order[a.severity] || b.rank - a.rank || (a.key < b.key ? -1 : 1),
  );
}
