/**
 * Projects: creation, the detail view, listing and partial update (seed rule 2), with the status transitions
 * and date rule of docs/design.md. Every mutation writes its audit row in the same transaction.
 */
import { v7 as uuidv7 } from 'uuid';
import { daysBetween } from '../dates.js';
import type { Page, PageRequest } from '../repositories/lists.js';
import type { MilestoneRecord } from '../repositories/milestones.js';
import { projectDetailRows } from '../repositories/project-detail.js';
import {
  FACETS,
  findProjectByCode,
  listProjects,
  type ProjectFields,
  type ProjectFilter,
  type ProjectRecord,
  type ProjectStatus,
  projects,
  writeProjectFacets,
} from '../repositories/projects.js';
import type { Executor } from '../repositories/sql.js';
import { findTenant } from '../repositories/tenants.js';
import type { Schema } from '../schemas.js';
import type { Actor, ServiceDeps } from './context.js';
import { AppError, businessRule, notFound } from './errors.js';
import { overrunCrossings } from './event-rules.js';
import { assertReference } from './references.js';
import { type TeamMember, teamOf } from './team.js';
import {
  createRecord,
  inWrite,
  patched,
  type UpdateResult,
  updateRecord,
  type VersionedKind,
  type WriteContext,
} from './versioned.js';
import type { EventOutbox } from './webhooks/outbox.js';

/** Body of POST /projects (spec `ProjectCreate`): name, startDate and endDate are required (seed). */
export type ProjectCreateInput = Schema<'ProjectCreate'>;

/** Body of PATCH /projects/{id} (spec `ProjectUpdate`): any subset of the writable fields. */
export type ProjectUpdateInput = Schema<'ProjectUpdate'>;

const PROJECT: VersionedKind<ProjectRecord, ProjectFields> = { table: projects, resourceType: 'project' };

/** The detail view's budget block (spec `BudgetSummary`); money in the tenant's currency, major units. */
export type BudgetSummary = Schema<'BudgetSummary'>;

/** GET /projects/{id}: the project with milestones, team and budget summary (seed: "the full project"). */
export interface ProjectDetail extends ProjectRecord {
  milestones: MilestoneRecord[];
  team: TeamMember[];
  budgetSummary: BudgetSummary;
}

const TERMINAL_REOPEN: Partial<Record<ProjectStatus, ProjectStatus>> = {
  COMPLETED: 'ON_TRACK',
  CANCELLED: 'PLANNED',
};

/**
 * Whether a project may move from `from` to `to` (docs/design.md): COMPLETED and CANCELLED are terminal except for
 * the explicit reopen COMPLETED → ON_TRACK and CANCELLED → PLANNED; every other move is allowed.
 */
