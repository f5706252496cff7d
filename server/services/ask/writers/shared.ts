/**
 * What the embedded engine's writers share (docs/agents.md, Ask: the embedded engine): the answer's citations, one
 * per record and field, with the excerpt each record's citation carries; the `[n]` markers; how a filter, a list of
 * search terms and the risk and issue qualifiers are worded; and the orders lists are written in. Figures are
 * written by ../text.ts, so `npm run eval` can read each one back by value.
 */
import type { AllocationRecord } from '../../../repositories/allocations.js';
import type { IssueRecord } from '../../../repositories/issues.js';
import type { MilestoneRecord } from '../../../repositories/milestones.js';
import type { ResourceRecord } from '../../../repositories/resources.js';
import type { RiskRecord } from '../../../repositories/risks.js';
import type { StoredStatusReport } from '../../../repositories/status-reports.js';
import { CitationBuilder, type CitationSource, statusReportUrl } from '../../agents/citations.js';
import type { Finding, ProjectFigures } from '../evidence.js';
import type { ProjectFilter } from '../intents.js';
import { integer, joinAnd, joinOr, money, percent } from '../text.js';
import type { SumField } from '../vocabulary.js';

/** How many records an answer names one by one; the rest are cited as a range. */
export const NAMED = 10;

/** The words an answer uses for each summable field. */
export const SUM_LABELS: Record<SumField, string> = {
  budget: 'budget',
  forecastCost: 'forecast cost',
  actualCost: 'actual cost',
};

/** Markers for cited indexes: consecutive runs of five or more as a range `[a]–[b]`, the others one by one. */
export function markers(indexes: readonly number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    if (j - i >= 4) out.push(`[${sorted[i]}]–[${sorted[j]}]`);
    else for (let k = i; k <= j; k++) out.push(`[${sorted[k]}]`);
    i = j + 1;
  }
  return out.join('');
}

/**
 * One answer being written: its citations (services/agents/citations.ts, shared with the agents: numbered in order
 * of first mention, one per record and field) and the tenant's currency. Each `cite…` method cites a record with
 * the excerpt of the fields the statement rests on and returns the citation's index.
 */
export class AnswerWriter {
  readonly cites = new CitationBuilder();
  constructor(private readonly currency: string) {}

  /** An amount in the tenant's currency (../text.ts `money`). */
  money(value: number): string {
    return money(value, this.currency);
  }

  /** Cites a record and returns its index (a status report's address is `/v1/status-reports/{id}`). */
  ref(source: CitationSource): number {
    return this.cites.citation(
      source.type === 'status_report' ? { ...source, url: statusReportUrl(source.id) } : source,
    ).index;
  }

  /** The excerpt of a project: the fields named, as `name value` pairs. */
  projectExcerpt(f: ProjectFigures, fields: readonly string[]): string {
    const p = f.project;
    const parts: string[] = [];
    const m = (v: number | null) => (v === null ? 'unknown' : this.money(v));
    for (const field of fields) {
      switch (field) {
        case 'status':
          parts.push(`status ${p.status}`);
          break;
        case 'progress':
          parts.push(`progress ${p.progress === null ? 'unknown' : `${p.progress}%`}`);
          break;
        case 'budget':
          parts.push(`budget ${m(p.budget)}`);
          break;
        case 'forecastCost':
          parts.push(`forecastCost ${m(p.forecastCost)}`);
          break;
        case 'actualCost':
          parts.push(`actualCost ${m(p.actualCost)}`);
          break;
        case 'overrun':
          if (f.overrun !== null) {
            parts.push(
              `variance at completion ${this.money(-f.overrun)}${
                f.overrunPercent !== null
                  ? ` (${f.overrun >= 0 ? 'overrun' : 'underrun'} ${percent(Math.abs(f.overrunPercent))})`
                  : ''
              }`,
            );
          }
          break;
        case 'startDate':
          parts.push(`startDate ${p.startDate}`);
          break;
        case 'endDate':
          parts.push(`endDate ${p.endDate}`);
          break;
        case 'forecastEndDate':
          parts.push(`forecastEndDate ${p.forecastEndDate ?? 'unknown'}`);
          break;
        case 'slip':
          if (f.slipDays !== null) parts.push(`slip ${integer(f.slipDays)} days`);
          break;
        case 'code':
          if (p.code) parts.push(`code ${p.code}`);
          break;
        case 'tags':
          if (p.tags.length) parts.push(`tags ${p.tags.join(', ')}`);
          break;
        case 'projectManagerId':
          parts.push(`projectManagerId ${p.projectManagerId ?? 'none'}`);
          break;
      }
    }
    return parts.join('; ');
  }

