/**
 * The six analyses as pure functions of a snapshot (server/services/agents): the field's measures, the metrics each
 * agent promises in the catalogue (exactly those names, per depth), citations that resolve, findings in order,
 * determinism, unknown values left out (never 0), and the figures of hand-made portfolios checked by hand.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import YAML from 'yaml';
import { healthRows } from '../../server/services/agents/analyses/portfolio-health.js';
import { AGENTS, type AgentDepth, type AgentId } from '../../server/services/agents/catalogue.js';
import { markersIn } from '../../server/services/agents/citations.js';
import { type AgentOutput, analyse } from '../../server/services/agents/index.js';
import {
  budgetGrowth,
  costFigures,
  healthOf,
  type ProjectFacts,
  type ReportPoint,
  repeatedSlips,
  slipDays,
  slipVelocity,
} from '../../server/services/agents/measures.js';
import type {
  AllocationFacts,
  MilestoneFacts,
  Portfolio,
  ResourceFacts,
  RiskFacts,
} from '../../server/services/agents/portfolio.js';

const id = (kind: number, n: number) =>
  `0190${String(kind).padStart(4, '0')}-0000-7000-8000-${String(n).padStart(12, '0')}`;

function project(n: number, fields: Partial<ProjectFacts> = {}): ProjectFacts {
  return {
    id: id(1, n),
    code: `P-${n}`,
    name: `Project ${n}`,
    status: 'ON_TRACK',
    startDate: '2025-01-01',
    endDate: '2026-06-30',
    forecastEndDate: '2026-06-30',
    budget: 1_000_000,
    forecastCost: 1_000_000,
    actualCost: 400_000,
    progress: 40,
    projectManagerId: null,
    ...fields,
  };
}

function report(projectN: number, n: number, fields: Partial<ReportPoint>): ReportPoint {
  return {
    id: id(9, projectN * 100 + n),
    projectId: id(1, projectN),
    asOf: '2026-01-01',
    status: 'ON_TRACK',
    phase: 'Construction',
    forecastEndDate: null,
    forecastCost: null,
    actualCost: null,
    progress: null,
    summary: null,
    scheduleSlipDays: null,
    costVariance: null,
    ...fields,
  };
}

/** A portfolio with every kind of record and every kind of signal. */
function portfolio(depth: AgentDepth, projectId: string | null = null): Portfolio {
  const projects = [
    project(1), // on time, on budget
    project(2, { forecastEndDate: '2027-06-30', forecastCost: 1_250_000, status: 'OFF_TRACK' }), // +365 days, +25 %
    project(3, { forecastEndDate: '2026-08-29', forecastCost: 1_040_000, status: 'AT_RISK' }), // +60 days, +4 %
    project(4, { forecastEndDate: null, forecastCost: null, actualCost: null, progress: null }), // unknown
    project(5, { status: 'CANCELLED', forecastEndDate: '2030-01-01', forecastCost: 9_000_000 }), // left out
    project(6, { forecastEndDate: '2026-12-27', budget: 2_000_000, forecastCost: 2_600_000 }), // +180 days, +30 %
  ];
  const milestones = new Map<string, MilestoneFacts[]>([
    [
      id(1, 2),
      [
        {
          id: id(2, 1),
          projectId: id(1, 2),
          name: 'Foundations',
          dueDate: '2026-02-01',
          status: 'MISSED',
          completedAt: null,
        },
        {
          id: id(2, 2),
          projectId: id(1, 2),
          name: 'Steel',
          dueDate: '2026-09-01',
          status: 'PENDING',
          completedAt: null,
        },
        // Completed after asOf: still overdue on asOf.
        {
          id: id(2, 3),
          projectId: id(1, 2),
          name: 'Permits',
          dueDate: '2026-01-15',
          status: 'COMPLETED',
          completedAt: '2026-03-20T10:00:00Z',
        },
      ],
    ],
    [
      id(1, 1),
      [
        {
          id: id(2, 4),
          projectId: id(1, 1),
          name: 'Design',
          dueDate: '2026-01-10',
          status: 'COMPLETED',
          completedAt: '2026-01-09T10:00:00Z',
        },
      ],
    ],
  ]);
  const risk = (
    n: number,
    projectN: number,
    l: number,
    i: number,
    status: string,
    fields: Partial<RiskFacts> = {},
  ): RiskFacts => {
    const score = l * i;
    return {
      id: id(3, n),
      projectId: id(1, projectN),
      title: `Risk ${n}`,
      likelihood: l,
      impact: i,
      score,
      severity: score >= 20 ? 'CRITICAL' : score >= 10 ? 'HIGH' : score >= 5 ? 'MEDIUM' : 'LOW',
      status,
      mitigation: status === 'OPEN' ? null : 'a plan',
      dueDate: null,
      ...fields,
    };
  };
  const risks = new Map<string, RiskFacts[]>([
    [
      id(1, 2),
      [
        risk(1, 2, 5, 5, 'OPEN'),
        risk(2, 2, 4, 3, 'MITIGATING', { dueDate: '2026-02-01' }),
        risk(3, 2, 1, 1, 'CLOSED'),
      ],
    ],
    [id(1, 1), [risk(4, 1, 2, 3, 'ACCEPTED')]],
  ]);
  const resources = new Map<string, ResourceFacts>([
    [id(4, 1), { id: id(4, 1), name: 'Ana', role: 'Engineer', active: true }],
    [id(4, 2), { id: id(4, 2), name: 'Ben', role: 'Engineer', active: true }],
    [id(4, 3), { id: id(4, 3), name: 'Cy', role: null, active: true }],
    [id(4, 4), { id: id(4, 4), name: 'Dee', role: 'Planner', active: false }],
  ]);
  const allocation = (
    n: number,
    resourceN: number,
    projectN: number,
    from: string,
    to: string,
    pct: number,
  ): AllocationFacts => ({
    id: id(5, n),
    resourceId: id(4, resourceN),
    projectId: id(1, projectN),
    startDate: from,
    endDate: to,
    allocationPercent: pct,
    role: null,
  });
  const allocations = [
    allocation(1, 1, 2, '2026-01-01', '2026-12-31', 60),
    allocation(2, 1, 3, '2026-03-01', '2026-04-30', 60), // Ana 120 % in March–April
    allocation(3, 2, 1, '2026-01-01', '2026-12-31', 100), // Ben 100 %: not over-allocated
    allocation(4, 4, 1, '2026-01-01', '2026-12-31', 200 / 2), // Dee inactive: left out
  ];
  const reports = new Map<string, ReportPoint[]>([
    [
      id(1, 2),
      [
        report(2, 1, {
          asOf: '2025-10-01',
          status: 'AT_RISK',
          forecastEndDate: '2026-09-30',
          scheduleSlipDays: 92,
          forecastCost: 1_100_000,
        }),
        report(2, 2, {
          asOf: '2025-12-01',
          status: 'AT_RISK',
          forecastEndDate: '2027-01-31',
          scheduleSlipDays: 215,
          forecastCost: 1_200_000,
        }),
        report(2, 3, {
          asOf: '2026-02-01',
          status: 'OFF_TRACK',
          forecastEndDate: '2027-06-30',
          scheduleSlipDays: 365,
          forecastCost: 1_250_000,
        }),
      ],
    ],
    [
      id(1, 6),
      [
        report(6, 1, {
          asOf: '2025-11-01',
          status: 'OFF_TRACK',
          forecastEndDate: '2027-01-31',
          scheduleSlipDays: 215,
        }),
        report(6, 2, {
          asOf: '2026-02-01',
          status: 'AT_RISK',
          forecastEndDate: '2026-12-27',
          scheduleSlipDays: 180,
        }),
      ],
    ],
  ]);
  const all: Portfolio = {
    tenantId: id(0, 1),
    currency: 'EUR',
    asOf: '2026-03-02',
    depth,
    projectId,
    projects,
    milestones,
    risks,
    issues: new Map([
      [
        id(1, 2),
        [
          {
            id: id(6, 1),
            projectId: id(1, 2),
            title: 'Crane down',
            status: 'OPEN',
            priority: 'HIGH',
            dueDate: null,
          },
        ],
      ],
    ]),
    resources,
    allocations,
    reports,
    horizon: {
      from: '2026-03-02',
      to: depth === 'deep' ? '2027-03-01' : '2026-05-30',
      days: depth === 'deep' ? 365 : 90,
    },
  };
  if (!projectId) return all;
  const keep = <T>(m: Map<string, T>) => new Map([...m].filter(([k]) => k === projectId));
  return {
    ...all,
    projects: projects.filter((p) => p.id === projectId),
    milestones: keep(milestones),
    risks: keep(risks),
    issues: keep(all.issues),
    reports: keep(reports),
  };
}

