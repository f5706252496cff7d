/**
 * Handlers of the API Keys tag (write scope; a caller without `admin` manages only their own keys) and the Audit
 * Logs tag (admin scope): validated input → one service call → a declared result (../result.ts).
 */
import { ownKeysOnly } from '../../services/identity/api-keys.js';
import type { Services } from '../../services/index.js';
import { created, noContent, page } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listApiKeys, createApiKey, rollApiKey, revokeApiKey and listAuditLogs. */
export function platformHandlers(
  services: Services,
): Pick<HandlerMap, 'listApiKeys' | 'createApiKey' | 'rollApiKey' | 'revokeApiKey' | 'listAuditLogs'> {
  return {
    async listApiKeys(ctx) {
      return page(ctx, (_filter, p) => services.apiKeys.list(ctx.actor, p, ownKeysOnly(ctx.principal)));
    },
    async createApiKey(ctx) {
      const { apiKey, key } = await services.apiKeys.createForCaller(ctx.principal, ctx.actor, ctx.body);
      return created(ctx, { ...apiKey, key }, '/api-keys/{id}');
    },
    async rollApiKey(ctx) {
      const { apiKey, key } = await services.apiKeys.roll(ctx.principal, ctx.actor, ctx.path.id, ctx.body);
      return created(ctx, { ...apiKey, key }, '/api-keys/{id}');
    },
    async revokeApiKey({ actor, path, principal }) {
      await services.apiKeys.revoke(actor, path.id, ownKeysOnly(principal));
      return noContent();
    },
    async listAuditLogs(ctx) {
      return page(ctx, (filter, p) => services.auditLog.list(ctx.actor, filter, p));
    },
  };
}
