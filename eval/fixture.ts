/**
 * The eval's fixture tenants, created through the public API (any running Meridian will do): a small PMO portfolio
 * with what the NYC demo lacks — people, allocations (two people over-allocated), risks, issues, milestones and
 * status reports with summaries — and
 * a "twin" tenant holding a project of the same name as one of the fixture's (and of the NYC demo's), so the golden
 * set can prove that another tenant's records are never retrieved.
 *
 * The records themselves are eval/fixture-data.ts, written by hand: the golden set (eval/golden/) names them by
 * title and states their values literally, never read back from any answer.
 */
import {
  ALLOCATIONS,
  type FixtureProject,
  ISSUES,
  MILESTONES,
  PEOPLE,
  PROJECTS,
  RISKS,
  STATUS_REPORTS,
  TWIN_PROJECT,
} from './fixture-data.js';

type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** A tiny JSON client over fetch for one key (the fixture needs nothing more). */
export function apiClient(baseUrl: string, key: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
}

function projectBody(p: FixtureProject, pmId: string | undefined): Record<string, unknown> {
  const { pm: _pm, ...fields } = p;
  return { ...fields, ...(pmId ? { projectManagerId: pmId } : {}) };
}

/** Creates the fixture portfolio in the tenant of `key` (write scope) through the API. */
export async function createFixture(baseUrl: string, key: string): Promise<void> {
  const api = apiClient(baseUrl, key);
  const people = new Map<string, string>();
  for (const person of PEOPLE) {
    const created = await api('POST', '/resources', { ...person, skills: [...person.skills] });
    people.set(person.name, created.id as string);
  }
  const projects = new Map<string, string>();
  for (const p of PROJECTS) {
    const created = await api('POST', '/projects', projectBody(p, p.pm ? people.get(p.pm) : undefined));
    projects.set(p.name, created.id as string);
  }
  const id = (map: Map<string, string>, name: string) => {
    const value = map.get(name);
    if (!value) throw new Error(`fixture: unknown ${name}`);
    return value;
  };
  for (const a of ALLOCATIONS) {
    await api('POST', '/allocations', {
      resourceId: id(people, a.person),
      projectId: id(projects, a.project),
      startDate: a.from,
      endDate: a.to,
      allocationPercent: a.percent,
    });
  }
  for (const { project, ...risk } of RISKS)
    await api('POST', '/risks', { ...risk, projectId: id(projects, project) });
  for (const { project, ...issue } of ISSUES)
    await api('POST', '/issues', { ...issue, projectId: id(projects, project) });
  for (const { project, ...milestone } of MILESTONES) {
    await api('POST', `/projects/${id(projects, project)}/milestones`, milestone);
  }
  for (const { project, ...report } of STATUS_REPORTS) {
    await api('POST', `/projects/${id(projects, project)}/status-reports`, report);
  }
}

/** Creates the twin tenant's one project and risk. */
export async function createTwin(baseUrl: string, key: string): Promise<void> {
  const api = apiClient(baseUrl, key);
  const project = await api('POST', '/projects', projectBody(TWIN_PROJECT, undefined));
  await api('POST', '/risks', {
    projectId: project.id,
    title: 'Contaminated sediment disposal costs',
    likelihood: 1,
    impact: 3,
  });
}
