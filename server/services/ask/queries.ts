/**
 * The intent queries of the Ask agent (docs/agents.md, Ask: retrieval): for each kind of intent, the tenant's records
 * that answer it — one entry of {@link QUERIES} per kind, as the embedded engine has one writer per kind of finding.
 * Every read is restricted to the caller's tenant (and, for search, to the request's project when it names one).
 */
import { listAllAllocations } from '../../repositories/allocations.js';
import {
  findAllocations,
  findIssues,
  findMilestones,
  findProjects,
  findResources,
  findRisks,
} from '../../repositories/ask.js';
import type { ProjectRecord } from '../../repositories/projects.js';
import type { ResourceRecord } from '../../repositories/resources.js';
import type { Executor } from '../../repositories/sql.js';
import { latestStatusReport, statusReportHistory } from '../../repositories/status-reports.js';
import { findConflicts } from '../allocation-conflicts.js';
import {
  type Finding,
  figuresOf,
  type PersonDetail,
  type ProjectDetail,
  type ProjectFigures,
  type WithProject,
} from './evidence.js';
import { groupProjects } from './groups.js';
import type { Intent, ProjectFilter } from './intents.js';
import type { Period } from './periods.js';
import { searchEvidence, textFilter } from './text-search.js';

/** The tenant as retrieval needs it. */
export interface AskTenant {
  id: string;
  currency: string;
  /** The tenant's date today (YYYY-MM-DD in its time zone): missed milestones and conflicts are counted from it. */
  today: string;
  /** The tenant's IANA time zone, named when an answer reads a time word. */
  timeZone: string;
  /**
   * `today` is the data's latest report date (historical data, ./periods.ts): a milestone marked MISSED since, by
   * the sweep, is judged by its due date against that date like any other.
   */
  historical?: boolean;
}

/** A milestone still to come: PENDING, or (historical data) marked MISSED by the sweep after the data ends. */
function open(tenant: AskTenant, m: { status: string }): boolean {
  return m.status === 'PENDING' || (tenant.historical === true && m.status === 'MISSED');
}

/** What an intent's query runs with besides the intent. */
export interface QueryContext {
  db: Executor;
  tenant: AskTenant;
  /** The projects the question names, or the request's `projectId`. */
  subjects: ProjectRecord[];
  /** The request's `projectId`, which restricts full-text search. */
  projectId: string | null;
  /** The people the question names in full. */
  people: ResourceRecord[];
  /** The period a time word of the question names ("next month"), or null. */
  period: Period | null;
}

/** The query of one kind of intent. */
type IntentQuery<K extends Intent['kind']> = (
  c: QueryContext,
  intent: Extract<Intent, { kind: K }>,
) => Promise<Finding>;

