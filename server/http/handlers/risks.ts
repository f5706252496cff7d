/**
 * Handlers of the Risks tag: validated input → one service call → a declared result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { created, page, versioned } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listRisks, createRisk, getRisk, updateRisk. */
export function riskHandlers(
  services: Services,
): Pick<HandlerMap, 'listRisks' | 'createRisk' | 'getRisk' | 'updateRisk'> {
  return {
    async listRisks(ctx) {
      return page(ctx, (filter, p) => services.risks.list(ctx.actor, filter, p));
    },
    async createRisk(ctx) {
      return created(ctx, await services.risks.create(ctx.actor, ctx.body), '/risks/{id}');
    },
    async getRisk({ actor, path }) {
      return versioned(await services.risks.get(actor, path.id));
    },
    async updateRisk({ actor, path, body, headers }) {
      return versioned(await services.risks.update(actor, path.id, body, headers?.['If-Match']));
    },
  };
}
