/**
 * Resources (people): creation with docs/design.md's defaults, listing, partial update, and availability over a date
 * range (computed by the pure functions of ./availability.ts). Every mutation writes its audit row in the same
 * transaction.
 */
import { v7 as uuidv7 } from 'uuid';
import { listAllAllocations } from '../repositories/allocations.js';
import type { Page, PageRequest } from '../repositories/lists.js';
import {
  listResources,
  type ResourceFields,
  type ResourceFilter,
  type ResourceRecord,
  resources,
} from '../repositories/resources.js';
import type { Schema } from '../schemas.js';
import { assertRange, computeAvailability, type Granularity } from './availability.js';
import type { Actor, ServiceDeps } from './context.js';
import { createRecord, getRecord, inWrite, patched, updateRecord, type VersionedKind } from './versioned.js';

/** Body of POST /resources (spec `ResourceCreate`): only `name` is required. */
export type ResourceCreateInput = Schema<'ResourceCreate'>;

/** Body of PATCH /resources/{id} (spec `ResourceUpdate`): any subset of the writable fields. */
export type ResourceUpdateInput = Schema<'ResourceUpdate'>;

const RESOURCE: VersionedKind<ResourceRecord, ResourceFields> = {
  table: resources,
  resourceType: 'resource',
};

/** GET /resources/{id}/availability (spec `ResourceAvailability`). */
export type ResourceAvailability = Schema<'ResourceAvailability'>;

/** Resource use cases. */
export class ResourceService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Creates a resource: capacityHoursPerWeek 40, skills [] and active true unless given (docs/design.md). */
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
    return inWrite(this.deps, actor, (w) => createRecord(w, RESOURCE, uuidv7(), fields));
  }

  /** One resource of the caller's tenant. @throws AppError 404 when unknown in this tenant. */
  async get(actor: Actor, id: string): Promise<ResourceRecord> {
    return getRecord(this.deps.db.knex, actor, RESOURCE, id);
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
    return inWrite(this.deps, actor, async (w) => {
      const { after } = await updateRecord(w, RESOURCE, {
        id,
        ifMatch,
        apply: (current) => patched(resources.fieldsOf(current), input),
      });
      return after;
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
    const resource = await getRecord(db, actor, RESOURCE, id);
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
