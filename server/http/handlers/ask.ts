/**
 * Handler of the Ask agent (`POST /agents/ask`).
 */
import type { Services } from '../../services/index.js';
import { ok } from '../result.js';
import type { HandlerMap } from '../types.js';

/** Handler for askAgent. */
export function askHandlers(services: Services): Pick<HandlerMap, 'askAgent'> {
  return {
    async askAgent({ actor, body }) {
      return ok(await services.ask.ask(actor, body));
    },
  };
}
