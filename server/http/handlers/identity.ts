/**
 * Handlers of the Identity tag: GET /me, GET /tenant and PATCH /tenant.
 */
import type { Services } from '../../services/index.js';
import { ok } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for getMe, getTenant and updateTenant. */
export function identityHandlers(
  services: Services,
): Pick<HandlerMap, 'getMe' | 'getTenant' | 'updateTenant'> {
  return {
    async getMe({ principal }) {
      return ok(services.tenants.me(principal));
    },
    async getTenant({ principal }) {
      return ok(await services.tenants.view(principal.tenant));
    },
    async updateTenant({ actor, body, principal }) {
      return ok(await services.tenants.view(await services.tenants.update(actor, body, principal.user.role)));
    },
  };
}
