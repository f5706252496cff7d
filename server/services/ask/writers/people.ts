/**
 * Answers about people (docs/agents.md, Ask): what a person named in full works on (allocations, projects managed,
 * open risks owned, open issues assigned) and who is over-allocated — allocations adding up to more than full time
 * in a period ending today or later, each period's allocations cited.
 */
import { type Finding, figuresOf, type PersonDetail } from '../evidence.js';
import { joinAnd, plural } from '../text.js';
import type { AnswerWriter } from './shared.js';

/** What one person works on. */
function person(w: AnswerWriter, d: PersonDetail): string {
  const r = d.resource;
  const who = `${r.name}${r.role ? ` (${r.role})` : ''} [${w.resource(r)}]`;
  const parts: string[] = [];
  if (d.allocations.length > 0) {
    const lines = d.allocations.map(
      ({ allocation: a, project }) =>
        `${project.name} at ${a.allocationPercent}% from ${a.startDate} to ${a.endDate} [${w.allocation(a, r.name, project.name)}]`,
    );
    parts.push(`is allocated to ${lines.join('; ')}`);
  }
  if (d.manages.length > 0) {
    const lines = d.manages.map(
      (p) => `${p.name} [${w.project(figuresOf(p), ['projectManagerId', 'status'], 'projectManagerId')}]`,
    );
    parts.push(`is the project manager of ${joinAnd(lines)}`);
  }
  if (d.risks.length > 0) {
    const lines = d.risks.map(
      ({ record, project }) => `${record.title} on ${project.name} [${w.risk(record, project.name)}]`,
    );
    parts.push(`owns ${plural(d.risks.length, 'open risk')}: ${lines.join('; ')}`);
  }
  if (d.issues.length > 0) {
    const lines = d.issues.map(
      ({ record, project }) => `${record.title} on ${project.name} [${w.issue(record, project.name)}]`,
    );
    parts.push(`is assigned ${plural(d.issues.length, 'open issue')}: ${lines.join('; ')}`);
  }
  if (parts.length === 0)
    return `${who} has no allocation, manages no project and has no open risk or issue.`;
  return `${who} ${parts.join('; ')}.`;
}

/** The `person` finding: each person named, in the order the question names them. */
export function writePerson(w: AnswerWriter, finding: Extract<Finding, { kind: 'person' }>): string {
  return finding.people.map((p) => person(w, p)).join(' ');
}

/** The `overAllocated` finding: everyone over-allocated, or whether the people named are. */
export function writeOverAllocated(
  w: AnswerWriter,
  finding: Extract<Finding, { kind: 'overAllocated' }>,
): string {
  if (finding.people.length === 0) {
    if (finding.named) {
      const who = finding.named.map((r) => `${r.name} [${w.resource(r)}]`);
      return `${joinAnd(who)} ${finding.named.length === 1 ? 'is' : 'are'} not over-allocated: no allocations adding up to more than full time in any period from today on.`;
    }
    return 'No one is over-allocated: no person has allocations that add up to more than full time in any period from today (or the period asked about) on.';
  }
  const lines = finding.people.map(({ resource, conflicts, allocations, projects }) => {
    const periods = conflicts.map((c) => `${c.totalPercent}% from ${c.startDate} to ${c.endDate}`);
    const r = w.ref({
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
        const i = w.ref({
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
  return `${plural(finding.people.length, 'person', 'people')} ${finding.people.length === 1 ? 'is' : 'are'} over-allocated (allocations adding up to more than full time) in a period from today (or the period asked about) on: ${lines.join('; ')}.`;
}
