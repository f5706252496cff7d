/**
 * Retrieval of the Ask agent: from a question to the tenant's records that answer it (evidence.ts). It names the
 * project a question is about (by the request's `projectId`, a project code, or the project's name in the
 * question), reads the intent (intents.ts), and runs the intent's query — or full-text search when no rule claims
 * the question. Every read is restricted to the caller's tenant (and to the project when `projectId` is given).
 */

import { listAllAllocations } from '../../repositories/allocations.js';
import {
  findAllocations,
  findIssues,
  findMilestones,
  findProjects,
  findResources,
  findRisks,
  projectFacetValues,
} from '../../repositories/ask.js';
import { findProjectByCode, type ProjectRecord, projects } from '../../repositories/projects.js';
import type { ResourceRecord } from '../../repositories/resources.js';
import { type SearchHit, searchDocuments } from '../../repositories/search.js';
import type { Executor } from '../../repositories/sql.js';
import {
  findStatusReport,
  latestStatusReport,
  statusReportHistory,
} from '../../repositories/status-reports.js';
import type { CitationType } from '../agents/citations.js';
import { findConflicts } from '../allocation-conflicts.js';
import { notFound } from '../errors.js';
import {
  type Evidence,
  type Finding,
  figuresOf,
  type PersonDetail,
  type ProjectDetail,
  type ProjectFigures,
  type SearchEvidence,
  type WithProject,
} from './evidence.js';
import { type FacetValue, type Intent, nameWords, type ProjectFilter, parseIntent } from './intents.js';
import { clip, contentWords, normalise, words } from './text.js';

/** The tenant as retrieval needs it. */
export interface AskTenant {
  id: string;
  currency: string;
  /** The tenant's date today (YYYY-MM-DD in its time zone): missed milestones and conflicts are counted from it. */
  today: string;
}

/** Most full-text hits an answer cites. */
const SEARCH_LIMIT = 5;
/** Most search terms used (the first ones of the question). */
const MAX_TERMS = 8;

