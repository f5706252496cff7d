/**
 * Handlers of the Allocations tag: validated input → one service call → status, body and headers.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listResult, pageOf } from '../pagination.js';
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
    async listAllocations({ actor, query, baseUrl, req }) {
      const page = pageOf(query);
      const filter = {
        resourceId: query?.resourceId,
        projectId: query?.projectId,
        from: query?.from,
        to: query?.to,
      };
      return listResult(await services.allocations.list(actor, filter, page), page, baseUrl, req.originalUrl);
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
    async listAllocationConflicts({ actor, query, baseUrl, req }) {
      const page = pageOf(query);
      const filter = { resourceId: query?.resourceId, from: query?.from, to: query?.to };
      return listResult(
        await services.allocations.conflicts(actor, filter, page),
        page,
        baseUrl,
        req.originalUrl,
      );
    },
  };
}
