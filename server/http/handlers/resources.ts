/**
 * Handlers of the Resources tag: validated input → one service call → a declared result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { created, ok, page, versioned } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listResources, createResource, getResource, updateResource, getResourceAvailability. */
export function resourceHandlers(
  services: Services,
): Pick<
  HandlerMap,
  'listResources' | 'createResource' | 'getResource' | 'updateResource' | 'getResourceAvailability'
> {
  return {
    async listResources(ctx) {
      return page(ctx, (filter, p) => services.resources.list(ctx.actor, filter, p));
    },
    async createResource(ctx) {
      return created(ctx, await services.resources.create(ctx.actor, ctx.body), '/resources/{id}');
    },
    async getResource({ actor, path }) {
      return versioned(await services.resources.get(actor, path.id));
    },
    async updateResource({ actor, path, body, headers }) {
      return versioned(await services.resources.update(actor, path.id, body, headers?.['If-Match']));
    },
    async getResourceAvailability({ actor, path, query }) {
      return ok(
        await services.resources.availability(
          actor,
          path.id,
          query.from,
          query.to,
          query.granularity ?? 'week',
        ),
      );
    },
  };
}
