/**
 * Hand-made portfolios for the agents' unit tests (test/unit/agents.test.ts, test/unit/agent-figures.test.ts): ids,
 * project and report builders, a portfolio with every kind of record and signal (at a depth, for one project or all),
 * and the checks every agent output passes.
 */
import { expect } from 'chai';
import type { AgentDepth } from '../../server/services/agents/catalogue.js';
import { markersIn } from '../../server/services/agents/citations.js';
import type { AgentOutput } from '../../server/services/agents/index.js';
import type { ProjectFacts, ReportPoint } from '../../server/services/agents/measures.js';
import type {
  AllocationFacts,
  MilestoneFacts,
  Portfolio,
  ResourceFacts,
  RiskFacts,
} from '../../server/services/agents/portfolio.js';

export const id = (kind: number, n: number) =>
  `0190${String(kind).padStart(4, '0')}-0000-7000-8000-${String(n).padStart(12, '0')}`;

export function project(n: number, fields: Partial<ProjectFacts> = {}): ProjectFacts {
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

export function report(projectN: number, n: number, fields: Partial<ReportPoint>): ReportPoint {
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
export function portfolio(depth: AgentDepth, projectId: string | null = null): Portfolio {
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
export function texts(output: AgentOutput): string[] {
  return [
    output.summary,
    ...output.findings.map((f) => f.detail),
    ...(output.report ? output.report.sections.flatMap((s) => s.sentences) : []),
    ...(output.report ? [output.report.text] : []),
  ];
}

/** The checks every output passes: markers resolve, citations numbered 1..n, findings' citations are the output's. */
export function checkOutput(output: AgentOutput): void {
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

export const DEPTHS: AgentDepth[] = ['quick', 'standard', 'deep'];