/** Every text of an output that may carry `[n]` markers. */
function texts(output: AgentOutput): string[] {
  return [
    output.summary,
    ...output.findings.map((f) => f.detail),
    ...(output.report ? output.report.sections.flatMap((s) => s.sentences) : []),
    ...(output.report ? [output.report.text] : []),
  ];
}

/** The checks every output passes: markers resolve, citations numbered 1..n, findings' citations are the output's. */
function checkOutput(output: AgentOutput): void {
  const indices = output.citations.map((c) => c.index);
  expect(indices).to.deep.equal(indices.map((_, i) => i + 1));
  const known = new Set(indices);
  for (const text of texts(output)) {
    for (const n of markersIn(text)) expect(known.has(n), `[${n}] in "${text.slice(0, 120)}"`).to.equal(true);
  }
  for (const f of output.findings) {
    const used = new Set(markersIn(f.detail));
    expect(f.citations.map((c) => c.index).sort((a, b) => a - b)).to.deep.equal(
      [...used].sort((a, b) => a - b),
    );
    for (const c of f.citations) expect(output.citations[c.index - 1]).to.deep.equal(c);
  }
  for (const c of output.citations) {
    expect(c.url).to.match(
      /^\/v1\/(projects|risks|issues|milestones|resources|allocations|status-reports)\/[0-9a-f-]{36}$/,
    );
    expect(c.excerpt).to.be.a('string').and.not.equal('');
  }
  const rank = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1, INFO: 0 } as const;
  const severities = output.findings.map((f) => rank[f.severity]);
  expect(severities).to.deep.equal([...severities].sort((a, b) => b - a));
}

