/**
 * Answers listing or counting risks, issues and milestones across the portfolio (docs/agents.md, Ask): open high
 * risks highest score first, issues highest priority first, missed or upcoming milestones earliest due first, each
 * with its project and cited; ten are named and the rest cited as a range.
 */
import type { Finding } from '../evidence.js';
import { integer, plural } from '../text.js';
import {
  type AnswerWriter,
  describe,
  issueDescription,
  issueOrder,
  markers,
  mentioning,
  NAMED,
  riskDescription,
  riskOrder,
} from './shared.js';

/** The `risks` finding. */
export function writeRisks(w: AnswerWriter, finding: Extract<Finding, { kind: 'risks' }>): string {
  const { intent } = finding;
  const list = [...finding.risks].sort((a, b) => riskOrder(a.record, b.record));
  const desc = riskDescription(intent.statuses, intent.severities);
  const where = describe(intent.filter, []);
  const mentions = mentioning(intent.terms);
  const noun = `${desc}risk`;
  if (list.length === 0) return `No ${noun}s${mentions} are recorded${where ? ` on projects${where}` : ''}.`;
  if (intent.form === 'count') {
    const idx = list.map(({ record, project }) => w.risk(record, project.name));
    return `There ${list.length === 1 ? 'is' : 'are'} ${plural(list.length, noun)}${mentions}${where ? ` on projects${where}` : ''}: ${markers(idx)}.`;
  }
  const lines = list
    .slice(0, NAMED)
    .map(
      ({ record: r, project }) =>
        `${r.title} on ${project.name} (${r.severity}, likelihood ${r.likelihood} × impact ${r.impact} = ${r.score}, ${r.status}) [${w.risk(r, project.name)}]`,
    );
  let text = `${plural(list.length, noun)}${mentions}${where ? ` on projects${where}` : ''}, highest score first: ${lines.join('; ')}`;
  if (list.length > NAMED) {
    text += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map(({ record, project }) => w.risk(record, project.name)))}`;
  }
  return `${text}.`;
}

/** The `issues` finding. */
export function writeIssues(w: AnswerWriter, finding: Extract<Finding, { kind: 'issues' }>): string {
  const { intent } = finding;
  const list = [...finding.issues].sort((a, b) => issueOrder(a.record, b.record));
  const desc = issueDescription(intent.statuses, intent.priorities);
  const where = describe(intent.filter, []);
  const mentions = mentioning(intent.terms);
  const noun = `${desc}issue`;
  if (list.length === 0) return `No ${noun}s${mentions} are recorded${where ? ` on projects${where}` : ''}.`;
  if (intent.form === 'count') {
    const idx = list.map(({ record, project }) => w.issue(record, project.name));
    return `There ${list.length === 1 ? 'is' : 'are'} ${plural(list.length, noun)}${mentions}${where ? ` on projects${where}` : ''}: ${markers(idx)}.`;
  }
  const lines = list
    .slice(0, NAMED)
    .map(
      ({ record: i, project }) =>
        `${i.title} on ${project.name} (${i.priority}, ${i.status}${i.dueDate ? `, due ${i.dueDate}` : ''}) [${w.issue(i, project.name)}]`,
    );
  let text = `${plural(list.length, noun)}${mentions}${where ? ` on projects${where}` : ''}, highest priority first: ${lines.join('; ')}`;
  if (list.length > NAMED) {
    text += `; and ${integer(list.length - NAMED)} more ${markers(list.slice(NAMED).map(({ record, project }) => w.issue(record, project.name)))}`;
  }
  return `${text}.`;
}

/** The `milestones` finding: missed (MISSED, or PENDING past due) or upcoming (PENDING, due today or later). */
export function writeMilestones(w: AnswerWriter, finding: Extract<Finding, { kind: 'milestones' }>): string {
  const { intent, milestones } = finding;
  const where = describe(intent.filter, []);
  const noun = intent.which === 'missed' ? 'missed milestone' : 'upcoming milestone';
  const rule =
    intent.which === 'missed'
      ? ' (status MISSED, or still PENDING after the due date)'
      : ' (PENDING, due today or later)';
  if (milestones.length === 0) return `No ${noun}s${rule}${where ? ` on projects${where}` : ''}.`;
  if (intent.form === 'count') {
    const idx = milestones.map(({ record, project }) => w.milestone(record, project.name));
    return `There ${milestones.length === 1 ? 'is' : 'are'} ${plural(milestones.length, noun)}${rule}: ${markers(idx)}.`;
  }
  const lines = milestones
    .slice(0, NAMED)
    .map(
      ({ record: m, project }) =>
        `${m.name} of ${project.name} (due ${m.dueDate}, ${m.status}) [${w.milestone(m, project.name)}]`,
    );
  let text = `${plural(milestones.length, noun)}${rule}${where ? ` on projects${where}` : ''}, earliest due first: ${lines.join('; ')}`;
  if (milestones.length > NAMED) {
    text += `; and ${integer(milestones.length - NAMED)} more ${markers(
      milestones.slice(NAMED).map(({ record, project }) => w.milestone(record, project.name)),
    )}`;
  }
  return `${text}.`;
}
