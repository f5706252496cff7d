/**
 * Handlers of the Allocations tag: validated input → one service call → a declared result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { created, noContent, page, versioned } from '../result.js';
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
      return page(ctx, (filter, p) => services.allocations.list(ctx.actor, filter, p));
    },
    async createAllocation(ctx) {
      return created(ctx, await services.allocations.create(ctx.actor, ctx.body), '/allocations/{id}');
    },
    async getAllocation({ actor, path }) {
      return versioned(await services.allocations.get(actor, path.id));
    },
    async updateAllocation({ actor, path, body, headers }) {
      return versioned(await services.allocations.update(actor, path.id, body, headers?.['If-Match']));
    },
    async deleteAllocation({ actor, path, headers }) {
      await services.allocations.delete(actor, path.id, headers?.['If-Match']);
      return noContent();
    },
    async listAllocationConflicts(ctx) {
      return page(ctx, (filter, p) => services.allocations.conflicts(ctx.actor, filter, p));
    },
  };
}