function byName(a: { name: string; id: string }, b: { name: string; id: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Sorts by a figure, largest first (ties by project name, then id). */
function byFigure(key: 'overrun' | 'overrunPercent' | 'slipDays') {
  return (a: ProjectFigures, b: ProjectFigures) =>
    (b[key] ?? Number.NEGATIVE_INFINITY) - (a[key] ?? Number.NEGATIVE_INFINITY) ||
    byName(a.project, b.project);
}

/** The sentence of a text that contains most of the terms (by their first five letters, a crude stem). */
export function bestSentence(text: string, terms: readonly string[]): string {
  const stems = terms.map((t) => t.slice(0, Math.min(5, t.length)));
  let best = '';
  let bestScore = -1;
  for (const sentence of text.split(/(?<=[.!?;])\s+|\n+/)) {
    const ws = words(sentence);
    const score = stems.filter((s) => ws.some((w) => w.startsWith(s))).length;
    if (score > bestScore) {
      best = sentence;
      bestScore = score;
    }
  }
  return clip(best, 200);
}

function* subsets<T>(items: readonly T[], size: number, start = 0, prefix: T[] = []): Generator<T[]> {
  if (prefix.length === size) {
    yield prefix;
    return;
  }
  for (let i = start; i <= items.length - (size - prefix.length); i++) {
    yield* subsets(items, size, i + 1, [...prefix, items[i] as T]);
  }
}

/** The descriptive text of a record (what a search hit quotes): description, mitigation, role and skills. */
function describedText(record: SearchEvidence['record']): string {
  const r = record as Partial<Record<'description' | 'mitigation' | 'role' | 'summary', string | null>> & {
    skills?: string[];
  };
  return [r.description, r.mitigation, r.role, r.skills?.join(', '), r.summary].filter((t) => t).join('\n');
}

/** The retrieval half of the Ask agent over one database. */
export class Retrieval {
  constructor(private readonly db: Executor) {}

  /**
   * The evidence for a question.
   * @throws AppError 404 `not_found` when `projectId` names no project of the tenant.
   */
  async retrieve(tenant: AskTenant, question: string, projectId: string | null): Promise<Evidence> {
    const text = normalise(question);
    let subjects: ProjectRecord[] = [];
    if (projectId) {
      const project = await projects.find(this.db, tenant.id, projectId);
      if (!project) throw notFound('project', projectId);
      subjects = [project];
    } else {
      subjects = await this.subjectsOf(tenant.id, question, text);
    }
    const people = subjects.length > 0 ? [] : await this.peopleOf(tenant.id, text);
    const facets = subjects.length > 0 ? [] : await projectFacetValues(this.db, tenant.id);
    const intent = parseIntent(question, text, {
      hasSubject: subjects.length > 0,
      hasPerson: people.length > 0,
      subjectWords: [...subjects, ...people].flatMap((p) => words(p.name)),
      facets: facets as FacetValue[],
    });
    const finding = await this.find(tenant, intent, subjects, projectId, people);
    return { question, projectId, currency: tenant.currency, finding };
  }

  /**
   * The project(s) a question names: by code (`NYC-25`), else by name — the whole name as a phrase of the question,
   * or at least two thirds (and two) of its words. Projects of one identical name are all subjects; two different
   * names that match equally well make the question ambiguous (no subject: full-text search lists both).
   */
  private async subjectsOf(tenantId: string, question: string, text: string): Promise<ProjectRecord[]> {
    for (const [, code] of question.matchAll(/\b([A-Za-z]{1,10}-\d{1,9})\b/g)) {
      const project = await findProjectByCode(this.db, tenantId, (code as string).toUpperCase());
      if (project) return [project];
    }
    const questionWords = contentWords(text);
    const candidates = nameWords(text);
    if (candidates.length === 0) return [];
    const hits = await searchDocuments(this.db, tenantId, {
      terms: candidates.slice(0, 16),
      match: 'any',
      types: ['project'],
      limit: 40,
    });
    const phrase = ` ${words(text).join(' ')} `;
    const quoted = [...question.matchAll(/["“]([^"”]+)["”]/g)].map((m) => words(m[1] as string).join(' '));
    type Scored = { hit: SearchHit; exact: boolean; coverage: number; matched: number; name: string };
    const scored: Scored[] = [];
    for (const hit of hits) {
      const titleWords = contentWords(hit.title);
      const name = words(hit.title).join(' ');
      if (titleWords.length === 0) continue;
      const exact = (titleWords.length >= 2 || quoted.includes(name)) && phrase.includes(` ${name} `);
      const matched = titleWords.filter((w) => questionWords.includes(w)).length;
      const coverage = matched / titleWords.length;
      if (exact || (matched >= 2 && coverage >= 2 / 3)) scored.push({ hit, exact, coverage, matched, name });
    }
    if (scored.length === 0) return [];
    scored.sort(
      (a, b) =>
        Number(b.exact) - Number(a.exact) ||
        (b.exact ? b.name.length - a.name.length : 0) ||
        b.coverage - a.coverage ||
        b.matched - a.matched,
    );
    const best = scored[0] as Scored;
    if (best.exact) {
      // Every project named in full ("Compare A and B"), in the order the question names them; a name inside a
      // longer name that also matched is not a second project.
      const exact = scored.filter(
        (s) => s.exact && !scored.some((o) => o.exact && o.name !== s.name && o.name.includes(s.name)),
      );
      const found = await findProjects(this.db, tenantId, { ids: exact.map((s) => s.hit.id) });
      const at = (p: ProjectRecord) => phrase.indexOf(` ${words(p.name).join(' ')} `);
      return found.sort((a, b) => at(a) - at(b));
    }
    const tied = scored.filter(
      (s) =>
        s.exact === best.exact &&
        s.coverage === best.coverage &&
        s.matched === best.matched &&
        (!best.exact || s.name.length === best.name.length),
    );
    if (tied.some((s) => s.name !== best.name)) return [];
    return findProjects(this.db, tenantId, { ids: tied.map((s) => s.hit.id) });
  }

  /** The people (resources) a question names by their full name (two words or more), in the order it names them. */
  private async peopleOf(tenantId: string, text: string): Promise<ResourceRecord[]> {
    const candidates = contentWords(text);
    if (candidates.length < 2) return [];
    const hits = await searchDocuments(this.db, tenantId, {
      terms: candidates.slice(0, 16),
      match: 'any',
      types: ['resource'],
      limit: 20,
    });
    const phrase = ` ${words(text).join(' ')} `;
    const named = hits.filter(
      (h) => words(h.title).length >= 2 && phrase.includes(` ${words(h.title).join(' ')} `),
    );
    if (named.length === 0) return [];
    const at = (r: ResourceRecord) => phrase.indexOf(` ${words(r.name).join(' ')} `);
    return (
      await findResources(
        this.db,
        tenantId,
        named.map((h) => h.id),
      )
    ).sort((a, b) => at(a) - at(b));
  }

  private async find(
    tenant: AskTenant,
    intent: Intent,
    subjects: ProjectRecord[],
    projectId: string | null,
    people: ResourceRecord[],
  ): Promise<Finding> {
    const t = tenant.id;
    switch (intent.kind) {
      case 'project': {
        const details: ProjectDetail[] = [];
        for (const project of subjects) details.push(await this.projectDetail(tenant, project, intent));
        return { kind: 'project', details, filters: intent };
      }
      case 'projects': {
        const list = await this.filteredProjects(t, intent.filter, intent.terms);
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
      }
      case 'projectSum': {
        const figures = (await this.filteredProjects(t, intent.filter, intent.terms)).map(figuresOf);
        return {
          kind: 'projectSum',
          field: intent.field,
          filter: intent.filter,
          terms: intent.terms,
          known: figures.filter((f) => f.project[intent.field] !== null),
          unknown: figures.filter((f) => f.project[intent.field] === null),
        };
      }
      case 'ranking': {
        const value = (f: ProjectFigures): number | null =>
          intent.measure === 'slip'
            ? f.slipDays
            : intent.measure === 'budget' || intent.measure === 'forecastCost'
              ? f.project[intent.measure]
              : f[intent.measure];
        const figures = (await this.filteredProjects(t, intent.filter, []))
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
      }
      case 'risks': {
        const projectIds = await this.projectIdsOf(t, intent.filter);
        let list = await findRisks(this.db, t, {
          projectIds,
          severities: intent.severities,
          statuses: intent.statuses,
        });
        list = await this.textFilter(t, 'risk', intent.terms, list);
        return { kind: 'risks', intent, risks: await this.withProjects(t, list) };
      }
      case 'issues': {
        const projectIds = await this.projectIdsOf(t, intent.filter);
        let list = await findIssues(this.db, t, {
          projectIds,
          priorities: intent.priorities,
          statuses: intent.statuses,
        });
        list = await this.textFilter(t, 'issue', intent.terms, list);
        return { kind: 'issues', intent, issues: await this.withProjects(t, list) };
      }
      case 'milestones': {
        const projectIds = await this.projectIdsOf(t, intent.filter);
        const list =
          intent.which === 'missed'
            ? await findMilestones(this.db, t, { projectIds, missedBy: tenant.today })
            : (await findMilestones(this.db, t, { projectIds })).filter(
                (m) => m.status === 'PENDING' && m.dueDate >= tenant.today,
              );
        return {
          kind: 'milestones',
          intent,
          today: tenant.today,
          milestones: await this.withProjects(t, list),
        };
      }
      case 'overAllocated':
        return this.overAllocated(tenant, people.length > 0 ? people : null);
      case 'person':
        return { kind: 'person', people: await Promise.all(people.map((r) => this.personDetail(t, r))) };
      case 'portfolio': {
        const groups = new Map<string, ProjectFigures[]>();
        for (const p of await this.filteredProjects(t, intent.filter, [])) {
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
      }
      case 'search':
        return {
          kind: 'search',
          terms: intent.terms,
          hits: await this.search(t, intent.terms, intent.types, projectId),
        };
    }
  }

  private async projectDetail(
    tenant: AskTenant,
    project: ProjectRecord,
    intent: Extract<Intent, { kind: 'project' }>,
  ): Promise<ProjectDetail> {
    const t = tenant.id;
    let aspects = intent.aspects;
    const detail: ProjectDetail = { figures: figuresOf(project), aspects };
    if (aspects.length === 0 && intent.terms.length > 0) {
      const hits = await this.search(t, intent.terms, undefined, project.id);
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
          ? ((await findResources(this.db, t, [project.projectManagerId]))[0] ?? null)
          : null;
      } else if (aspect === 'risks') {
        const list = await findRisks(this.db, t, { projectIds: ids, ...intent.risks });
        detail.risks = await this.textFilter(t, 'risk', intent.terms, list);
      } else if (aspect === 'issues') {
        const list = await findIssues(this.db, t, { projectIds: ids, ...intent.issues });
        detail.issues = await this.textFilter(t, 'issue', intent.terms, list);
      } else if (aspect === 'milestones') {
        const all = await findMilestones(this.db, t, {
          projectIds: ids,
          ...(intent.milestones === 'missed' ? { missedBy: tenant.today } : {}),
        });
        detail.milestones =
          intent.milestones === 'upcoming'
            ? all.filter((m) => m.status === 'PENDING' && m.dueDate >= tenant.today)
            : all;
      } else if (aspect === 'status') {
        detail.latestReport = await latestStatusReport(this.db, t, project.id);
      } else if (aspect === 'history') {
        detail.history = await statusReportHistory(this.db, t, project.id);
      } else if (aspect === 'team') {
        const allocations = await findAllocations(this.db, t, { projectIds: ids });
        const people = await findResources(this.db, t, [...new Set(allocations.map((a) => a.resourceId))]);
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
  private async personDetail(tenantId: string, resource: ResourceRecord): Promise<PersonDetail> {
    const ids = [resource.id];
    const allocations = await findAllocations(this.db, tenantId, { resourceIds: ids });
    const manages = await findProjects(this.db, tenantId, { managerIds: ids });
    const risks = await findRisks(this.db, tenantId, { ownerIds: ids, statuses: ['OPEN', 'MITIGATING'] });
    const issues = await findIssues(this.db, tenantId, {
      assigneeIds: ids,
      statuses: ['OPEN', 'IN_PROGRESS'],
    });
    const owners = new Map(
      (await findProjects(this.db, tenantId, { ids: [...new Set(allocations.map((a) => a.projectId))] })).map(
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
      risks: await this.withProjects(tenantId, risks),
      issues: await this.withProjects(tenantId, issues),
    };
  }

  /** The projects matching a filter and, when terms are given, whose text contains every term. */
  private async filteredProjects(
    tenantId: string,
    filter: ProjectFilter,
    terms: string[],
  ): Promise<ProjectRecord[]> {
    const list = await findProjects(this.db, tenantId, {
      statuses: filter.statuses,
      overBudget: filter.overBudget,
      late: filter.late,
      facets: filter.facets,
    });
    return this.textFilter(tenantId, 'project', terms, list);
  }

  /** The ids of the projects a filter keeps, or undefined when the filter keeps every project. */
  private async projectIdsOf(tenantId: string, filter: ProjectFilter): Promise<string[] | undefined> {
    if (!filter.statuses && !filter.overBudget && !filter.late && !filter.facets) return undefined;
    return (await this.filteredProjects(tenantId, filter, [])).map((p) => p.id);
  }

  /** Keeps the records whose document contains every term (no terms: all of them). */
  private async textFilter<R extends { id: string }>(
    tenantId: string,
    type: string,
    terms: string[],
    list: R[],
  ): Promise<R[]> {
    if (terms.length === 0) return list;
    const hits = await searchDocuments(this.db, tenantId, {
      terms: terms.slice(0, MAX_TERMS),
      match: 'all',
      types: [type],
      limit: 10_000,
    });
    const ids = new Set(hits.map((h) => h.id));
    return list.filter((r) => ids.has(r.id));
  }

  private async withProjects<R extends { projectId: string }>(
    tenantId: string,
    list: R[],
  ): Promise<WithProject<R>[]> {
    const owners = await findProjects(this.db, tenantId, { ids: [...new Set(list.map((r) => r.projectId))] });
    const byId = new Map(owners.map((p) => [p.id, p]));
    return list.flatMap((record) => {
      const project = byId.get(record.projectId);
      return project ? [{ record, project }] : [];
    });
  }

  /**
   * Full-text search with relaxation: documents containing every term, else those containing the most terms in any
   * subset of at least 60 % of them (and never a single term of several; at most 24 subset queries), best first, at
   * most five.
   */
  async search(
    tenantId: string,
    allTerms: string[],
    types: string[] | undefined,
    projectId: string | null,
  ): Promise<SearchEvidence[]> {
    const terms = allTerms.slice(0, MAX_TERMS);
    if (terms.length === 0) return [];
    const query = { types, projectId: projectId ?? undefined, limit: SEARCH_LIMIT };
    let hits = await searchDocuments(this.db, tenantId, { ...query, terms, match: 'all' });
    const floor = Math.max(terms.length >= 2 ? 2 : 1, Math.ceil(terms.length * 0.6));
    let queries = 0;
    for (let size = terms.length - 1; hits.length === 0 && size >= floor && queries < 24; size--) {
      const found = new Map<string, SearchHit>();
      for (const subset of subsets(terms, size)) {
        if (++queries > 24) break;
        for (const hit of await searchDocuments(this.db, tenantId, {
          ...query,
          terms: subset,
          match: 'all',
        })) {
          const seen = found.get(hit.id);
          if (!seen || seen.rank < hit.rank) found.set(hit.id, hit);
        }
      }
      hits = [...found.values()]
        .sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1))
        .slice(0, SEARCH_LIMIT);
    }
    return this.evidenceOf(tenantId, hits, terms);
  }

  private async evidenceOf(tenantId: string, hits: SearchHit[], terms: string[]): Promise<SearchEvidence[]> {
    const idsOf = (type: string) => hits.filter((h) => h.type === type).map((h) => h.id);
    const records = new Map<string, SearchEvidence['record']>();
    const put = (list: { id: string }[]) => {
      for (const r of list) records.set(r.id, r as SearchEvidence['record']);
    };
    const projectIds = [...new Set(hits.map((h) => h.projectId).filter((id): id is string => id !== null))];
    const owners = await findProjects(this.db, tenantId, { ids: projectIds });
    put(owners.filter((p) => idsOf('project').includes(p.id)));
    if (idsOf('risk').length) put(await findRisks(this.db, tenantId, { ids: idsOf('risk') }));
    if (idsOf('issue').length) put(await findIssues(this.db, tenantId, { ids: idsOf('issue') }));
    if (idsOf('milestone').length) put(await findMilestones(this.db, tenantId, { ids: idsOf('milestone') }));
    if (idsOf('resource').length) put(await findResources(this.db, tenantId, idsOf('resource')));
    for (const id of idsOf('status_report')) {
      const report = await findStatusReport(this.db, tenantId, id);
      if (report) put([report]);
    }
    const ownerById = new Map(owners.map((p) => [p.id, p]));
    return hits.flatMap((hit) => {
      const record = records.get(hit.id);
      if (!record) return [];
      const snippet = bestSentence(`${hit.title ? `${hit.title}.\n` : ''}${describedText(record)}`, terms);
      return [
        {
          type: hit.type as CitationType,
          record,
          project: hit.projectId && hit.type !== 'project' ? (ownerById.get(hit.projectId) ?? null) : null,
          snippet,
        },
      ];
    });
  }

  /**
   * People whose overlapping allocations sum above 100 % in a period that ends today or later
   * (services/allocation-conflicts.ts). The periods are not clipped to today, so each of their dates is an
   * allocation's start or end.
   */
  private async overAllocated(tenant: AskTenant, named: ResourceRecord[] | null): Promise<Finding> {
    const allocations = await listAllAllocations(this.db, tenant.id, { from: tenant.today });
    const conflicts = findConflicts(allocations).filter(
      (c) => c.endDate >= tenant.today && (!named || named.some((r) => r.id === c.resourceId)),
    );
    const resourceIds = [...new Set(conflicts.map((c) => c.resourceId))];
    const people = await findResources(this.db, tenant.id, resourceIds);
    const allocationById = new Map(allocations.map((a) => [a.id, a]));
    const projectIds = [...new Set(conflicts.flatMap((c) => c.allocations.map((a) => a.projectId)))];
    const projectById = new Map(
      (await findProjects(this.db, tenant.id, { ids: projectIds })).map((p) => [p.id, p]),
    );
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
}
