/**
 * Handlers of the Risks tag.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listRisks, createRisk, getRisk, updateRisk. */
export function riskHandlers(
  services: Services,
): Pick<HandlerMap, 'listRisks' | 'createRisk' | 'getRisk' | 'updateRisk'> {
  return {
    async listRisks(ctx) {
      const { actor, query } = ctx;
      const filter = {
        projectId: query?.projectId,
        status: query?.status,
        severity: query?.severity,
        sort: query?.sort,
      };
      return listPage(ctx, (page) => services.risks.list(actor, filter, page));
    },
    async createRisk({ actor, body }) {
      const risk = await services.risks.create(actor, body);
      return {
        status: 201,
        body: risk,
        headers: { Location: `/v1/risks/${risk.id}`, ETag: etagOf(risk.version) },
      };
    },
    async getRisk({ actor, path }) {
      const risk = await services.risks.get(actor, path.id);
      return { status: 200, body: risk, headers: { ETag: etagOf(risk.version) } };
    },
    async updateRisk({ actor, path, body, headers }) {
      const risk = await services.risks.update(actor, path.id, body, headers?.['If-Match']);
      return { status: 200, body: risk, headers: { ETag: etagOf(risk.version) } };
    },
  };
}
