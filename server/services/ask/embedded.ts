/**
 * The embedded answer engine (docs/design.md, "Ask"): writes the answer to a question from the evidence retrieval
 * selected, by rule, offline and deterministically. Every figure it writes is a field of a cited record (or a
 * figure of one record — overrun, slip — that the record's citation excerpt states), a count of cited records, or a
 * sum of one field over cited records; every `[n]` is a citation of the answer.
 */
import type { AllocationRecord } from '../../repositories/allocations.js';
import type { IssueRecord } from '../../repositories/issues.js';
import type { MilestoneRecord } from '../../repositories/milestones.js';
import type { ProjectRecord } from '../../repositories/projects.js';
import type { ResourceRecord } from '../../repositories/resources.js';
import type { RiskRecord } from '../../repositories/risks.js';
import type { StoredStatusReport } from '../../repositories/status-reports.js';
import { type Citation, CitationBuilder, type CitationSource, statusReportUrl } from '../agents/citations.js';
import {
  type Evidence,
  type Finding,
  figuresOf,
  type PersonDetail,
  type ProjectDetail,
  type ProjectFigures,
  type SearchEvidence,
} from './evidence.js';
import type { ProjectFilter, SumField } from './intents.js';
import { integer, joinAnd, joinOr, money, percent, plural } from './text.js';

/** An answer with its citations, and the engine that wrote it. */
export interface ComposedAnswer {
  answer: string;
  citations: Citation[];
  engine: string;
}

/** An answer engine: evidence in, answer out (a second engine, issue 12, implements the same). */
export interface AnswerEngine {
  /** The name the response's `engine` carries. */
  readonly name: string;
  compose(evidence: Evidence): Promise<ComposedAnswer>;
}

/** How many records an answer names one by one; the rest are cited as a range. */
const NAMED = 10;

/** The text an answer gives when nothing relevant was found (and it cites nothing). */
export const NOTHING_FOUND =
  "Nothing in your portfolio's records answers this question: no project, risk, issue, milestone or person matches it.";

