/**
 * Handlers of the Resources tag: validated input → one service call → status, body and headers.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listResult, pageOf } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listResources, createResource, getResource, updateResource, getResourceAvailability. */
export function resourceHandlers(
  services: Services,
): Pick<
  HandlerMap,
  'listResources' | 'createResource' | 'getResource' | 'updateResource' | 'getResourceAvailability'
> {
  return {
    async listResources({ actor, query, baseUrl, req }) {
      const page = pageOf(query);
      const filter = { role: query?.role, skill: query?.skill, active: query?.active };
      return listResult(await services.resources.list(actor, filter, page), page, baseUrl, req.originalUrl);
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
