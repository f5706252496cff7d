/**
 * The figures of each agent over the hand-made portfolio of test/support/agent-portfolio.ts, checked by hand:
 * schedule and budget health, risk exposure, resource capacity, portfolio health and the status report.
 */
import { expect } from 'chai';
import { healthRows } from '../../server/services/agents/analyses/portfolio-health.js';
import { markersIn } from '../../server/services/agents/citations.js';
import { type AgentOutput, analyse } from '../../server/services/agents/index.js';

import { id, portfolio } from '../support/agent-portfolio.js';

describe('agents: figures', () => {
  it('schedule-health: slips of the live projects, the largest first, overdue milestones as of asOf', () => {
    const out = analyse('schedule-health', portfolio('standard'));
    expect(out.metrics).to.include({
      projects: 5,
      projectsWithForecast: 4,
      forecastUnknown: 1,
      projectsSlipping: 3,
      maxSlipDays: 365,
      medianSlipDays: 120,
      overdueMilestones: 2,
      missedMilestones: 1,
    });
    const largest = out.findings.find((f) =>
      f.title.includes('largest slip'),
    ) as AgentOutput['findings'][number];
    expect(largest.citations.map((c) => c.title)).to.deep.equal(['Project 2', 'Project 6', 'Project 3']);
    expect(largest.citations[0]).to.include({
      field: 'forecastEndDate',
      excerpt: 'endDate 2026-06-30; forecastEndDate 2027-06-30 (+365 days)',
    });
    const overdue = out.findings.find((f) =>
      f.title.includes('overdue milestone'),
    ) as AgentOutput['findings'][number];
    expect(overdue.citations.map((c) => c.title)).to.deep.equal(['Permits', 'Foundations']);
    const deep = analyse('schedule-health', portfolio('deep'));
    expect(deep.metrics.projectsWithSlipVelocity).to.equal(2);
    expect(deep.metrics.projectsSlippingRepeatedly).to.equal(1);
  });

  it('budget-health: totals over the projects with both figures, unknown left out, CPI proxy', () => {
    const out = analyse('budget-health', portfolio('standard'));
    // Projects 1, 2, 3, 6 (4 unknown, 5 cancelled): budgets 1 + 1 + 1 + 2 M, forecasts 1 + 1.25 + 1.04 + 2.6 M.
    expect(out.metrics).to.include({
      projects: 5,
      projectsWithForecast: 4,
      forecastUnknown: 1,
      totalBudget: 5_000_000,
      totalForecastCost: 5_890_000,
      varianceAtCompletion: -890_000,
      cpiProxy: 0.849,
      projectsOverBudget: 3,
      totalOverrun: 890_000,
      largestOverrun: 600_000,
      largestOverrunPercent: 30,
      actualCost: 1_600_000,
      actualCostUnknown: 1,
    });
    const byAmount = out.findings.find((f) =>
      f.title.includes('by amount'),
    ) as AgentOutput['findings'][number];
    expect(byAmount.citations.map((c) => c.title)).to.deep.equal(['Project 6', 'Project 2', 'Project 3']);
    expect(byAmount.citations[0]?.excerpt).to.equal(
      'budget 2,000,000 EUR; forecastCost 2,600,000 EUR; variance at completion −600,000 EUR; overrun 30.0 %',
    );
  });

  it('risk-assessment: exposure and heat map of the risks that are not CLOSED; unmitigated and overdue; candidates', () => {
    const out = analyse('risk-assessment', portfolio('standard'));
    expect(out.metrics).to.include({
      risks: 4,
      openRisks: 3,
      exposure: 25 + 12 + 6,
      criticalRisks: 1,
      highRisks: 1,
      unmitigatedHighRisks: 1,
      overdueMitigations: 1,
      projectsWithoutRisks: 3,
      candidateRisks: 1,
    });
    expect(out.heatMap?.cells[4]?.[4]).to.equal(1);
    expect(out.heatMap?.cells[3]?.[2]).to.equal(1);
    expect(out.heatMap?.cells.flat().reduce((s, n) => s + n, 0)).to.equal(3);
    const candidates = out.findings.filter((f) => f.title.includes('no risk recorded'));
    // Project 6 (+180 days, +30 %); Project 3's +60 days and +4 % are below the thresholds (90 days, 5 %).
    expect(candidates.map((f) => f.title.split(':')[0])).to.deep.equal(['Project 6']);
    expect(candidates[0]?.recommendation).to.match(/creates nothing/);
  });

  it('resource-capacity: utilisation and over-allocation of the active people over the horizon', () => {
    const out = analyse('resource-capacity', portfolio('standard'));
    expect(out.metrics).to.include({
      horizonDays: 90,
      resources: 3,
      allocatedResources: 2,
      overAllocatedResources: 1,
      overAllocationPeriods: 1,
      peakAllocationPercent: 120,
      underUtilisedResources: 1,
      roles: 2,
    });
    const ana = out.findings.find((f) => f.title.startsWith('Ana')) as AgentOutput['findings'][number];
    expect(ana.detail).to.contain('2026-03-02 to 2026-04-30 at 120 %');
    expect(ana.citations.map((c) => c.type)).to.deep.equal(['resource', 'allocation', 'allocation']);
  });

  it('portfolio-health: scores from the signals, unknown health not counted as any RAG', () => {
    const rows = healthRows(portfolio('standard'));
    const score = (n: number) => rows.find((r) => r.id === id(1, n))?.health;
    expect(score(1)).to.include({ score: 100, rag: 'GREEN' });
    // +365 days (40), +25 % (40), one CRITICAL and one HIGH risk (23), two overdue milestones (10), Ana (10).
    expect(score(2)).to.include({ score: 0, rag: 'RED' });
    expect(score(4)).to.include({ score: null, rag: null });
    const out = analyse('portfolio-health', portfolio('deep'));
    expect(out.metrics).to.include({
      projects: 5,
      healthUnknown: 1,
      ragChanged: 2,
      ragImproved: 1,
      ragWorsened: 1,
    });
  });

  it('status-report: five sections, every sentence cited, decisions as findings', () => {
    for (const scope of [null, id(1, 2)]) {
      const out = analyse('status-report', portfolio('deep', scope));
      const report = out.report as NonNullable<AgentOutput['report']>;
      expect(report.sections.map((s) => s.id)).to.deep.equal([
        'overall',
        'schedule',
        'cost',
        'risks',
        'decisions',
      ]);
      for (const section of report.sections) {
        expect(section.sentences.length).to.be.greaterThan(0);
        for (const sentence of section.sentences)
          expect(markersIn(sentence).length, sentence).to.be.greaterThan(0);
      }
      expect(out.findings.every((f) => f.category === 'decision')).to.equal(true);
      expect(report.text.startsWith(`# ${report.title}`)).to.equal(true);
    }
    const one = analyse('status-report', portfolio('standard', id(1, 2)));
    expect(one.report?.overall).to.equal('RED');
    expect(one.metrics).to.include({
      projects: 1,
      red: 1,
      openRisks: 2,
      openIssues: 1,
      overdueMilestones: 2,
    });
  });
});
