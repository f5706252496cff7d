/**
 * Answers about sets of projects (docs/agents.md, Ask): a filtered list or count, a sum of one money field, a
 * ranking by overrun, slip, budget or forecast cost, and the portfolio by status. Lists name ten projects and cite
 * the rest as a range; a sum adds only known values and says how many projects had none.
 */
import type { Finding, ProjectFigures } from '../evidence.js';
import type { ProjectFilter } from '../intents.js';
import { integer, joinAnd, percent, plural } from '../text.js';
import { type AnswerWriter, describe, markers, NAMED, SUM_LABELS } from './shared.js';

/** The figure shown for a project in a list, and the fields its excerpt carries. */
function projectLine(
  w: AnswerWriter,
  f: ProjectFigures,
  filter: ProjectFilter,
): { text: string; fields: string[] } {
  if (filter.overBudget && f.overrun !== null) {
    return {
      text: `over by ${w.money(f.overrun)}${f.overrunPercent !== null ? `, ${percent(f.overrunPercent)}` : ''}`,
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

/** The `projects` finding: the projects a filter keeps (largest overrun or slip first when it asks for those). */
export function writeProjects(w: AnswerWriter, finding: Extract<Finding, { kind: 'projects' }>): string {
  const { filter, terms, projects } = finding;
  const desc = describe(filter, terms);
  if (projects.length === 0) return `No project${desc} is recorded.`;
  const withFigures = Boolean(filter.overBudget || filter.late);
  if (finding.form === 'count' && projects.length > NAMED) {
    const idx = projects.map((f) => w.project(f, projectLine(w, f, filter).fields));
    return `${plural(projects.length, 'project')}${desc || ' in total'}: ${markers(idx)}.`;
  }
  const named = projects.slice(0, NAMED).map((f) => {
    const line = projectLine(w, f, filter);
    const i = w.project(f, line.fields);
    return withFigures || !filter.statuses
      ? `${f.project.name} (${line.text}) [${i}]`
      : `${f.project.name} [${i}]`;
  });
  let text = `${plural(projects.length, 'project')}${desc}: ${named.join('; ')}`;
  if (projects.length > NAMED) {
    const rest = projects.slice(NAMED).map((f) => w.project(f, projectLine(w, f, filter).fields));
    const order = filter.overBudget ? ' (largest overrun first)' : filter.late ? ' (longest slip first)' : '';
    text += `; and ${plural(rest.length, 'more project')}${order} ${markers(rest)}`;
  }
  return `${text}.`;
}

/** The `projectSum` finding: the total of the known values, and the projects left out as unknown. */
export function writeProjectSum(w: AnswerWriter, finding: Extract<Finding, { kind: 'projectSum' }>): string {
  const { field, known, unknown } = finding;
  const label = SUM_LABELS[field];
  const desc = describe(finding.filter, finding.terms);
  if (known.length === 0 && unknown.length === 0) return `No project${desc || ' is recorded'}.`;
  let text: string;
  if (known.length === 0) {
    text = `None of the ${plural(unknown.length, 'project')}${desc} has a ${label} recorded`;
  } else {
    const total = known.reduce((s, f) => s + (f.project[field] as number), 0);
    const idx = known.map((f) => w.project(f, [field], field));
    text = `The total ${label} of the ${plural(known.length, 'project')}${desc} with a known ${label} is ${w.money(
      Math.round(total * 100) / 100,
    )} ${markers(idx)}`;
  }
  if (unknown.length > 0 && known.length > 0) {
    const idx = unknown.map((f) => w.project(f, [field], field));
    text += `; ${plural(unknown.length, 'more project')} ${unknown.length === 1 ? 'has' : 'have'} no ${label} recorded and ${
      unknown.length === 1 ? 'is' : 'are'
    } not counted ${markers(idx)}`;
  } else if (known.length === 0) {
    text += ` ${markers(unknown.map((f) => w.project(f, [field], field)))}`;
  }
  return `${text}.`;
}

/** The `ranking` finding: the top projects by one measure, or how few qualify when fewer than asked do. */
export function writeRanking(w: AnswerWriter, finding: Extract<Finding, { kind: 'ranking' }>): string {
  const { measure, projects } = finding;
  const desc = describe(finding.filter, []);
  if (measure === 'budget' || measure === 'forecastCost') {
    const label = SUM_LABELS[measure];
    if (projects.length === 0) return `No project${desc} has a ${label} recorded.`;
    const lines = projects.map(
      (f) =>
        `${f.project.name}: ${w.money(f.project[measure] ?? 0)} [${w.project(f, [measure, 'status'], measure)}]`,
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
      const i = w.project(f, ['endDate', 'forecastEndDate', 'slip', 'status'], 'forecastEndDate');
      return `${p.name}: ${integer(f.slipDays ?? 0)} days late, baseline end ${p.endDate}, forecast finish ${p.forecastEndDate} [${i}]`;
    }
    const i = w.project(f, ['budget', 'forecastCost', 'overrun', 'status'], 'forecastCost');
    const amount = `${w.money(f.overrun ?? 0)}${f.overrunPercent !== null ? ` (${percent(f.overrunPercent)})` : ''}`;
    const pct =
      f.overrunPercent !== null ? `${percent(f.overrunPercent)} (${w.money(f.overrun ?? 0)})` : amount;
    return `${p.name}: over by ${measure === 'overrunPercent' ? pct : amount}, budget ${w.money(p.budget ?? 0)}, forecast cost ${w.money(p.forecastCost ?? 0)} [${i}]`;
  });
  const count =
    projects.length < finding.n
      ? `Only ${plural(projects.length, 'project')}${desc} ${projects.length === 1 ? 'is' : 'are'} ${what}; ${projects.length === 1 ? 'it is' : 'by size'}`
      : `The ${plural(projects.length, 'project')}${desc} ${head}`;
  return `${count}: ${lines.join('; ')}.`;
}

/** The `portfolio` finding: how many projects (of the filter) have each status, most projects first. */
export function writePortfolio(w: AnswerWriter, finding: Extract<Finding, { kind: 'portfolio' }>): string {
  const desc = describe(finding.filter, []);
  const total = finding.groups.reduce((n, g) => n + g.projects.length, 0);
  if (total === 0) return `No project${desc} is recorded.`;
  const parts = finding.groups.map((g) => {
    const idx = g.projects.map((f) => w.project(f, ['status'], 'status'));
    return `${integer(g.projects.length)} ${g.status} ${markers(idx)}`;
  });
  return `The portfolio has ${plural(total, 'project')}${desc}: ${joinAnd(parts)}.`;
}
