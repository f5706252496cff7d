/**
 * Handlers of the Projects tag: validated input → one service call → status, body and headers.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listProjects, createProject, getProject, updateProject. */
export function projectHandlers(
  services: Services,
): Pick<HandlerMap, 'listProjects' | 'createProject' | 'getProject' | 'updateProject'> {
  return {
    async listProjects(ctx) {
      const { actor, query } = ctx;
      return listPage(ctx, (page) =>
        services.projects.list(
          actor,
          {
            status: query?.status,
            category: query?.category,
            borough: query?.borough,
            managingAgency: query?.managingAgency,
            clientAgency: query?.clientAgency,
            tag: query?.tag,
            q: query?.q,
            sort: query?.sort,
          },
          page,
        ),
      );
    },
    async createProject({ actor, body }) {
      const project = await services.projects.create(actor, body);
      return {
        status: 201,
        body: project,
        headers: { Location: `/v1/projects/${project.id}`, ETag: etagOf(project.version) },
      };
    },
    async getProject({ actor, path }) {
      const project = await services.projects.getDetail(actor, path.id);
      return { status: 200, body: project, headers: { ETag: etagOf(project.version) } };
    },
    async updateProject({ actor, path, body, headers }) {
      const project = await services.projects.update(actor, path.id, body, headers?.['If-Match']);
      return { status: 200, body: project, headers: { ETag: etagOf(project.version) } };
    },
  };
}
