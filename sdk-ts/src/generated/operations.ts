/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts (operations).
 * Do not make direct changes to the file: edit the spec and run `npm run generate`.
 */

import type { APIError, APIConnectionError, TimeoutError } from '../lib/errors.js';
import type { APIResult, OperationData, OperationParams, RequestOptions } from '../lib/types.js';

/** Runtime description of one operation: what the server and the client need to route, check and build it. */
export interface OperationSpec {
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';
  /** Path template relative to the base URL (which ends in `/v1`). */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** The header parameters the operation declares, spelt as in the spec (e.g. `If-Match`). */
  readonly headerParams: readonly string[];
  readonly hasBody: boolean;
  /** Takes `limit` and `offset`: usable with `client.paginate()`. */
  readonly paginated: boolean;
  /** A paginated operation's `limit`: the page size when none is asked for, and the largest allowed. */
  readonly limit: { readonly default: number; readonly maximum: number } | null;
  /** The operation's first tag (its section of the API reference). */
  readonly tag: string;
  /** The API key scope the operation requires (`x-required-scope`): `read`, `write` or `admin`. */
  readonly scope: string;
}

/** Every operation of the spec's `paths`, keyed by operationId, in the spec's order. */
export const operationTable = {
  listProjects: { method: 'GET', path: '/projects', pathParams: [], queryParams: ['status', 'category', 'borough', 'managingAgency', 'clientAgency', 'q', 'tag', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Projects', scope: 'read' },
  createProject: { method: 'POST', path: '/projects', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Projects', scope: 'write' },
  getProject: { method: 'GET', path: '/projects/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Projects', scope: 'read' },
  updateProject: { method: 'PATCH', path: '/projects/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Projects', scope: 'write' },
  listProjectStatusReports: { method: 'GET', path: '/projects/{id}/status-reports', pathParams: ['id'], queryParams: ['since', 'until', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Status Reports', scope: 'read' },
  createStatusReport: { method: 'POST', path: '/projects/{id}/status-reports', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Status Reports', scope: 'write' },
  listStatusReports: { method: 'GET', path: '/status-reports', pathParams: [], queryParams: ['projectId', 'since', 'until', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Status Reports', scope: 'read' },
  getStatusReport: { method: 'GET', path: '/status-reports/{id}', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Status Reports', scope: 'read' },
  listProjectMilestones: { method: 'GET', path: '/projects/{id}/milestones', pathParams: ['id'], queryParams: ['status', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Milestones', scope: 'read' },
  createMilestone: { method: 'POST', path: '/projects/{id}/milestones', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Milestones', scope: 'write' },
  getMilestone: { method: 'GET', path: '/milestones/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Milestones', scope: 'read' },
  deleteMilestone: { method: 'DELETE', path: '/milestones/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: false, paginated: false, limit: null, tag: 'Milestones', scope: 'write' },
  updateMilestone: { method: 'PATCH', path: '/milestones/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Milestones', scope: 'write' },
  listRisks: { method: 'GET', path: '/risks', pathParams: [], queryParams: ['projectId', 'status', 'severity', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Risks', scope: 'read' },
  createRisk: { method: 'POST', path: '/risks', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Risks', scope: 'write' },
  getRisk: { method: 'GET', path: '/risks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Risks', scope: 'read' },
  updateRisk: { method: 'PATCH', path: '/risks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Risks', scope: 'write' },
  listIssues: { method: 'GET', path: '/issues', pathParams: [], queryParams: ['projectId', 'status', 'priority', 'assigneeId', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Issues', scope: 'read' },
  createIssue: { method: 'POST', path: '/issues', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Issues', scope: 'write' },
  getIssue: { method: 'GET', path: '/issues/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Issues', scope: 'read' },
  updateIssue: { method: 'PATCH', path: '/issues/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Issues', scope: 'write' },
  listResources: { method: 'GET', path: '/resources', pathParams: [], queryParams: ['role', 'skill', 'active', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Resources', scope: 'read' },
  createResource: { method: 'POST', path: '/resources', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Resources', scope: 'write' },
  getResource: { method: 'GET', path: '/resources/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Resources', scope: 'read' },
  updateResource: { method: 'PATCH', path: '/resources/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Resources', scope: 'write' },
  getResourceAvailability: { method: 'GET', path: '/resources/{id}/availability', pathParams: ['id'], queryParams: ['from', 'to', 'granularity'], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Resources', scope: 'read' },
  listAllocations: { method: 'GET', path: '/allocations', pathParams: [], queryParams: ['resourceId', 'projectId', 'from', 'to', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Allocations', scope: 'read' },
  createAllocation: { method: 'POST', path: '/allocations', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Allocations', scope: 'write' },
  listAllocationConflicts: { method: 'GET', path: '/allocations/conflicts', pathParams: [], queryParams: ['from', 'to', 'resourceId', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Allocations', scope: 'read' },
  getAllocation: { method: 'GET', path: '/allocations/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Allocations', scope: 'read' },
  deleteAllocation: { method: 'DELETE', path: '/allocations/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: false, paginated: false, limit: null, tag: 'Allocations', scope: 'write' },
  updateAllocation: { method: 'PATCH', path: '/allocations/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Allocations', scope: 'write' },
  listAgents: { method: 'GET', path: '/agents', pathParams: [], queryParams: ['limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Agents', scope: 'read' },
  runAgent: { method: 'POST', path: '/agents/run', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Agents', scope: 'write' },
  listAgentExecutions: { method: 'GET', path: '/agents/executions', pathParams: [], queryParams: ['agentId', 'status', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Agents', scope: 'read' },
  getAgentExecution: { method: 'GET', path: '/agents/executions/{executionId}', pathParams: ['executionId'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Agents', scope: 'read' },
  askAgent: { method: 'POST', path: '/agents/ask', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Agents', scope: 'read' },
  listWebhooks: { method: 'GET', path: '/webhooks', pathParams: [], queryParams: ['limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Webhooks', scope: 'admin' },
  createWebhook: { method: 'POST', path: '/webhooks', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  getWebhook: { method: 'GET', path: '/webhooks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  deleteWebhook: { method: 'DELETE', path: '/webhooks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  updateWebhook: { method: 'PATCH', path: '/webhooks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  rotateWebhookSecret: { method: 'POST', path: '/webhooks/{id}/rotate-secret', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  listWebhookDeliveries: { method: 'GET', path: '/webhooks/{id}/deliveries', pathParams: ['id'], queryParams: ['status', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Webhooks', scope: 'admin' },
  testWebhook: { method: 'POST', path: '/webhooks/{id}/test', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  getMe: { method: 'GET', path: '/me', pathParams: [], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Identity', scope: 'read' },
  getTenant: { method: 'GET', path: '/tenant', pathParams: [], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Identity', scope: 'read' },
  updateTenant: { method: 'PATCH', path: '/tenant', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Identity', scope: 'admin' },
  listApiKeys: { method: 'GET', path: '/api-keys', pathParams: [], queryParams: ['limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'API Keys', scope: 'admin' },
  createApiKey: { method: 'POST', path: '/api-keys', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'API Keys', scope: 'admin' },
  revokeApiKey: { method: 'DELETE', path: '/api-keys/{id}', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'API Keys', scope: 'admin' },
  listAuditLogs: { method: 'GET', path: '/audit-logs', pathParams: [], queryParams: ['action', 'resourceType', 'resourceId', 'actorId', 'since', 'until', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Audit Logs', scope: 'admin' },
} as const satisfies Record<string, OperationSpec>;

/** An operationId of the API. */
export type OperationId = keyof typeof operationTable;

/** The operationId of a paginated (list) operation. */
export type PaginatedOperationId = {
  [K in OperationId]: (typeof operationTable)[K]['paginated'] extends true ? K : never;
}[OperationId];

/**
 * One typed method per operation of the API, named after its operationId. `Meridian` implements this interface
 * from `operationTable` at run time, so there is no hand-written list of operations to keep in step with the spec.
 *
 * (Referenced for TSDoc links: {@link APIError}, {@link APIConnectionError}, {@link TimeoutError}.)
 */
export interface OperationMethods {
  /**
   * List projects
   *
   * Returns the tenant's projects in pages of `limit` (default 25, max 100), ordered by `sort`: `createdAt`
   * ascending by default, or `name`, `endDate`, `forecastEndDate`, `budget` or `createdAt`, each with a leading
   * `-` for descending (`sort=-budget` lists the largest budgets first). Ties are broken by `id` in the same
   * direction, so pages are stable. Names compare case-insensitively. Projects with no `forecastEndDate` or no
   * `budget` (unknown) come last in either direction.
   *
   * `q` searches: a project matches when its `name`, `code` or `description` contains the text, ignoring case
   * (`q=bridge` finds "Brooklyn Bridge Promenade" and "BRIDGE-42"). `tag` restricts to projects carrying that tag
   * (ignoring case). When `status` is given the list is restricted to projects with that status.
   *
   * `category`, `borough`, `managingAgency` and `clientAgency` filter on the project's descriptive fields: a
   * project matches when the field equals the value or lists it as one of its comma-separated items, ignoring
   * case and surrounding spaces, so `borough=Brooklyn` finds `Brooklyn` and `Brooklyn, Queens`. Filters combine
   * with AND: `managingAgency=DEP&borough=Brooklyn` lists DEP's projects in Brooklyn.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /projects`.
   * Iterate over every page with `client.paginate('listProjects', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listProjects(params?: OperationParams<'listProjects'>, options?: RequestOptions): Promise<APIResult<OperationData<'listProjects'>>>;
  /**
   * Create a project
   *
   * Creates a project. `name`, `startDate` and `endDate` are required; `status` defaults to `PLANNED`;
   * `actualCost` and `progress` stay null (unknown) until given or reported in a status report. Money is in major units of the tenant's currency, which the project
   * inherits as its read-only `currency`.
   *
   * Errors: 400 `validation_failed` for a malformed body; 422 `validation_failed` when `endDate` is before
   * `startDate` or `projectManagerId` names no resource of the tenant; 409 `conflict` when `code` is already used
   * by another project of the tenant.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /projects`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createProject(params: OperationParams<'createProject'>, options?: RequestOptions): Promise<APIResult<OperationData<'createProject'>>>;
  /**
   * Get a project with milestones, team and budget summary
   *
   * Returns the full project: every project field plus its `milestones` (by `dueDate`), its `team` (derived from
   * the project's allocations) and a `budgetSummary` (remaining budget, percent spent, cost and schedule
   * variance).
   *
   * Errors: 404 `not_found` when no project with this id exists in your tenant.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /projects/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getProject(params: OperationParams<'getProject'>, options?: RequestOptions): Promise<APIResult<OperationData<'getProject'>>>;
  /**
   * Update a project
   *
   * Changes only the fields present in the body; absent fields keep their values and `null` clears a nullable
   * field. An empty body changes nothing. A change of `status` emits `project.status_changed`; a change that takes
   * `actualCost` or `forecastCost` above `budget` emits `budget.overrun_detected`.
   *
   * Errors: 404 `not_found`; 409 `invalid_transition` for a status change out of COMPLETED or CANCELLED other
   * than a reopen; 409 `conflict` for a duplicate `code`; 412 `precondition_failed` when `If-Match` does not
   * match; 422 `validation_failed` when the resulting `endDate` is before `startDate`.
   *
   * Requires scope `write`.
   *
   * HTTP: `PATCH /projects/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  updateProject(params: OperationParams<'updateProject'>, options?: RequestOptions): Promise<APIResult<OperationData<'updateProject'>>>;
  /**
   * List a project's status reports
   *
   * Returns the project's status reports, **newest first**: by `asOf` descending, then `createdAt` descending,
   * then `id`, in pages of `limit` (default 25, max 100). `since` and `until` restrict `asOf` to a date range
   * (inclusive). This is the project's history: how its status, forecasts, cost and progress stood on each date.
   *
   * Errors: 404 `not_found` when the project does not exist in your tenant.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /projects/{id}/status-reports`.
   * Iterate over every page with `client.paginate('listProjectStatusReports', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listProjectStatusReports(params: OperationParams<'listProjectStatusReports'>, options?: RequestOptions): Promise<APIResult<OperationData<'listProjectStatusReports'>>>;
  /**
   * Submit a status report
   *
   * Records how the project stands on `asOf`: its status, phase, forecast finish and cost, actual cost, progress
   * and a summary. `asOf` and `status` are required; every other field is optional and null means "not
   * reported", never 0.
   *
   * Submitting a report is how a project's current state moves. In one transaction the report is stored and,
   * when its `asOf` is not older than the project's newest report, its values are applied to the project as a
   * `PATCH` would apply them: `status`, and each of `forecastEndDate`, `forecastCost`, `actualCost` and
   * `progress` that the report gives (a null leaves the project's value as it is). The change is in the audit log
   * and emits the same events a `PATCH` does (`project.status_changed`, `budget.overrun_detected`). A report
   * older than the newest one is kept as history only (`applied: false`) and changes nothing else.
   *
   * The report stores the project's baseline (`endDate`, `budget`) as it stood at `asOf` (the baseline of the
   * nearest earlier report, else the project's current one), and answers `scheduleSlipDays` and `costVariance`
   * against it.
   *
   * Errors: 404 `not_found` when the project does not exist in your tenant; 409 `invalid_transition` when the
   * report would move the project out of COMPLETED or CANCELLED other than by a reopen (see `ProjectStatus`;
   * nothing is stored); 422 `validation_failed` when `asOf` is after today in the tenant's time zone.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /projects/{id}/status-reports`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createStatusReport(params: OperationParams<'createStatusReport'>, options?: RequestOptions): Promise<APIResult<OperationData<'createStatusReport'>>>;
  /**
   * List status reports across the portfolio
   *
   * Returns the tenant's status reports across all projects, **newest first** (by `asOf` descending, then
   * `createdAt` descending, then `id`), in pages of `limit` (default 25, max 100). Filters: `projectId`, and
   * `since`/`until` on `asOf` (inclusive); they combine with AND.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /status-reports`.
   * Iterate over every page with `client.paginate('listStatusReports', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listStatusReports(params?: OperationParams<'listStatusReports'>, options?: RequestOptions): Promise<APIResult<OperationData<'listStatusReports'>>>;
  /**
   * Get a status report
   *
   * Returns one status report (reports are never changed once stored).
   *
   * Errors: 404 `not_found` when no report with this id exists in your tenant.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /status-reports/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getStatusReport(params: OperationParams<'getStatusReport'>, options?: RequestOptions): Promise<APIResult<OperationData<'getStatusReport'>>>;
  /**
   * List a project's milestones
   *
   * Returns the milestones of the project, ordered by `sort`: `createdAt` ascending by default, `dueDate` for the
   * earliest due first, `-dueDate` for the latest; ties are broken by `id` in the same direction. When `status` is
   * given the list is restricted to milestones with that status.
   *
   * Errors: 404 `not_found` when the project does not exist in your tenant.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /projects/{id}/milestones`.
   * Iterate over every page with `client.paginate('listProjectMilestones', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listProjectMilestones(params: OperationParams<'listProjectMilestones'>, options?: RequestOptions): Promise<APIResult<OperationData<'listProjectMilestones'>>>;
  /**
   * Create a milestone
   *
   * Adds a milestone to the project. `name` and `dueDate` are required; `status` defaults to `PENDING`.
   * Creating it as `COMPLETED` sets `completedAt` to now.
   *
   * Errors: 404 `not_found` when the project does not exist in your tenant.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /projects/{id}/milestones`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createMilestone(params: OperationParams<'createMilestone'>, options?: RequestOptions): Promise<APIResult<OperationData<'createMilestone'>>>;
  /**
   * Get a milestone
   *
   * Returns one milestone.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /milestones/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getMilestone(params: OperationParams<'getMilestone'>, options?: RequestOptions): Promise<APIResult<OperationData<'getMilestone'>>>;
  /**
   * Delete a milestone
   *
   * Deletes the milestone permanently.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.
   *
   * Requires scope `write`.
   *
   * HTTP: `DELETE /milestones/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  deleteMilestone(params: OperationParams<'deleteMilestone'>, options?: RequestOptions): Promise<APIResult<OperationData<'deleteMilestone'>>>;
  /**
   * Update a milestone
   *
   * Changes only the fields present in the body. Setting `status` to `COMPLETED` records `completedAt`; moving
   * it away from `COMPLETED` clears it. Moving `dueDate` into the future does not revive a milestone already
   * reported as missed unless you also set `status` back to `PENDING`.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.
   *
   * Requires scope `write`.
   *
   * HTTP: `PATCH /milestones/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  updateMilestone(params: OperationParams<'updateMilestone'>, options?: RequestOptions): Promise<APIResult<OperationData<'updateMilestone'>>>;
  /**
   * List risks
   *
   * Returns the tenant's risks, ordered by `sort`: `createdAt` ascending by default, `-score` for the highest
   * likelihood × impact first, `score` for the lowest; ties are broken by `id` in the same direction. When
   * `projectId`, `status` or `severity` is given, the list is restricted to risks with that value (filters combine
   * with AND).
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /risks`.
   * Iterate over every page with `client.paginate('listRisks', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listRisks(params?: OperationParams<'listRisks'>, options?: RequestOptions): Promise<APIResult<OperationData<'listRisks'>>>;
  /**
   * Create a risk
   *
   * Creates a risk on a project. `title`, `projectId`, `likelihood` (1–5) and `impact` (1–5) are required. `score`
   * is likelihood × impact; `severity` is derived from the score unless you send one (then `severitySource` is
   * `MANUAL`). `status` defaults to `OPEN`. Emits `risk.created`.
   *
   * Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `ownerId` no resource.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /risks`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createRisk(params: OperationParams<'createRisk'>, options?: RequestOptions): Promise<APIResult<OperationData<'createRisk'>>>;
  /**
   * Get a risk
   *
   * Returns one risk.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /risks/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getRisk(params: OperationParams<'getRisk'>, options?: RequestOptions): Promise<APIResult<OperationData<'getRisk'>>>;
  /**
   * Update a risk
   *
   * Changes only the fields present in the body. Changing `likelihood` or `impact` recomputes `score` and, while
   * `severitySource` is `DERIVED`, `severity`. Sending `severity` sets it manually (`MANUAL`); sending
   * `severity: null` returns it to the derived value. A rise in severity emits `risk.severity_escalated`.
   * The project of a risk cannot be changed.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
   * when `ownerId` names no resource of your tenant.
   *
   * Requires scope `write`.
   *
   * HTTP: `PATCH /risks/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  updateRisk(params: OperationParams<'updateRisk'>, options?: RequestOptions): Promise<APIResult<OperationData<'updateRisk'>>>;
  /**
   * List issues
   *
   * Returns the tenant's issues, ordered by `sort`: `createdAt` ascending by default; `-priority` lists CRITICAL
   * first, then HIGH, MEDIUM and LOW (priority order, not alphabetical), `priority` the reverse. Ties are broken by
   * `id` in the same direction. Each filter given restricts the list to issues with that value.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /issues`.
   * Iterate over every page with `client.paginate('listIssues', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listIssues(params?: OperationParams<'listIssues'>, options?: RequestOptions): Promise<APIResult<OperationData<'listIssues'>>>;
  /**
   * Create an issue
   *
   * Creates an issue on a project. `projectId` and `title` are required; `status` defaults to `OPEN` and
   * `priority` to `MEDIUM`.
   *
   * Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `assigneeId` no resource.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /issues`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createIssue(params: OperationParams<'createIssue'>, options?: RequestOptions): Promise<APIResult<OperationData<'createIssue'>>>;
  /**
   * Get an issue
   *
   * Returns one issue.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /issues/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getIssue(params: OperationParams<'getIssue'>, options?: RequestOptions): Promise<APIResult<OperationData<'getIssue'>>>;
  /**
   * Update an issue
   *
   * Changes only the fields present in the body. Moving `status` to `RESOLVED` or `CLOSED` records `resolvedAt`
   * (if not already set); moving it back to `OPEN` or `IN_PROGRESS` clears it. The project of an issue cannot be
   * changed.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
   * when `assigneeId` names no resource of your tenant.
   *
   * Requires scope `write`.
   *
   * HTTP: `PATCH /issues/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  updateIssue(params: OperationParams<'updateIssue'>, options?: RequestOptions): Promise<APIResult<OperationData<'updateIssue'>>>;
  /**
   * List resources
   *
   * Returns the tenant's resources (people), ordered by `sort`: `createdAt` ascending by default, `name` for
   * alphabetical order (ignoring case), `-name` for the reverse; ties are broken by `id` in the same direction.
   * Each filter given restricts the list: `role` by exact match, `skill` to resources whose `skills` contain that exact value,
   * `active` by flag.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /resources`.
   * Iterate over every page with `client.paginate('listResources', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listResources(params?: OperationParams<'listResources'>, options?: RequestOptions): Promise<APIResult<OperationData<'listResources'>>>;
  /**
   * Create a resource
   *
   * Creates a resource (a person who can be allocated to projects). Only `name` is required;
   * `capacityHoursPerWeek` defaults to 40, `skills` to an empty list and `active` to true.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /resources`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createResource(params: OperationParams<'createResource'>, options?: RequestOptions): Promise<APIResult<OperationData<'createResource'>>>;
  /**
   * Get a resource
   *
   * Returns one resource.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /resources/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getResource(params: OperationParams<'getResource'>, options?: RequestOptions): Promise<APIResult<OperationData<'getResource'>>>;
  /**
   * Update a resource
   *
   * Changes only the fields present in the body; `null` clears a nullable field. Deactivating a resource
   * (`active: false`) keeps its allocations.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.
   *
   * Requires scope `write`.
   *
   * HTTP: `PATCH /resources/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  updateResource(params: OperationParams<'updateResource'>, options?: RequestOptions): Promise<APIResult<OperationData<'updateResource'>>>;
  /**
   * Get a resource's availability
   *
   * Returns the resource's capacity, allocated and available hours between `from` and `to` (inclusive, at most
   * 366 days), per ISO week (Monday to Sunday; the first and last periods are clipped to the range) or per day.
   *
   * The weekly capacity `capacityHoursPerWeek` is spread evenly over Monday to Friday (a working day has
   * capacity / 5 hours; weekends have none). Allocated hours on a working day are the sum over the resource's
   * allocations covering that day of `allocationPercent` / 100 × the day's capacity. `availableHours` is capacity
   * minus allocated and is negative when the resource is over-allocated. `utilisationPercent` is allocated /
   * capacity × 100 (0 when capacity is 0). Hours and percentages are rounded to 2 decimals in the response only;
   * `totals` are computed over the whole range, not summed from rounded periods. Inactive resources are reported
   * like active ones.
   *
   * Errors: 400 `validation_failed` when `from` or `to` is missing or malformed; 422 `validation_failed` when
   * `to` is before `from` or the range exceeds 366 days; 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /resources/{id}/availability`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getResourceAvailability(params: OperationParams<'getResourceAvailability'>, options?: RequestOptions): Promise<APIResult<OperationData<'getResourceAvailability'>>>;
  /**
   * List allocations
   *
   * Returns the tenant's allocations, ordered by `sort`: `createdAt` ascending by default, `startDate` for the
   * earliest start first, `-startDate` for the latest; ties are broken by `id` in the same direction.
   * `resourceId` and `projectId`
   * restrict by exact match; `from` and `to` restrict to allocations whose date range overlaps
   * [`from`, `to`] (either bound may be given alone).
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /allocations`.
   * Iterate over every page with `client.paginate('listAllocations', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listAllocations(params?: OperationParams<'listAllocations'>, options?: RequestOptions): Promise<APIResult<OperationData<'listAllocations'>>>;
  /**
   * Create an allocation
   *
   * Allocates a resource to a project from `startDate` to `endDate` (inclusive) at `allocationPercent` (1–100) of
   * the resource's weekly capacity. Over-allocation is allowed (a resource may be booked above 100 % in total);
   * it shows up in `GET /allocations/conflicts`.
   *
   * Errors: 422 `validation_failed` when `endDate` is before `startDate`, or `resourceId` / `projectId` names no
   * record of your tenant.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /allocations`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createAllocation(params: OperationParams<'createAllocation'>, options?: RequestOptions): Promise<APIResult<OperationData<'createAllocation'>>>;
  /**
   * List over-allocation conflicts
   *
   * Returns every maximal period in which one resource's overlapping allocations sum to more than 100 %, with
   * the allocations involved. A new period starts whenever the set of overlapping allocations changes, so two
   * adjacent conflicts of a resource always differ in their allocations (and may differ in `totalPercent`); a
   * resource booked at exactly 100 % has no conflict. Dates are inclusive: an allocation ending on the 10th and
   * one starting on the 11th never overlap.
   * `from` and `to` restrict to periods overlapping that range (periods are clipped to it; a `to` before `from`
   * matches nothing); `resourceId` to one resource. Ordered by `resourceId`, then `startDate`; within a conflict
   * the allocations are ordered by their `startDate`, then id. The cost of this report grows with the number of
   * allocations, not with the length of the periods.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /allocations/conflicts`.
   * Iterate over every page with `client.paginate('listAllocationConflicts', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listAllocationConflicts(params?: OperationParams<'listAllocationConflicts'>, options?: RequestOptions): Promise<APIResult<OperationData<'listAllocationConflicts'>>>;
  /**
   * Get an allocation
   *
   * Returns one allocation.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /allocations/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getAllocation(params: OperationParams<'getAllocation'>, options?: RequestOptions): Promise<APIResult<OperationData<'getAllocation'>>>;
  /**
   * Delete an allocation
   *
   * Deletes the allocation permanently.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.
   *
   * Requires scope `write`.
   *
   * HTTP: `DELETE /allocations/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  deleteAllocation(params: OperationParams<'deleteAllocation'>, options?: RequestOptions): Promise<APIResult<OperationData<'deleteAllocation'>>>;
  /**
   * Update an allocation
   *
   * Changes only the fields present in the body. The resource and project of an allocation cannot be changed:
   * delete it and create another.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
   * when the resulting `endDate` is before `startDate`.
   *
   * Requires scope `write`.
   *
   * HTTP: `PATCH /allocations/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  updateAllocation(params: OperationParams<'updateAllocation'>, options?: RequestOptions): Promise<APIResult<OperationData<'updateAllocation'>>>;
  /**
   * List agents
   *
   * Returns the catalogue of agents that `POST /agents/run` accepts: for each, what it analyses, the records it
   * reads, the depths it supports and the metrics it computes (with how each is computed). The catalogue is the
   * same for every tenant, in a fixed order.
   *
   * Every agent analyses the tenant's own data deterministically (the same records and the same parameters give
   * the same `output`) and recommends; none changes a record, except that `schedule-health` marks an overdue
   * milestone MISSED exactly as the periodic missed-milestone sweep does (so `milestone.missed` fires once per
   * milestone, whichever marks it first).
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /agents`.
   * Iterate over every page with `client.paginate('listAgents', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listAgents(params?: OperationParams<'listAgents'>, options?: RequestOptions): Promise<APIResult<OperationData<'listAgents'>>>;
  /**
   * Run an agent
   *
   * Starts an agent run and returns at once with **202** and the new execution (status `PENDING`); poll it at
   * `GET /agents/executions/{executionId}` (also given in `Location`). The execution is stored and run by a
   * worker: PENDING → RUNNING (with `progress`) → COMPLETED (with `output`) or FAILED (with `error`). A run whose
   * worker stops (a crash, a deploy) is retried once its lease expires, up to 3 attempts in all (`attempts`
   * counts them); after the last it is FAILED, never left RUNNING. Either end emits `agent.execution_completed`.
   *
   * - `scope`: `all` (the whole portfolio, default) or `project:<uuid>` (one project of your tenant).
   * - `depth`: `quick` (metrics only, no findings), `standard` (default: metrics and findings with citations) or
   *   `deep` (also per-project findings and trends from the status-report history).
   * - `asOf`: the date the analysis judges against (overdue = due before it; status reports dated after it are
   *   ignored). Default: today in your tenant's time zone. It cannot be after that today. The run reads records
   *   as they are when it runs, so the same records and the same `agentId`, `scope`, `depth` and `asOf` give the
   *   same `output`: give `asOf` to make a run reproducible.
   *
   * Errors: 400 `validation_failed` for an unknown `agentId` or `depth`, a malformed `scope` or `asOf`; 422
   * `validation_failed` when `scope` names no project of your tenant or `asOf` is after your tenant's today.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /agents/run`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  runAgent(params: OperationParams<'runAgent'>, options?: RequestOptions): Promise<APIResult<OperationData<'runAgent'>>>;
  /**
   * List agent executions
   *
   * Returns the tenant's agent executions, ordered by `createdAt` then `id`: ascending by default,
   * newest first with `sort=-createdAt`. Each filter given restricts the list to executions with that value.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /agents/executions`.
   * Iterate over every page with `client.paginate('listAgentExecutions', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listAgentExecutions(params?: OperationParams<'listAgentExecutions'>, options?: RequestOptions): Promise<APIResult<OperationData<'listAgentExecutions'>>>;
  /**
   * Get an agent execution
   *
   * Polls an execution: its `status` (PENDING, RUNNING, COMPLETED or FAILED), `attempts`, `progress` while it
   * runs, `output` once COMPLETED and `error` once FAILED. Poll every second or two (both SDKs' `waitForExecution`
   * / `wait_for_execution` do); a `standard` run over 10,000 projects takes about a second.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /agents/executions/{executionId}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getAgentExecution(params: OperationParams<'getAgentExecution'>, options?: RequestOptions): Promise<APIResult<OperationData<'getAgentExecution'>>>;
  /**
   * Ask a question about the portfolio
   *
   * Answers a natural-language question from your tenant's own records, synchronously, and cites the records
   * every statement rests on. Asking changes nothing.
   *
   * **How the answer is made.** The embedded engine (the default; `engine: embedded`) reads the question with
   * intent rules for the questions portfolio managers ask most, and answers everything else by full-text search
   * over projects (name, code, description, category, borough, agencies, tags), risks (title, description,
   * mitigation), issues, milestones, people (name, role, skills) and status-report summaries:
   *
   * | Question | What is cited |
   * |---|---|
   * | Which projects are at risk / off track / on hold / … (any project `status`) | the projects with that status |
   * | Which projects are over budget? | projects whose `forecastCost` is above `budget`, largest overrun first |
   * | Which projects are late / behind schedule? | projects whose `forecastEndDate` is after `endDate`, longest slip first |
   * | The largest overruns (by amount or percentage) and the largest slips, top 5 unless a number is given | those projects |
   * | How is the portfolio doing? | every project, grouped by status |
   * | The largest budgets or forecast costs | those projects |
   * | A project's status, budget, dates, manager, team, risks, issues, milestones or history (name the project, give its `code`, or pass `projectId`) | the project and the records asked for (its status reports for the history) |
   * | Open high risks (open = `OPEN` or `MITIGATING`; high = `HIGH` or `CRITICAL`; unmitigated = `OPEN`) | those risks |
   * | Open issues by priority; missed milestones (`MISSED`, or `PENDING` after the due date); upcoming milestones | those records |
   * | Over-allocated people (allocations above 100 % on a day from today on, as `GET /allocations/conflicts`), everyone or the people named | the people and the allocations involved |
   * | What a person named in full works on (allocations, projects managed, open risks owned, open issues assigned) | the person and those records |
   * | How many … / the total budget, forecast cost or actual cost of … | every record counted or summed |
   *
   * Filters combine: a project status, "over budget", "late", and any `borough`, `category`, agency or `tags`
   * value of your projects named in the question ("How many DEP projects in Queens are late?"). An agency named
   * alone is the managing or the client agency; "managed by DEP" means the managing agency, "DEP as client" the
   * client agency. A value nobody recorded (a `null` budget, forecast or actual cost) is never counted as 0: a sum says
   * how many projects had no value.
   *
   * **With a language model.** When the deployment is configured with a model (`MERIDIAN_LLM_BASE_URL`,
   * `MERIDIAN_LLM_MODEL`: OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp's server…) and your tenant has not switched
   * it off (`PATCH /tenant` `settings.llmEnabled: false`), the model writes the answer (`engine: model`, `model`
   * its name) over exactly the records above, sent as delimited data with their ids with the figures computed
   * from them; record text is data, never instructions. It answers in sentences, each with the ids it rests on,
   * and the server checks every one: each id must be a record it sent, and each number and date must appear in
   * those records or figures (formats normalised: 1,234,567 / 1.2M / $1.2 million / 12 % / 2019-09-01 /
   * September 1, 2019). A failing sentence is dropped (`sentencesDropped`); when fewer than half survive, or
   * when the model times out, is rate limited, fails or replies out of shape, the embedded engine answers
   * (`fallbackReason` says why). With nothing relevant found, the model is not asked.
   *
   * **Citations.** Every figure and date in `answer` is a field of a cited record, a figure of one cited record
   * that its `excerpt` states (overrun = `forecastCost − budget`, slip = days from `endDate` to
   * `forecastEndDate`), a count of cited records, or a sum over them. Each `[n]` refers to the citation with
   * `index` n; a range `[a]–[b]` cites every index from a to b (long lists name the first ten records and cite
   * the rest as a range). Each citation's `url` is the record's address in this API. When nothing relevant is
   * found the answer says so and `citations` is empty. Only your tenant's records are ever read.
   *
   * Give `projectId` to restrict the answer to one project (its own fields and its records). The same question
   * over the same records on the same day gets the same answer.
   *
   * Errors: 404 `not_found` when `projectId` names no project of your tenant; 400 `validation_failed` for an
   * empty question or one over 2,000 characters.
   *
   * Requires scope `read` (asking changes nothing).
   *
   * HTTP: `POST /agents/ask`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  askAgent(params: OperationParams<'askAgent'>, options?: RequestOptions): Promise<APIResult<OperationData<'askAgent'>>>;
  /**
   * List webhook endpoints
   *
   * Returns the tenant's webhook endpoints, ordered by `createdAt` ascending then `id`. Secrets are never listed.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /webhooks`.
   * Iterate over every page with `client.paginate('listWebhooks', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listWebhooks(params?: OperationParams<'listWebhooks'>, options?: RequestOptions): Promise<APIResult<OperationData<'listWebhooks'>>>;
  /**
   * Register a webhook endpoint
   *
   * Registers a URL to receive events. `events` lists the kinds to deliver — `project.status_changed`,
   * `risk.created`, `risk.severity_escalated`, `milestone.missed`, `agent.execution_completed`,
   * `budget.overrun_detected` — or `*` for all of them. The response carries the signing `secret`
   * (`whsec_…`); it is shown only here and on rotation, so store it.
   *
   * The URL must be `https` and its host must resolve to public addresses only: loopback, private (RFC 1918),
   * link-local (so cloud metadata at 169.254.169.254), unique-local, CGNAT, multicast and reserved addresses are
   * refused, and so is every IPv6 form that carries an IPv4 address (IPv4-mapped `::ffff:a.b.c.d` judged by the
   * address it carries, the whole IPv4-compatible range `::a.b.c.d`, NAT64, 6to4, Teredo), unless the deployment
   * explicitly allows private targets (development). The check is repeated at every delivery, on the addresses the
   * connection uses. A URL with credentials (`https://user:password@host/…`) is always refused: it would be
   * stored and shown to every admin; authenticate deliveries by their signature instead.
   *
   * Errors: 400 `validation_failed` for a malformed URL or unknown event kind; 422 `validation_failed` for a
   * refused address or a URL with credentials.
   *
   * Requires scope `admin`.
   *
   * HTTP: `POST /webhooks`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createWebhook(params: OperationParams<'createWebhook'>, options?: RequestOptions): Promise<APIResult<OperationData<'createWebhook'>>>;
  /**
   * Get a webhook endpoint
   *
   * Returns one webhook endpoint (without its secret).
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /webhooks/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getWebhook(params: OperationParams<'getWebhook'>, options?: RequestOptions): Promise<APIResult<OperationData<'getWebhook'>>>;
  /**
   * Delete a webhook endpoint
   *
   * Deletes the endpoint; pending deliveries to it are cancelled.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.
   *
   * Requires scope `admin`.
   *
   * HTTP: `DELETE /webhooks/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  deleteWebhook(params: OperationParams<'deleteWebhook'>, options?: RequestOptions): Promise<APIResult<OperationData<'deleteWebhook'>>>;
  /**
   * Update a webhook endpoint
   *
   * Changes only the fields present in the body. Setting `enabled: true` on an endpoint that was disabled
   * (by failures or a `410 Gone`) re-enables it and clears `disabledReason`; deliveries resume with new events.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
   * for a refused address.
   *
   * Requires scope `admin`.
   *
   * HTTP: `PATCH /webhooks/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  updateWebhook(params: OperationParams<'updateWebhook'>, options?: RequestOptions): Promise<APIResult<OperationData<'updateWebhook'>>>;
  /**
   * Rotate a webhook endpoint's secret
   *
   * Issues a new signing secret and returns it (shown only here). The previous secret stays valid for 24 hours:
   * meanwhile every delivery carries two signatures in `webhook-signature`, one per secret, so you can deploy
   * the new secret without dropping events.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `admin`.
   *
   * HTTP: `POST /webhooks/{id}/rotate-secret`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  rotateWebhookSecret(params: OperationParams<'rotateWebhookSecret'>, options?: RequestOptions): Promise<APIResult<OperationData<'rotateWebhookSecret'>>>;
  /**
   * List an endpoint's deliveries
   *
   * Returns the deliveries to this endpoint with every attempt (time, HTTP status, duration, error) and the time
   * of the next attempt, ordered by `createdAt` ascending then `id`. Deliveries are kept for 30 days.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /webhooks/{id}/deliveries`.
   * Iterate over every page with `client.paginate('listWebhookDeliveries', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listWebhookDeliveries(params: OperationParams<'listWebhookDeliveries'>, options?: RequestOptions): Promise<APIResult<OperationData<'listWebhookDeliveries'>>>;
  /**
   * Send a test event
   *
   * Queues a signed `project.status_changed` delivery with sample data to this endpoint, whatever its `events`
   * filter, and returns the delivery (status `PENDING`). Follow it in `GET /webhooks/{id}/deliveries`. No request
   * body.
   *
   * Errors: 404 `not_found`; 409 `conflict` when the endpoint is disabled.
   *
   * Requires scope `admin`.
   *
   * HTTP: `POST /webhooks/{id}/test`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  testWebhook(params: OperationParams<'testWebhook'>, options?: RequestOptions): Promise<APIResult<OperationData<'testWebhook'>>>;
  /**
   * Get the current user and key
   *
   * Returns the user who owns the API key in use, the key itself (never its secret) and the tenant. Useful to
   * check a key and its scopes.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /me`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getMe(params?: OperationParams<'getMe'>, options?: RequestOptions): Promise<APIResult<OperationData<'getMe'>>>;
  /**
   * Get the tenant
   *
   * Returns the caller's tenant: plan, currency of all money fields, timezone used to decide when a due date has
   * passed, and rate limit.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /tenant`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  getTenant(params?: OperationParams<'getTenant'>, options?: RequestOptions): Promise<APIResult<OperationData<'getTenant'>>>;
  /**
   * Change the tenant's settings
   *
   * Changes the tenant's `settings`: only the settings present in the body change. Today there is one,
   * `llmEnabled`: `false` keeps every record of this tenant away from the language model the deployment may be
   * configured with (`MERIDIAN_LLM_BASE_URL`), so Ask answers and agent runs are written by the embedded engine
   * only; `true` (the default) lets the model write them, each sentence checked against the records (see
   * `POST /agents/ask`). The change applies to the next question or run and is recorded in the audit log
   * (`tenant.updated`).
   *
   * Errors: 400 `validation_failed` for an unknown setting or a value of the wrong type.
   *
   * Requires scope `admin`.
   *
   * HTTP: `PATCH /tenant`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  updateTenant(params: OperationParams<'updateTenant'>, options?: RequestOptions): Promise<APIResult<OperationData<'updateTenant'>>>;
  /**
   * List API keys
   *
   * Returns the tenant's API keys, including revoked and expired ones, ordered by `createdAt` ascending then
   * `id`. Only the display `prefix` of each key is shown, never the key.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /api-keys`.
   * Iterate over every page with `client.paginate('listApiKeys', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listApiKeys(params?: OperationParams<'listApiKeys'>, options?: RequestOptions): Promise<APIResult<OperationData<'listApiKeys'>>>;
  /**
   * Create an API key
   *
   * Issues a new key for the calling user with the given `scopes` and optional `expiresAt`. The full `key`
   * (`mk_live_…`) is in this response **only**: Meridian stores just a hash of it. A key cannot be given scopes
   * its creator's key does not have, nor outlive it: when the creating key expires, `expiresAt` is required and
   * may not be later.
   *
   * Errors: 403 `forbidden` for a scope the creating key lacks; 422 `validation_failed` when `expiresAt` is in
   * the past, or missing or later than the creating key's expiry.
   *
   * Requires scope `admin`.
   *
   * HTTP: `POST /api-keys`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  createApiKey(params: OperationParams<'createApiKey'>, options?: RequestOptions): Promise<APIResult<OperationData<'createApiKey'>>>;
  /**
   * Revoke an API key
   *
   * Revokes the key permanently: from the next request on it answers 401 (on a deployment of several servers,
   * a server that authenticated the key in the last 5 seconds may still accept it for up to 5 seconds: servers keep
   * an authenticated key that long before reading it again). The key stays listed with `revokedAt` set.
   * Revoking an already revoked key succeeds and changes nothing. A key cannot revoke itself, so a tenant cannot
   * lock itself out by accident: to rotate, create a new admin key, switch to it, and revoke the old one with it.
   *
   * Errors: 404 `not_found`; 409 `conflict` when the key to revoke is the one authenticating the request.
   *
   * Requires scope `admin`.
   *
   * HTTP: `DELETE /api-keys/{id}`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  revokeApiKey(params: OperationParams<'revokeApiKey'>, options?: RequestOptions): Promise<APIResult<OperationData<'revokeApiKey'>>>;
  /**
   * List audit log entries
   *
   * Returns the append-only record of changes made in the tenant (creates, updates, deletes of every record,
   * webhook endpoints and API keys), ordered by `sort`: `occurredAt` ascending (oldest first) by default, or
   * `-occurredAt` for the newest first; ties are broken by `id` in the same direction. Each filter given restricts
   * the list; `since` is inclusive and `until` exclusive.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /audit-logs`.
   * Iterate over every page with `client.paginate('listAuditLogs', params)`.
   *
   * @param params - Path and query parameters as top-level fields, `body` for the request body and `headers` for
   *   the header parameters of the spec.
   * @param options - Per-request overrides (timeout, retries, signal, extra headers).
   * @returns `{ data, requestId, response }`: the parsed body as the spec types it, the `X-Request-Id` and the raw
   *   `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  listAuditLogs(params?: OperationParams<'listAuditLogs'>, options?: RequestOptions): Promise<APIResult<OperationData<'listAuditLogs'>>>;
}
