/**
 * Handlers of the Milestones tag.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
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
      const { actor, path, query } = ctx;
      return listPage(ctx, (page) =>
        services.milestones.list(actor, path.id, { status: query?.status, sort: query?.sort }, page),
      );
    },
    async createMilestone({ actor, path, body }) {
      const milestone = await services.milestones.create(actor, path.id, body);
      return {
        status: 201,
        body: milestone,
        headers: { Location: `/v1/milestones/${milestone.id}`, ETag: etagOf(milestone.version) },
      };
    },
    async getMilestone({ actor, path }) {
      const milestone = await services.milestones.get(actor, path.id);
      return { status: 200, body: milestone, headers: { ETag: etagOf(milestone.version) } };
    },
    async updateMilestone({ actor, path, body, headers }) {
      const milestone = await services.milestones.update(actor, path.id, body, headers?.['If-Match']);
      return { status: 200, body: milestone, headers: { ETag: etagOf(milestone.version) } };
    },
    async deleteMilestone({ actor, path, headers }) {
      await services.milestones.delete(actor, path.id, headers?.['If-Match']);
      return { status: 204 };
    },
  };
}
