/**
 * The handler map: every operationId of the spec maps to a handler (tsc fails otherwise, see ../types.ts).
 * Operations that later issues build answer 501 `not_implemented` until then; the list is here, in one place,
 * and mirrored by test/schemathesis-exclude.txt.
 */
import { AppError } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import type { HandlerMap, OperationId } from '../types.js';
import { agentHandlers } from './agents.js';
import { allocationHandlers } from './allocations.js';
import { identityHandlers } from './identity.js';
import { issueHandlers } from './issues.js';
import { milestoneHandlers } from './milestones.js';
import { platformHandlers } from './platform.js';
import { projectHandlers } from './projects.js';
import { resourceHandlers } from './resources.js';
import { riskHandlers } from './risks.js';
import { statusReportHandlers } from './status-reports.js';
import { webhookHandlers } from './webhooks.js';

/** Handlers that answer 501 `not_implemented`, naming the issue that builds them. */
function notImplemented<K extends OperationId>(ids: readonly K[], buildsIt: string): Pick<HandlerMap, K> {
  // A handler that only throws (`() => Promise<never>`) is a Handler of every operation.
  const out = {} as Record<K, () => Promise<never>>;
  for (const id of ids) {
    out[id] = async () => {
      throw new AppError('not_implemented', `${id} is specified but not built yet (${buildsIt}).`);
    };
  }
  return out;
}

/** Builds the complete handler map over the services. */
export function buildHandlers(services: Services): HandlerMap {
  return {
    ...projectHandlers(services),
    ...statusReportHandlers(services),
    ...riskHandlers(services),
    ...identityHandlers(services),
    ...milestoneHandlers(services),
    ...issueHandlers(services),
    ...platformHandlers(services),
    ...resourceHandlers(services),
    ...allocationHandlers(services),
    ...webhookHandlers(services),
    ...agentHandlers(services),
    ...notImplemented(['askAgent'], 'the agents issue'),
  };
}
