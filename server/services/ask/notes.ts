/**
 * What retrieval says around an answer (docs/agents.md, Ask: scope, time and gaps): the project a description
 * chose ("the largest project"), the projects a name left undecided, how a time word was read and against which
 * date, and which kinds of record the tenant has none of — so "no missed milestones" is never said of a tenant
 * that has no milestones at all.
 */
import { findProjects, type RecordKind, recordKindsPresent } from '../../repositories/ask.js';
import type { ProjectRecord } from '../../repositories/projects.js';
import type { Executor } from '../../repositories/sql.js';
import type { Scope } from './describing.js';
import { type EvidenceNote, type Finding, figuresOf, type ProjectFigures } from './evidence.js';
import type { ProjectFilter } from './intents.js';
import type { Reference } from './periods.js';
import { integer } from './text.js';
import { describe } from './writers/shared.js';

/** The project a scope describes: the first by its measure among the projects the filter keeps, or null. */
export async function scopedProject(
  db: Executor,
  tenantId: string,
  scope: Scope,
  filter: ProjectFilter,
): Promise<ProjectFigures | null> {
  const list = (
    await findProjects(db, tenantId, {
      statuses: filter.statuses,
      facets: filter.facets,
      money: filter.money,
      overBudget: scope.measure === 'overrun' ? true : filter.overBudget,
      late: scope.measure === 'slip' ? true : filter.late,
    })
  ).map(figuresOf);
  const value = (f: ProjectFigures) =>
    scope.measure === 'budget' ? f.project.budget : scope.measure === 'slip' ? f.slipDays : f.overrun;
  let best: ProjectFigures | null = null;
  for (const f of list) {
    const v = value(f);
    if (v === null) continue;
    if (!best || v > (value(best) as number)) best = f;
  }
  return best;
}

/** The sentence naming the project a scope chose. */
export function scopeNote(
  scope: Scope,
  chosen: ProjectFigures,
  filter: ProjectFilter,
  money: (n: number) => string,
): EvidenceNote {
  const p = chosen.project;
  const desc = describe(
    {
      ...filter,
      ...(scope.measure === 'slip' ? { late: false } : {}),
      ...(scope.measure === 'overrun' ? { overBudget: false } : {}),
    },
    [],
  );
  const [by, figure, fields] =
    scope.measure === 'budget'
      ? ['by budget', `budget ${money(p.budget ?? 0)}`, ['budget', 'status']]
      : scope.measure === 'slip'
        ? [
            'by schedule slip',
            `${integer(chosen.slipDays ?? 0)} days late, forecast to finish on ${p.forecastEndDate}`,
            ['endDate', 'forecastEndDate', 'slip'],
          ]
        : [
            'by forecast overrun',
            `over budget by ${money(chosen.overrun ?? 0)}`,
            ['budget', 'forecastCost', 'overrun'],
          ];
  return {
    place: 'before',
    text: `“${scope.words}” is read as the first project${desc} ${by}: ${p.name} (${figure}) {0}.`,
    projects: [{ figures: chosen, fields }],
  };
}

/** The sentence naming the projects a name matches equally well. */
export function ambiguityNote(candidates: ProjectRecord[]): EvidenceNote {
  const names = candidates.map((p, i) => `${p.name}${p.code ? ` (${p.code})` : ''} {${i}}`);
  return {
    place: 'before',
    text: `The question matches ${integer(candidates.length)} projects about equally well: ${names.join('; ')}. Which one is meant? Ask again with its name in full or its code.`,
    projects: candidates.map((p) => ({ figures: figuresOf(p), fields: ['code', 'status'] })),
  };
}

/** The sentence saying which date the question's time words and "missed"/"upcoming" were judged against. */
export function referenceNote(ref: Reference): EvidenceNote {
  return {
    place: 'before',
    text: `The data is historical: its latest status report is dated ${ref.date}, so dates are judged as of ${ref.date}, not today.`,
  };
}

/** What fills each kind of record an answer may find missing. */
const FILLED_BY: Record<RecordKind, string> = {
  milestones:
    'milestones (POST /projects/{id}/milestones, or status reports whose phase changes the import turns into derived milestones)',
  risks: 'risks (POST /projects/{id}/risks, or the risk-assessment agent’s candidate risks)',
  issues: 'issues (POST /projects/{id}/issues)',
  resources: 'people (POST /resources) with their availability',
  allocations: 'allocations of people to projects (POST /allocations)',
};

/** The kinds of record a finding needed, when it found none of them. */
function neededKinds(finding: Finding): RecordKind[] {
  switch (finding.kind) {
    case 'milestones':
      return finding.milestones.length === 0 ? ['milestones'] : [];
    case 'risks':
      return finding.risks.length === 0 ? ['risks'] : [];
    case 'issues':
      return finding.issues.length === 0 ? ['issues'] : [];
    case 'overAllocated':
      return finding.people.length === 0 ? ['resources', 'allocations'] : [];
    case 'groups':
      return finding.grouping.by === 'manager' && finding.groups.length === 0 ? ['resources'] : [];
    case 'project': {
      const kinds: RecordKind[] = [];
      for (const d of finding.details) {
        if (d.risks && d.risks.length === 0) kinds.push('risks');
        if (d.issues && d.issues.length === 0) kinds.push('issues');
        if (d.milestones && d.milestones.length === 0) kinds.push('milestones');
        if (d.team && d.team.length === 0) kinds.push('allocations');
        if (d.manager === null) kinds.push('resources');
      }
      return [...new Set(kinds)];
    }
    default:
      return [];
  }
}

/** The sentence saying which needed kinds of record the tenant has none of at all, and what would fill them. */
export async function gapNote(
  db: Executor,
  tenantId: string,
  finding: Finding,
): Promise<EvidenceNote | null> {
  const needed = neededKinds(finding);
  if (needed.length === 0) return null;
  const present = await recordKindsPresent(db, tenantId, needed);
  const missing = needed.filter((k) => !present.has(k));
  if (missing.length === 0) return null;
  const names = missing.map((k) => (k === 'resources' ? 'people' : k));
  return {
    place: 'after',
    text: `Note: this portfolio has no ${names.join(' and no ')} recorded at all, so the answer cannot say more; adding ${missing
      .map((k) => FILLED_BY[k])
      .join(' and ')} would fill it.`,
  };
}
