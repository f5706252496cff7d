/**
 * Handlers of the Identity tag: GET /me and GET /tenant.
 */
import type { Services } from '../../services/index.js';
import type { HandlerMap } from '../types.js';

/** Handlers for getMe and getTenant. */
export function identityHandlers(services: Services): Pick<HandlerMap, 'getMe' | 'getTenant'> {
  return {
    async getMe({ principal }) {
      return { status: 200, body: services.identity.me(principal) };
    },
    async getTenant({ principal }) {
      return { status: 200, body: services.identity.tenantView(principal.tenant) };
    },
  };
}