const DEPTHS: AgentDepth[] = ['quick', 'standard', 'deep'];

describe('agents: measures', () => {
  it('slip, variance at completion, overrun, CPI proxy; unknown stays null', () => {
    expect(slipDays({ endDate: '2026-01-01', forecastEndDate: '2026-03-02' })).to.equal(60);
    expect(slipDays({ endDate: '2026-01-01', forecastEndDate: null })).to.equal(null);
    const c = costFigures({ budget: 1_000, forecastCost: 1_250, actualCost: null });
    expect(c).to.deep.equal({
      varianceAtCompletion: -250,
      overrun: 250,
      overrunPercent: 25,
      cpiProxy: 0.8,
      spentPercent: null,
    });
    expect(costFigures({ budget: null, forecastCost: 5, actualCost: 1 }).varianceAtCompletion).to.equal(null);
    expect(costFigures({ budget: 0, forecastCost: 5, actualCost: null }).overrunPercent).to.equal(null);
  });

  it('health score: deductions per signal, RAG thresholds, unknown when schedule and cost are both unknown', () => {
    const none = { openCritical: 0, openHigh: 0, overdueMilestones: 0, overAllocatedPeople: 0 };
    expect(healthOf({ slipDays: 0, overrunPercent: 0, ...none })).to.include({ score: 100, rag: 'GREEN' });
    // 90 days → 20; 5 % → 20: 60 AMBER.
    expect(healthOf({ slipDays: 90, overrunPercent: 5, ...none })).to.include({ score: 60, rag: 'AMBER' });
    const red = healthOf({
      slipDays: 400,
      overrunPercent: 50,
      ...none,
      openCritical: 1,
      overdueMilestones: 9,
      overAllocatedPeople: 1,
    });
    expect(red.score).to.equal(0);
    expect(red.rag).to.equal('RED');
    expect(red.penalties.map((p) => [p.signal, p.points])).to.deep.equal([
      ['schedule', 40],
      ['cost', 40],
      ['risk', 15],
      ['milestones', 15],
      ['capacity', 10],
    ]);
    expect(healthOf({ slipDays: null, overrunPercent: null, ...none, openHigh: 1 })).to.include({
      score: null,
      rag: null,
    });
    expect(healthOf({ slipDays: null, overrunPercent: 0, ...none })).to.include({ score: 100 });
  });

  it('slip velocity, repeated slips and budget growth over the reports', () => {
    const reports = portfolio('deep').reports.get(id(1, 2)) as ReportPoint[];
    const v = slipVelocity(reports);
    // (365 − 92) days over the 123 days from 2025-10-01 to 2026-02-01, × 30.
    expect(v?.velocity).to.be.closeTo(((365 - 92) / 123) * 30, 1e-9);
    expect(repeatedSlips(reports).map((r) => r.asOf)).to.deep.equal(['2025-12-01', '2026-02-01']);
    expect(budgetGrowth(reports)).to.include({ amount: 150_000 });
    expect(budgetGrowth(reports)?.percent).to.be.closeTo(13.636, 1e-3);
    expect(slipVelocity(reports.slice(0, 1))).to.equal(null);
  });
});