function byName(a: { name: string; id: string }, b: { name: string; id: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Sorts by a figure, largest first (ties by project name, then id). */
function byFigure(key: 'overrun' | 'overrunPercent' | 'slipDays') {
  return (a: ProjectFigures, b: ProjectFigures) =>
    (b[key] ?? Number.NEGATIVE_INFINITY) - (a[key] ?? Number.NEGATIVE_INFINITY) ||
    byName(a.project, b.project);
}

/** The query of each kind of intent. */
const QUERIES: { [K in Intent['kind']]: IntentQuery<K> } = {
  async project(c, intent) {
    const details: ProjectDetail[] = [];
    for (const project of c.subjects) details.push(await projectDetail(c, project, intent));
    return { kind: 'project', details, filters: intent };
  },
  async projects({ db, tenant }, intent) {
    const list = await filteredProjects(db, tenant.id, intent.filter, intent.terms);
    const order = intent.filter.overBudget ? 'overrun' : intent.filter.late ? 'slipDays' : null;
    const figures = list.map(figuresOf);
    if (order) figures.sort(byFigure(order));
    return {
      kind: 'projects',
      form: intent.form,
      filter: intent.filter,
      terms: intent.terms,
      projects: figures,
    };
  },
  async projectSum({ db, tenant }, intent) {
    const figures = (await filteredProjects(db, tenant.id, intent.filter, intent.terms)).map(figuresOf);
    return {
      kind: 'projectSum',
      field: intent.field,
      filter: intent.filter,
      terms: intent.terms,
      known: figures.filter((f) => f.project[intent.field] !== null),
      unknown: figures.filter((f) => f.project[intent.field] === null),
    };
  },
  async ranking({ db, tenant }, intent) {
    const value = (f: ProjectFigures): number | null =>
      intent.measure === 'slip'
        ? f.slipDays
        : intent.measure === 'budget' || intent.measure === 'forecastCost'
          ? f.project[intent.measure]
          : f[intent.measure];
    const figures = (await filteredProjects(db, tenant.id, intent.filter, []))
      .map(figuresOf)
      .filter((f) => (value(f) ?? 0) > 0)
      .sort((a, b) => (value(b) ?? 0) - (value(a) ?? 0) || byName(a.project, b.project))
      .slice(0, intent.n);
    return {
      kind: 'ranking',
      measure: intent.measure,
      n: intent.n,
      filter: intent.filter,
      projects: figures,
    };
  },
  async risks({ db, tenant }, intent) {
    const t = tenant.id;
    const projectIds = await projectIdsOf(db, t, intent.filter);
    let list = await findRisks(db, t, {
      projectIds,
      severities: intent.severities,
      statuses: intent.statuses,
    });
    list = await textFilter(db, t, 'risk', intent.terms, list);
    return { kind: 'risks', intent, risks: await withProjects(db, t, list) };
  },
  async issues({ db, tenant }, intent) {
    const t = tenant.id;
    const projectIds = await projectIdsOf(db, t, intent.filter);
    let list = await findIssues(db, t, {
      projectIds,
      priorities: intent.priorities,
      statuses: intent.statuses,
    });
    list = await textFilter(db, t, 'issue', intent.terms, list);
    return { kind: 'issues', intent, issues: await withProjects(db, t, list) };
  },
  async milestones({ db, tenant, period }, intent) {
    const t = tenant.id;
    const projectIds = await projectIdsOf(db, t, intent.filter);
    const list = (
      intent.which === 'missed'
        ? (await findMilestones(db, t, { projectIds, missedBy: tenant.today })).filter(
            (m) => !tenant.historical || m.dueDate < tenant.today,
          )
        : (await findMilestones(db, t, { projectIds })).filter(
            (m) => open(tenant, m) && m.dueDate >= tenant.today,
          )
    ).filter((m) => !period || (m.dueDate >= period.from && m.dueDate <= period.to));
    return { kind: 'milestones', intent, today: tenant.today, milestones: await withProjects(db, t, list) };
  },
  overAllocated: (c) => overAllocated(c.db, c.tenant, c.people.length > 0 ? c.people : null, c.period),
  async groups({ db, tenant }, intent) {
    const compared = intent.filter.facets?.find(
      (f) =>
        f.values.length >= 2 &&
        (f.field === intent.grouping.by || (f.field === 'agency' && intent.grouping.by === 'managingAgency')),
    );
    const filter = compared
      ? { ...intent.filter, facets: (intent.filter.facets ?? []).filter((f) => f !== compared) }
      : intent.filter;
    const list = await filteredProjects(db, tenant.id, filter, []);
    const { groups, ungrouped } = await groupProjects(
      db,
      tenant.id,
      intent.grouping,
      list,
      compared?.values ?? null,
    );
    return { kind: 'groups', grouping: intent.grouping, filter: intent.filter, groups, ungrouped };
  },
  async person({ db, tenant, people }) {
    return { kind: 'person', people: await Promise.all(people.map((r) => personDetail(db, tenant.id, r))) };
  },
  async portfolio({ db, tenant }, intent) {
    const groups = new Map<string, ProjectFigures[]>();
    for (const p of await filteredProjects(db, tenant.id, intent.filter, [])) {
      const list = groups.get(p.status) ?? [];
      list.push(figuresOf(p));
      groups.set(p.status, list);
    }
    return {
      kind: 'portfolio',
      filter: intent.filter,
      groups: [...groups.entries()]
        .map(([status, projects]) => ({ status, projects }))
        .sort((a, b) => b.projects.length - a.projects.length || (a.status < b.status ? -1 : 1)),
    };
  },
  advice: async () => ({ kind: 'advice' }),
  async search({ db, tenant, projectId }, intent) {
    return {
      kind: 'search',
      terms: intent.terms,
      hits: await searchEvidence(db, tenant.id, intent.terms, intent.types, projectId),
    };
  },
};

/** What an intent found: the records that answer it, read by the query of its kind. */
export function findingOf(c: QueryContext, intent: Intent): Promise<Finding> {
  return (QUERIES[intent.kind] as IntentQuery<Intent['kind']>)(c, intent);
}

/**
 * One project's answer: the aspects asked for (status, budget and dates when none is, or for an overview), the
 * records each needs, and the search hits inside the project for a question no aspect covers.
 */
async function projectDetail(
  { db, tenant }: QueryContext,
  project: ProjectRecord,
  intent: Extract<Intent, { kind: 'project' }>,
): Promise<ProjectDetail> {
  const t = tenant.id;
  let aspects = intent.aspects;
  const detail: ProjectDetail = { figures: figuresOf(project), aspects };
  if (aspects.length === 0 && intent.terms.length > 0) {
    const hits = await searchEvidence(db, t, intent.terms, undefined, project.id);
    if (hits.length > 0) detail.hits = hits;
  }
  if ((aspects.length === 0 && !detail.hits) || aspects.includes('overview')) {
    aspects = [
      ...new Set([...aspects.filter((a) => a !== 'overview'), 'status', 'budget', 'dates'] as const),
    ];
  }
  detail.aspects = aspects;
  const ids = [project.id];
  for (const aspect of aspects) {
    if (aspect === 'manager') {
      detail.manager = project.projectManagerId
        ? ((await findResources(db, t, [project.projectManagerId]))[0] ?? null)
        : null;
    } else if (aspect === 'risks') {
      const list = await findRisks(db, t, { projectIds: ids, ...intent.risks });
      detail.risks = await textFilter(db, t, 'risk', intent.terms, list);
    } else if (aspect === 'issues') {
      const list = await findIssues(db, t, { projectIds: ids, ...intent.issues });
      detail.issues = await textFilter(db, t, 'issue', intent.terms, list);
    } else if (aspect === 'milestones') {
      const all = await findMilestones(db, t, {
        projectIds: ids,
        ...(intent.milestones === 'missed' ? { missedBy: tenant.today } : {}),
      });
      detail.milestones =
        intent.milestones === 'upcoming'
          ? all.filter((m) => open(tenant, m) && m.dueDate >= tenant.today)
          : intent.milestones === 'missed'
            ? all.filter((m) => !tenant.historical || m.dueDate < tenant.today)
            : all;
    } else if (aspect === 'status') {
      detail.latestReport = await latestStatusReport(db, t, project.id);
    } else if (aspect === 'history') {
      detail.history = await statusReportHistory(db, t, project.id);
    } else if (aspect === 'team') {
      const allocations = await findAllocations(db, t, { projectIds: ids });
      const people = await findResources(db, t, [...new Set(allocations.map((a) => a.resourceId))]);
      const byId = new Map(people.map((r) => [r.id, r]));
      detail.team = allocations.flatMap((allocation) => {
        const resource = byId.get(allocation.resourceId);
        return resource ? [{ allocation, resource }] : [];
      });
    }
  }
  return detail;
}

/** What a person works on: allocations, projects managed, open risks owned, open issues assigned. */
async function personDetail(db: Executor, tenantId: string, resource: ResourceRecord): Promise<PersonDetail> {
  const ids = [resource.id];
  const allocations = await findAllocations(db, tenantId, { resourceIds: ids });
  const manages = await findProjects(db, tenantId, { managerIds: ids });
  const risks = await findRisks(db, tenantId, { ownerIds: ids, statuses: ['OPEN', 'MITIGATING'] });
  const issues = await findIssues(db, tenantId, { assigneeIds: ids, statuses: ['OPEN', 'IN_PROGRESS'] });
  const owners = new Map(
    (await findProjects(db, tenantId, { ids: [...new Set(allocations.map((a) => a.projectId))] })).map(
      (p) => [p.id, p],
    ),
  );
  return {
    resource,
    allocations: allocations.flatMap((allocation) => {
      const project = owners.get(allocation.projectId);
      return project ? [{ allocation, project }] : [];
    }),
    manages,
    risks: await withProjects(db, tenantId, risks),
    issues: await withProjects(db, tenantId, issues),
  };
}

/** The projects matching a filter and, when terms are given, whose text contains every term. */
async function filteredProjects(
  db: Executor,
  tenantId: string,
  filter: ProjectFilter,
  terms: string[],
): Promise<ProjectRecord[]> {
  const list = await findProjects(db, tenantId, {
    statuses: filter.statuses,
    overBudget: filter.overBudget,
    late: filter.late,
    facets: filter.facets,
    money: filter.money,
    reported: filter.reported,
  });
  return textFilter(db, tenantId, 'project', terms, list);
}

/** The ids of the projects a filter keeps, or undefined when the filter keeps every project. */
async function projectIdsOf(
  db: Executor,
  tenantId: string,
  filter: ProjectFilter,
): Promise<string[] | undefined> {
  if (
    !filter.statuses &&
    !filter.overBudget &&
    !filter.late &&
    !filter.facets &&
    !filter.money &&
    !filter.reported
  )
    return undefined;
  return (await filteredProjects(db, tenantId, filter, [])).map((p) => p.id);
}

/** Each record with the project it belongs to (a record whose project is gone is left out). */
async function withProjects<R extends { projectId: string }>(
  db: Executor,
  tenantId: string,
  list: R[],
): Promise<WithProject<R>[]> {
  const owners = await findProjects(db, tenantId, { ids: [...new Set(list.map((r) => r.projectId))] });
  const byId = new Map(owners.map((p) => [p.id, p]));
  return list.flatMap((record) => {
    const project = byId.get(record.projectId);
    return project ? [{ record, project }] : [];
  });
}

/**
 * People whose overlapping allocations sum above 100 % in a period that ends today or later (services/allocation-conflicts.ts).
 * The periods are not clipped to today, so each of their dates is an allocation's start or end.
 */
async function overAllocated(
  db: Executor,
  tenant: AskTenant,
  named: ResourceRecord[] | null,
  period: Period | null,
): Promise<Finding> {
  const from = period && period.from > tenant.today ? period.from : tenant.today;
  const allocations = await listAllAllocations(db, tenant.id, { from });
  const conflicts = findConflicts(allocations).filter(
    (c) =>
      c.endDate >= from &&
      (!period || c.startDate <= period.to) &&
      (!named || named.some((r) => r.id === c.resourceId)),
  );
  const resourceIds = [...new Set(conflicts.map((c) => c.resourceId))];
  const people = await findResources(db, tenant.id, resourceIds);
  const allocationById = new Map(allocations.map((a) => [a.id, a]));
  const projectIds = [...new Set(conflicts.flatMap((c) => c.allocations.map((a) => a.projectId)))];
  const projectById = new Map((await findProjects(db, tenant.id, { ids: projectIds })).map((p) => [p.id, p]));
  return {
    kind: 'overAllocated',
    today: tenant.today,
    named,
    people: people.map((resource: ResourceRecord) => ({
      resource,
      conflicts: conflicts.filter((c) => c.resourceId === resource.id),
      allocations: allocationById,
      projects: projectById,
    })),
  };
}
