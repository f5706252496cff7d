/**
 * Handlers of the Agents tag, except `askAgent` (the Ask agent's own module).
 */
import type { Services } from '../../services/index.js';
import { accepted, ok, page } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handlers for listAgents, runAgent, listAgentExecutions, getAgentExecution. */
export function agentHandlers(
  services: Services,
): Pick<HandlerMap, 'listAgents' | 'runAgent' | 'listAgentExecutions' | 'getAgentExecution'> {
  return {
    async listAgents(ctx) {
      return page(ctx, async (_filter, p) => services.agents.catalogue(p));
    },
    async runAgent(ctx) {
      const execution = await services.agents.run(ctx.actor, ctx.body);
      return accepted(execution, ctx, '/agents/executions/{executionId}', execution.executionId);
    },
    async listAgentExecutions(ctx) {
      return page(ctx, (filter, p) => services.agents.list(ctx.actor, filter, p));
    },
    async getAgentExecution({ actor, path }) {
      return ok(await services.agents.get(actor, path.executionId));
    },
  };
}
