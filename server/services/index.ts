/**
 * The service registry: one instance of each service over shared dependencies.
 */
import type { Config } from '../config.js';
import { AllocationService } from './allocations.js';
import { AuditLogService } from './audit.js';
import type { ServiceDeps } from './context.js';
import { IdempotencyService } from './idempotency.js';
import { IdentityService } from './identity.js';
import { IssueService } from './issues.js';
import { MilestoneService } from './milestones.js';
import { ProjectService } from './projects.js';
import { ResourceService } from './resources.js';
import { RiskService } from './risks.js';
import { WebhookService } from './webhooks.js';

/** Every service of the application. */
export interface Services {
  identity: IdentityService;
  auditLog: AuditLogService;
  idempotency: IdempotencyService;
  projects: ProjectService;
  milestones: MilestoneService;
  issues: IssueService;
  risks: RiskService;
  resources: ResourceService;
  allocations: AllocationService;
  webhooks: WebhookService;
}

/** Builds the services over a database and clock. */
export function buildServices(
  deps: ServiceDeps,
  config: Pick<Config, 'defaultRateLimitPerMinute'> & Partial<Pick<Config, 'webhookAllowPrivate'>>,
): Services {
  return {
    identity: new IdentityService(deps, config.defaultRateLimitPerMinute),
    auditLog: new AuditLogService(deps),
    idempotency: new IdempotencyService(deps),
    projects: new ProjectService(deps),
    milestones: new MilestoneService(deps),
    issues: new IssueService(deps),
    risks: new RiskService(deps),
    resources: new ResourceService(deps),
    allocations: new AllocationService(deps),
    webhooks: new WebhookService(deps, { allowPrivate: config.webhookAllowPrivate ?? false }),
  };
}
