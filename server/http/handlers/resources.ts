/**
 * Handlers of the Resources tag: validated input → one service call → status, body and headers.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
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
      const { actor, query } = ctx;
      const filter = { role: query?.role, skill: query?.skill, active: query?.active, sort: query?.sort };
      return listPage(ctx, (page) => services.resources.list(actor, filter, page));
    },
    async createResource({ actor, body }) {
      const resource = await services.resources.create(actor, body);
      return {
        status: 201,
        body: resource,
        headers: { Location: `/v1/resources/${resource.id}`, ETag: etagOf(resource.version) },
      };
    },
    async getResource({ actor, path }) {
      const resource = await services.resources.get(actor, path.id);
      return { status: 200, body: resource, headers: { ETag: etagOf(resource.version) } };
    },
    async updateResource({ actor, path, body, headers }) {
      const resource = await services.resources.update(actor, path.id, body, headers?.['If-Match']);
      return { status: 200, body: resource, headers: { ETag: etagOf(resource.version) } };
    },
    async getResourceAvailability({ actor, path, query }) {
      const report = await services.resources.availability(
        actor,
        path.id,
        query.from,
        query.to,
        query.granularity ?? 'week',
      );
      return { status: 200, body: report };
    },
  };
}
