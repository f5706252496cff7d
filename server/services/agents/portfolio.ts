/**
 * The snapshot an agent run analyses (docs/agents.md, Agents: memory — page through records, never load a tenant
 * twice): the scope's projects and, of the other record kinds, only those the agent reads, each table scanned once
 * in pages and kept as compact facts (the fields the analyses use, not whole rows). Everything is in a stable order
 * (the scans' index order), so the same records give the same snapshot.
 */
import {
  scanAllocations,
  scanIssues,
  scanMilestones,
  scanProjects,
  scanResources,
  scanRisks,
} from '../../repositories/agent-data.js';
import type { Executor } from '../../repositories/sql.js';
import type { AgentDepth, AgentInput } from './catalogue.js';
import type { ProjectFacts, ReportPoint } from './measures.js';

/** A milestone as the agents see it. */
export interface MilestoneFacts {
  id: string;
  projectId: string;
  name: string;
  dueDate: string;
  status: string;
  completedAt: string | null;
}

/** A risk as the agents see it. */
export interface RiskFacts {
  id: string;
  projectId: string;
  title: string;
  likelihood: number;
  impact: number;
  score: number;
  severity: string;
  status: string;
  mitigation: string | null;
  dueDate: string | null;
}

/** An issue as the agents see it. */
export interface IssueFacts {
  id: string;
  projectId: string;
  title: string;
  status: string;
  priority: string;
  dueDate: string | null;
}

/** A person as the agents see them. */
export interface ResourceFacts {
  id: string;
  name: string;
  role: string | null;
  active: boolean;
}

/** An allocation as the agents see it. */
export interface AllocationFacts {
  id: string;
  resourceId: string;
  projectId: string;
  startDate: string;
  endDate: string;
  allocationPercent: number;
  role: string | null;
}

/** The horizon of the capacity analysis: asOf and the days after it. */
export interface Horizon {
  from: string;
  to: string;
  days: number;
}

/** What one run analyses. */
export interface Portfolio {
  tenantId: string;
  currency: string;
  asOf: string;
  depth: AgentDepth;
  /** The project of a `project:<uuid>` scope; null for `all`. */
  projectId: string | null;
  projects: ProjectFacts[];
  /** By project id, in the scan's order. */
  milestones: Map<string, MilestoneFacts[]>;
  risks: Map<string, RiskFacts[]>;
  issues: Map<string, IssueFacts[]>;
  /** By id. */
  resources: Map<string, ResourceFacts>;
  allocations: AllocationFacts[];
  /** By project id, in asOf order, only reports on or before asOf. */
  reports: Map<string, ReportPoint[]>;
  horizon: Horizon;
}

/** Reads a project's status-report history for the agents (in asOf order); see ./index.ts. */
export type ReportSource = (
  db: Executor,
  scope: { tenantId: string; projectId?: string | undefined },
  asOf: string,
) => AsyncIterable<ReportPoint[]>;

/** What to load. */
export interface PortfolioRequest {
  tenantId: string;
  currency: string;
  projectId: string | null;
  asOf: string;
  depth: AgentDepth;
  reads: readonly AgentInput[];
  horizon: Horizon;
  /** The status-report history, when the agent reads it. */
  reports?: ReportSource | undefined;
}

/** Reports progress while loading: the stage and how far (0–100). */
export type Progress = (stage: string, percent: number) => Promise<void>;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Loads the snapshot of one run: each table the agent reads, scanned once in pages. `progress` is told each stage
 * (between `from` and `to` percent).
 */
export async function loadPortfolio(
  db: Executor,
  request: PortfolioRequest,
  progress: Progress,
  span: { from: number; to: number } = { from: 5, to: 60 },
): Promise<Portfolio> {
  const scope = { tenantId: request.tenantId, projectId: request.projectId ?? undefined };
  const reads = new Set(request.reads);
  const portfolio: Portfolio = {
    tenantId: request.tenantId,
    currency: request.currency,
    asOf: request.asOf,
    depth: request.depth,
    projectId: request.projectId,
    projects: [],
    milestones: new Map(),
    risks: new Map(),
    issues: new Map(),
    resources: new Map(),
    allocations: [],
    reports: new Map(),
    horizon: request.horizon,
  };
  const stages = (
    ['projects', 'milestones', 'risks', 'issues', 'allocations', 'status_reports'] as const
  ).filter((s) => s === 'projects' || reads.has(s));
  let done = 0;
  const stage = async (name: string) => {
    await progress(
      `reading ${name.replace('_', ' ')}`,
      Math.round(span.from + ((span.to - span.from) * done++) / stages.length),
    );
  };

  await stage('projects');
  for await (const page of scanProjects(db, scope)) {
    for (const p of page) {
      portfolio.projects.push({
        id: p.id,
        code: p.code,
        name: p.name,
        status: p.status,
        startDate: p.startDate,
        endDate: p.endDate,
        forecastEndDate: p.forecastEndDate,
        budget: p.budget,
        forecastCost: p.forecastCost,
        actualCost: p.actualCost ?? null,
        progress: p.progress ?? null,
        projectManagerId: p.projectManagerId,
      });
    }
  }
  if (reads.has('milestones')) {
    await stage('milestones');
    for await (const page of scanMilestones(db, scope)) {
      for (const m of page) {
        push(portfolio.milestones, m.projectId, {
          id: m.id,
          projectId: m.projectId,
          name: m.name,
          dueDate: m.dueDate,
          status: m.status,
          completedAt: m.completedAt,
        });
      }
    }
  }
  if (reads.has('risks')) {
    await stage('risks');
    for await (const page of scanRisks(db, scope)) {
      for (const r of page) {
        push(portfolio.risks, r.projectId, {
          id: r.id,
          projectId: r.projectId,
          title: r.title,
          likelihood: r.likelihood,
          impact: r.impact,
          score: r.score,
          severity: r.severity,
          status: r.status,
          mitigation: r.mitigation,
          dueDate: r.dueDate,
        });
      }
    }
  }
  if (reads.has('issues')) {
    await stage('issues');
    for await (const page of scanIssues(db, scope)) {
      for (const i of page) {
        push(portfolio.issues, i.projectId, {
          id: i.id,
          projectId: i.projectId,
          title: i.title,
          status: i.status,
          priority: i.priority,
          dueDate: i.dueDate,
        });
      }
    }
  }
  if (reads.has('allocations')) {
    await stage('allocations');
    const people = new Set<string>();
    for await (const page of scanAllocations(db, scope, request.horizon)) {
      for (const a of page) {
        portfolio.allocations.push({
          id: a.id,
          resourceId: a.resourceId,
          projectId: a.projectId,
          startDate: a.startDate,
          endDate: a.endDate,
          allocationPercent: a.allocationPercent,
          role: a.role,
        });
        people.add(a.resourceId);
      }
    }
    // The people: for the portfolio every person of the tenant (the unallocated count towards utilisation), for
    // one project the people allocated to it.
    for await (const page of scanResources(db, scope, request.projectId ? [...people].sort() : undefined)) {
      for (const r of page) {
        portfolio.resources.set(r.id, { id: r.id, name: r.name, role: r.role, active: r.active });
      }
    }
  }
  if (reads.has('status_reports') && request.reports) {
    await stage('status_reports');
    for await (const page of request.reports(db, scope, request.asOf)) {
      for (const r of page) push(portfolio.reports, r.projectId, r);
    }
  }
  return portfolio;
}
