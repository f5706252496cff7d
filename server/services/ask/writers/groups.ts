/**
 * The answer to a grouping or comparison (docs/agents.md, Ask: grouping): each group with its count (or the sum of a
 * money field over its known values) and every project behind it cited; the largest group named first.
 */
import type { Finding } from '../evidence.js';
import { integer, plural } from '../text.js';
import { type AnswerWriter, describe, markers, NAMED, SUM_LABELS } from './shared.js';

const FIELD_NAMES = {
  borough: 'borough',
  category: 'category',
  managingAgency: 'managing agency',
  clientAgency: 'client agency',
  manager: 'project manager',
  status: 'status',
} as const;

/** The `groups` finding. */
export function writeGroups(w: AnswerWriter, finding: Extract<Finding, { kind: 'groups' }>): string {
  const { grouping, groups, ungrouped } = finding;
  const desc = describe(finding.filter, []);
  const field = FIELD_NAMES[grouping.by];
  const money = grouping.measure === 'count' ? null : grouping.measure;
  const cite = (list: typeof ungrouped) =>
    markers(list.map((f) => w.project(f, money ? [money, 'status'] : ['status'], money ?? 'status')));
  if (groups.length === 0) {
    if (ungrouped.length === 0) return `No project${desc} is recorded.`;
    return `None of the ${plural(ungrouped.length, 'project')}${desc} has a ${field} recorded ${cite(ungrouped)}.`;
  }
  const line = (g: (typeof groups)[number]) => {
    if (!money) return `${g.name}: ${plural(g.projects.length, 'project')} ${cite(g.projects)}`;
    const known = g.projects.length - g.unknown.length;
    const total = g.total === null ? `no ${SUM_LABELS[money]} recorded` : w.money(g.total);
    const unknown = g.unknown.length > 0 ? `, ${integer(g.unknown.length)} without one` : '';
    return `${g.name}: ${total} over ${plural(known, 'project')}${unknown} ${cite(g.projects)}`;
  };
  const what = money ? `The ${SUM_LABELS[money]} of projects${desc}` : `Projects${desc}`;
  const first = groups[0] as (typeof groups)[number];
  const tie = groups.filter((g) =>
    money ? g.total === first.total : g.projects.length === first.projects.length,
  );
  const lead =
    groups.length === 1
      ? ''
      : tie.length > 1
        ? `${tie.map((g) => g.name).join(' and ')} are level at the top. `
        : `${first.name} has the ${money ? `largest ${SUM_LABELS[money]}` : 'most'}. `;
  let text = `${lead}${what}, by ${field}: ${groups.slice(0, NAMED).map(line).join('; ')}`;
  if (groups.length > NAMED) {
    const rest = groups.slice(NAMED);
    text += `; and ${plural(rest.length, `more ${field}`, field === 'category' ? 'more categories' : undefined)} ${cite(
      [...new Set(rest.flatMap((g) => g.projects))],
    )}`;
  }
  if (ungrouped.length > 0) {
    text += `; ${plural(ungrouped.length, 'project')} ${ungrouped.length === 1 ? 'has' : 'have'} no ${field} recorded ${cite(ungrouped)}`;
  }
  const overlap =
    grouping.by !== 'status' && grouping.by !== 'manager'
      ? ' A project listed under several values counts in each.'
      : '';
  return `${text}.${groups.length > 1 ? overlap : ''}`;
}
