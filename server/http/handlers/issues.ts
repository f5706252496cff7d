/**
 * Handlers of the Issues tag: validated input → one service call → a declared result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { created, page, versioned } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listIssues, createIssue, getIssue, updateIssue. */
export function issueHandlers(
  services: Services,
): Pick<HandlerMap, 'listIssues' | 'createIssue' | 'getIssue' | 'updateIssue'> {
  return {
    async listIssues(ctx) {
      return page(ctx, (filter, p) => services.issues.list(ctx.actor, filter, p));
    },
    async createIssue(ctx) {
      return created(ctx, await services.issues.create(ctx.actor, ctx.body), '/issues/{id}');
    },
    async getIssue({ actor, path }) {
      return versioned(await services.issues.get(actor, path.id));
    },
    async updateIssue({ actor, path, body, headers }) {
      return versioned(await services.issues.update(actor, path.id, body, headers?.['If-Match']));
    },
  };
}
