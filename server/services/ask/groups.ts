/**
 * Grouping and comparison (docs/agents.md, Ask: grouping): the projects a filter keeps, grouped by a facet (each
 * item of a comma-separated borough, category or agency list is a group of its own, so a project in "Brooklyn,
 * Queens" counts in both), by project manager or by status; each group counted and, for a money measure, summed
 * over its known values. Groups are ordered by the measure, largest first (ties by name).
 */
import { findResources } from '../../repositories/ask.js';
import { facetItems, type ProjectRecord } from '../../repositories/projects.js';
import type { Executor } from '../../repositories/sql.js';
import type { Grouping } from './describing.js';
import { figuresOf, type ProjectFigures, type ProjectGroup } from './evidence.js';

/** The groups of the projects, and the projects that have no value for the grouping field. */
export async function groupProjects(
  db: Executor,
  tenantId: string,
  grouping: Grouping,
  list: ProjectRecord[],
  only: readonly string[] | null,
): Promise<{ groups: ProjectGroup[]; ungrouped: ProjectFigures[] }> {
  const managers =
    grouping.by === 'manager'
      ? new Map(
          (
            await findResources(db, tenantId, [
              ...new Set(list.flatMap((p) => (p.projectManagerId ? [p.projectManagerId] : []))),
            ])
          ).map((r) => [r.id, r.name]),
        )
      : new Map<string, string>();
  const keysOf = (p: ProjectRecord): { key: string; name: string }[] => {
    if (grouping.by === 'status') return [{ key: p.status, name: p.status }];
    if (grouping.by === 'manager') {
      const name = p.projectManagerId ? managers.get(p.projectManagerId) : undefined;
      return name && p.projectManagerId ? [{ key: p.projectManagerId, name }] : [];
    }
    const raw = p[grouping.by];
    if (!raw) return [];
    const written = raw.split(',').map((v) => v.trim());
    return facetItems(raw).map((key) => ({ key, name: written.find((w) => w.toLowerCase() === key) ?? key }));
  };
  const groups = new Map<string, ProjectGroup>();
  const ungrouped: ProjectFigures[] = [];
  const wanted = only ? new Set(only.map((v) => v.toLowerCase())) : null;
  for (const project of list) {
    const keys = keysOf(project).filter((k) => !wanted || wanted.has(k.key));
    const figures = figuresOf(project);
    if (keys.length === 0) {
      if (!wanted) ungrouped.push(figures);
      continue;
    }
    for (const { key, name } of keys) {
      const group = groups.get(key) ?? { name, projects: [], total: null, unknown: [] };
      group.projects.push(figures);
      groups.set(key, group);
    }
  }
  const field = grouping.measure === 'count' ? null : grouping.measure;
  for (const group of groups.values()) {
    if (!field) continue;
    const known = group.projects.filter((f) => f.project[field] !== null);
    group.unknown = group.projects.filter((f) => f.project[field] === null);
    group.total =
      known.length > 0
        ? Math.round(known.reduce((s, f) => s + (f.project[field] as number), 0) * 100) / 100
        : null;
  }
  const measure = (g: ProjectGroup) => (field ? (g.total ?? -1) : g.projects.length);
  return {
    groups: [...groups.values()].sort(
      (a, b) => measure(b) - measure(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    ),
    ungrouped,
  };
}
