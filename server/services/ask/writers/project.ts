/**
 * The answer to a question about one or more named projects (docs/agents.md, Ask: the project intent): one sentence
 * per aspect asked for — status, budget, dates, manager, team, risks, issues, milestones, history — in the order
 * the question's words name them, then any full-text hits inside the project. Every figure is a field of the cited
 * project or record, or an overrun or slip its citation's excerpt states.
 */
import type { Finding, ProjectDetail } from '../evidence.js';
import { integer, percent, plural } from '../text.js';
import type { ProjectAspect } from '../vocabulary.js';
import { history, latestChange } from './history.js';
import { hitLines } from './search.js';
import {
  type AnswerWriter,
  issueDescription,
  issueOrder,
  markers,
  mentioning,
  NAMED,
  riskDescription,
  riskOrder,
} from './shared.js';

type ProjectFinding = Extract<Finding, { kind: 'project' }>;

/** What an aspect's sentence is written from: the writer, the project's detail and the question's qualifiers. */
interface AspectContext {
  w: AnswerWriter;
  d: ProjectDetail;
  filters: ProjectFinding['filters'];
  /** Cites the project with the excerpt of `fields` and returns its `[n]` marker. */
  cite: (fields: string[], field?: string) => string;
}

/** One sentence per aspect; null when the aspect writes none (`overview` is expanded by retrieval). */
const ASPECTS: Record<ProjectAspect, (c: AspectContext) => string | null> = {
  status({ w, d, cite }) {
    const p = d.figures.project;
    const progress = p.progress !== null ? `, progress ${p.progress}%` : '';
    const project = cite(['status', 'progress'], 'status');
    const r = d.latestReport;
    const latest = r
      ? `; its latest status report, of ${r.asOf}${r.phase ? ` (phase ${r.phase})` : ''}, says ${r.status} [${w.report(r, p.name, 'status')}]`
      : '';
    return `${p.name} has status ${p.status}${progress} ${project}${latest}.`;
  },
  budget({ w, d, cite }) {
    const f = d.figures;
    const p = f.project;
    if (p.budget === null)
      return `${p.name} has no budget recorded ${cite(['budget', 'forecastCost'], 'budget')}.`;
    let s = `${p.name} has a budget of ${w.money(p.budget)}`;
    if (p.forecastCost !== null && f.overrun !== null) {
      const rel =
        f.overrun > 0
          ? `over budget by ${w.money(f.overrun)}${f.overrunPercent !== null ? ` (${percent(f.overrunPercent)})` : ''}`
          : f.overrun < 0
            ? `under budget by ${w.money(-f.overrun)}${f.overrunPercent !== null ? ` (${percent(-f.overrunPercent)})` : ''}`
            : 'on budget';
      s += ` and a forecast cost of ${w.money(p.forecastCost)}, ${rel}`;
    } else {
      s += ' and no forecast cost recorded';
    }
    s +=
      p.actualCost !== null ? `; actual cost so far ${w.money(p.actualCost)}` : '; no actual cost reported';
    return `${s} ${cite(['budget', 'forecastCost', 'actualCost', 'overrun'], 'forecastCost')}.`;
  },
  dates({ d, cite }) {
    const f = d.figures;
    const p = f.project;
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
    return `${s} ${cite(['startDate', 'endDate', 'forecastEndDate', 'slip'], 'forecastEndDate')}.`;
  },
  manager({ w, d, cite }) {
    const p = d.figures.project;
    const m = d.manager;
    if (!m)
      return `No project manager is recorded for ${p.name} ${cite(['projectManagerId'], 'projectManagerId')}.`;
    const project = cite(['projectManagerId'], 'projectManagerId');
    const i = w.ref({
      type: 'resource',
      id: m.id,
      title: m.name,
      excerpt: `name ${m.name}${m.role ? `; role ${m.role}` : ''}${m.email ? `; email ${m.email}` : ''}`,
      field: 'name',
    });
    return `The project manager of ${p.name} ${project} is ${m.name}${m.role ? ` (${m.role})` : ''} [${i}].`;
  },
  team({ w, d, cite }) {
    const p = d.figures.project;
    const team = d.team ?? [];
    if (team.length === 0) return `No one is allocated to ${p.name} ${cite(['status'])}.`;
    const lines = team.map(({ allocation: a, resource: r }) => {
      const i = w.ref({
        type: 'allocation',
        id: a.id,
        title: `${r.name} on ${p.name}`,
        excerpt: `resource ${r.name}; allocationPercent ${a.allocationPercent}; startDate ${a.startDate}; endDate ${a.endDate}${a.role ? `; role ${a.role}` : ''}`,
        field: 'allocationPercent',
      });
      return `${r.name}${a.role ? ` (${a.role})` : ''} at ${a.allocationPercent}% from ${a.startDate} to ${a.endDate} [${i}]`;
    });
    return `${p.name} has ${plural(team.length, 'allocation')}: ${lines.join('; ')}.`;
  },
  risks({ w, d, filters, cite }) {
    const p = d.figures.project;
    const riskWords = riskDescription(filters.risks.statuses, filters.risks.severities);
    const about = mentioning(filters.terms);
    const list = [...(d.risks ?? [])].sort(riskOrder);
    if (list.length === 0)
      return `No ${riskWords}risks${about} are recorded for ${p.name} ${cite(['status'])}.`;
    const lines = list
      .slice(0, NAMED)
      .map((r) => `${r.title} (${r.severity}, score ${r.score}, ${r.status}) [${w.risk(r, p.name)}]`);
    let s = `${p.name} has ${plural(list.length, `${riskWords}risk`)}${about}: ${lines.join('; ')}`;
    if (list.length > NAMED)
      s += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map((r) => w.risk(r, p.name)))}`;
    return `${s}.`;
  },
  issues({ w, d, filters, cite }) {
    const p = d.figures.project;
    const issueWords = issueDescription(filters.issues.statuses, filters.issues.priorities);
    const about = mentioning(filters.terms);
    const list = [...(d.issues ?? [])].sort(issueOrder);
    if (list.length === 0)
      return `No ${issueWords}issues${about} are recorded for ${p.name} ${cite(['status'])}.`;
    const lines = list
      .slice(0, NAMED)
      .map(
        (i) =>
          `${i.title} (${i.priority}, ${i.status}${i.dueDate ? `, due ${i.dueDate}` : ''}) [${w.issue(i, p.name)}]`,
      );
    let s = `${p.name} has ${plural(list.length, `${issueWords}issue`)}${about}: ${lines.join('; ')}`;
    if (list.length > NAMED)
      s += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map((i) => w.issue(i, p.name)))}`;
    return `${s}.`;
  },
  milestones({ w, d, filters, cite }) {
    const p = d.figures.project;
    const which = filters.milestones ? `${filters.milestones} ` : '';
    const list = d.milestones ?? [];
    if (list.length === 0) return `${p.name} has no ${which}milestones ${cite(['status'])}.`;
    const lines = list
      .slice(0, NAMED)
      .map((m) => `${m.name} (due ${m.dueDate}, ${m.status}) [${w.milestone(m, p.name)}]`);
    let s = `${p.name} has ${plural(list.length, `${which}milestone`)}: ${lines.join('; ')}`;
    if (list.length > NAMED)
      s += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map((m) => w.milestone(m, p.name)))}`;
    return `${s}.`;
  },
  history({ w, d, cite, filters }) {
    const p = d.figures.project;
    if ((d.history ?? []).length === 0)
      return `No status reports are recorded for ${p.name} ${cite(['status'])}.`;
    // Cited in the order written: the latest change first.
    const latest = filters.latestReport ? `${latestChange(w, p, d.history ?? [])} ` : '';
    return `${latest}${history(w, p, d.history ?? [])}`;
  },
  overview: () => null,
};

/** The answer about one project: a sentence per aspect, then the hits of a search inside it. */
function projectDetail(w: AnswerWriter, d: ProjectDetail, filters: ProjectFinding['filters']): string {
  const cite = (fields: string[], field?: string) => `[${w.project(d.figures, fields, field)}]`;
  const sentences: string[] = [];
  for (const aspect of d.aspects) {
    const sentence = ASPECTS[aspect]({ w, d, filters, cite });
    if (sentence !== null) sentences.push(sentence);
  }
  if (d.hits && d.hits.length > 0) {
    sentences.push(`In the records of ${d.figures.project.name}: ${hitLines(w, d.hits).join('; ')}.`);
  }
  return sentences.join(' ');
}

/** The `project` finding: each named project in the order the question names them. */
export function writeProject(w: AnswerWriter, finding: ProjectFinding): string {
  return finding.details.map((d) => projectDetail(w, d, finding.filters)).join(' ');
}
