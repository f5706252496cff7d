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
  allocations,
  listAllAllocations,
  listAllocations,
} from '../repositories/allocations.js';
import type { Page, PageRequest } from '../repositories/lists.js';
import type { ListFilter, Schema } from '../schemas.js';
import { type AllocationConflict, findConflicts } from './allocation-conflicts.js';
import type { Actor, ServiceDeps } from './context.js';
import { businessRule } from './errors.js';
import { assertReference } from './references.js';
import {
  createRecord,
  deleteRecord,
  getRecord,
  inWrite,
  patched,
  updateRecord,
  type VersionedKind,
} from './versioned.js';

/** Body of POST /allocations (spec `AllocationCreate`). */
export type AllocationCreateInput = Schema<'AllocationCreate'>;

/** Body of PATCH /allocations/{id} (spec `AllocationUpdate`): resource and project cannot change. */
export type AllocationUpdateInput = Schema<'AllocationUpdate'>;

const ALLOCATION: VersionedKind<AllocationRecord, AllocationFields> = {
  table: allocations,
  resourceType: 'allocation',
};

/** Filters of GET /allocations/conflicts. */
export type ConflictFilter = ListFilter<'listAllocationConflicts'>;

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
    return inWrite(this.deps, actor, async (w) => {
      await assertReference(w.trx, actor.tenantId, 'resource', 'resourceId', fields.resourceId);
      await assertReference(w.trx, actor.tenantId, 'project', 'projectId', fields.projectId);
      return createRecord(w, ALLOCATION, uuidv7(), fields);
    });
  }

  /** One allocation of the caller's tenant. @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<AllocationRecord> {
    return getRecord(this.deps.db.knex, actor, ALLOCATION, id);
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
    return inWrite(this.deps, actor, async (w) => {
      const { after } = await updateRecord(w, ALLOCATION, {
        id,
        ifMatch,
        apply: (current) => patched(allocations.fieldsOf(current), input),
        check: checkFields,
      });
      return after;
    });
  }

  /**
   * Deletes the allocation; the audit row keeps the last value of every field (`to: null`).
   * @throws AppError 404; 412 If-Match mismatch; 409 on a concurrent write.
   */
  async delete(actor: Actor, id: string, ifMatch?: string): Promise<void> {
    await inWrite(this.deps, actor, (w) => deleteRecord(w, ALLOCATION, id, ifMatch));
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
