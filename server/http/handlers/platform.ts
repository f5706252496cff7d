/**
 * Handlers of the API Keys and Audit Logs tags (admin scope).
 */
import type { Services } from '../../services/index.js';
import { listResult, pageOf } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listApiKeys, createApiKey, revokeApiKey and listAuditLogs. */
export function platformHandlers(
  services: Services,
): Pick<HandlerMap, 'listApiKeys' | 'createApiKey' | 'revokeApiKey' | 'listAuditLogs'> {
  return {
    async listApiKeys({ actor, query, baseUrl, req }) {
      const page = pageOf(query);
      return listResult(await services.identity.listKeys(actor, page), page, baseUrl, req.originalUrl);
    },
    async createApiKey({ actor, principal, body }) {
      const { apiKey, key } = await services.identity.issueKey(principal, actor, body);
      return { status: 201, body: { ...apiKey, key }, headers: { Location: `/v1/api-keys/${apiKey.id}` } };
    },
    async revokeApiKey({ actor, path }) {
      await services.identity.revokeKey(actor, path.id);
      return { status: 204 };
    },
    async listAuditLogs({ actor, query, baseUrl, req }) {
      const page = pageOf(query);
      const filter = {
        action: query?.action,
        resourceType: query?.resourceType,
        resourceId: query?.resourceId,
        actorId: query?.actorId,
        since: query?.since,
        until: query?.until,
      };
      return listResult(await services.auditLog.list(actor, filter, page), page, baseUrl, req.originalUrl);
    },
  };
}