const SUM_LABELS: Record<SumField, string> = {
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

/** Writes answers from evidence by rule. */
export class EmbeddedEngine implements AnswerEngine {
  readonly name = 'embedded';

  async compose(evidence: Evidence): Promise<ComposedAnswer> {
    const writer = new Writer(evidence.currency);
    const answer = writer.write(evidence.finding);
    return { answer, citations: writer.cites.all(), engine: this.name };
  }
}

class Writer {
  /** The answer's citations (services/agents/citations.ts, shared with the agents): one per record and field. */
  readonly cites = new CitationBuilder();
  constructor(private readonly currency: string) {}

  money(value: number): string {
    return money(value, this.currency);
  }

  /** Cites a record and returns its index (a status report's address is `/v1/status-reports/{id}`). */
  ref(source: CitationSource): number {
    return this.cites.citation(
      source.type === 'status_report' ? { ...source, url: statusReportUrl(source.id) } : source,
    ).index;
  }

  write(finding: Finding): string {
    switch (finding.kind) {
      case 'project':
        return finding.details.map((d) => this.projectDetail(d, finding.filters)).join(' ');
      case 'projects':
        return this.projectList(finding);
      case 'projectSum':
        return this.projectSum(finding);
      case 'ranking':
        return this.ranking(finding);
      case 'risks':
        return this.risks(finding);
      case 'issues':
        return this.issues(finding);
      case 'milestones':
        return this.milestones(finding);
      case 'overAllocated':
        return this.overAllocated(finding);
      case 'search':
        return this.search(finding.hits);
      case 'portfolio':
        return this.portfolio(finding);
      case 'person':
        return finding.people.map((p) => this.person(p)).join(' ');
    }
  }

  portfolio(finding: Extract<Finding, { kind: 'portfolio' }>): string {
    const desc = this.describe(finding.filter, []);
    const total = finding.groups.reduce((n, g) => n + g.projects.length, 0);
    if (total === 0) return `No project${desc} is recorded.`;
    const parts = finding.groups.map((g) => {
      const idx = g.projects.map((f) => this.project(f, ['status'], 'status'));
      return `${integer(g.projects.length)} ${g.status} ${markers(idx)}`;
    });
    return `The portfolio has ${plural(total, 'project')}${desc}: ${joinAnd(parts)}.`;
  }

  // ------------------------------------------------------------------------------------------ citations

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

  project(f: ProjectFigures, fields: readonly string[], field?: string): number {
    return this.ref({
      type: 'project',
      id: f.project.id,
      title: f.project.name,
      excerpt: this.projectExcerpt(f, fields),
      field,
    });
  }

  risk(r: RiskRecord, projectName: string): number {
    return this.ref({
      type: 'risk',
      id: r.id,
      title: r.title,
      excerpt: `project ${projectName}; severity ${r.severity}; likelihood ${r.likelihood}; impact ${r.impact}; score ${r.score}; status ${r.status}${r.dueDate ? `; dueDate ${r.dueDate}` : ''}${r.mitigation ? `; mitigation ${r.mitigation}` : ''}`,
      field: 'severity',
    });
  }

  issue(i: IssueRecord, projectName: string): number {
    return this.ref({
      type: 'issue',
      id: i.id,
      title: i.title,
      excerpt: `project ${projectName}; priority ${i.priority}; status ${i.status}${i.dueDate ? `; dueDate ${i.dueDate}` : ''}`,
      field: 'priority',
    });
  }

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

  /** The history of a project from its status reports: the span, each change of status, and how the forecasts moved. */
  history(p: ProjectRecord, reports: StoredStatusReport[]): string {
    if (reports.length === 0) return `No status reports are recorded for ${p.name}.`;
    const first = reports[0] as StoredStatusReport;
    const last = reports[reports.length - 1] as StoredStatusReport;
    // Every report is cited, oldest first, so the count and each report named below rest on cited records.
    const all = reports.map((r) => this.report(r, p.name));
    const span =
      reports.length === 1
        ? `${p.name} has 1 status report, of ${first.asOf} ${markers(all)}`
        : `${p.name} has ${plural(reports.length, 'status report')} ${markers(all)}, from ${first.asOf} [${this.report(first, p.name)}] to ${last.asOf} [${this.report(last, p.name)}]`;
    const changes: StoredStatusReport[] = [];
    reports.forEach((r, i) => {
      if (i === 0 || r.status !== (reports[i - 1] as StoredStatusReport).status) changes.push(r);
    });
    const shown = changes.slice(-10);
    const moves = shown.map((r) => `${r.status} on ${r.asOf} [${this.report(r, p.name)}]`);
    const statusText =
      changes.length === 1
        ? `its status stayed ${first.status} throughout`
        : `its status went ${changes.length > shown.length ? '… ' : ''}${moves.join(' → ')}`;
    const moved: string[] = [];
    const finishes = reports.filter((r) => r.forecastEndDate !== null);
    if (finishes.length >= 2) {
      const a = finishes[0] as StoredStatusReport;
      const b = finishes[finishes.length - 1] as StoredStatusReport;
      moved.push(
        `the forecast finish moved from ${a.forecastEndDate} [${this.report(a, p.name)}] to ${b.forecastEndDate} [${this.report(b, p.name)}]`,
      );
    }
    const costs = reports.filter((r) => r.forecastCost !== null);
    if (costs.length >= 2) {
      const a = costs[0] as StoredStatusReport;
      const b = costs[costs.length - 1] as StoredStatusReport;
      moved.push(
        `the forecast cost from ${this.money(a.forecastCost as number)} [${this.report(a, p.name)}] to ${this.money(b.forecastCost as number)} [${this.report(b, p.name)}]`,
      );
    }
    return `${span}; ${statusText}${moved.length ? `; ${joinAnd(moved)}` : ''}.`;
  }

  // ------------------------------------------------------------------------------------------ wording

  /** "with status AT_RISK, tagged Brooklyn, forecast over budget, …" */
  describe(filter: ProjectFilter, terms: readonly string[], mention = 'whose records mention'): string {
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
    if (filter.overBudget) parts.push('forecast to cost more than their budget');
    if (filter.late) parts.push('forecast to finish after their baseline end date');
    if (terms.length) parts.push(`${mention} ${joinAnd(terms.map((t) => `“${t}”`))}`);
    return parts.length ? ` ${joinAnd(parts)}` : '';
  }

  /** The figure shown for a project in a list, and the fields its excerpt carries. */
  projectLine(f: ProjectFigures, filter: ProjectFilter): { text: string; fields: string[] } {
    if (filter.overBudget && f.overrun !== null) {
      return {
        text: `over by ${this.money(f.overrun)}${f.overrunPercent !== null ? `, ${percent(f.overrunPercent)}` : ''}`,
        fields: ['status', 'budget', 'forecastCost', 'overrun'],
      };
    }
    if (filter.late && f.slipDays !== null) {
      return {
        text: `${integer(f.slipDays)} days late, forecast to finish on ${f.project.forecastEndDate}`,
        fields: ['status', 'endDate', 'forecastEndDate', 'slip'],
      };
    }
    return { text: f.project.status, fields: ['status'] };
  }

  projectList(finding: Extract<Finding, { kind: 'projects' }>): string {
    const { filter, terms, projects } = finding;
    const desc = this.describe(filter, terms);
    if (projects.length === 0) return `No project${desc} is recorded.`;
    const withFigures = Boolean(filter.overBudget || filter.late);
    if (finding.form === 'count' && projects.length > NAMED) {
      const idx = projects.map((f) => this.project(f, this.projectLine(f, filter).fields));
      return `${plural(projects.length, 'project')}${desc || ' in total'}: ${markers(idx)}.`;
    }
    const named = projects.slice(0, NAMED).map((f) => {
      const line = this.projectLine(f, filter);
      const i = this.project(f, line.fields);
      return withFigures || !filter.statuses
        ? `${f.project.name} (${line.text}) [${i}]`
        : `${f.project.name} [${i}]`;
    });
    let text = `${plural(projects.length, 'project')}${desc}: ${named.join('; ')}`;
    if (projects.length > NAMED) {
      const rest = projects.slice(NAMED).map((f) => this.project(f, this.projectLine(f, filter).fields));
      const order = filter.overBudget
        ? ' (largest overrun first)'
        : filter.late
          ? ' (longest slip first)'
          : '';
      text += `; and ${plural(rest.length, 'more project')}${order} ${markers(rest)}`;
    }
    return `${text}.`;
  }

  projectSum(finding: Extract<Finding, { kind: 'projectSum' }>): string {
    const { field, known, unknown } = finding;
    const label = SUM_LABELS[field];
    const desc = this.describe(finding.filter, finding.terms);
    if (known.length === 0 && unknown.length === 0) return `No project${desc || ' is recorded'}.`;
    let text: string;
    if (known.length === 0) {
      text = `None of the ${plural(unknown.length, 'project')}${desc} has a ${label} recorded`;
    } else {
      const total = known.reduce((s, f) => s + (f.project[field] as number), 0);
      const idx = known.map((f) => this.project(f, [field], field));
      text = `The total ${label} of the ${plural(known.length, 'project')}${desc} with a known ${label} is ${this.money(
        Math.round(total * 100) / 100,
      )} ${markers(idx)}`;
    }
    if (unknown.length > 0 && known.length > 0) {
      const idx = unknown.map((f) => this.project(f, [field], field));
      text += `; ${plural(unknown.length, 'more project')} ${unknown.length === 1 ? 'has' : 'have'} no ${label} recorded and ${
        unknown.length === 1 ? 'is' : 'are'
      } not counted ${markers(idx)}`;
    } else if (known.length === 0) {
      text += ` ${markers(unknown.map((f) => this.project(f, [field], field)))}`;
    }
    return `${text}.`;
  }

  ranking(finding: Extract<Finding, { kind: 'ranking' }>): string {
    const { measure, projects } = finding;
    const desc = this.describe(finding.filter, []);
    if (measure === 'budget' || measure === 'forecastCost') {
      const label = SUM_LABELS[measure];
      if (projects.length === 0) return `No project${desc} has a ${label} recorded.`;
      const lines = projects.map(
        (f) =>
          `${f.project.name}: ${this.money(f.project[measure] ?? 0)} [${this.project(f, [measure, 'status'], measure)}]`,
      );
      return `The ${plural(projects.length, 'project')}${desc} with the largest ${label}: ${lines.join('; ')}.`;
    }
    const what =
      measure === 'slip'
        ? 'forecast to finish after their baseline end date'
        : 'forecast to cost more than their budget';
    if (projects.length === 0) return `No project${desc} is ${what.replace('their', 'its')}.`;
    const head =
      measure === 'slip'
        ? 'with the largest schedule slip (forecast finish after the baseline end date)'
        : measure === 'overrunPercent'
          ? 'with the largest forecast overrun as a percentage of budget'
          : 'with the largest forecast overrun (forecast cost above budget)';
    const lines = projects.map((f) => {
      const p = f.project;
      if (measure === 'slip') {
        const i = this.project(f, ['endDate', 'forecastEndDate', 'slip', 'status'], 'forecastEndDate');
        return `${p.name}: ${integer(f.slipDays ?? 0)} days late, baseline end ${p.endDate}, forecast finish ${p.forecastEndDate} [${i}]`;
      }
      const i = this.project(f, ['budget', 'forecastCost', 'overrun', 'status'], 'forecastCost');
      const amount = `${this.money(f.overrun ?? 0)}${f.overrunPercent !== null ? ` (${percent(f.overrunPercent)})` : ''}`;
      const pct =
        f.overrunPercent !== null ? `${percent(f.overrunPercent)} (${this.money(f.overrun ?? 0)})` : amount;
      return `${p.name}: over by ${measure === 'overrunPercent' ? pct : amount}, budget ${this.money(p.budget ?? 0)}, forecast cost ${this.money(p.forecastCost ?? 0)} [${i}]`;
    });
    const count =
      projects.length < finding.n
        ? `Only ${plural(projects.length, 'project')}${desc} ${projects.length === 1 ? 'is' : 'are'} ${what}; ${projects.length === 1 ? 'it is' : 'by size'}`
        : `The ${plural(projects.length, 'project')}${desc} ${head}`;
    return `${count}: ${lines.join('; ')}.`;
  }

  projectDetail(d: ProjectDetail, filters: Extract<Finding, { kind: 'project' }>['filters']): string {
    const riskWords = riskDescription(filters.risks.statuses, filters.risks.severities);
    const issueWords = issueDescription(filters.issues.statuses, filters.issues.priorities);
    const milestoneWords = filters.milestones ? `${filters.milestones} ` : '';
    const about = filters.terms.length ? ` mentioning ${joinAnd(filters.terms.map((t) => `“${t}”`))}` : '';
    const f = d.figures;
    const p = f.project;
    const sentences: string[] = [];
    const cite = (fields: string[], field?: string) => `[${this.project(f, fields, field)}]`;
    for (const aspect of d.aspects) {
      switch (aspect) {
        case 'status': {
          const progress = p.progress !== null ? `, progress ${p.progress}%` : '';
          const project = cite(['status', 'progress'], 'status');
          const r = d.latestReport;
          const latest = r
            ? `; its latest status report, of ${r.asOf}${r.phase ? ` (phase ${r.phase})` : ''}, says ${r.status} [${this.report(r, p.name, 'status')}]`
            : '';
          sentences.push(`${p.name} has status ${p.status}${progress} ${project}${latest}.`);
          break;
        }
        case 'budget': {
          if (p.budget === null) {
            sentences.push(`${p.name} has no budget recorded ${cite(['budget', 'forecastCost'], 'budget')}.`);
            break;
          }
          let s = `${p.name} has a budget of ${this.money(p.budget)}`;
          if (p.forecastCost !== null && f.overrun !== null) {
            const rel =
              f.overrun > 0
                ? `over budget by ${this.money(f.overrun)}${f.overrunPercent !== null ? ` (${percent(f.overrunPercent)})` : ''}`
                : f.overrun < 0
                  ? `under budget by ${this.money(-f.overrun)}${f.overrunPercent !== null ? ` (${percent(-f.overrunPercent)})` : ''}`
                  : 'on budget';
            s += ` and a forecast cost of ${this.money(p.forecastCost)}, ${rel}`;
          } else {
            s += ' and no forecast cost recorded';
          }
          s +=
            p.actualCost !== null
              ? `; actual cost so far ${this.money(p.actualCost)}`
              : '; no actual cost reported';
          sentences.push(
            `${s} ${cite(['budget', 'forecastCost', 'actualCost', 'overrun'], 'forecastCost')}.`,
          );
          break;
        }
        case 'dates': {
          let s = `${p.name} started on ${p.startDate} with a baseline end date of ${p.endDate}`;
          if (p.forecastEndDate && f.slipDays !== null) {
            const rel =
              f.slipDays > 0
                ? `${integer(f.slipDays)} days late`
                : f.slipDays < 0
                  ? `${integer(-f.slipDays)} days early`
                  : 'on the baseline date';
            s += `; its forecast finish is ${p.forecastEndDate}, ${rel}`;
          } else {
            s += '; no forecast finish is recorded';
          }
          sentences.push(
            `${s} ${cite(['startDate', 'endDate', 'forecastEndDate', 'slip'], 'forecastEndDate')}.`,
          );
          break;
        }
        case 'manager': {
          const m = d.manager;
          if (!m) {
            sentences.push(
              `No project manager is recorded for ${p.name} ${cite(['projectManagerId'], 'projectManagerId')}.`,
            );
          } else {
            const project = cite(['projectManagerId'], 'projectManagerId');
            const i = this.ref({
              type: 'resource',
              id: m.id,
              title: m.name,
              excerpt: `name ${m.name}${m.role ? `; role ${m.role}` : ''}${m.email ? `; email ${m.email}` : ''}`,
              field: 'name',
            });
            sentences.push(
              `The project manager of ${p.name} ${project} is ${m.name}${m.role ? ` (${m.role})` : ''} [${i}].`,
            );
          }
          break;
        }
        case 'team': {
          const team = d.team ?? [];
          if (team.length === 0) {
            sentences.push(`No one is allocated to ${p.name} ${cite(['status'])}.`);
            break;
          }
          const lines = team.map(({ allocation: a, resource: r }) => {
            const i = this.ref({
              type: 'allocation',
              id: a.id,
              title: `${r.name} on ${p.name}`,
              excerpt: `resource ${r.name}; allocationPercent ${a.allocationPercent}; startDate ${a.startDate}; endDate ${a.endDate}${a.role ? `; role ${a.role}` : ''}`,
              field: 'allocationPercent',
            });
            return `${r.name}${a.role ? ` (${a.role})` : ''} at ${a.allocationPercent}% from ${a.startDate} to ${a.endDate} [${i}]`;
          });
          sentences.push(`${p.name} has ${plural(team.length, 'allocation')}: ${lines.join('; ')}.`);
          break;
        }
        case 'risks': {
          const list = [...(d.risks ?? [])].sort(riskOrder);
          if (list.length === 0) {
            sentences.push(`No ${riskWords}risks${about} are recorded for ${p.name} ${cite(['status'])}.`);
            break;
          }
          const lines = list
            .slice(0, NAMED)
            .map(
              (r) => `${r.title} (${r.severity}, score ${r.score}, ${r.status}) [${this.risk(r, p.name)}]`,
            );
          let s = `${p.name} has ${plural(list.length, `${riskWords}risk`)}${about}: ${lines.join('; ')}`;
          if (list.length > NAMED)
            s += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map((r) => this.risk(r, p.name)))}`;
          sentences.push(`${s}.`);
          break;
        }
        case 'issues': {
          const list = [...(d.issues ?? [])].sort(issueOrder);
          if (list.length === 0) {
            sentences.push(`No ${issueWords}issues${about} are recorded for ${p.name} ${cite(['status'])}.`);
            break;
          }
          const lines = list
            .slice(0, NAMED)
            .map(
              (i) =>
                `${i.title} (${i.priority}, ${i.status}${i.dueDate ? `, due ${i.dueDate}` : ''}) [${this.issue(i, p.name)}]`,
            );
          let s = `${p.name} has ${plural(list.length, `${issueWords}issue`)}${about}: ${lines.join('; ')}`;
          if (list.length > NAMED)
            s += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map((i) => this.issue(i, p.name)))}`;
          sentences.push(`${s}.`);
          break;
        }
        case 'milestones': {
          const list = d.milestones ?? [];
          const which = milestoneWords;
          if (list.length === 0) {
            sentences.push(`${p.name} has no ${which}milestones ${cite(['status'])}.`);
            break;
          }
          const lines = list
            .slice(0, NAMED)
            .map((m) => `${m.name} (due ${m.dueDate}, ${m.status}) [${this.milestone(m, p.name)}]`);
          let s = `${p.name} has ${plural(list.length, `${which}milestone`)}: ${lines.join('; ')}`;
          if (list.length > NAMED)
            s += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map((m) => this.milestone(m, p.name)))}`;
          sentences.push(`${s}.`);
          break;
        }
        case 'history':
          if ((d.history ?? []).length === 0) {
            sentences.push(`No status reports are recorded for ${p.name} ${cite(['status'])}.`);
          } else sentences.push(this.history(p, d.history ?? []));
          break;
      }
    }
    if (d.hits && d.hits.length > 0) {
      sentences.push(`In the records of ${p.name}: ${this.hitLines(d.hits).join('; ')}.`);
    }
    return sentences.join(' ');
  }

  risks(finding: Extract<Finding, { kind: 'risks' }>): string {
    const { intent } = finding;
    const list = [...finding.risks].sort((a, b) => riskOrder(a.record, b.record));
    const desc = riskDescription(intent.statuses, intent.severities);
    const where = this.describe(intent.filter, []);
    const mentions = intent.terms.length ? ` mentioning ${joinAnd(intent.terms.map((t) => `“${t}”`))}` : '';
    const noun = `${desc}risk`;
    if (list.length === 0)
      return `No ${noun}s${mentions} are recorded${where ? ` on projects${where}` : ''}.`;
    if (intent.form === 'count') {
      const idx = list.map(({ record, project }) => this.risk(record, project.name));
      return `There ${list.length === 1 ? 'is' : 'are'} ${plural(list.length, noun)}${mentions}${where ? ` on projects${where}` : ''}: ${markers(idx)}.`;
    }
    const lines = list
      .slice(0, NAMED)
      .map(
        ({ record: r, project }) =>
          `${r.title} on ${project.name} (${r.severity}, likelihood ${r.likelihood} × impact ${r.impact} = ${r.score}, ${r.status}) [${this.risk(r, project.name)}]`,
      );
    let text = `${plural(list.length, noun)}${mentions}${where ? ` on projects${where}` : ''}, highest score first: ${lines.join('; ')}`;
    if (list.length > NAMED) {
      text += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map(({ record, project }) => this.risk(record, project.name)))}`;
    }
    return `${text}.`;
  }

  issues(finding: Extract<Finding, { kind: 'issues' }>): string {
    const { intent } = finding;
    const list = [...finding.issues].sort((a, b) => issueOrder(a.record, b.record));
    const desc = issueDescription(intent.statuses, intent.priorities);
    const where = this.describe(intent.filter, []);
    const mentions = intent.terms.length ? ` mentioning ${joinAnd(intent.terms.map((t) => `“${t}”`))}` : '';
    const noun = `${desc}issue`;
    if (list.length === 0)
      return `No ${noun}s${mentions} are recorded${where ? ` on projects${where}` : ''}.`;
    if (intent.form === 'count') {
      const idx = list.map(({ record, project }) => this.issue(record, project.name));
      return `There ${list.length === 1 ? 'is' : 'are'} ${plural(list.length, noun)}${mentions}${where ? ` on projects${where}` : ''}: ${markers(idx)}.`;
    }
    const lines = list
      .slice(0, NAMED)
      .map(
        ({ record: i, project }) =>
          `${i.title} on ${project.name} (${i.priority}, ${i.status}${i.dueDate ? `, due ${i.dueDate}` : ''}) [${this.issue(i, project.name)}]`,
      );
    let text = `${plural(list.length, noun)}${mentions}${where ? ` on projects${where}` : ''}, highest priority first: ${lines.join('; ')}`;
    if (list.length > NAMED) {
      text += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map(({ record, project }) => this.issue(record, project.name)))}`;
    }
    return `${text}.`;
  }

  milestones(finding: Extract<Finding, { kind: 'milestones' }>): string {
    const { intent, milestones } = finding;
    const where = this.describe(intent.filter, []);
    const noun = intent.which === 'missed' ? 'missed milestone' : 'upcoming milestone';
    const rule =
      intent.which === 'missed'
        ? ' (status MISSED, or still PENDING after the due date)'
        : ' (PENDING, due today or later)';
    if (milestones.length === 0) return `No ${noun}s${rule}${where ? ` on projects${where}` : ''}.`;
    if (intent.form === 'count') {
      const idx = milestones.map(({ record, project }) => this.milestone(record, project.name));
      return `There ${milestones.length === 1 ? 'is' : 'are'} ${plural(milestones.length, noun)}${rule}: ${markers(idx)}.`;
    }
    const lines = milestones
      .slice(0, NAMED)
      .map(
        ({ record: m, project }) =>
          `${m.name} of ${project.name} (due ${m.dueDate}, ${m.status}) [${this.milestone(m, project.name)}]`,
      );
    let text = `${plural(milestones.length, noun)}${rule}${where ? ` on projects${where}` : ''}, earliest due first: ${lines.join('; ')}`;
    if (milestones.length > NAMED) {
      text += `; and ${integer(milestones.length - NAMED)} more ${markers(
        milestones.slice(NAMED).map(({ record, project }) => this.milestone(record, project.name)),
      )}`;
    }
    return `${text}.`;
  }

  resource(r: ResourceRecord, extra = ''): number {
    return this.ref({
      type: 'resource',
      id: r.id,
      title: r.name,
      excerpt: `name ${r.name}${r.role ? `; role ${r.role}` : ''}${extra}`,
      field: 'name',
    });
  }

  allocation(a: AllocationRecord, person: string, project: string): number {
    return this.ref({
      type: 'allocation',
      id: a.id,
      title: `${person} on ${project}`,
      excerpt: `project ${project}; allocationPercent ${a.allocationPercent}; startDate ${a.startDate}; endDate ${a.endDate}${a.role ? `; role ${a.role}` : ''}`,
      field: 'allocationPercent',
    });
  }

  /** What one person works on. */
  person(d: PersonDetail): string {
    const r = d.resource;
    const who = `${r.name}${r.role ? ` (${r.role})` : ''} [${this.resource(r)}]`;
    const parts: string[] = [];
    if (d.allocations.length > 0) {
      const lines = d.allocations.map(
        ({ allocation: a, project }) =>
          `${project.name} at ${a.allocationPercent}% from ${a.startDate} to ${a.endDate} [${this.allocation(a, r.name, project.name)}]`,
      );
      parts.push(`is allocated to ${lines.join('; ')}`);
    }
    if (d.manages.length > 0) {
      const lines = d.manages.map(
        (p) =>
          `${p.name} [${this.project(figuresOf(p), ['projectManagerId', 'status'], 'projectManagerId')}]`,
      );
      parts.push(`is the project manager of ${joinAnd(lines)}`);
    }
    if (d.risks.length > 0) {
      const lines = d.risks.map(
        ({ record, project }) => `${record.title} on ${project.name} [${this.risk(record, project.name)}]`,
      );
      parts.push(`owns ${plural(d.risks.length, 'open risk')}: ${lines.join('; ')}`);
    }
    if (d.issues.length > 0) {
      const lines = d.issues.map(
        ({ record, project }) => `${record.title} on ${project.name} [${this.issue(record, project.name)}]`,
      );
      parts.push(`is assigned ${plural(d.issues.length, 'open issue')}: ${lines.join('; ')}`);
    }
    if (parts.length === 0)
      return `${who} has no allocation, manages no project and has no open risk or issue.`;
    return `${who} ${parts.join('; ')}.`;
  }

  overAllocated(finding: Extract<Finding, { kind: 'overAllocated' }>): string {
    if (finding.people.length === 0) {
      if (finding.named) {
        const who = finding.named.map((r) => `${r.name} [${this.resource(r)}]`);
        return `${joinAnd(who)} ${finding.named.length === 1 ? 'is' : 'are'} not over-allocated: no allocations adding up to more than full time in any period from today on.`;
      }
      return 'No one is over-allocated: no person has allocations that add up to more than full time in any period from today on.';
    }
    const lines = finding.people.map(({ resource, conflicts, allocations, projects }) => {
      const periods = conflicts.map((c) => `${c.totalPercent}% from ${c.startDate} to ${c.endDate}`);
      const r = this.ref({
        type: 'resource',
        id: resource.id,
        title: resource.name,
        excerpt: `name ${resource.name}${resource.role ? `; role ${resource.role}` : ''}; over-allocated ${periods.join(', ')}`,
        field: 'capacityHoursPerWeek',
      });
      const involved = new Map<string, string>();
      for (const c of conflicts) {
        for (const a of c.allocations) {
          if (involved.has(a.allocationId)) continue;
          const allocation = allocations.get(a.allocationId);
          const project = projects.get(a.projectId);
          if (!allocation || !project) continue;
          const i = this.ref({
            type: 'allocation',
            id: allocation.id,
            title: `${resource.name} on ${project.name}`,
            excerpt: `project ${project.name}; allocationPercent ${allocation.allocationPercent}; startDate ${allocation.startDate}; endDate ${allocation.endDate}`,
            field: 'allocationPercent',
          });
          involved.set(allocation.id, `${project.name} ${allocation.allocationPercent}% [${i}]`);
        }
      }
      return `${resource.name} [${r}] at ${joinAnd(periods)} (${[...involved.values()].join(', ')})`;
    });
    return `${plural(finding.people.length, 'person', 'people')} ${finding.people.length === 1 ? 'is' : 'are'} over-allocated (allocations adding up to more than full time) in a period from today on: ${lines.join('; ')}.`;
  }

  hitLines(hits: SearchEvidence[]): string[] {
    return hits.map((h) => {
      const title =
        'asOf' in h.record
          ? `${h.project?.name ?? 'Project'}: status report of ${h.record.asOf}`
          : 'name' in h.record
            ? h.record.name
            : h.record.title;
      const i = this.ref({
        type: h.type,
        id: h.record.id,
        title,
        excerpt:
          'asOf' in h.record
            ? `asOf ${h.record.asOf}; status ${h.record.status}; summary ${h.snippet}`
            : h.snippet,
        field:
          h.type === 'status_report'
            ? 'summary'
            : h.type === 'project' || h.type === 'milestone' || h.type === 'resource'
              ? 'name'
              : 'title',
      });
      const of = h.project ? ` of ${h.project.name}` : '';
      const said = h.snippet.toLowerCase().startsWith(title.toLowerCase()) ? '' : `: “${h.snippet}”`;
      return `${TYPE_NAMES[h.type]} “${title}”${of}${said} [${i}]`;
    });
  }

  search(hits: SearchEvidence[]): string {
    if (hits.length === 0) return NOTHING_FOUND;
    return `The records that match best: ${this.hitLines(hits).join('; ')}.`;
  }
}

const TYPE_NAMES: Record<string, string> = {
  project: 'project',
  risk: 'risk',
  issue: 'issue',
  milestone: 'milestone',
  resource: 'person',
  allocation: 'allocation',
  status_report: 'status report',
};

const PRIORITY_RANK: Record<string, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1 };

function riskOrder(a: RiskRecord, b: RiskRecord): number {
  return b.score - a.score || a.title.localeCompare(b.title) || (a.id < b.id ? -1 : 1);
}

function issueOrder(a: IssueRecord, b: IssueRecord): number {
  return (
    (PRIORITY_RANK[b.priority] ?? 0) - (PRIORITY_RANK[a.priority] ?? 0) ||
    (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') ||
    a.title.localeCompare(b.title) ||
    (a.id < b.id ? -1 : 1)
  );
}

/** "open (OPEN or MITIGATING) HIGH or CRITICAL " */
function riskDescription(statuses: string[] | undefined, severities: string[] | undefined): string {
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

function issueDescription(statuses: string[] | undefined, priorities: string[] | undefined): string {
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
