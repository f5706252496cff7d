/**
 * The service registry: one instance of each service over shared dependencies.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { SecretBox } from '../crypto/secret-box.js';
import { ZonedCalendar } from '../dates.js';
import { JobQueue } from '../jobs/queue.js';
import {
  type AccountService,
  buildAccounts,
  type SessionService,
  type SignInService,
  type TwoFactorService,
} from './accounts/index.js';
import { AgentService } from './agents/index.js';
import { AllocationService } from './allocations.js';
import { AskService } from './ask/index.js';
import { AuditLogService } from './audit.js';
import type { BaseDeps, ServiceDeps } from './context.js';
import { IdempotencyService } from './idempotency.js';
import {
  type ApiKeyService,
  type AuthenticationService,
  buildIdentity,
  type PrincipalCache,
  type TenantService,
} from './identity/index.js';
import { IssueService } from './issues.js';
import { LanguageModel } from './llm/model.js';
import { MilestoneService } from './milestones.js';
import { buildPeople, type People } from './people/index.js';
import { ProjectService } from './projects.js';
import { RateLimitService } from './rate-limits.js';
import { ReadinessService } from './readiness.js';
import { ResourceService } from './resources.js';
import { RiskService } from './risks.js';
import { StatusReportService } from './status-reports.js';
import { buildWebhooks, type DeliveryService, EventOutbox, type WebhookService } from './webhooks/index.js';

/** Every service of the application, and the job queue and event outbox they share. */
export interface Services extends People {
  /** The authenticated keys this app holds for a few seconds (drop a user's after a role change or removal). */
  principals: PrincipalCache;
  /** Tenants and their users, `GET /me`, `GET|PATCH /tenant`. */
  tenants: TenantService;
  /** API keys. */
  apiKeys: ApiKeyService;
  /** Accounts, one-time links and passwords (docs/accounts.md). */
  accounts: AccountService;
  /** Console sessions and console access tokens. */
  sessions: SessionService;
  /** Password and second-factor sign-in, throttled. */
  signIn: SignInService;
  /** TOTP enrolment and recovery codes. */
  twoFactor: TwoFactorService;
  /** Presented keys to principals. */
  authentication: AuthenticationService;
  auditLog: AuditLogService;
  idempotency: IdempotencyService;
  projects: ProjectService;
  /** Status reports: the history of each project, and how its current state moves (the agents read it). */
  statusReports: StatusReportService;
  milestones: MilestoneService;
  issues: IssueService;
  risks: RiskService;
  resources: ResourceService;
  allocations: AllocationService;
  /** The Ask agent (`POST /agents/ask`). */
  ask: AskService;
  webhooks: WebhookService;
  /** Agent catalogue, runs and executions. */
  agents: AgentService;
  /** Delivery state for the webhook delivery worker. */
  deliveries: DeliveryService;
  /** The job queue (workers claim from it; in-process ones are woken by its enqueues). */
  jobs: JobQueue;
  /** The event outbox (services emit through it; tests and benchmarks may too). */
  events: EventOutbox;
  /** Sliding-window rate limits (tenant limit, failed authentication per address). */
  rateLimits: RateLimitService;
  /** Readiness of the database and its schema (GET /readyz). */
  readiness: ReadinessService;
}

/**
 * Builds the services over a database and clock. The job queue, the event outbox and the calendar are made here,
 * one per call, so two apps in one process never share them.
 */
export function buildServices(
  base: BaseDeps,
  config: Pick<Config, 'defaultRateLimitPerMinute'> &
    Partial<
      Pick<
        Config,
        | 'webhookAllowPrivate'
        | 'agentStageDelayMs'
        | 'llm'
        | 'secretKeys'
        | 'sessionIdleMs'
        | 'sessionAbsoluteMs'
        | 'ssoAllowHttp'
        | 'mail'
        | 'publicUrl'
      >
    >,
  logger?: Logger,
): Services {
  // The optional language model (docs/agents.md, "Bring your own model"): one client per app, shared by Ask and
  // the agents.
  const model = config.llm ? new LanguageModel({ config: config.llm, logger }) : null;
  const jobs = new JobQueue(base);
  const events = new EventOutbox({ jobs });
  // Without keys (tests that never store a webhook) the box refuses to seal or open anything.
  const secrets = new SecretBox(config.secretKeys ?? null);
  const deps: ServiceDeps = { ...base, jobs, events, secrets, calendar: new ZonedCalendar() };
  const projects = new ProjectService(deps);
  const milestones = new MilestoneService(deps);
  const rateLimits = new RateLimitService(deps);
  const identity = buildIdentity(deps, {
    defaultRateLimitPerMinute: config.defaultRateLimitPerMinute,
    rateLimits,
  });
  // Console sessions: 12 h idle and 14 days in all unless configured (docs/accounts.md, "Sessions").
  const accounts = buildAccounts(deps, {
    idleMs: config.sessionIdleMs ?? 12 * 3_600_000,
    absoluteMs: config.sessionAbsoluteMs ?? 14 * 24 * 3_600_000,
  });
  return {
    ...identity,
    ...accounts,
    // Members, invitations and single sign-on (docs/members.md).
    ...buildPeople(deps, {
      principals: identity.principals,
      passwords: accounts.passwords,
      publicUrl: config.publicUrl ?? null,
      mail: config.mail ?? null,
      ssoAllowHttp: config.ssoAllowHttp ?? false,
      logger,
    }),
    auditLog: new AuditLogService(deps),
    idempotency: new IdempotencyService(deps),
    projects,
    statusReports: new StatusReportService({ ...deps, projects }),
    milestones,
    issues: new IssueService(deps),
    risks: new RiskService(deps),
    resources: new ResourceService(deps),
    allocations: new AllocationService(deps),
    ask: new AskService({ ...deps, model }),
    ...buildWebhooks(deps, { allowPrivate: config.webhookAllowPrivate ?? false }),
    agents: new AgentService({ ...deps, milestones, stageDelayMs: config.agentStageDelayMs ?? 0, model }),
    jobs,
    events,
    rateLimits,
    readiness: new ReadinessService({ ...deps, model }),
  };
}
