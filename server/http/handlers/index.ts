/**
 * The handler map: every operationId of the spec maps to a handler (tsc fails otherwise, see ../types.ts). Every
 * operation is built: none answers 501 `not_implemented` (test/schemathesis-exclude.txt, which would list them, is
 * empty).
 */
import type { Services } from '../../services/index.js';
import type { HandlerMap } from '../types.js';
import { agentHandlers } from './agents.js';
import { allocationHandlers } from './allocations.js';
import { askHandlers } from './ask.js';
import { identityHandlers } from './identity.js';
import { issueHandlers } from './issues.js';
import { milestoneHandlers } from './milestones.js';
import { peopleHandlers } from './people.js';
import { platformHandlers } from './platform.js';
import { projectHandlers } from './projects.js';
import { resourceHandlers } from './resources.js';
import { riskHandlers } from './risks.js';
import { statusReportHandlers } from './status-reports.js';
import { webhookHandlers } from './webhooks.js';

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
    ...askHandlers(services),
    ...peopleHandlers(services),
  };
}
