/**
 * Handlers of the API Keys and Audit Logs tags (admin scope).
 */
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listApiKeys, createApiKey, revokeApiKey and listAuditLogs. */
export function platformHandlers(
  services: Services,
): Pick<HandlerMap, 'listApiKeys' | 'createApiKey' | 'revokeApiKey' | 'listAuditLogs'> {
  return {
    async listApiKeys(ctx) {
      return listPage(ctx, (page) => services.apiKeys.list(ctx.actor, page));
    },
    async createApiKey({ actor, principal, body }) {
      const { apiKey, key } = await services.apiKeys.createForCaller(principal, actor, body);
      return { status: 201, body: { ...apiKey, key }, headers: { Location: `/v1/api-keys/${apiKey.id}` } };
    },
    async revokeApiKey({ actor, path }) {
      await services.apiKeys.revoke(actor, path.id);
      return { status: 204 };
    },
    async listAuditLogs(ctx) {
      const { actor, query } = ctx;
      const filter = {
        action: query?.action,
        resourceType: query?.resourceType,
        resourceId: query?.resourceId,
        actorId: query?.actorId,
        since: query?.since,
        until: query?.until,
        sort: query?.sort,
      };
      return listPage(ctx, (page) => services.auditLog.list(actor, filter, page));
    },
  };
}
