/**
 * Handlers of the Issues tag.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listIssues, createIssue, getIssue, updateIssue. */
export function issueHandlers(
  services: Services,
): Pick<HandlerMap, 'listIssues' | 'createIssue' | 'getIssue' | 'updateIssue'> {
  return {
    async listIssues(ctx) {
      const { actor, query } = ctx;
      const filter = {
        projectId: query?.projectId,
        status: query?.status,
        priority: query?.priority,
        assigneeId: query?.assigneeId,
        sort: query?.sort,
      };
      return listPage(ctx, (page) => services.issues.list(actor, filter, page));
    },
    async createIssue({ actor, body }) {
      const issue = await services.issues.create(actor, body);
      return {
        status: 201,
        body: issue,
        headers: { Location: `/v1/issues/${issue.id}`, ETag: etagOf(issue.version) },
      };
    },
    async getIssue({ actor, path }) {
      const issue = await services.issues.get(actor, path.id);
      return { status: 200, body: issue, headers: { ETag: etagOf(issue.version) } };
    },
    async updateIssue({ actor, path, body, headers }) {
      const issue = await services.issues.update(actor, path.id, body, headers?.['If-Match']);
      return { status: 200, body: issue, headers: { ETag: etagOf(issue.version) } };
    },
  };
}
