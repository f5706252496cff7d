/**
 * Projects: creation, the detail view, listing and partial update (seed rule 2), with the status transitions
 * and date rule of DESIGN.md. Every mutation writes its audit row in the same transaction.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Executor, Page, PageRequest } from '../repositories/common.js';
import { inTransaction } from '../repositories/common.js';
import { type MilestoneRecord, milestonesByDueDate } from '../repositories/milestones.js';
import {
  findProject,
  findProjectByCode,
  insertProject,
  listProjects,
  type ProjectFields,
  type ProjectFilter,
  type ProjectRecord,
  type ProjectStatus,
  updateProject,
} from '../repositories/projects.js';
import { teamAllocations } from '../repositories/team.js';
import { findTenant } from '../repositories/tenants.js';
import { diff, recordAudit } from './audit.js';
import { checkIfMatch } from './concurrency.js';
import type { Actor, ServiceDeps } from './context.js';
import { AppError, businessRule, notFound } from './errors.js';
import { overrunCrossings } from './event-rules.js';
import { emitEvent } from './events.js';
import { assertReference } from './references.js';
import { type TeamMember, teamOf, todayIn } from './team.js';

/** Body of POST /projects (spec `ProjectCreate`): name, startDate and endDate are required (seed). */
export interface ProjectCreateInput {
  name: string;
  startDate: string;
  endDate: string;
  code?: string | null;
  description?: string | null;
  status?: ProjectStatus;
  forecastEndDate?: string | null;
  budget?: number | null;
  forecastCost?: number | null;
  actualCost?: number;
  projectManagerId?: string | null;
  progress?: number;
  tags?: string[];
}

/** Body of PATCH /projects/{id} (spec `ProjectUpdate`): any subset of the writable fields. */
export type ProjectUpdateInput = Partial<ProjectCreateInput>;

/** The detail view's budget block (spec `BudgetSummary`); money in the tenant's currency, major units. */
export interface BudgetSummary {
  budget: number | null;
  actualCost: number;
  forecastCost: number | null;
  /** budget − actualCost. */
  remaining: number | null;
  /** actualCost / budget × 100, two decimals; null without a positive budget. */
  percentSpent: number | null;
  /** budget − forecastCost; negative means a forecast overrun. */
  costVariance: number | null;
  /** forecastEndDate − endDate in days; positive means late. */
  scheduleVarianceDays: number | null;
  currency: string;
}

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
 * Whether a project may move from `from` to `to` (DESIGN.md): COMPLETED and CANCELLED are terminal except for
 * the explicit reopen COMPLETED → ON_TRACK and CANCELLED → PLANNED; every other move is allowed.
 */
export function canTransition(from: ProjectStatus, to: ProjectStatus): boolean {
  if (from === to) return true;
  if (from === 'COMPLETED' || from === 'CANCELLED') return TERMINAL_REOPEN[from] === to;
  return true;
}

const DAY_MS = 86_400_000;

