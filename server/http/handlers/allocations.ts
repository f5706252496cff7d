/**
 * Handlers of the Allocations tag: validated input → one service call → status, body and headers.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/** Handlers for the allocation CRUD operations and listAllocationConflicts. */
export function allocationHandlers(
  services: Services,
): Pick<
  HandlerMap,
  | 'listAllocations'
  | 'createAllocation'
  | 'getAllocation'
  | 'updateAllocation'
  | 'deleteAllocation'
  | 'listAllocationConflicts'
> {
  return {
    async listAllocations(ctx) {
      const { actor, query } = ctx;
      const filter = {
        resourceId: query?.resourceId,
        projectId: query?.projectId,
        from: query?.from,
        to: query?.to,
        sort: query?.sort,
      };
      return listPage(ctx, (page) => services.allocations.list(actor, filter, page));
    },
    async createAllocation({ actor, body }) {
      const allocation = await services.allocations.create(actor, body);
      return {
        status: 201,
        body: allocation,
        headers: { Location: `/v1/allocations/${allocation.id}`, ETag: etagOf(allocation.version) },
      };
    },
    async getAllocation({ actor, path }) {
      const allocation = await services.allocations.get(actor, path.id);
      return { status: 200, body: allocation, headers: { ETag: etagOf(allocation.version) } };
    },
    async updateAllocation({ actor, path, body, headers }) {
      const allocation = await services.allocations.update(actor, path.id, body, headers?.['If-Match']);
      return { status: 200, body: allocation, headers: { ETag: etagOf(allocation.version) } };
    },
    async deleteAllocation({ actor, path, headers }) {
      await services.allocations.delete(actor, path.id, headers?.['If-Match']);
      return { status: 204 };
    },
    async listAllocationConflicts(ctx) {
      const { actor, query } = ctx;
      const filter = { resourceId: query?.resourceId, from: query?.from, to: query?.to };
      return listPage(ctx, (page) => services.allocations.conflicts(actor, filter, page));
    },
  };
}
