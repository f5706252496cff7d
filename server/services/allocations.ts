/**
 * Allocations: a resource booked on a project from startDate to endDate (inclusive) at a percentage of its weekly
 * capacity, and the over-allocation conflicts they create (./conflicts.ts). Over-allocation is allowed on write; it
 * is reported, not refused. Every mutation writes its audit row in the same transaction.
 */
import { v7 as uuidv7 } from 'uuid';
import {
  type AllocationFields,
  type AllocationFilter,
  type AllocationRecord,
  deleteAllocation,
  findAllocation,
  insertAllocation,
  listAllAllocations,
  listAllocations,
  updateAllocation,
} from '../repositories/allocations.js';
import type { FieldChange } from '../repositories/audit.js';
import type { Page, PageRequest } from '../repositories/common.js';
import { inTransaction } from '../repositories/common.js';
import { diff, recordAudit } from './audit.js';
import { checkIfMatch } from './concurrency.js';
import { type AllocationConflict, findConflicts } from './conflicts.js';
import type { Actor, ServiceDeps } from './context.js';
import { AppError, businessRule, notFound } from './errors.js';
import { assertReference } from './references.js';

/** Body of POST /allocations (spec `AllocationCreate`). */
export interface AllocationCreateInput {
  resourceId: string;
  projectId: string;
  startDate: string;
  endDate: string;
  allocationPercent: number;
  role?: string | null;
}

/** Body of PATCH /allocations/{id} (spec `AllocationUpdate`): resource and project cannot change. */
export interface AllocationUpdateInput {
  startDate?: string;
  endDate?: string;
  allocationPercent?: number;
  role?: string | null;
}

/** Filters of GET /allocations/conflicts. */
export interface ConflictFilter {
  resourceId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function fieldsOf(a: AllocationRecord): AllocationFields {
  const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...fields } = a;
  return fields;
}

/** The rules the schema cannot express: endDate ≥ startDate; allocationPercent 1–100 (for non-HTTP callers). */
function checkFields(f: AllocationFields): void {
  if (f.endDate < f.startDate) {
    throw businessRule(`endDate (${f.endDate}) is before startDate (${f.startDate}).`, [
      { location: 'body', path: '/endDate', message: 'must be on or after startDate' },
    ]);
  }
  if (!(f.allocationPercent >= 1 && f.allocationPercent <= 100)) {
    throw businessRule(`allocationPercent (${f.allocationPercent}) must be between 1 and 100.`, [
      { location: 'body', path: '/allocationPercent', message: 'must be between 1 and 100' },
    ]);
  }
}

/** Allocation use cases. */
export class AllocationService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Creates an allocation.
   * @throws AppError 422 when endDate < startDate, or `resourceId` / `projectId` names no record of the tenant.
   */
  async create(actor: Actor, input: AllocationCreateInput): Promise<AllocationRecord> {
    const fields: AllocationFields = {
      resourceId: input.resourceId,
      projectId: input.projectId,
      startDate: input.startDate,
      endDate: input.endDate,
      allocationPercent: input.allocationPercent,
      role: input.role ?? null,
    };
    checkFields(fields);
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      await assertReference(trx, actor.tenantId, 'resource', 'resourceId', fields.resourceId);
      await assertReference(trx, actor.tenantId, 'project', 'projectId', fields.projectId);
      const allocation = await insertAllocation(trx, actor.tenantId, uuidv7(), fields, now);
      await recordAudit(
        trx,
        actor,
        now,
        'allocation.created',
        'allocation',
        allocation.id,
        diff({}, fieldsOf(allocation)),
      );
      return allocation;
    });
  }

  /** One allocation of the caller's tenant. @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<AllocationRecord> {
    const allocation = await findAllocation(this.deps.db.knex, actor.tenantId, id);
    if (!allocation) throw notFound('allocation', id);
    return allocation;
  }

  /** A page of the tenant's allocations; resourceId/projectId exact, from/to keep those overlapping the range. */
  async list(actor: Actor, filter: AllocationFilter, page: PageRequest): Promise<Page<AllocationRecord>> {
    return listAllocations(this.deps.db.knex, actor.tenantId, filter, page);
  }

  /**
   * Partial update of dates, percentage and role; the dates are checked again on the result.
   * @throws AppError 404; 412 If-Match mismatch; 409 on a concurrent write; 422 when endDate < startDate.
   */
  async update(
    actor: Actor,
    id: string,
    input: AllocationUpdateInput,
    ifMatch?: string,
  ): Promise<AllocationRecord> {
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      const current = await findAllocation(trx, actor.tenantId, id);
      if (!current) throw notFound('allocation', id);
      checkIfMatch(ifMatch, current.version);
      const before = fieldsOf(current);
      const after: AllocationFields = { ...before };
      for (const key of ['startDate', 'endDate', 'allocationPercent', 'role'] as const) {
        if (input[key] !== undefined) (after as unknown as Record<string, unknown>)[key] = input[key];
      }
      const changes = diff(
        before as unknown as Record<string, unknown>,
        after as unknown as Record<string, unknown>,
      );
      if (Object.keys(changes).length === 0) return current;
      checkFields(after);
      const changed: Partial<AllocationFields> = {};
      for (const key of Object.keys(changes) as (keyof AllocationFields)[]) {
        (changed as Record<string, unknown>)[key] = after[key];
      }
      const ok = await updateAllocation(trx, actor.tenantId, id, current.version, changed, now);
      if (!ok)
        throw new AppError('conflict', 'The allocation was changed by another request; fetch it and retry.');
      await recordAudit(trx, actor, now, 'allocation.updated', 'allocation', id, changes);
      const updated = await findAllocation(trx, actor.tenantId, id);
      if (!updated) throw notFound('allocation', id);
      return updated;
    });
  }

  /**
   * Deletes the allocation; the audit row keeps every field's last value (`to: null`).
   * @throws AppError 404; 412 If-Match mismatch; 409 on a concurrent write.
   */
  async delete(actor: Actor, id: string, ifMatch?: string): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    await inTransaction(this.deps.db.knex, async (trx) => {
      const current = await findAllocation(trx, actor.tenantId, id);
      if (!current) throw notFound('allocation', id);
      checkIfMatch(ifMatch, current.version);
      if (!(await deleteAllocation(trx, actor.tenantId, id, current.version))) {
        throw new AppError('conflict', 'The allocation was changed by another request; fetch it and retry.');
      }
      const changes: Record<string, FieldChange> = {};
      for (const [key, value] of Object.entries(fieldsOf(current))) changes[key] = { from: value, to: null };
      await recordAudit(trx, actor, now, 'allocation.deleted', 'allocation', id, changes);
    });
  }

  /**
   * Over-allocation conflicts of the tenant's resources (or one resource), clipped to [from, to], ordered by
   * resourceId then startDate, paginated in memory after the sweep (a conflict is not a stored row).
   */
  async conflicts(
    actor: Actor,
    filter: ConflictFilter,
    page: PageRequest,
  ): Promise<Page<AllocationConflict>> {
    if (filter.from && filter.to && filter.to < filter.from) return { items: [], total: 0 };
    const allocations = await listAllAllocations(this.deps.db.knex, actor.tenantId, filter);
    const all = findConflicts(allocations, { from: filter.from, to: filter.to });
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
}