  /** Cites a project with the excerpt of `fields`, the statement resting on `field`. */
  project(f: ProjectFigures, fields: readonly string[], field?: string): number {
    return this.ref({
      type: 'project',
      id: f.project.id,
      title: f.project.name,
      excerpt: this.projectExcerpt(f, fields),
      field,
    });
  }

  /** Cites a risk on its severity. */
  risk(r: RiskRecord, projectName: string): number {
    return this.ref({
      type: 'risk',
      id: r.id,
      title: r.title,
      excerpt: `project ${projectName}; severity ${r.severity}; likelihood ${r.likelihood}; impact ${r.impact}; score ${r.score}; status ${r.status}${r.dueDate ? `; dueDate ${r.dueDate}` : ''}${r.mitigation ? `; mitigation ${r.mitigation}` : ''}`,
      field: 'severity',
    });
  }

  /** Cites an issue on its priority. */
  issue(i: IssueRecord, projectName: string): number {
    return this.ref({
      type: 'issue',
      id: i.id,
      title: i.title,
      excerpt: `project ${projectName}; priority ${i.priority}; status ${i.status}${i.dueDate ? `; dueDate ${i.dueDate}` : ''}`,
      field: 'priority',
    });
  }

  /** Cites a milestone on its due date. */
  milestone(m: MilestoneRecord, projectName: string): number {
    return this.ref({
      type: 'milestone',
      id: m.id,
      title: m.name,
      excerpt: `project ${projectName}; dueDate ${m.dueDate}; status ${m.status}${m.completedAt ? `; completedAt ${m.completedAt}` : ''}`,
      field: 'dueDate',
    });
  }

  /** Cites a status report (the whole report unless a field is named). */
  report(r: StoredStatusReport, projectName: string, field?: string): number {
    const parts = [`asOf ${r.asOf}`, `status ${r.status}`];
    if (r.phase) parts.push(`phase ${r.phase}`);
    parts.push(`forecastEndDate ${r.forecastEndDate ?? 'unknown'}`);
    parts.push(`forecastCost ${r.forecastCost === null ? 'unknown' : this.money(r.forecastCost)}`);
    parts.push(`actualCost ${r.actualCost === null ? 'unknown' : this.money(r.actualCost)}`);
    parts.push(`progress ${r.progress === null ? 'unknown' : `${r.progress}%`}`);
    if (r.summary) parts.push(`summary ${r.summary}`);
    return this.ref({
      type: 'status_report',
      id: r.id,
      title: `${projectName}: status report of ${r.asOf}`,
      excerpt: parts.join('; '),
      field,
    });
  }

  /** Cites a person on their name (and role), with `extra` appended to the excerpt. */
  resource(r: ResourceRecord, extra = ''): number {
    return this.ref({
      type: 'resource',
      id: r.id,
      title: r.name,
      excerpt: `name ${r.name}${r.role ? `; role ${r.role}` : ''}${extra}`,
      field: 'name',
    });
  }

  /** Cites a person's allocation to a project on its percentage. */
  allocation(a: AllocationRecord, person: string, project: string): number {
    return this.ref({
      type: 'allocation',
      id: a.id,
      title: `${person} on ${project}`,
      excerpt: `project ${project}; allocationPercent ${a.allocationPercent}; startDate ${a.startDate}; endDate ${a.endDate}${a.role ? `; role ${a.role}` : ''}`,
      field: 'allocationPercent',
    });
  }
}

