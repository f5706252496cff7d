/**
 * Handlers of the Status Reports tag: validated input → one service call → status, body and headers.
 */
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
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
      const { actor, path, query } = ctx;
      return listPage(ctx, (page) =>
        services.statusReports.listForProject(
          actor,
          path.id,
          { since: query?.since, until: query?.until },
          page,
        ),
      );
    },
    async createStatusReport({ actor, path, body }) {
      const report = await services.statusReports.submit(actor, path.id, body);
      return { status: 201, body: report, headers: { Location: `/v1/status-reports/${report.id}` } };
    },
    async listStatusReports(ctx) {
      const { actor, query } = ctx;
      return listPage(ctx, (page) =>
        services.statusReports.list(
          actor,
          { projectId: query?.projectId, since: query?.since, until: query?.until },
          page,
        ),
      );
    },
    async getStatusReport({ actor, path }) {
      return { status: 200, body: await services.statusReports.get(actor, path.id) };
    },
  };
}