/** Whole days from date `a` to date `b` (`YYYY-MM-DD`, UTC). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Computes the detail view's budget summary from a project. */
export function budgetSummaryOf(p: ProjectRecord): BudgetSummary {
  const hasBudget = p.budget !== null;
  return {
    budget: p.budget,
    actualCost: p.actualCost,
    forecastCost: p.forecastCost,
    remaining: hasBudget ? round2((p.budget as number) - p.actualCost) : null,
    percentSpent:
      hasBudget && (p.budget as number) > 0 ? round2((p.actualCost / (p.budget as number)) * 100) : null,
    costVariance: hasBudget && p.forecastCost !== null ? round2((p.budget as number) - p.forecastCost) : null,
    scheduleVarianceDays: p.forecastEndDate === null ? null : daysBetween(p.endDate, p.forecastEndDate),
    currency: p.currency,
  };
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
  trx: Executor,
  tenantId: string,
  before: ProjectRecord | null,
  after: ProjectRecord,
  now: string,
): Promise<void> {
  if (before && before.status !== after.status) {
    await emitEvent(
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
    await emitEvent(
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

function fieldsOf(p: ProjectRecord): ProjectFields {
  const { id: _id, currency: _c, version: _v, createdAt: _ca, updatedAt: _ua, ...fields } = p;
  return fields;
}

/** Project use cases. */
export class ProjectService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Creates a project (status PLANNED unless given).
   * @throws AppError 422 when endDate < startDate or `projectManagerId` names no resource of the tenant; 409
   *   `conflict` when `code` is already used in the tenant.
   */
  async create(actor: Actor, input: ProjectCreateInput): Promise<ProjectRecord> {
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
      actualCost: input.actualCost ?? 0,
      projectManagerId: input.projectManagerId ?? null,
      progress: input.progress ?? 0,
      tags: input.tags ?? [],
    };
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      await assertReference(trx, actor.tenantId, 'resource', 'projectManagerId', fields.projectManagerId);
      if (fields.code !== null && (await findProjectByCode(trx, actor.tenantId, fields.code))) {
        throw new AppError('conflict', `A project with code "${fields.code}" already exists in this tenant.`);
      }
      const project = await insertProject(trx, actor.tenantId, uuidv7(), fields, now);
      await recordAudit(
        trx,
        actor,
        now,
        'project.created',
        'project',
        project.id,
        diff({}, fieldsOf(project)),
      );
      await emitProjectEvents(trx, actor.tenantId, null, project, now);
      return project;
    });
  }

  /** One project of the caller's tenant. @throws AppError 404 when unknown in this tenant. */
  async get(actor: Actor, id: string): Promise<ProjectRecord> {
    const project = await findProject(this.deps.db.knex, actor.tenantId, id);
    if (!project) throw notFound('project', id);
    return project;
  }

  /** The detail view: project, its milestones by due date, team (from allocations) and budget summary. */
  async getDetail(actor: Actor, id: string): Promise<ProjectDetail> {
    const project = await this.get(actor, id);
    const [milestones, allocations, tenant] = await Promise.all([
      milestonesByDueDate(this.deps.db.knex, actor.tenantId, id),
      teamAllocations(this.deps.db.knex, actor.tenantId, id),
      findTenant(this.deps.db.knex, actor.tenantId),
    ]);
    const today = todayIn(tenant?.timezone ?? 'UTC', this.deps.clock.now());
    return {
      ...project,
      milestones,
      team: teamOf(allocations, today),
      budgetSummary: budgetSummaryOf(project),
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
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      const current = await findProject(trx, actor.tenantId, id);
      if (!current) throw notFound('project', id);
      checkIfMatch(ifMatch, current.version);
      const before = fieldsOf(current);
      const patch: Partial<ProjectFields> = {};
      for (const [key, value] of Object.entries(input) as [keyof ProjectFields, unknown][]) {
        if (value === undefined) continue;
        (patch as Record<string, unknown>)[key] = value;
      }
      if (patch.actualCost === null) patch.actualCost = 0;
      const after: ProjectFields = { ...before, ...patch };
      const changes = diff(
        before as unknown as Record<string, unknown>,
        after as unknown as Record<string, unknown>,
      );
      if (Object.keys(changes).length === 0) return current;
      if (!canTransition(before.status, after.status)) {
        throw new AppError(
          'invalid_transition',
          `A ${before.status} project cannot move to ${after.status}; ` +
            (TERMINAL_REOPEN[before.status] ? `reopen it as ${TERMINAL_REOPEN[before.status]} first.` : ''),
        );
      }
      checkDates(after.startDate, after.endDate);
      if (changes.projectManagerId) {
        await assertReference(trx, actor.tenantId, 'resource', 'projectManagerId', after.projectManagerId);
      }
      if (changes.code && after.code !== null) {
        const other = await findProjectByCode(trx, actor.tenantId, after.code);
        if (other && other.id !== id) {
          throw new AppError(
            'conflict',
            `A project with code "${after.code}" already exists in this tenant.`,
          );
        }
      }
      const changed: Partial<ProjectFields> = {};
      for (const key of Object.keys(changes) as (keyof ProjectFields)[]) {
        (changed as Record<string, unknown>)[key] = after[key];
      }
      const ok = await updateProject(trx, actor.tenantId, id, current.version, changed, now);
      if (!ok)
        throw new AppError('conflict', 'The project was changed by another request; fetch it and retry.');
      await recordAudit(trx, actor, now, 'project.updated', 'project', id, changes);
      const updated = await findProject(trx, actor.tenantId, id);
      if (!updated) throw notFound('project', id);
      await emitProjectEvents(trx, actor.tenantId, current, updated, now);
      return updated;
    });
  }
}