describe('agents: every agent at every depth', () => {
  for (const agent of AGENTS) {
    for (const depth of DEPTHS) {
      it(`${agent.id} ${depth}: the catalogue's metrics, resolvable citations, ordered findings, deterministic`, () => {
        const output = analyse(agent.id, portfolio(depth));
        checkOutput(output);
        const expected = agent.metrics
          .filter((m) => !m.depths || m.depths.includes(depth))
          .map((m) => m.name);
        expect(Object.keys(output.metrics).sort()).to.deep.equal([...expected].sort());
        expect(output.asOf).to.equal('2026-03-02');
        if (depth === 'quick') {
          expect(output.findings).to.deep.equal([]);
          expect(output.citations).to.deep.equal([]);
        } else expect(output.findings.length).to.be.greaterThan(0);
        // Same snapshot, same output.
        expect(analyse(agent.id, portfolio(depth))).to.deep.equal(output);
        expect(JSON.stringify(output)).not.to.match(/NaN|Infinity|undefined/);
      });
      it(`${agent.id} ${depth} over one project`, () => {
        const output = analyse(agent.id as AgentId, portfolio(depth, id(1, 2)));
        checkOutput(output);
      });
    }
  }
});

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

describe('agents: the spec documents every metric', () => {
  it('names each metric of the catalogue in AgentOutput.metrics, under its agent', () => {
    const spec = YAML.parse(
      fs.readFileSync(new URL('../../generated/openapi.yaml', import.meta.url), 'utf8'),
    );
    const text = spec.components.schemas.AgentOutput.properties.metrics.description as string;
    for (const agent of AGENTS) {
      const line = text.split('\n- ').find((l) => l.startsWith(`\`${agent.id}\``)) ?? '';
      for (const m of agent.metrics) expect(line, `${agent.id} ${m.name}`).to.contain(`\`${m.name}\``);
    }
  });
});
