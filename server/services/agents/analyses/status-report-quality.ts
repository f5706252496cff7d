/**
 * The `status-report` agent (docs/agents.md, Agents): the written status report PMOs write by hand every week, for
 * one project or for the portfolio — overall status (RAG from the portfolio-health score), schedule, cost, risks and
 * the decisions needed — every sentence ending with the `[n]` markers of the records it states. At deep depth it
 * adds the trend since the previous status report. Its decisions are also findings. The agent, not the status-report
 * resource (services/status-reports.ts): it reads the reports' history through the snapshot.
 *
 * Its parts: the sections and their writer (./status-report-quality/sections.ts), a project's report (project.ts),
 * the portfolio's (portfolio.ts) and the decisions asked for (decisions.ts).
 */
import type { Schema } from '../../../schemas.js';
import type { CitationBuilder } from '../citations.js';
import { costFigures, plural, type Rag, round } from '../measures.js';
import type { Portfolio, RiskFacts } from '../portfolio.js';
import { type HealthRow, healthRows } from './portfolio-health.js';
import { type AnalysisResult, type Draft, isOpenRisk, renderFindings, source } from './shared.js';
import { decisionsOf } from './status-report-quality/decisions.js';
import { writePortfolio } from './status-report-quality/portfolio.js';
import { writeProject } from './status-report-quality/project.js';
import { markdown, type Section, SectionWriter } from './status-report-quality/sections.js';

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
  const w = new SectionWriter(cite);
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
