/**
 * What the six analyses share: the result shape, finding drafts (rendered in their final order so citation numbers
 * run through the output in reading order), the citation sources of each record kind with the figures they state,
 * and the stable orderings that make an output depend on nothing but the records.
 */
import type { Schema } from '../../../schemas.js';
import {
  type CitationBuilder,
  type CitationGroup,
  type CitationSource,
  statusReportUrl,
} from '../citations.js';
import {
  costFigures,
  money,
  type ProjectFacts,
  percent,
  type ReportPoint,
  signedDays,
  signedMoney,
  slipDays,
} from '../measures.js';
import type {
  AllocationFacts,
  IssueFacts,
  MilestoneFacts,
  Portfolio,
  ResourceFacts,
  RiskFacts,
} from '../portfolio.js';

/** A finding as the API shows it (spec `Finding`). */
export type Finding = Schema<'Finding'>;
/** A finding's severity (spec `FindingSeverity`). */
export type Severity = Schema<'FindingSeverity'>;

/** What an analysis returns; the agent service adds `asOf` and `citations`. */
export interface AnalysisResult {
  summary: string;
  findings: Finding[];
  metrics: Record<string, number | null>;
  heatMap?: Schema<'RiskHeatMap'>;
  report?: Schema<'WrittenStatusReport'>;
}

/** An analysis: a pure function of the snapshot, numbering its citations with `cite`. */
export type Analysis = (portfolio: Portfolio, cite: CitationBuilder) => AnalysisResult;

/** Findings an output carries at most (spec `AgentOutput.findings`); the metrics count everything. */
export const MAX_FINDINGS = 100;

/** A finding before it is numbered: `detail` is written with the group that collects its citations. */
export interface Draft {
  severity: Severity;
  category: string;
  title: string;
  recommendation: string;
  /** Magnitude within its severity: larger first. */
  rank: number;
  /** Tie-breaker (a record id): the order never depends on anything but the records. */
  key: string;
  detail: (group: CitationGroup) => string;
}

const SEVERITY_RANK: Record<Severity, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1, INFO: 0 };

