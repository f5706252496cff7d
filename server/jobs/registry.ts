/**
 * The job kinds the application runs and the runner over them: in the API process (`npm start`, unless
 * MERIDIAN_WORKER=false) and alone in `npm run worker`. Each kind is defined by its feature (the webhook delivery
 * by the webhooks, the agent execution by the agents); a new kind of background work registers here.
 */
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { type AgentJobConfig, agentExecutionJob } from '../services/agents/execution-job.js';
import type { Services } from '../services/index.js';
import {
  DELIVERY_RETENTION_MS,
  type DeliveryConfig,
  webhookDeliveryJob,
} from '../services/webhooks/index.js';
import type { JobKind } from './queue.js';
import { JobRunner } from './runner.js';

/** Every job kind, bound to the app's services. */
export function jobKinds(
  services: Services,
  clock: Clock,
  config: DeliveryConfig & AgentJobConfig,
): JobKind<never>[] {
  return [
    webhookDeliveryJob(services, clock, config) as JobKind<never>,
    agentExecutionJob(services.agents, config) as JobKind<never>,
  ];
}

/** The application's job runner (not started): every kind, polling every `workerPollMs`, pruning hourly. */
export function createJobRunner(options: {
  services: Services;
  clock: Clock;
  config: DeliveryConfig & AgentJobConfig & Pick<Config, 'workerPollMs'>;
  logger?: Logger;
}): JobRunner {
  const { services, clock, config, logger } = options;
  return new JobRunner({
    queue: services.jobs,
    kinds: jobKinds(services, clock, config),
    pollMs: config.workerPollMs,
    logger,
    maintain: async () => {
      await services.deliveries.prune(DELIVERY_RETENTION_MS);
    },
  });
}
