/**
 * The synthetic demo tenant (docs/agents.md, Demo tenants): created by `npm start` beside the NYC demo, filled with
 * the plan of ./synthetic-plan.ts through the services (so every record has its audit rows and events, as if
 * entered through the API), with an admin key of its own printed once. A tenant of that name already there is left
 * as it is: a restart costs one lookup.
 */
import { todayIn } from '../dates.js';
import { findTenantsByName } from '../repositories/tenants.js';
import type { BaseDeps } from '../services/context.js';
import { systemActor } from '../services/context.js';
import type { Services } from '../services/index.js';
import { syntheticPlan } from './synthetic-plan.js';

/** Name of the synthetic tenant; "(synthetic demo)" says that nothing in it is real. */
export const SYNTHETIC_TENANT_NAME = 'Halvorsen & Reyes Engineering (synthetic demo)';

/** The synthetic tenant's time zone; its today anchors the plan's dates. */
const TIME_ZONE = 'America/Chicago';

/** What {@link ensureSyntheticTenant} did. */
export interface SyntheticSetup {
  tenantId: string;
  created: boolean;
  /** The admin key created with the tenant (print it once), else null. */
  newKey: string | null;
  counts: {
    projects: number;
    people: number;
    allocations: number;
    risks: number;
    issues: number;
    milestones: number;
  };
}

/**
 * Creates the synthetic tenant and its records on first run; finds it otherwise.
 * @param now the instant whose date in the tenant's time zone anchors the plan.
 */
export async function ensureSyntheticTenant(
  deps: BaseDeps,
  services: Services,
  now: Date,
): Promise<SyntheticSetup> {
  const counts = { projects: 0, people: 0, allocations: 0, risks: 0, issues: 0, milestones: 0 };
  const existing = (await findTenantsByName(deps.db.knex, SYNTHETIC_TENANT_NAME))[0];
  if (existing) return { tenantId: existing.id, created: false, newKey: null, counts };
  const { tenant } = await services.tenants.create({
    name: SYNTHETIC_TENANT_NAME,
    plan: 'TEAM',
    currency: 'USD',
    timezone: TIME_ZONE,
    userName: 'Synthetic PMO lead',
  });
  const actor = systemActor(tenant.id);
  const plan = syntheticPlan(todayIn(TIME_ZONE, now));
  const people = new Map<number, string>();
  for (const p of plan.people) {
    const { key, ...input } = p;
    people.set(key, (await services.resources.create(actor, input)).id);
    counts.people++;
  }
  const id = (key: number) => people.get(key) as string;
  for (const p of plan.projects) {
    const project = await services.projects.create(actor, {
      code: p.code,
      name: p.name,
      description: p.description,
      category: p.category,
      managingAgency: p.managingAgency,
      clientAgency: p.clientAgency,
      tags: p.tags,
      startDate: p.startDate,
      endDate: p.endDate,
      budget: p.budget,
      projectManagerId: id(p.managerKey),
      status: p.reports.length === 0 ? 'PLANNED' : 'ON_TRACK',
    });
    counts.projects++;
    for (const r of p.reports) await services.statusReports.submit(actor, project.id, r);
    for (const m of p.milestones) {
      await services.milestones.create(actor, project.id, m);
      counts.milestones++;
    }
    for (const a of p.allocations) {
      const { personKey, ...input } = a;
      await services.allocations.create(actor, {
        ...input,
        resourceId: id(personKey),
        projectId: project.id,
      });
      counts.allocations++;
    }
    for (const r of p.risks) {
      const [first, ...later] = r.states;
      if (!first) continue;
      let risk = await services.risks.create(actor, {
        projectId: project.id,
        title: r.title,
        description: r.description,
        mitigation: r.mitigation,
        ownerId: id(r.ownerKey),
        dueDate: r.dueDate,
        ...first,
      });
      for (const state of later) risk = await services.risks.update(actor, risk.id, state);
      counts.risks++;
    }
    for (const i of p.issues) {
      const { assigneeKey, ...input } = i;
      await services.issues.create(actor, { ...input, projectId: project.id, assigneeId: id(assigneeKey) });
      counts.issues++;
    }
  }
  const newKey = (
    await services.apiKeys.create(actor, {
      name: 'Synthetic demo admin key',
      scopes: ['read', 'write', 'admin'],
    })
  ).key;
  return { tenantId: tenant.id, created: true, newKey, counts };
}
