/**
 * Resources (people): creation with DESIGN.md's defaults, listing, partial update, and availability over a date
 * range (computed by the pure functions of ./availability.ts). Every mutation writes its audit row in the same
 * transaction.
 */
import { v7 as uuidv7 } from 'uuid';
import { listAllAllocations } from '../repositories/allocations.js';
import type { Page, PageRequest } from '../repositories/common.js';
import { inTransaction } from '../repositories/common.js';
import {
  findResource,
  insertResource,
  listResources,
  type ResourceFields,
  type ResourceFilter,
  type ResourceRecord,
  updateResource,
} from '../repositories/resources.js';
import { diff, recordAudit } from './audit.js';
import {
  type AvailabilityPeriod,
  type AvailabilityTotals,
  assertRange,
  computeAvailability,
  type Granularity,
} from './availability.js';
import { checkIfMatch } from './concurrency.js';
import type { Actor, ServiceDeps } from './context.js';
import { AppError, notFound } from './errors.js';

/** Body of POST /resources (spec `ResourceCreate`): only `name` is required. */
export interface ResourceCreateInput {
  name: string;
  email?: string | null;
  role?: string | null;
  skills?: string[];
  capacityHoursPerWeek?: number;
  costRatePerHour?: number | null;
  active?: boolean;
}

/** Body of PATCH /resources/{id} (spec `ResourceUpdate`): any subset of the writable fields. */
export type ResourceUpdateInput = Partial<ResourceCreateInput>;

/** GET /resources/{id}/availability (spec `ResourceAvailability`). */
export interface ResourceAvailability {
  resourceId: string;
  from: string;
  to: string;
  granularity: Granularity;
  periods: AvailabilityPeriod[];
  totals: AvailabilityTotals;
}

function fieldsOf(r: ResourceRecord): ResourceFields {
  const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...fields } = r;
  return fields;
}

/** Resource use cases. */
export class ResourceService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Creates a resource: capacityHoursPerWeek 40, skills [] and active true unless given (DESIGN.md). */
  async create(actor: Actor, input: ResourceCreateInput): Promise<ResourceRecord> {
    const fields: ResourceFields = {
      name: input.name,
      email: input.email ?? null,
      role: input.role ?? null,
      skills: input.skills ?? [],
      capacityHoursPerWeek: input.capacityHoursPerWeek ?? 40,
      costRatePerHour: input.costRatePerHour ?? null,
      active: input.active ?? true,
    };
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      const resource = await insertResource(trx, actor.tenantId, uuidv7(), fields, now);
      await recordAudit(
        trx,
        actor,
        now,
        'resource.created',
        'resource',
        resource.id,
        diff({}, fieldsOf(resource)),
      );
      return resource;
    });
  }

  /** One resource of the caller's tenant. @throws AppError 404 when unknown in this tenant. */
  async get(actor: Actor, id: string): Promise<ResourceRecord> {
    const resource = await findResource(this.deps.db.knex, actor.tenantId, id);
    if (!resource) throw notFound('resource', id);
    return resource;
  }

  /** A page of the tenant's resources; each given filter restricts the list. */
  async list(actor: Actor, filter: ResourceFilter, page: PageRequest): Promise<Page<ResourceRecord>> {
    return listResources(this.deps.db.knex, actor.tenantId, filter, page);
  }

  /**
   * Partial update: only the fields present change; `null` clears a nullable field. A no-op update returns the
   * resource unchanged (same version, no audit row). Deactivating keeps the resource's allocations.
   * @throws AppError 404; 412 If-Match mismatch; 409 on a concurrent write.
   */
  async update(
    actor: Actor,
    id: string,
    input: ResourceUpdateInput,
    ifMatch?: string,
  ): Promise<ResourceRecord> {
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      const current = await findResource(trx, actor.tenantId, id);
      if (!current) throw notFound('resource', id);
      checkIfMatch(ifMatch, current.version);
      const before = fieldsOf(current);
      const after: ResourceFields = { ...before };
      for (const [key, value] of Object.entries(input) as [keyof ResourceFields, unknown][]) {
        if (value !== undefined) (after as unknown as Record<string, unknown>)[key] = value;
      }
      const changes = diff(
        before as unknown as Record<string, unknown>,
        after as unknown as Record<string, unknown>,
      );
      if (Object.keys(changes).length === 0) return current;
      const changed: Partial<ResourceFields> = {};
      for (const key of Object.keys(changes) as (keyof ResourceFields)[]) {
        (changed as Record<string, unknown>)[key] = after[key];
      }
      const ok = await updateResource(trx, actor.tenantId, id, current.version, changed, now);
      if (!ok)
        throw new AppError('conflict', 'The resource was changed by another request; fetch it and retry.');
      await recordAudit(trx, actor, now, 'resource.updated', 'resource', id, changes);
      const updated = await findResource(trx, actor.tenantId, id);
      if (!updated) throw notFound('resource', id);
      return updated;
    });
  }

  /**
   * Capacity, allocated and available hours of the resource over [from, to] per ISO week or day.
   * @throws AppError 422 when `to` < `from` or the range exceeds 366 days; 404 when the resource is unknown.
   */
  async availability(
    actor: Actor,
    id: string,
    from: string,
    to: string,
    granularity: Granularity,
  ): Promise<ResourceAvailability> {
    assertRange(from, to);
    const db = this.deps.db.knex;
    const resource = await findResource(db, actor.tenantId, id);
    if (!resource) throw notFound('resource', id);
    const allocations = await listAllAllocations(db, actor.tenantId, { resourceId: id, from, to });
    const report = computeAvailability({
      from,
      to,
      granularity,
      capacityHoursPerWeek: resource.capacityHoursPerWeek,
      allocations,
    });
    return { resourceId: id, from, to, granularity, ...report };
  }
}