export function canTransition(from: ProjectStatus, to: ProjectStatus): boolean {
  if (from === to) return true;
  if (from === 'COMPLETED' || from === 'CANCELLED') return TERMINAL_REOPEN[from] === to;
  return true;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Computes the detail view's budget summary from a project. A figure that depends on an unknown (null) input is
 * null (docs/resources.md, Unknown is null: an unreported actual cost is not 0, so nothing is "remaining" or
 * "0 % spent").
 */
export function budgetSummaryOf(p: ProjectRecord): BudgetSummary {
  const { budget, actualCost, forecastCost } = p;
  return {
    budget,
    actualCost,
    forecastCost,
    remaining: budget !== null && actualCost !== null ? round2(budget - actualCost) : null,
    percentSpent:
      budget !== null && budget > 0 && actualCost !== null ? round2((actualCost / budget) * 100) : null,
    costVariance: budget !== null && forecastCost !== null ? round2(budget - forecastCost) : null,
    scheduleVarianceDays: p.forecastEndDate === null ? null : daysBetween(p.endDate, p.forecastEndDate),
    currency: p.currency,
  };
}

/** `costVariance` of a budget and a forecast (budget − forecast, 2 decimals; negative = overrun), or null. */
export function costVarianceOf(budget: number | null, forecastCost: number | null): number | null {
  return budget !== null && forecastCost !== null ? round2(budget - forecastCost) : null;
}

function checkDates(startDate: string, endDate: string): void {
  if (endDate < startDate) {
    throw businessRule(`endDate (${endDate}) is before startDate (${startDate}).`, [
      { location: 'body', path: '/endDate', message: 'must be on or after startDate' },
    ]);
  }
}

/**
 * The events a project change causes, in its transaction: `project.status_changed` on any status change and
 * `budget.overrun_detected` once per crossing above the budget (spec, `webhooks`).
 */
async function emitProjectEvents(
  events: EventOutbox,
  trx: Executor,
  tenantId: string,
  before: ProjectRecord | null,
  after: ProjectRecord,
  now: string,
): Promise<void> {
  if (before && before.status !== after.status) {
    await events.emit(
      trx,
      tenantId,
      'project.status_changed',
      { projectId: after.id, previousStatus: before.status, status: after.status, project: after },
      now,
    );
  }
  for (const kind of overrunCrossings(before, after)) {
    const amount = (kind === 'ACTUAL' ? after.actualCost : after.forecastCost) as number;
    const budget = after.budget as number;
    await events.emit(
      trx,
      tenantId,
      'budget.overrun_detected',
      {
        projectId: after.id,
        kind,
        budget,
        amount,
        overrun: Math.round((amount - budget) * 100) / 100,
        currency: after.currency,
        project: after,
      },
      now,
    );
  }
}

/** Project use cases. */
export class ProjectService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Creates a project (status PLANNED unless given; actual cost and progress null, i.e. unknown, unless given).
   * @throws AppError 422 when endDate < startDate or `projectManagerId` names no resource of the tenant; 409
   *   `conflict` when `code` is already used in the tenant.
   */
  async create(actor: Actor, input: ProjectCreateInput): Promise<ProjectRecord> {
    return inWrite(this.deps, actor, (w) => this.createIn(w, input));
  }

  /**
   * {@link ProjectService.create} inside the caller's write (the importer creates a project and its first status
   * report in one transaction).
   */
  async createIn(w: WriteContext, input: ProjectCreateInput): Promise<ProjectRecord> {
    const { actor } = w;
    checkDates(input.startDate, input.endDate);
    const fields: ProjectFields = {
      code: input.code ?? null,
      name: input.name,
      description: input.description ?? null,
      status: input.status ?? 'PLANNED',
      startDate: input.startDate,
      endDate: input.endDate,
      forecastEndDate: input.forecastEndDate ?? null,
      budget: input.budget ?? null,
      forecastCost: input.forecastCost ?? null,
      actualCost: input.actualCost ?? null,
      projectManagerId: input.projectManagerId ?? null,
      progress: input.progress ?? null,
      tags: input.tags ?? [],
      category: input.category ?? null,
      borough: input.borough ?? null,
      managingAgency: input.managingAgency ?? null,
      clientAgency: input.clientAgency ?? null,
    };
    await assertReference(w.trx, actor.tenantId, 'resource', 'projectManagerId', fields.projectManagerId);
    if (fields.code !== null && (await findProjectByCode(w.trx, actor.tenantId, fields.code))) {
      throw new AppError('conflict', `A project with code "${fields.code}" already exists in this tenant.`);
    }
    const project = await createRecord(w, PROJECT, uuidv7(), fields);
    await writeProjectFacets(w.trx, actor.tenantId, project.id, project);
    await emitProjectEvents(this.deps.events, w.trx, actor.tenantId, null, project, w.now);
    return project;
  }

  /** One project of the caller's tenant. @throws AppError 404 when unknown in this tenant. */
  async get(actor: Actor, id: string): Promise<ProjectRecord> {
    const project = await projects.find(this.deps.db.knex, actor.tenantId, id);
    if (!project) throw notFound('project', id);
    return project;
  }

  /**
   * The detail view: project, its milestones by due date, team (from allocations) and budget summary, read in one
   * statement. @throws AppError 404 when unknown in this tenant.
   */
  async getDetail(actor: Actor, id: string): Promise<ProjectDetail> {
    const [rows, timeZone] = await Promise.all([
      projectDetailRows(this.deps.db.knex, actor.tenantId, id),
      // The authenticated request already holds the tenant: no second read of it (docs/design.md, The request
      // pipeline).
      actor.timeZone ?? findTenant(this.deps.db.knex, actor.tenantId).then((t) => t?.timezone ?? 'UTC'),
    ]);
    if (!rows) throw notFound('project', id);
    const today = this.deps.calendar.today(timeZone, this.deps.clock.now());
    return {
      ...rows.project,
      milestones: rows.milestones,
      team: teamOf(rows.allocations, today),
      budgetSummary: budgetSummaryOf(rows.project),
    };
  }

  /** A project by its external code, or null (the importer's idempotency key). */
  async findByCode(actor: Actor, code: string): Promise<ProjectRecord | null> {
    return findProjectByCode(this.deps.db.knex, actor.tenantId, code);
  }

  /** A page of the tenant's projects, optionally restricted to one status (seed rule 1). */
  async list(actor: Actor, filter: ProjectFilter, page: PageRequest): Promise<Page<ProjectRecord>> {
    return listProjects(this.deps.db.knex, actor.tenantId, filter, page);
  }

  /**
   * Applies a partial update: only the fields present in `input` change (seed rule 2). A no-op update returns
   * the project unchanged (same version, no audit row).
   * @throws AppError 404 unknown project; 412 If-Match mismatch; 409 `invalid_transition`; 409 `conflict` on a
   *   duplicate code or a concurrent write; 422 when the resulting endDate < startDate or a new
   *   `projectManagerId` names no resource of the tenant.
   */
  async update(
    actor: Actor,
    id: string,
    input: ProjectUpdateInput,
    ifMatch?: string,
  ): Promise<ProjectRecord> {
    return inWrite(this.deps, actor, async (w) => (await this.updateIn(w, id, input, ifMatch)).after);
  }

  /**
   * {@link ProjectService.update} inside the caller's write (a status report applies its values to the project in
   * the report's transaction), through the one versioned write path; returns the record before and after.
   */
  async updateIn(
    w: WriteContext,
    id: string,
    input: ProjectUpdateInput,
    ifMatch?: string,
  ): Promise<UpdateResult<ProjectRecord>> {
    const { actor } = w;
    const result = await updateRecord(w, PROJECT, {
      id,
      ifMatch,
      apply: (current) => {
        const fields = projects.fieldsOf(current);
        const next = patched(fields, input);
        if (!canTransition(fields.status, next.status)) {
          const reopen = TERMINAL_REOPEN[fields.status];
          throw new AppError(
            'invalid_transition',
            `A ${fields.status} project cannot move to ${next.status}; ` +
              (reopen ? `reopen it as ${reopen} first.` : ''),
          );
        }
        return next;
      },
      check: async (next, changes) => {
        checkDates(next.startDate, next.endDate);
        if (changes.projectManagerId) {
          await assertReference(w.trx, actor.tenantId, 'resource', 'projectManagerId', next.projectManagerId);
        }
        if (changes.code && next.code !== null) {
          const other = await findProjectByCode(w.trx, actor.tenantId, next.code);
          if (other && other.id !== id) {
            throw new AppError(
              'conflict',
              `A project with code "${next.code}" already exists in this tenant.`,
            );
          }
        }
      },
    });
    const { before, after, changed } = result;
    if (changed) {
      const tagsChanged = JSON.stringify(before.tags) !== JSON.stringify(after.tags);
      if (tagsChanged || FACETS.some((f) => before[f] !== after[f]))
        await writeProjectFacets(w.trx, actor.tenantId, id, after);
      await emitProjectEvents(this.deps.events, w.trx, actor.tenantId, before, after, w.now);
    }
    return result;
  }
}
