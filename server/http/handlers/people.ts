/**
 * Handlers of `/tenant/sso` (docs/members.md, "Single sign-on"): validated input → one service call → a declared
 * result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { noContent, ok } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for the single sign-on settings operations. */
export function peopleHandlers(
  services: Services,
): Pick<HandlerMap, 'getTenantSso' | 'updateTenantSso' | 'deleteTenantSso'> {
  const { ssoSettings } = services;
  return {
    async getTenantSso({ actor }) {
      return ok(await ssoSettings.get(actor));
    },
    async updateTenantSso({ actor, principal, body }) {
      return ok(await ssoSettings.put(actor, principal.tenant, body));
    },
    async deleteTenantSso({ actor }) {
      await ssoSettings.delete(actor);
      return noContent();
    },
  };
}
