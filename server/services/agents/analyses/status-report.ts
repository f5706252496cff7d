/**
 * `status-report` (issue 11): the written status report PMOs write by hand every week, for one project or for the
 * portfolio — overall status (RAG from the portfolio-health score), schedule, cost, risks and the decisions needed —
 * every sentence ending with the `[n]` markers of the records it states. At deep depth it adds the trend since the
 * previous status report. Its decisions are also findings.
 */
import { daysBetween } from '../../../dates.js';
import type { Schema } from '../../../schemas.js';
import type { CitationBuilder, CitationGroup } from '../citations.js';
import {
  budgetGrowth,
  costFigures,
  money,
  percent,
  plural,
  type Rag,
  ragOfStatus,
  round,
  signedDays,
  signedMoney,
  slipDays,
  slipVelocity,
} from '../measures.js';
import type { Portfolio, RiskFacts } from '../portfolio.js';
import { type HealthRow, healthRows, reasons } from './health.js';
import {
  type AnalysisResult,
  type Draft,
  isOpenRisk,
  listing,
  renderFindings,
  type Severity,
  source,
  top,
} from './shared.js';

type Section = Schema<'StatusReportSection'>;
type SectionId = Section['id'];

const TITLES: Record<SectionId, string> = {
  overall: 'Overall status',
  schedule: 'Schedule',
  cost: 'Cost',
  risks: 'Risks and issues',
  decisions: 'Decisions needed',
};

/** A decision the report asks for: a sentence and the finding it becomes. */
interface Decision {
  severity: Severity;
  title: string;
  rank: number;
  key: string;
  sentence: (g: CitationGroup) => string;
  recommendation: string;
}

/** Writes sentences into sections, each cited through one group per sentence. */
class Writer {
  readonly sections: Section[] = (['overall', 'schedule', 'cost', 'risks', 'decisions'] as SectionId[]).map(
    (id) => ({ id, title: TITLES[id], sentences: [] }),
  );
  constructor(private readonly cite: CitationBuilder) {}

  say(id: SectionId, sentence: (g: CitationGroup) => string): void {
    (this.sections.find((s) => s.id === id) as Section).sentences.push(sentence(this.cite.group()));
  }
}

/** The report as Markdown: the title as a heading, then each section (also used when a model rewrites the sentences). */
export function markdown(title: string, sections: readonly Section[]): string {
  return [`# ${title}`, ...sections.map((s) => `## ${s.title}\n\n${s.sentences.join(' ')}`)].join('\n\n');
}

/** The status-report analysis. */
export function statusReport(portfolio: Portfolio, cite: CitationBuilder): AnalysisResult {
  const single = portfolio.projectId !== null;
  // One project is reported on whatever its status; the portfolio report covers the open projects.
  const rows = single ? healthRows(portfolio, () => true) : healthRows(portfolio);
  const scored = rows.filter((r) => r.health.score !== null);
  const count = (rag: Rag) => scored.filter((r) => r.health.rag === rag).length;
  const ids = new Set(rows.map((r) => r.id));
  const risks: RiskFacts[] = [];
  for (const id of ids) risks.push(...(portfolio.risks.get(id) ?? []).filter(isOpenRisk));
  const issues = [...ids].flatMap((id) =>
    (portfolio.issues.get(id) ?? []).filter((i) => i.status === 'OPEN' || i.status === 'IN_PROGRESS'),
  );
  const costed = rows.filter((r) => costFigures(r.project).overrun !== null);
  const decisions = decisionsOf(rows, risks, portfolio.currency, single);
  const metrics: Record<string, number | null> = {
    projects: rows.length,
    green: count('GREEN'),
    amber: count('AMBER'),
    red: count('RED'),
    healthUnknown: rows.length - scored.length,
    averageHealthScore: scored.length
      ? round(scored.reduce((s, r) => s + (r.health.score as number), 0) / scored.length, 1)
      : null,
    projectsSlipping: rows.filter((r) => (r.signals.slipDays ?? 0) > 0).length,
    varianceAtCompletion: costed.length
      ? round(costed.reduce((s, r) => s + (costFigures(r.project).varianceAtCompletion as number), 0))
      : null,
    openRisks: risks.length,
    exposure: risks.reduce((s, r) => s + r.likelihood * r.impact, 0),
    overdueMilestones: rows.reduce((s, r) => s + r.overdue.length, 0),
    openIssues: issues.length,
    decisionsNeeded: decisions.length,
  };
  const subject = single ? (rows[0]?.project.name ?? 'the project') : 'the portfolio';
  const title = `Status report — ${subject}, as of ${portfolio.asOf}`;
  if (portfolio.depth === 'quick') {
    return {
      summary:
        `${title}: ${metrics.green} GREEN, ${metrics.amber} AMBER, ${metrics.red} RED, ${metrics.healthUnknown} unknown; ` +
        `${plural(metrics.projectsSlipping as number, 'project')} slipping; ${plural(risks.length, 'open risk')} (exposure ${metrics.exposure}); ` +
        `${plural(decisions.length, 'decision')} needed.`,
      findings: [],
      metrics,
    };
  }
  const w = new Writer(cite);
  if (single && rows[0]) writeProject(w, rows[0], portfolio, risks, issues);
  else writePortfolio(w, rows, portfolio, risks);
  if (decisions.length === 0) {
    w.say('decisions', (g) => {
      const first = rows[0];
      return first
        ? `No decision is needed this period: schedule and cost are within baseline or unknown, and no HIGH or CRITICAL risk is open ${g.cite(source.slip(first.project))}${g.cite(source.cost(first.project, portfolio.currency))}.`
        : 'No decision is needed: there is no open project.';
    });
  }
  for (const d of decisions.slice(0, 10)) w.say('decisions', d.sentence);
  const overall = single ? (rows[0]?.health.rag ?? null) : worstRag(scored);
  const report: Schema<'WrittenStatusReport'> = {
    title,
    overall,
    sections: w.sections,
    text: markdown(title, w.sections),
  };
  const drafts: Draft[] = decisions.map((d) => ({
    severity: d.severity,
    category: 'decision',
    title: d.title,
    recommendation: d.recommendation,
    rank: d.rank,
    key: d.key,
    detail: d.sentence,
  }));
  return {
    summary: (w.sections[0] as Section).sentences.slice(0, 2).join(' '),
    findings: renderFindings(cite, drafts),
    metrics,
    report,
  };
}

/** The portfolio's overall RAG: RED when a fifth or more of the scored projects are RED, else AMBER when any is RED or a fifth are AMBER, else GREEN. */
function worstRag(scored: readonly HealthRow[]): Rag | null {
  if (scored.length === 0) return null;
  const red = scored.filter((r) => r.health.rag === 'RED').length / scored.length;
  const amber = scored.filter((r) => r.health.rag === 'AMBER').length / scored.length;
  if (red >= 0.2) return 'RED';
  if (red > 0 || amber >= 0.2) return 'AMBER';
  return 'GREEN';
}

function writeProject(
  w: Writer,
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

function writePortfolio(
  w: Writer,
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

/** The decisions a report asks for, most pressing first. */
function decisionsOf(
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
