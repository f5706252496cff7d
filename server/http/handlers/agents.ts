/**
 * Handlers of the Agents tag, except `askAgent` (the Ask agent's own module).
 */
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listAgents, runAgent, listAgentExecutions, getAgentExecution. */
export function agentHandlers(
  services: Services,
): Pick<HandlerMap, 'listAgents' | 'runAgent' | 'listAgentExecutions' | 'getAgentExecution'> {
  return {
    async listAgents(ctx) {
      return listPage(ctx, async (page) => services.agents.catalogue(page));
    },
    async runAgent({ actor, body }) {
      const execution = await services.agents.run(actor, body);
      return {
        status: 202,
        body: execution,
        headers: { Location: `/v1/agents/executions/${execution.executionId}` },
      };
    },
    async listAgentExecutions(ctx) {
      const { actor, query } = ctx;
      const filter = {
        agentId: query?.agentId,
        status: query?.status,
        order: query?.sort === '-createdAt' ? ('desc' as const) : ('asc' as const),
      };
      return listPage(ctx, (page) => services.agents.list(actor, filter, page));
    },
    async getAgentExecution({ actor, path }) {
      return { status: 200, body: await services.agents.get(actor, path.executionId) };
    },
  };
}
