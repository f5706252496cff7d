/**
 * Handlers of the Milestones tag: validated input → one service call → a declared result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { created, noContent, page, versioned } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listProjectMilestones, createMilestone, getMilestone, updateMilestone, deleteMilestone. */
export function milestoneHandlers(
  services: Services,
): Pick<
  HandlerMap,
  'listProjectMilestones' | 'createMilestone' | 'getMilestone' | 'updateMilestone' | 'deleteMilestone'
> {
  return {
    async listProjectMilestones(ctx) {
      return page(ctx, (filter, p) => services.milestones.list(ctx.actor, ctx.path.id, filter, p));
    },
    async createMilestone(ctx) {
      return created(
        ctx,
        await services.milestones.create(ctx.actor, ctx.path.id, ctx.body),
        '/milestones/{id}',
      );
    },
    async getMilestone({ actor, path }) {
      return versioned(await services.milestones.get(actor, path.id));
    },
    async updateMilestone({ actor, path, body, headers }) {
      return versioned(await services.milestones.update(actor, path.id, body, headers?.['If-Match']));
    },
    async deleteMilestone({ actor, path, headers }) {
      await services.milestones.delete(actor, path.id, headers?.['If-Match']);
      return noContent();
    },
  };
}