/** Most severe first, then by rank (descending), then by key. */
export function compareDrafts(a: Draft, b: Draft): number {
  return (
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    b.rank - a.rank ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

/** Orders the drafts, keeps the first {@link MAX_FINDINGS} and renders them (numbering their citations). */
export function renderFindings(cite: CitationBuilder, drafts: Draft[], limit = MAX_FINDINGS): Finding[] {
  return [...drafts]
    .sort(compareDrafts)
    .slice(0, limit)
    .map((d) => {
      const group = cite.group();
      const detail = d.detail(group);
      return {
        severity: d.severity,
        category: d.category,
        title: d.title,
        detail,
        recommendation: d.recommendation,
        citations: group.list(),
      };
    });
}

/** The first `n` items by `score` descending, ties by id: the stable "largest" of a list. */
export function top<T extends { id: string }>(
  items: readonly T[],
  score: (item: T) => number,
  n: number,
): T[] {
  return [...items]
    .sort((a, b) => score(b) - score(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, n);
}

/** A project that is neither COMPLETED nor CANCELLED. */
export function isOpen(p: Pick<ProjectFacts, 'status'>): boolean {
  return p.status !== 'COMPLETED' && p.status !== 'CANCELLED';
}

/** A project that is not CANCELLED. */
export function isLive(p: Pick<ProjectFacts, 'status'>): boolean {
  return p.status !== 'CANCELLED';
}

/** A risk that is not CLOSED. */
export function isOpenRisk(r: Pick<RiskFacts, 'status'>): boolean {
  return r.status !== 'CLOSED';
}

/**
 * Whether a milestone was overdue on `asOf`: due before it and not completed by then (a milestone completed after
 * asOf was still open on that day).
 */
export function isOverdue(m: MilestoneFacts, asOf: string): boolean {
  if (m.dueDate >= asOf) return false;
  if (m.status !== 'COMPLETED') return true;
  return m.completedAt !== null && m.completedAt.slice(0, 10) > asOf;
}

/** A project's display label in text: its name. */
export function label(p: Pick<ProjectFacts, 'name'>): string {
  return p.name;
}

// ------------------------------------------------------------------------------------------------ citation sources

/** Citation sources of each record kind, with the figures the statement rests on. */
export const source = {
  /** A project's slip: `endDate 2020-01-14; forecastEndDate 2021-03-02 (+413 days)`. */
  slip(p: ProjectFacts): CitationSource {
    const slip = slipDays(p);
    return {
      type: 'project',
      id: p.id,
      title: p.name,
      field: 'forecastEndDate',
      excerpt:
        slip === null
          ? `endDate ${p.endDate}; forecastEndDate unknown`
          : `endDate ${p.endDate}; forecastEndDate ${p.forecastEndDate} (${signedDays(slip)})`,
    };
  },
  /** A project's cost at completion: budget, forecastCost and the variance. */
  cost(p: ProjectFacts, currency: string): CitationSource {
    const c = costFigures(p);
    const parts = [
      `budget ${p.budget === null ? 'unknown' : money(p.budget, currency)}`,
      `forecastCost ${p.forecastCost === null ? 'unknown' : money(p.forecastCost, currency)}`,
    ];
    if (c.varianceAtCompletion !== null)
      parts.push(`variance at completion ${signedMoney(c.varianceAtCompletion, currency)}`);
    if (c.overrunPercent !== null && (c.overrun ?? 0) > 0) parts.push(`overrun ${percent(c.overrunPercent)}`);
    return { type: 'project', id: p.id, title: p.name, field: 'forecastCost', excerpt: parts.join('; ') };
  },
  /** A project's cost to date. */
  actual(p: ProjectFacts, currency: string): CitationSource {
    const c = costFigures(p);
    return {
      type: 'project',
      id: p.id,
      title: p.name,
      field: 'actualCost',
      excerpt:
        p.actualCost === null
          ? 'actualCost unknown'
          : `actualCost ${money(p.actualCost, currency)}${c.spentPercent === null ? '' : ` (${percent(c.spentPercent)} of budget)`}`,
    };
  },
  /** A project's status and progress. */
  status(p: ProjectFacts): CitationSource {
    return {
      type: 'project',
      id: p.id,
      title: p.name,
      field: 'status',
      excerpt: `status ${p.status}; progress ${p.progress === null ? 'unknown' : `${p.progress} %`}`,
    };
  },
  /** A milestone's due date and status. */
  milestone(m: MilestoneFacts): CitationSource {
    return {
      type: 'milestone',
      id: m.id,
      title: m.name,
      field: 'dueDate',
      excerpt: `dueDate ${m.dueDate}; status ${m.status}`,
    };
  },
  /** A risk's score: `likelihood 4 × impact 4 = 16 (HIGH), OPEN`. */
  risk(r: RiskFacts): CitationSource {
    return {
      type: 'risk',
      id: r.id,
      title: r.title,
      field: 'score',
      excerpt: `likelihood ${r.likelihood} × impact ${r.impact} = ${r.score} (${r.severity}), ${r.status}${r.mitigation ? '' : ', no mitigation'}`,
    };
  },
  /** A risk's mitigation due date. */
  riskDue(r: RiskFacts): CitationSource {
    return {
      type: 'risk',
      id: r.id,
      title: r.title,
      field: 'dueDate',
      excerpt: `dueDate ${r.dueDate ?? 'none'}; status ${r.status}`,
    };
  },
  /** An issue's priority and status. */
  issue(i: IssueFacts): CitationSource {
    return {
      type: 'issue',
      id: i.id,
      title: i.title,
      field: 'priority',
      excerpt: `priority ${i.priority}; status ${i.status}${i.dueDate ? `; dueDate ${i.dueDate}` : ''}`,
    };
  },
  /** A person (resource) with a figure about them. */
  resource(r: ResourceFacts, excerpt: string): CitationSource {
    return { type: 'resource', id: r.id, title: r.name, excerpt };
  },
  /** An allocation's percentage and dates. */
  allocation(a: AllocationFacts, projectName: string): CitationSource {
    return {
      type: 'allocation',
      id: a.id,
      title: `${projectName} allocation`,
      field: 'allocationPercent',
      excerpt: `${a.allocationPercent} % from ${a.startDate} to ${a.endDate}`,
    };
  },
  /** A status report, on one of its fields. */
  report(
    r: ReportPoint,
    projectName: string,
    field: 'forecastEndDate' | 'forecastCost' | 'status',
    currency: string,
  ): CitationSource {
    const excerpt =
      field === 'forecastEndDate'
        ? `asOf ${r.asOf}; forecastEndDate ${r.forecastEndDate ?? 'unknown'}${r.scheduleSlipDays === null ? '' : ` (slip ${signedDays(r.scheduleSlipDays)})`}`
        : field === 'forecastCost'
          ? `asOf ${r.asOf}; forecastCost ${r.forecastCost === null ? 'unknown' : money(r.forecastCost, currency)}`
          : `asOf ${r.asOf}; status ${r.status}${r.phase ? `; phase ${r.phase}` : ''}`;
    return {
      type: 'status_report',
      id: r.id,
      title: `Status report of ${projectName}, ${r.asOf}`,
      url: statusReportUrl(r.id),
      field,
      excerpt,
    };
  },
};

/** Projects by id. */
export function projectIndex(portfolio: Portfolio): Map<string, ProjectFacts> {
  return new Map(portfolio.projects.map((p) => [p.id, p]));
}

/** `A, B and C`. */
export function listing(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join('; ')} and ${parts[parts.length - 1]}`;
}
