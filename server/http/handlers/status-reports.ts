/**
 * Handlers of the Status Reports tag: validated input → one service call → a declared result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { created, ok, page } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listProjectStatusReports, createStatusReport, listStatusReports, getStatusReport. */
export function statusReportHandlers(
  services: Services,
): Pick<
  HandlerMap,
  'listProjectStatusReports' | 'createStatusReport' | 'listStatusReports' | 'getStatusReport'
> {
  return {
    async listProjectStatusReports(ctx) {
      return page(ctx, (filter, p) =>
        services.statusReports.listForProject(ctx.actor, ctx.path.id, filter, p),
      );
    },
    async createStatusReport(ctx) {
      return created(
        ctx,
        await services.statusReports.submit(ctx.actor, ctx.path.id, ctx.body),
        '/status-reports/{id}',
      );
    },
    async listStatusReports(ctx) {
      return page(ctx, (filter, p) => services.statusReports.list(ctx.actor, filter, p));
    },
    async getStatusReport({ actor, path }) {
      return ok(await services.statusReports.get(actor, path.id));
    },
  };
}