/** Writes the answer to one kind of finding (the embedded engine's `WRITERS` table holds one per kind). */
export type FindingWriter<K extends Finding['kind']> = (
  w: AnswerWriter,
  finding: Extract<Finding, { kind: K }>,
) => string;

// ------------------------------------------------------------------------------------------------------ wording

/** " with status AT_RISK, tagged “Brooklyn” and forecast to cost more than their budget", or "" for no filter. */
export function describe(
  filter: ProjectFilter,
  terms: readonly string[],
  mention = 'whose records mention',
): string {
  const parts: string[] = [];
  if (filter.statuses) parts.push(`with status ${filter.statuses.join(' or ')}`);
  for (const { field, values } of filter.facets ?? []) {
    const or = joinOr(values);
    if (field === 'borough') parts.push(`in ${or}`);
    else if (field === 'category') parts.push(`in the category ${joinOr(values.map((v) => `“${v}”`))}`);
    else if (field === 'agency') parts.push(`of ${or} (as managing or client agency)`);
    else if (field === 'managingAgency') parts.push(`managed by ${or}`);
    else if (field === 'clientAgency') parts.push(`with client agency ${or}`);
    else parts.push(`tagged ${joinOr(values.map((v) => `“${v}”`))}`);
  }
  if (filter.money) {
    const label = SUM_LABELS[filter.money.field];
    const { min, max } = filter.money;
    if (min !== undefined) parts.push(`with a ${label} of at least ${integer(min)}`);
    if (max !== undefined) parts.push(`with a ${label} of at most ${integer(max)}`);
  }
  if (filter.reported) {
    const { from, to, statuses } = filter.reported;
    parts.push(
      `that reported${statuses ? ` status ${statuses.join(' or ')}` : ''} between ${from} and ${to}`,
    );
  }
  if (filter.overBudget) parts.push('forecast to cost more than their budget');
  if (filter.late) parts.push('forecast to finish after their baseline end date');
  if (terms.length) parts.push(`${mention} ${joinAnd(terms.map((t) => `“${t}”`))}`);
  return parts.length ? ` ${joinAnd(parts)}` : '';
}

/** " mentioning “a” and “b”" for search terms, or "" for none. */
export function mentioning(terms: readonly string[]): string {
  return terms.length ? ` mentioning ${joinAnd(terms.map((t) => `“${t}”`))}` : '';
}

/** "open (OPEN or MITIGATING) HIGH or CRITICAL " */
export function riskDescription(statuses: string[] | undefined, severities: string[] | undefined): string {
  const parts: string[] = [];
  if (statuses)
    parts.push(
      statuses.length === 2 && statuses.includes('MITIGATING')
        ? 'open (OPEN or MITIGATING)'
        : statuses.join(' or '),
    );
  if (severities) parts.push(severities.join(' or '));
  return parts.length ? `${parts.join(' ')} ` : '';
}

/** "open (OPEN or IN_PROGRESS) HIGH or CRITICAL priority " */
export function issueDescription(statuses: string[] | undefined, priorities: string[] | undefined): string {
  const parts: string[] = [];
  if (statuses)
    parts.push(
      statuses.length === 2 && statuses.includes('IN_PROGRESS')
        ? 'open (OPEN or IN_PROGRESS)'
        : statuses.join(' or '),
    );
  if (priorities) parts.push(`${priorities.join(' or ')} priority`);
  return parts.length ? `${parts.join(' ')} ` : '';
}

// ------------------------------------------------------------------------------------------------------- orders

const PRIORITY_RANK: Record<string, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1 };

/** Risks by score (highest first), then title, then id. */
export function riskOrder(a: RiskRecord, b: RiskRecord): number {
  return b.score - a.score || a.title.localeCompare(b.title) || (a.id < b.id ? -1 : 1);
}

/** Issues by priority (highest first), then due date (none last), then title, then id. */
export function issueOrder(a: IssueRecord, b: IssueRecord): number {
  return (
    (PRIORITY_RANK[b.priority] ?? 0) - (PRIORITY_RANK[a.priority] ?? 0) ||
    (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') ||
    a.title.localeCompare(b.title) ||
    (a.id < b.id ? -1 : 1)
  );
}
