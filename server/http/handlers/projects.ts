/**
 * Handlers of the Projects tag: validated input → one service call → a declared result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { created, page, versioned } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listProjects, createProject, getProject, updateProject. */
export function projectHandlers(
  services: Services,
): Pick<HandlerMap, 'listProjects' | 'createProject' | 'getProject' | 'updateProject'> {
  return {
    async listProjects(ctx) {
      return page(ctx, (filter, p) => services.projects.list(ctx.actor, filter, p));
    },
    async createProject(ctx) {
      return created(ctx, await services.projects.create(ctx.actor, ctx.body), '/projects/{id}');
    },
    async getProject({ actor, path }) {
      return versioned(await services.projects.getDetail(actor, path.id));
    },
    async updateProject({ actor, path, body, headers }) {
      return versioned(await services.projects.update(actor, path.id, body, headers?.['If-Match']));
    },
  };
}
