/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts (resource tree).
 * Do not make direct changes to the file: edit the spec and run `npm run generate`.
 */

import type { APIConnectionError, APIError, TimeoutError } from '../lib/errors.js';
import type { APIPromise } from '../lib/api-promise.js';
import { APIClient, APIResource } from '../lib/core.js';
import type { PagePromise } from '../lib/pagination.js';
import type { OperationData, OperationHeaders, OperationParams, PageItem, RequestOptions } from '../lib/types.js';

/** (Referenced for TSDoc links: {@link APIError}, {@link APIConnectionError}, {@link TimeoutError}.) */
export type { APIConnectionError, APIError, TimeoutError };

/** The params of `client.projects.statusReports.list()` (operationId `listProjectStatusReports`). */
export type ProjectsStatusReportsListParams = OperationParams<'listProjectStatusReports'>;

/** The params of `client.projects.statusReports.create()` (operationId `createStatusReport`). */
export type ProjectsStatusReportsCreateParams = OperationParams<'createStatusReport'>;

/**
 * `client.projects.statusReports`: `list`, `create`.
 *
 * How a project stood on a date: status, phase, forecasts, actual cost, progress and a summary. Submitting the
 * newest report moves the project; the reports are its history (GET newest first).
 */
export class ProjectsStatusReportsResource extends APIResource {
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
   * HTTP: `GET /projects/{id}/status-reports` (operationId `listProjectStatusReports`, scope `read`).
   *
   * @param projectId - the `projectId` path parameter.
   * @param params - the query parameters (`ProjectsStatusReportsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(projectId: string, params?: ProjectsStatusReportsListParams, options?: RequestOptions<OperationHeaders<'listProjectStatusReports'>>): PagePromise<PageItem<'listProjectStatusReports'>> {
    return this._client.list<PageItem<'listProjectStatusReports'>>('listProjectStatusReports', [projectId], params, options);
  }

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
   * HTTP: `POST /projects/{id}/status-reports` (operationId `createStatusReport`, scope `write`).
   *
   * @param projectId - the `projectId` path parameter.
   * @param params - the request body’s fields (`ProjectsStatusReportsCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(projectId: string, params: ProjectsStatusReportsCreateParams, options?: RequestOptions<OperationHeaders<'createStatusReport'>>): APIPromise<OperationData<'createStatusReport'>> {
    return this._client.call('createStatusReport', [projectId], params, options);
  }
}

/** The params of `client.projects.milestones.list()` (operationId `listProjectMilestones`). */
export type ProjectsMilestonesListParams = OperationParams<'listProjectMilestones'>;

/** The params of `client.projects.milestones.create()` (operationId `createMilestone`). */
export type ProjectsMilestonesCreateParams = OperationParams<'createMilestone'>;

/** The params of `client.projects.milestones.update()` (operationId `updateMilestone`). */
export type ProjectsMilestonesUpdateParams = OperationParams<'updateMilestone'>;

/**
 * `client.projects.milestones`: `list`, `create`, `retrieve`, `delete`, `update`.
 *
 * Dated checkpoints of a project. A milestone still open when its due date passes becomes MISSED and emits `milestone.missed`.
 */
export class ProjectsMilestonesResource extends APIResource {
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
   * HTTP: `GET /projects/{id}/milestones` (operationId `listProjectMilestones`, scope `read`).
   *
   * @param projectId - the `projectId` path parameter.
   * @param params - the query parameters (`ProjectsMilestonesListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(projectId: string, params?: ProjectsMilestonesListParams, options?: RequestOptions<OperationHeaders<'listProjectMilestones'>>): PagePromise<PageItem<'listProjectMilestones'>> {
    return this._client.list<PageItem<'listProjectMilestones'>>('listProjectMilestones', [projectId], params, options);
  }

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
   * HTTP: `POST /projects/{id}/milestones` (operationId `createMilestone`, scope `write`).
   *
   * @param projectId - the `projectId` path parameter.
   * @param params - the request body’s fields (`ProjectsMilestonesCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(projectId: string, params: ProjectsMilestonesCreateParams, options?: RequestOptions<OperationHeaders<'createMilestone'>>): APIPromise<OperationData<'createMilestone'>> {
    return this._client.call('createMilestone', [projectId], params, options);
  }

  /**
   * Get a milestone
   *
   * Returns one milestone.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /milestones/{id}` (operationId `getMilestone`, scope `read`).
   *
   * @param milestoneId - the `milestoneId` path parameter.
   * @param options - headers (`If-None-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(milestoneId: string, options?: RequestOptions<OperationHeaders<'getMilestone'>>): APIPromise<OperationData<'getMilestone'>> {
    return this._client.call('getMilestone', [milestoneId], undefined, options);
  }

  /**
   * Delete a milestone
   *
   * Deletes the milestone permanently.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.
   *
   * Requires scope `write`.
   *
   * HTTP: `DELETE /milestones/{id}` (operationId `deleteMilestone`, scope `write`).
   *
   * @param milestoneId - the `milestoneId` path parameter.
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  delete(milestoneId: string, options?: RequestOptions<OperationHeaders<'deleteMilestone'>>): APIPromise<OperationData<'deleteMilestone'>> {
    return this._client.call('deleteMilestone', [milestoneId], undefined, options);
  }

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
   * HTTP: `PATCH /milestones/{id}` (operationId `updateMilestone`, scope `write`).
   *
   * @param milestoneId - the `milestoneId` path parameter.
   * @param params - the request body’s fields (`ProjectsMilestonesUpdateParams`).
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(milestoneId: string, params: ProjectsMilestonesUpdateParams, options?: RequestOptions<OperationHeaders<'updateMilestone'>>): APIPromise<OperationData<'updateMilestone'>> {
    return this._client.call('updateMilestone', [milestoneId], params, options);
  }
}

/** The params of `client.projects.list()` (operationId `listProjects`). */
export type ProjectsListParams = OperationParams<'listProjects'>;

/** The params of `client.projects.create()` (operationId `createProject`). */
export type ProjectsCreateParams = OperationParams<'createProject'>;

/** The params of `client.projects.update()` (operationId `updateProject`). */
export type ProjectsUpdateParams = OperationParams<'updateProject'>;

/**
 * `client.projects`: `list`, `create`, `retrieve`, `update`, `statusReports`, `milestones`.
 *
 * Projects with their schedule, budget and status; the detail view adds milestones, team and a budget summary.
 */
export class ProjectsResource extends APIResource {
  /** `client.projects.statusReports`. */
  readonly statusReports: ProjectsStatusReportsResource = new ProjectsStatusReportsResource(this._client);

  /** `client.projects.milestones`. */
  readonly milestones: ProjectsMilestonesResource = new ProjectsMilestonesResource(this._client);

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
   * (ignoring case). `status` restricts to projects with one of the given statuses
   * (`status=AT_RISK&status=OFF_TRACK`).
   *
   * `category`, `borough`, `managingAgency` and `clientAgency` filter on the project's descriptive fields: a
   * project matches when the field equals the value or lists it as one of its comma-separated items, ignoring
   * case and surrounding spaces, so `borough=Brooklyn` finds `Brooklyn` and `Brooklyn, Queens`. Filters combine
   * with AND: `managingAgency=DEP&borough=Brooklyn` lists DEP's projects in Brooklyn.
   *
   * `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
   * are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
   * other filters by AND, and the page keeps the list's order.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /projects` (operationId `listProjects`, scope `read`).
   *
   * @param params - the query parameters (`ProjectsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: ProjectsListParams, options?: RequestOptions<OperationHeaders<'listProjects'>>): PagePromise<PageItem<'listProjects'>> {
    return this._client.list<PageItem<'listProjects'>>('listProjects', [], params, options);
  }

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
   * HTTP: `POST /projects` (operationId `createProject`, scope `write`).
   *
   * @param params - the request body’s fields (`ProjectsCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(params: ProjectsCreateParams, options?: RequestOptions<OperationHeaders<'createProject'>>): APIPromise<OperationData<'createProject'>> {
    return this._client.call('createProject', [], params, options);
  }

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
   * HTTP: `GET /projects/{id}` (operationId `getProject`, scope `read`).
   *
   * @param projectId - the `projectId` path parameter.
   * @param options - headers (`If-None-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(projectId: string, options?: RequestOptions<OperationHeaders<'getProject'>>): APIPromise<OperationData<'getProject'>> {
    return this._client.call('getProject', [projectId], undefined, options);
  }

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
   * HTTP: `PATCH /projects/{id}` (operationId `updateProject`, scope `write`).
   *
   * @param projectId - the `projectId` path parameter.
   * @param params - the request body’s fields (`ProjectsUpdateParams`).
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(projectId: string, params: ProjectsUpdateParams, options?: RequestOptions<OperationHeaders<'updateProject'>>): APIPromise<OperationData<'updateProject'>> {
    return this._client.call('updateProject', [projectId], params, options);
  }
}

/** The params of `client.statusReports.list()` (operationId `listStatusReports`). */
export type StatusReportsListParams = OperationParams<'listStatusReports'>;

/**
 * `client.statusReports`: `list`, `retrieve`.
 *
 * How a project stood on a date: status, phase, forecasts, actual cost, progress and a summary. Submitting the
 * newest report moves the project; the reports are its history (GET newest first).
 */
export class StatusReportsResource extends APIResource {
  /**
   * List status reports across the portfolio
   *
   * Returns the tenant's status reports across all projects, **newest first** (by `asOf` descending, then
   * `createdAt` descending, then `id`), in pages of `limit` (default 25, max 100). Filters: `projectId`, and
   * `since`/`until` on `asOf` (inclusive); they combine with AND.
   *
   * `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
   * are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
   * other filters by AND, and the page keeps the list's order.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /status-reports` (operationId `listStatusReports`, scope `read`).
   *
   * @param params - the query parameters (`StatusReportsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: StatusReportsListParams, options?: RequestOptions<OperationHeaders<'listStatusReports'>>): PagePromise<PageItem<'listStatusReports'>> {
    return this._client.list<PageItem<'listStatusReports'>>('listStatusReports', [], params, options);
  }

  /**
   * Get a status report
   *
   * Returns one status report (reports are never changed once stored).
   *
   * Errors: 404 `not_found` when no report with this id exists in your tenant.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /status-reports/{id}` (operationId `getStatusReport`, scope `read`).
   *
   * @param statusReportId - the `statusReportId` path parameter.
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(statusReportId: string, options?: RequestOptions<OperationHeaders<'getStatusReport'>>): APIPromise<OperationData<'getStatusReport'>> {
    return this._client.call('getStatusReport', [statusReportId], undefined, options);
  }
}

/** The params of `client.risks.list()` (operationId `listRisks`). */
export type RisksListParams = OperationParams<'listRisks'>;

/** The params of `client.risks.create()` (operationId `createRisk`). */
export type RisksCreateParams = OperationParams<'createRisk'>;

/** The params of `client.risks.update()` (operationId `updateRisk`). */
export type RisksUpdateParams = OperationParams<'updateRisk'>;

/**
 * `client.risks`: `list`, `create`, `retrieve`, `update`.
 *
 * Project risks scored by likelihood × impact, with a severity derived from the score unless set explicitly.
 */
export class RisksResource extends APIResource {
  /**
   * List risks
   *
   * Returns the tenant's risks, ordered by `sort`: `createdAt` ascending by default, `-score` for the highest
   * likelihood × impact first, `score` for the lowest; ties are broken by `id` in the same direction. When
   * `projectId`, `status` or `severity` is given, the list is restricted to risks with that value, or one of the
   * given values for `status` and `severity` (`status=OPEN&status=MITIGATING`); filters combine with AND.
   *
   * `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
   * are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
   * other filters by AND, and the page keeps the list's order.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /risks` (operationId `listRisks`, scope `read`).
   *
   * @param params - the query parameters (`RisksListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: RisksListParams, options?: RequestOptions<OperationHeaders<'listRisks'>>): PagePromise<PageItem<'listRisks'>> {
    return this._client.list<PageItem<'listRisks'>>('listRisks', [], params, options);
  }

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
   * HTTP: `POST /risks` (operationId `createRisk`, scope `write`).
   *
   * @param params - the request body’s fields (`RisksCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(params: RisksCreateParams, options?: RequestOptions<OperationHeaders<'createRisk'>>): APIPromise<OperationData<'createRisk'>> {
    return this._client.call('createRisk', [], params, options);
  }

  /**
   * Get a risk
   *
   * Returns one risk.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /risks/{id}` (operationId `getRisk`, scope `read`).
   *
   * @param riskId - the `riskId` path parameter.
   * @param options - headers (`If-None-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(riskId: string, options?: RequestOptions<OperationHeaders<'getRisk'>>): APIPromise<OperationData<'getRisk'>> {
    return this._client.call('getRisk', [riskId], undefined, options);
  }

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
   * HTTP: `PATCH /risks/{id}` (operationId `updateRisk`, scope `write`).
   *
   * @param riskId - the `riskId` path parameter.
   * @param params - the request body’s fields (`RisksUpdateParams`).
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(riskId: string, params: RisksUpdateParams, options?: RequestOptions<OperationHeaders<'updateRisk'>>): APIPromise<OperationData<'updateRisk'>> {
    return this._client.call('updateRisk', [riskId], params, options);
  }
}

/** The params of `client.issues.list()` (operationId `listIssues`). */
export type IssuesListParams = OperationParams<'listIssues'>;

/** The params of `client.issues.create()` (operationId `createIssue`). */
export type IssuesCreateParams = OperationParams<'createIssue'>;

/** The params of `client.issues.update()` (operationId `updateIssue`). */
export type IssuesUpdateParams = OperationParams<'updateIssue'>;

/**
 * `client.issues`: `list`, `create`, `retrieve`, `update`.
 *
 * Problems that have occurred on a project, with priority, assignee and resolution tracking.
 */
export class IssuesResource extends APIResource {
  /**
   * List issues
   *
   * Returns the tenant's issues, ordered by `sort`: `createdAt` ascending by default; `-priority` lists CRITICAL
   * first, then HIGH, MEDIUM and LOW (priority order, not alphabetical), `priority` the reverse. Ties are broken by
   * `id` in the same direction. Each filter given restricts the list to issues with that value.
   *
   * `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
   * are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
   * other filters by AND, and the page keeps the list's order.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /issues` (operationId `listIssues`, scope `read`).
   *
   * @param params - the query parameters (`IssuesListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: IssuesListParams, options?: RequestOptions<OperationHeaders<'listIssues'>>): PagePromise<PageItem<'listIssues'>> {
    return this._client.list<PageItem<'listIssues'>>('listIssues', [], params, options);
  }

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
   * HTTP: `POST /issues` (operationId `createIssue`, scope `write`).
   *
   * @param params - the request body’s fields (`IssuesCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(params: IssuesCreateParams, options?: RequestOptions<OperationHeaders<'createIssue'>>): APIPromise<OperationData<'createIssue'>> {
    return this._client.call('createIssue', [], params, options);
  }

  /**
   * Get an issue
   *
   * Returns one issue.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /issues/{id}` (operationId `getIssue`, scope `read`).
   *
   * @param issueId - the `issueId` path parameter.
   * @param options - headers (`If-None-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(issueId: string, options?: RequestOptions<OperationHeaders<'getIssue'>>): APIPromise<OperationData<'getIssue'>> {
    return this._client.call('getIssue', [issueId], undefined, options);
  }

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
   * HTTP: `PATCH /issues/{id}` (operationId `updateIssue`, scope `write`).
   *
   * @param issueId - the `issueId` path parameter.
   * @param params - the request body’s fields (`IssuesUpdateParams`).
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(issueId: string, params: IssuesUpdateParams, options?: RequestOptions<OperationHeaders<'updateIssue'>>): APIPromise<OperationData<'updateIssue'>> {
    return this._client.call('updateIssue', [issueId], params, options);
  }
}

/** The params of `client.resources.availability.retrieve()` (operationId `getResourceAvailability`). */
export type ResourcesAvailabilityRetrieveParams = OperationParams<'getResourceAvailability'>;

/**
 * `client.resources.availability`: `retrieve`.
 *
 * People who can be allocated to projects, with their weekly capacity, cost rate and availability.
 */
export class ResourcesAvailabilityResource extends APIResource {
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
   * HTTP: `GET /resources/{id}/availability` (operationId `getResourceAvailability`, scope `read`).
   *
   * @param resourceId - the `resourceId` path parameter.
   * @param params - the query parameters (`ResourcesAvailabilityRetrieveParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(resourceId: string, params: ResourcesAvailabilityRetrieveParams, options?: RequestOptions<OperationHeaders<'getResourceAvailability'>>): APIPromise<OperationData<'getResourceAvailability'>> {
    return this._client.call('getResourceAvailability', [resourceId], params, options);
  }
}

/** The params of `client.resources.list()` (operationId `listResources`). */
export type ResourcesListParams = OperationParams<'listResources'>;

/** The params of `client.resources.create()` (operationId `createResource`). */
export type ResourcesCreateParams = OperationParams<'createResource'>;

/** The params of `client.resources.update()` (operationId `updateResource`). */
export type ResourcesUpdateParams = OperationParams<'updateResource'>;

/**
 * `client.resources`: `list`, `create`, `retrieve`, `update`, `availability`.
 *
 * People who can be allocated to projects, with their weekly capacity, cost rate and availability.
 */
export class ResourcesResource extends APIResource {
  /** `client.resources.availability`. */
  readonly availability: ResourcesAvailabilityResource = new ResourcesAvailabilityResource(this._client);

  /**
   * List resources
   *
   * Returns the tenant's resources (people), ordered by `sort`: `createdAt` ascending by default, `name` for
   * alphabetical order (ignoring case), `-name` for the reverse; ties are broken by `id` in the same direction.
   * Each filter given restricts the list: `role` by exact match, `skill` to resources whose `skills` contain that exact value,
   * `active` by flag.
   *
   * `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
   * are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
   * other filters by AND, and the page keeps the list's order.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /resources` (operationId `listResources`, scope `read`).
   *
   * @param params - the query parameters (`ResourcesListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: ResourcesListParams, options?: RequestOptions<OperationHeaders<'listResources'>>): PagePromise<PageItem<'listResources'>> {
    return this._client.list<PageItem<'listResources'>>('listResources', [], params, options);
  }

  /**
   * Create a resource
   *
   * Creates a resource (a person who can be allocated to projects). Only `name` is required;
   * `capacityHoursPerWeek` defaults to 40, `skills` to an empty list and `active` to true.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /resources` (operationId `createResource`, scope `write`).
   *
   * @param params - the request body’s fields (`ResourcesCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(params: ResourcesCreateParams, options?: RequestOptions<OperationHeaders<'createResource'>>): APIPromise<OperationData<'createResource'>> {
    return this._client.call('createResource', [], params, options);
  }

  /**
   * Get a resource
   *
   * Returns one resource.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /resources/{id}` (operationId `getResource`, scope `read`).
   *
   * @param resourceId - the `resourceId` path parameter.
   * @param options - headers (`If-None-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(resourceId: string, options?: RequestOptions<OperationHeaders<'getResource'>>): APIPromise<OperationData<'getResource'>> {
    return this._client.call('getResource', [resourceId], undefined, options);
  }

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
   * HTTP: `PATCH /resources/{id}` (operationId `updateResource`, scope `write`).
   *
   * @param resourceId - the `resourceId` path parameter.
   * @param params - the request body’s fields (`ResourcesUpdateParams`).
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(resourceId: string, params: ResourcesUpdateParams, options?: RequestOptions<OperationHeaders<'updateResource'>>): APIPromise<OperationData<'updateResource'>> {
    return this._client.call('updateResource', [resourceId], params, options);
  }
}

/** The params of `client.allocations.conflicts.list()` (operationId `listAllocationConflicts`). */
export type AllocationsConflictsListParams = OperationParams<'listAllocationConflicts'>;

/**
 * `client.allocations.conflicts`: `list`.
 *
 * Assignments of a resource to a project for a date range at a percentage of the resource's capacity, and the over-allocation conflicts they create.
 */
export class AllocationsConflictsResource extends APIResource {
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
   * HTTP: `GET /allocations/conflicts` (operationId `listAllocationConflicts`, scope `read`).
   *
   * @param params - the query parameters (`AllocationsConflictsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: AllocationsConflictsListParams, options?: RequestOptions<OperationHeaders<'listAllocationConflicts'>>): PagePromise<PageItem<'listAllocationConflicts'>> {
    return this._client.list<PageItem<'listAllocationConflicts'>>('listAllocationConflicts', [], params, options);
  }
}

/** The params of `client.allocations.list()` (operationId `listAllocations`). */
export type AllocationsListParams = OperationParams<'listAllocations'>;

/** The params of `client.allocations.create()` (operationId `createAllocation`). */
export type AllocationsCreateParams = OperationParams<'createAllocation'>;

/** The params of `client.allocations.update()` (operationId `updateAllocation`). */
export type AllocationsUpdateParams = OperationParams<'updateAllocation'>;

/**
 * `client.allocations`: `list`, `create`, `retrieve`, `delete`, `update`, `conflicts`.
 *
 * Assignments of a resource to a project for a date range at a percentage of the resource's capacity, and the over-allocation conflicts they create.
 */
export class AllocationsResource extends APIResource {
  /** `client.allocations.conflicts`. */
  readonly conflicts: AllocationsConflictsResource = new AllocationsConflictsResource(this._client);

  /**
   * List allocations
   *
   * Returns the tenant's allocations, ordered by `sort`: `createdAt` ascending by default, `startDate` for the
   * earliest start first, `-startDate` for the latest; ties are broken by `id` in the same direction.
   * `resourceId` and `projectId`
   * restrict by exact match; `from` and `to` restrict to allocations whose date range overlaps
   * [`from`, `to`] (either bound may be given alone).
   *
   * `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
   * are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
   * other filters by AND, and the page keeps the list's order.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /allocations` (operationId `listAllocations`, scope `read`).
   *
   * @param params - the query parameters (`AllocationsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: AllocationsListParams, options?: RequestOptions<OperationHeaders<'listAllocations'>>): PagePromise<PageItem<'listAllocations'>> {
    return this._client.list<PageItem<'listAllocations'>>('listAllocations', [], params, options);
  }

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
   * HTTP: `POST /allocations` (operationId `createAllocation`, scope `write`).
   *
   * @param params - the request body’s fields (`AllocationsCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(params: AllocationsCreateParams, options?: RequestOptions<OperationHeaders<'createAllocation'>>): APIPromise<OperationData<'createAllocation'>> {
    return this._client.call('createAllocation', [], params, options);
  }

  /**
   * Get an allocation
   *
   * Returns one allocation.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /allocations/{id}` (operationId `getAllocation`, scope `read`).
   *
   * @param allocationId - the `allocationId` path parameter.
   * @param options - headers (`If-None-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(allocationId: string, options?: RequestOptions<OperationHeaders<'getAllocation'>>): APIPromise<OperationData<'getAllocation'>> {
    return this._client.call('getAllocation', [allocationId], undefined, options);
  }

  /**
   * Delete an allocation
   *
   * Deletes the allocation permanently.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.
   *
   * Requires scope `write`.
   *
   * HTTP: `DELETE /allocations/{id}` (operationId `deleteAllocation`, scope `write`).
   *
   * @param allocationId - the `allocationId` path parameter.
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  delete(allocationId: string, options?: RequestOptions<OperationHeaders<'deleteAllocation'>>): APIPromise<OperationData<'deleteAllocation'>> {
    return this._client.call('deleteAllocation', [allocationId], undefined, options);
  }

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
   * HTTP: `PATCH /allocations/{id}` (operationId `updateAllocation`, scope `write`).
   *
   * @param allocationId - the `allocationId` path parameter.
   * @param params - the request body’s fields (`AllocationsUpdateParams`).
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(allocationId: string, params: AllocationsUpdateParams, options?: RequestOptions<OperationHeaders<'updateAllocation'>>): APIPromise<OperationData<'updateAllocation'>> {
    return this._client.call('updateAllocation', [allocationId], params, options);
  }
}

/** The params of `client.agents.executions.list()` (operationId `listAgentExecutions`). */
export type AgentsExecutionsListParams = OperationParams<'listAgentExecutions'>;

/**
 * `client.agents.executions`: `list`, `retrieve`.
 *
 * AI agents that analyse the tenant's portfolio asynchronously (run, then poll the execution), and the Ask agent that answers questions with citations.
 */
export class AgentsExecutionsResource extends APIResource {
  /**
   * List agent executions
   *
   * Returns the tenant's agent executions, ordered by `createdAt` then `id`: ascending by default,
   * newest first with `sort=-createdAt`. Each filter given restricts the list to executions with that value.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /agents/executions` (operationId `listAgentExecutions`, scope `read`).
   *
   * @param params - the query parameters (`AgentsExecutionsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: AgentsExecutionsListParams, options?: RequestOptions<OperationHeaders<'listAgentExecutions'>>): PagePromise<PageItem<'listAgentExecutions'>> {
    return this._client.list<PageItem<'listAgentExecutions'>>('listAgentExecutions', [], params, options);
  }

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
   * HTTP: `GET /agents/executions/{executionId}` (operationId `getAgentExecution`, scope `read`).
   *
   * @param executionId - the `executionId` path parameter.
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(executionId: string, options?: RequestOptions<OperationHeaders<'getAgentExecution'>>): APIPromise<OperationData<'getAgentExecution'>> {
    return this._client.call('getAgentExecution', [executionId], undefined, options);
  }
}

/** The params of `client.agents.list()` (operationId `listAgents`). */
export type AgentsListParams = OperationParams<'listAgents'>;

/** The params of `client.agents.run()` (operationId `runAgent`). */
export type AgentsRunParams = OperationParams<'runAgent'>;

/** The params of `client.agents.ask()` (operationId `askAgent`). */
export type AgentsAskParams = OperationParams<'askAgent'>;

/**
 * `client.agents`: `list`, `run`, `ask`, `executions`.
 *
 * AI agents that analyse the tenant's portfolio asynchronously (run, then poll the execution), and the Ask agent that answers questions with citations.
 */
export class AgentsResource extends APIResource {
  /** `client.agents.executions`. */
  readonly executions: AgentsExecutionsResource = new AgentsExecutionsResource(this._client);

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
   * HTTP: `GET /agents` (operationId `listAgents`, scope `read`).
   *
   * @param params - the query parameters (`AgentsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: AgentsListParams, options?: RequestOptions<OperationHeaders<'listAgents'>>): PagePromise<PageItem<'listAgents'>> {
    return this._client.list<PageItem<'listAgents'>>('listAgents', [], params, options);
  }

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
   * HTTP: `POST /agents/run` (operationId `runAgent`, scope `write`).
   *
   * @param params - the request body’s fields (`AgentsRunParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  run(params: AgentsRunParams, options?: RequestOptions<OperationHeaders<'runAgent'>>): APIPromise<OperationData<'runAgent'>> {
    return this._client.call('runAgent', [], params, options);
  }

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
   * HTTP: `POST /agents/ask` (operationId `askAgent`, scope `read`).
   *
   * @param params - the request body’s fields (`AgentsAskParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  ask(params: AgentsAskParams, options?: RequestOptions<OperationHeaders<'askAgent'>>): APIPromise<OperationData<'askAgent'>> {
    return this._client.call('askAgent', [], params, options);
  }
}

/** The params of `client.webhooks.deliveries.list()` (operationId `listWebhookDeliveries`). */
export type WebhooksDeliveriesListParams = OperationParams<'listWebhookDeliveries'>;

/**
 * `client.webhooks.deliveries`: `list`, `resend`.
 *
 * Endpoints that receive signed event notifications, their deliveries, secret rotation and test events; also the event payloads themselves.
 */
export class WebhooksDeliveriesResource extends APIResource {
  /**
   * List an endpoint's deliveries
   *
   * Returns the deliveries to this endpoint with every attempt (time, HTTP status, duration, error, the first
   * 1,024 bytes of the response body) and the time of the next attempt, ordered by `createdAt` ascending then
   * `id`. Deliveries are kept for 30 days.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /webhooks/{id}/deliveries` (operationId `listWebhookDeliveries`, scope `admin`).
   *
   * @param webhookId - the `webhookId` path parameter.
   * @param params - the query parameters (`WebhooksDeliveriesListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(webhookId: string, params?: WebhooksDeliveriesListParams, options?: RequestOptions<OperationHeaders<'listWebhookDeliveries'>>): PagePromise<PageItem<'listWebhookDeliveries'>> {
    return this._client.list<PageItem<'listWebhookDeliveries'>>('listWebhookDeliveries', [webhookId], params, options);
  }

  /**
   * Resend a delivery
   *
   * Sends the delivery again: it becomes `PENDING` with its next attempt due now, whatever its status (a retry
   * already scheduled is brought forward). The attempt sends the same event (same `webhook-id` and body), signed
   * with the endpoint's current secret (and the previous one while it is still valid) at the time it is made; if it
   * fails, the delivery is retried on the usual schedule. The earlier attempts stay listed. Audited as
   * `webhook.delivery_resent` on the endpoint. No request body.
   *
   * Errors: 404 `not_found` (the endpoint, or a delivery that is not the endpoint's); 409 `conflict` when the
   * endpoint is disabled.
   *
   * Requires scope `admin`.
   *
   * HTTP: `POST /webhooks/{id}/deliveries/{deliveryId}/resend` (operationId `resendWebhookDelivery`, scope `admin`).
   *
   * @param webhookId - the `webhookId` path parameter.
   * @param deliveryId - the `deliveryId` path parameter.
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  resend(webhookId: string, deliveryId: string, options?: RequestOptions<OperationHeaders<'resendWebhookDelivery'>>): APIPromise<OperationData<'resendWebhookDelivery'>> {
    return this._client.call('resendWebhookDelivery', [webhookId, deliveryId], undefined, options);
  }
}

/** The params of `client.webhooks.list()` (operationId `listWebhooks`). */
export type WebhooksListParams = OperationParams<'listWebhooks'>;

/** The params of `client.webhooks.create()` (operationId `createWebhook`). */
export type WebhooksCreateParams = OperationParams<'createWebhook'>;

/** The params of `client.webhooks.update()` (operationId `updateWebhook`). */
export type WebhooksUpdateParams = OperationParams<'updateWebhook'>;

/**
 * `client.webhooks`: `list`, `create`, `retrieve`, `delete`, `update`, `rotateSecret`, `revealSecret`, `test`, `deliveries`.
 *
 * Endpoints that receive signed event notifications, their deliveries, secret rotation and test events; also the event payloads themselves.
 */
export class WebhooksResource extends APIResource {
  /** `client.webhooks.deliveries`. */
  readonly deliveries: WebhooksDeliveriesResource = new WebhooksDeliveriesResource(this._client);

  /**
   * List webhook endpoints
   *
   * Returns the tenant's webhook endpoints, ordered by `createdAt` ascending then `id`. Secrets are never listed.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /webhooks` (operationId `listWebhooks`, scope `admin`).
   *
   * @param params - the query parameters (`WebhooksListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: WebhooksListParams, options?: RequestOptions<OperationHeaders<'listWebhooks'>>): PagePromise<PageItem<'listWebhooks'>> {
    return this._client.list<PageItem<'listWebhooks'>>('listWebhooks', [], params, options);
  }

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
   * HTTP: `POST /webhooks` (operationId `createWebhook`, scope `admin`).
   *
   * @param params - the request body’s fields (`WebhooksCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(params: WebhooksCreateParams, options?: RequestOptions<OperationHeaders<'createWebhook'>>): APIPromise<OperationData<'createWebhook'>> {
    return this._client.call('createWebhook', [], params, options);
  }

  /**
   * Get a webhook endpoint
   *
   * Returns one webhook endpoint (without its secret).
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /webhooks/{id}` (operationId `getWebhook`, scope `admin`).
   *
   * @param webhookId - the `webhookId` path parameter.
   * @param options - headers (`If-None-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(webhookId: string, options?: RequestOptions<OperationHeaders<'getWebhook'>>): APIPromise<OperationData<'getWebhook'>> {
    return this._client.call('getWebhook', [webhookId], undefined, options);
  }

  /**
   * Delete a webhook endpoint
   *
   * Deletes the endpoint; pending deliveries to it are cancelled.
   *
   * Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.
   *
   * Requires scope `admin`.
   *
   * HTTP: `DELETE /webhooks/{id}` (operationId `deleteWebhook`, scope `admin`).
   *
   * @param webhookId - the `webhookId` path parameter.
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  delete(webhookId: string, options?: RequestOptions<OperationHeaders<'deleteWebhook'>>): APIPromise<OperationData<'deleteWebhook'>> {
    return this._client.call('deleteWebhook', [webhookId], undefined, options);
  }

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
   * HTTP: `PATCH /webhooks/{id}` (operationId `updateWebhook`, scope `admin`).
   *
   * @param webhookId - the `webhookId` path parameter.
   * @param params - the request body’s fields (`WebhooksUpdateParams`).
   * @param options - headers (`If-Match`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(webhookId: string, params: WebhooksUpdateParams, options?: RequestOptions<OperationHeaders<'updateWebhook'>>): APIPromise<OperationData<'updateWebhook'>> {
    return this._client.call('updateWebhook', [webhookId], params, options);
  }

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
   * HTTP: `POST /webhooks/{id}/rotate-secret` (operationId `rotateWebhookSecret`, scope `admin`).
   *
   * @param webhookId - the `webhookId` path parameter.
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  rotateSecret(webhookId: string, options?: RequestOptions<OperationHeaders<'rotateWebhookSecret'>>): APIPromise<OperationData<'rotateWebhookSecret'>> {
    return this._client.call('rotateWebhookSecret', [webhookId], undefined, options);
  }

  /**
   * Reveal a webhook endpoint's signing secret
   *
   * Returns the endpoint's current signing secret, opened from its encrypted storage, so an admin can configure a
   * receiver after the secret was first shown. During the 24 hours after a rotation the previous secret still
   * signs (a second signature); `previousSecretExpiresAt` says when it stops (the previous secret itself is not
   * returned). Every reveal is recorded in the audit log as `webhook.secret_revealed` on the endpoint.
   *
   * Errors: 404 `not_found`.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /webhooks/{id}/secret` (operationId `revealWebhookSecret`, scope `admin`).
   *
   * @param webhookId - the `webhookId` path parameter.
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  revealSecret(webhookId: string, options?: RequestOptions<OperationHeaders<'revealWebhookSecret'>>): APIPromise<OperationData<'revealWebhookSecret'>> {
    return this._client.call('revealWebhookSecret', [webhookId], undefined, options);
  }

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
   * HTTP: `POST /webhooks/{id}/test` (operationId `testWebhook`, scope `admin`).
   *
   * @param webhookId - the `webhookId` path parameter.
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  test(webhookId: string, options?: RequestOptions<OperationHeaders<'testWebhook'>>): APIPromise<OperationData<'testWebhook'>> {
    return this._client.call('testWebhook', [webhookId], undefined, options);
  }
}

/**
 * `client.me`: `retrieve`.
 *
 * The caller's user, API key and tenant.
 */
export class MeResource extends APIResource {
  /**
   * Get the current user and key
   *
   * Returns the user who owns the API key in use, the key itself (never its secret) and the tenant. Useful to
   * check a key and its scopes.
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /me` (operationId `getMe`, scope `read`).
   *
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(options?: RequestOptions<OperationHeaders<'getMe'>>): APIPromise<OperationData<'getMe'>> {
    return this._client.call('getMe', [], undefined, options);
  }
}

/** The params of `client.tenant.sso.update()` (operationId `updateTenantSso`). */
export type TenantSsoUpdateParams = OperationParams<'updateTenantSso'>;

/**
 * `client.tenant.sso`: `retrieve`, `update`, `delete`.
 *
 * The caller's user, API key and tenant.
 */
export class TenantSsoResource extends APIResource {
  /**
   * Get the tenant's single sign-on configuration
   *
   * Returns the tenant's OpenID Connect single sign-on configuration, without the client secret (write-only:
   * `clientSecretSet` only says one is stored).
   *
   * Errors: 404 `not_found` when single sign-on is not configured.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /tenant/sso` (operationId `getTenantSso`, scope `admin`).
   *
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(options?: RequestOptions<OperationHeaders<'getTenantSso'>>): APIPromise<OperationData<'getTenantSso'>> {
    return this._client.call('getTenantSso', [], undefined, options);
  }

  /**
   * Configure single sign-on
   *
   * Sets the tenant's OpenID Connect provider (Enterprise plan). Register Meridian at the provider as a
   * confidential client with the `redirectUri` of the answer, then members sign in at `signInUrl`: authorization
   * code flow with PKCE, scopes `openid email profile`. A person is matched by their **verified** email, whose
   * domain must be one of `allowedDomains`; on first sign-in an account is created with `defaultRole` (never
   * `owner`). `passwordSignIn: false` refuses password sign-in for every member of the tenant, so single
   * sign-on is the only way in (an owner locked out by a broken provider turns it back on with an API key, or on
   * the server with `npm run cli -- users reset`).
   *
   * The client secret is write-only: it is stored encrypted at rest (AES-256-GCM under `MERIDIAN_SECRET_KEY`)
   * and never returned by any operation. Send it the first time; later, omit it to keep the stored one. The
   * issuer's discovery document is not fetched here: a wrong issuer shows at the first sign-in.
   * Recorded in the audit log as `tenant.sso_updated` (without the secret).
   *
   * Errors: 403 `forbidden` when the tenant's plan is not `ENTERPRISE`; 422 `validation_failed` for an issuer
   * that is not `https` (unless the deployment sets `MERIDIAN_SSO_ALLOW_HTTP=true`), or a missing
   * `clientSecret` on the first configuration.
   *
   * Requires scope `admin`.
   *
   * HTTP: `PUT /tenant/sso` (operationId `updateTenantSso`, scope `admin`).
   *
   * @param params - the request body’s fields (`TenantSsoUpdateParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(params: TenantSsoUpdateParams, options?: RequestOptions<OperationHeaders<'updateTenantSso'>>): APIPromise<OperationData<'updateTenantSso'>> {
    return this._client.call('updateTenantSso', [], params, options);
  }

  /**
   * Turn single sign-on off
   *
   * Removes the tenant's single sign-on configuration and its stored secret; password sign-in works again for
   * every member. Accounts created by single sign-on stay, without a password until one is set (an owner sends
   * them a reset link). Deleting when nothing is configured succeeds and changes nothing. Recorded in the audit
   * log as `tenant.sso_deleted`.
   *
   * Requires scope `admin`.
   *
   * HTTP: `DELETE /tenant/sso` (operationId `deleteTenantSso`, scope `admin`).
   *
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  delete(options?: RequestOptions<OperationHeaders<'deleteTenantSso'>>): APIPromise<OperationData<'deleteTenantSso'>> {
    return this._client.call('deleteTenantSso', [], undefined, options);
  }
}

/** The params of `client.tenant.update()` (operationId `updateTenant`). */
export type TenantUpdateParams = OperationParams<'updateTenant'>;

/**
 * `client.tenant`: `retrieve`, `update`, `sso`.
 *
 * The caller's user, API key and tenant.
 */
export class TenantResource extends APIResource {
  /** `client.tenant.sso`. */
  readonly sso: TenantSsoResource = new TenantSsoResource(this._client);

  /**
   * Get the tenant
   *
   * Returns the caller's tenant: plan, currency of all money fields, timezone used to decide when a due date has
   * passed, and rate limit with its use in the current window (`rateLimit.used`, `remaining`, `resetAt`: the state
   * this request left, read without counting another request).
   *
   * Requires scope `read`.
   *
   * HTTP: `GET /tenant` (operationId `getTenant`, scope `read`).
   *
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(options?: RequestOptions<OperationHeaders<'getTenant'>>): APIPromise<OperationData<'getTenant'>> {
    return this._client.call('getTenant', [], undefined, options);
  }

  /**
   * Change the tenant's name, currency, time zone or settings
   *
   * Changes the tenant's `name`, `currency`, `timezone` and `settings`: only what the body names changes, and
   * only the settings present in `settings`. Every change is recorded in the audit log as one `tenant.updated` row
   * with each changed field's value before and after.
   *
   * `currency`: Meridian stores amounts without conversion, so a new currency relabels every existing amount
   * (budgets, costs, webhook payloads from then on) without converting it. `timezone`: an IANA zone the server
   * knows (`Intl.supportedValuesOf('timeZone')`, or `UTC`); due dates pass by it from then on.
   *
   * `llmEnabled`: `false` keeps every record of this tenant away from the language model the deployment may be
   * configured with (`MERIDIAN_LLM_BASE_URL`), so Ask answers and agent runs are written by the embedded engine
   * only; `true` (the default) lets the model write them, each sentence checked against the records (see
   * `POST /agents/ask`). The change applies to the next question or run and is recorded in the audit log
   * (`tenant.updated`).
   *
   * `requireTwoFactor`: `true` makes a second factor (TOTP) mandatory for console sign-in: users without one enrol
   * at their next sign-in. Only a user with the role `owner` may change it.
   *
   * Errors: 400 `validation_failed` for an unknown field or setting, an empty body, a blank name or a value of the
   * wrong type; 422 `validation_failed` for a currency code or time zone the server does not know; 403 `forbidden`
   * when a user below `owner` changes `requireTwoFactor`.
   *
   * Requires scope `admin`.
   *
   * HTTP: `PATCH /tenant` (operationId `updateTenant`, scope `admin`).
   *
   * @param params - the request body’s fields (`TenantUpdateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(params: TenantUpdateParams, options?: RequestOptions<OperationHeaders<'updateTenant'>>): APIPromise<OperationData<'updateTenant'>> {
    return this._client.call('updateTenant', [], params, options);
  }
}

/** The params of `client.apiKeys.list()` (operationId `listApiKeys`). */
export type ApiKeysListParams = OperationParams<'listApiKeys'>;

/** The params of `client.apiKeys.create()` (operationId `createApiKey`). */
export type ApiKeysCreateParams = OperationParams<'createApiKey'>;

/** The params of `client.apiKeys.roll()` (operationId `rollApiKey`). */
export type ApiKeysRollParams = OperationParams<'rollApiKey'>;

/**
 * `client.apiKeys`: `list`, `create`, `delete`, `roll`.
 *
 * Issue, list and revoke the tenant's API keys.
 */
export class ApiKeysResource extends APIResource {
  /**
   * List API keys
   *
   * Returns the tenant's API keys, including revoked and expired ones, ordered by `createdAt` ascending then
   * `id`. Only the display `prefix` of each key is shown, never the key. A caller without the `admin` scope (a
   * `member`'s key or console token) sees only the keys of their own user; with `admin`, every key of the tenant.
   *
   * Requires scope `write`.
   *
   * HTTP: `GET /api-keys` (operationId `listApiKeys`, scope `write`).
   *
   * @param params - the query parameters (`ApiKeysListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: ApiKeysListParams, options?: RequestOptions<OperationHeaders<'listApiKeys'>>): PagePromise<PageItem<'listApiKeys'>> {
    return this._client.list<PageItem<'listApiKeys'>>('listApiKeys', [], params, options);
  }

  /**
   * Create an API key
   *
   * Issues a new key for the calling user with the given `scopes` and optional `expiresAt`. The full `key`
   * (`mk_live_…`) is in this response **only**: Meridian stores just a hash of it. A key cannot be given scopes
   * its creator's key does not have, nor outlive it: when the creating key expires, `expiresAt` is required and
   * may not be later. A key can never carry more than its user's role allows: a `member` creates keys up to
   * `read,write`.
   *
   * Errors: 403 `forbidden` for a scope beyond the caller's role or the creating key; 422 `validation_failed` when `expiresAt` is in
   * the past, or missing or later than the creating key's expiry.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /api-keys` (operationId `createApiKey`, scope `write`).
   *
   * @param params - the request body’s fields (`ApiKeysCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(params: ApiKeysCreateParams, options?: RequestOptions<OperationHeaders<'createApiKey'>>): APIPromise<OperationData<'createApiKey'>> {
    return this._client.call('createApiKey', [], params, options);
  }

  /**
   * Revoke an API key
   *
   * Revokes the key permanently: from the next request on it answers 401 (on a deployment of several servers,
   * a server that authenticated the key in the last 5 seconds may still accept it for up to 5 seconds: servers keep
   * an authenticated key that long before reading it again). The key stays listed with `revokedAt` set.
   * Revoking an already revoked key succeeds and changes nothing. A key cannot revoke itself, so a tenant cannot
   * lock itself out by accident: to rotate, create a new admin key, switch to it, and revoke the old one with it.
   *
   * A caller without the `admin` scope (a `member`'s key or console token) revokes only their own keys: another
   * user's key answers 404, as an unknown one does.
   *
   * Errors: 404 `not_found`; 409 `conflict` when the key to revoke is the one authenticating the request.
   *
   * Requires scope `write`.
   *
   * HTTP: `DELETE /api-keys/{id}` (operationId `revokeApiKey`, scope `write`).
   *
   * @param apiKeyId - the `apiKeyId` path parameter.
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  delete(apiKeyId: string, options?: RequestOptions<OperationHeaders<'revokeApiKey'>>): APIPromise<OperationData<'revokeApiKey'>> {
    return this._client.call('revokeApiKey', [apiKeyId], undefined, options);
  }

  /**
   * Roll an API key
   *
   * Issues a successor of the key: a new key with the same `name`, `scopes` and owner, and the `expiresAt` given
   * (omit it for a successor that never expires). The old key keeps working for the chosen `gracePeriod`
   * (`now`, `1h`, `24h` or `7d`): its `expiresAt` becomes the end of the grace period, or stays when that is
   * sooner. Deploy the successor meanwhile; the old key then stops by itself. The full `key` of the successor is
   * in this response **only**. Audited as `api_key.rolled` on the old key (its new `expiresAt` and the successor's
   * id) and `api_key.created` on the successor.
   *
   * The successor is bound like a created key: no scope the calling key lacks, no later expiry than the calling
   * key's, no scope beyond its owner's role. A caller without the `admin` scope (a `member`'s key or console
   * token) rolls only their own keys: another user's key answers 404, as an unknown one does.
   *
   * Errors: 404 `not_found`; 409 `conflict` when the key is revoked or expired, or is the key making the request
   * and `gracePeriod` is `now` (a key cannot end itself at once); 403 `forbidden` for a scope the
   * calling key lacks; 422 `validation_failed` when `expiresAt` is in the past, or missing or later than the calling
   * key's expiry.
   *
   * Requires scope `write`.
   *
   * HTTP: `POST /api-keys/{id}/roll` (operationId `rollApiKey`, scope `write`).
   *
   * @param apiKeyId - the `apiKeyId` path parameter.
   * @param params - the request body’s fields (`ApiKeysRollParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  roll(apiKeyId: string, params: ApiKeysRollParams, options?: RequestOptions<OperationHeaders<'rollApiKey'>>): APIPromise<OperationData<'rollApiKey'>> {
    return this._client.call('rollApiKey', [apiKeyId], params, options);
  }
}

/** The params of `client.auditLogs.list()` (operationId `listAuditLogs`). */
export type AuditLogsListParams = OperationParams<'listAuditLogs'>;

/**
 * `client.auditLogs`: `list`.
 *
 * The append-only record of every change made through the API.
 */
export class AuditLogsResource extends APIResource {
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
   * HTTP: `GET /audit-logs` (operationId `listAuditLogs`, scope `admin`).
   *
   * @param params - the query parameters (`AuditLogsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: AuditLogsListParams, options?: RequestOptions<OperationHeaders<'listAuditLogs'>>): PagePromise<PageItem<'listAuditLogs'>> {
    return this._client.list<PageItem<'listAuditLogs'>>('listAuditLogs', [], params, options);
  }
}

/** The params of `client.members.list()` (operationId `listMembers`). */
export type MembersListParams = OperationParams<'listMembers'>;

/** The params of `client.members.update()` (operationId `updateMember`). */
export type MembersUpdateParams = OperationParams<'updateMember'>;

/**
 * `client.members`: `list`, `retrieve`, `delete`, `update`.
 *
 * The people of the tenant and their roles (owner, admin, member, viewer); removing one revokes their keys.
 */
export class MembersResource extends APIResource {
  /**
   * List members
   *
   * Returns the people who belong to the tenant with their roles, ordered by `createdAt` ascending then `id`.
   * Removed members are not listed.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /members` (operationId `listMembers`, scope `admin`).
   *
   * @param params - the query parameters (`MembersListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: MembersListParams, options?: RequestOptions<OperationHeaders<'listMembers'>>): PagePromise<PageItem<'listMembers'>> {
    return this._client.list<PageItem<'listMembers'>>('listMembers', [], params, options);
  }

  /**
   * Get a member
   *
   * Returns one member of the tenant.
   *
   * Errors: 404 `not_found` for an unknown or removed member.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /members/{id}` (operationId `getMember`, scope `admin`).
   *
   * @param memberId - the `memberId` path parameter.
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  retrieve(memberId: string, options?: RequestOptions<OperationHeaders<'getMember'>>): APIPromise<OperationData<'getMember'>> {
    return this._client.call('getMember', [memberId], undefined, options);
  }

  /**
   * Remove a member
   *
   * Removes the person from the tenant. In one transaction their API keys are revoked, their console sessions
   * end and their account loses its sign-in (email and password), and the removal is recorded in the audit log
   * as `member.removed`. Their keys are refused from the next request on (by other servers of a deployment
   * within 5 seconds, as for a revoked key). Their past changes stay in the audit log under their name. To let
   * them back, invite them again.
   *
   * Who may remove whom: an `owner` anyone, an `admin` members below owner.
   *
   * Errors: 403 `forbidden` when the caller's role does not allow it; 404 `not_found`; 409 `conflict` for the
   * tenant's last owner, or for the member whose key makes the request.
   *
   * Requires scope `admin`.
   *
   * HTTP: `DELETE /members/{id}` (operationId `removeMember`, scope `admin`).
   *
   * @param memberId - the `memberId` path parameter.
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  delete(memberId: string, options?: RequestOptions<OperationHeaders<'removeMember'>>): APIPromise<OperationData<'removeMember'>> {
    return this._client.call('removeMember', [memberId], undefined, options);
  }

  /**
   * Change a member's role
   *
   * Changes a member's role. The change applies from the member's next request: their API keys are narrowed to
   * the new role at once (a key never carries more than its user's role allows), and their console sessions
   * end. Recorded in the audit log as `member.role_changed`.
   *
   * Who may change what: an `owner` changes any role, owners' included; an `admin` manages members below owner
   * (gives or takes `admin`, `member` and `viewer`), never an owner's role nor the `owner` role.
   *
   * Errors: 403 `forbidden` when the caller's role does not allow the change; 404 `not_found`; 409 `conflict`
   * when the change would leave the tenant without an owner (the last owner cannot be demoted: make someone else
   * owner first).
   *
   * Requires scope `admin`.
   *
   * HTTP: `PATCH /members/{id}` (operationId `updateMember`, scope `admin`).
   *
   * @param memberId - the `memberId` path parameter.
   * @param params - the request body’s fields (`MembersUpdateParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  update(memberId: string, params: MembersUpdateParams, options?: RequestOptions<OperationHeaders<'updateMember'>>): APIPromise<OperationData<'updateMember'>> {
    return this._client.call('updateMember', [memberId], params, options);
  }
}

/** The params of `client.invitations.list()` (operationId `listInvitations`). */
export type InvitationsListParams = OperationParams<'listInvitations'>;

/** The params of `client.invitations.create()` (operationId `createInvitation`). */
export type InvitationsCreateParams = OperationParams<'createInvitation'>;

/**
 * `client.invitations`: `list`, `create`, `delete`.
 *
 * One-time links, optionally mailed, with which a person joins the tenant with a role.
 */
export class InvitationsResource extends APIResource {
  /**
   * List pending invitations
   *
   * Returns the invitations that can still be accepted (neither accepted, revoked nor expired), ordered by
   * `createdAt` ascending then `id`. The links themselves are never shown again.
   *
   * Requires scope `admin`.
   *
   * HTTP: `GET /invitations` (operationId `listInvitations`, scope `admin`).
   *
   * @param params - the query parameters (`InvitationsListParams`).
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the first page (`await`), or every record of every page (`for await`): a `PagePromise`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  list(params?: InvitationsListParams, options?: RequestOptions<OperationHeaders<'listInvitations'>>): PagePromise<PageItem<'listInvitations'>> {
    return this._client.list<PageItem<'listInvitations'>>('listInvitations', [], params, options);
  }

  /**
   * Invite someone
   *
   * Invites a person by email to join the tenant with a role. The answer holds the one-time `url`, valid for
   * 7 days and shown only now (Meridian keeps a hash of its token). When the deployment has SMTP configured
   * (`MERIDIAN_SMTP_URL`) the link is also mailed to `email`, and `emailSent` says whether that worked.
   * Opening the link in the console and choosing a name and password (`POST /auth/invitations/accept`) creates
   * the account and signs it in. Recorded in the audit log as `member.invited` (never with the link).
   *
   * An `owner` may invite with any role; an `admin` with `admin`, `member` or `viewer`.
   *
   * Errors: 403 `forbidden` for a role the caller may not give; 409 `conflict` when an account with this
   * email already exists, or a pending invitation for it does (revoke that one first).
   *
   * Requires scope `admin`.
   *
   * HTTP: `POST /invitations` (operationId `createInvitation`, scope `admin`).
   *
   * @param params - the request body’s fields (`InvitationsCreateParams`).
   * @param options - headers (`Idempotency-Key`), `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  create(params: InvitationsCreateParams, options?: RequestOptions<OperationHeaders<'createInvitation'>>): APIPromise<OperationData<'createInvitation'>> {
    return this._client.call('createInvitation', [], params, options);
  }

  /**
   * Revoke an invitation
   *
   * Revokes a pending invitation: its link stops working at once. Recorded in the audit log as
   * `invitation.revoked`. Revoking an invitation that is already revoked or expired succeeds and changes nothing.
   *
   * Errors: 404 `not_found`; 409 `conflict` when it was already accepted (remove the member instead).
   *
   * Requires scope `admin`.
   *
   * HTTP: `DELETE /invitations/{id}` (operationId `revokeInvitation`, scope `admin`).
   *
   * @param invitationId - the `invitationId` path parameter.
   * @param options - headers, `timeoutMs`, `maxRetries`, `signal` for this request.
   * @returns the parsed body (`await`); `.withResponse()` adds the request id and the raw `Response`.
   * @throws {@link APIError} subclass by status (e.g. `NotFoundError` for 404) once retries are exhausted,
   *   {@link APIConnectionError} or {@link TimeoutError} when no response arrives.
   */
  delete(invitationId: string, options?: RequestOptions<OperationHeaders<'revokeInvitation'>>): APIPromise<OperationData<'revokeInvitation'>> {
    return this._client.call('revokeInvitation', [invitationId], undefined, options);
  }
}

/**
 * The resource tree's roots, one property per top-level resource of the API; `Meridian` extends this class.
 * Each method of the tree sends one operation of the spec.
 */
export class MeridianResources extends APIClient {
  /** `client.projects`: list, create, retrieve, update, statusReports, milestones. */
  readonly projects: ProjectsResource = new ProjectsResource(this);
  /** `client.statusReports`: list, retrieve. */
  readonly statusReports: StatusReportsResource = new StatusReportsResource(this);
  /** `client.risks`: list, create, retrieve, update. */
  readonly risks: RisksResource = new RisksResource(this);
  /** `client.issues`: list, create, retrieve, update. */
  readonly issues: IssuesResource = new IssuesResource(this);
  /** `client.resources`: list, create, retrieve, update, availability. */
  readonly resources: ResourcesResource = new ResourcesResource(this);
  /** `client.allocations`: list, create, retrieve, delete, update, conflicts. */
  readonly allocations: AllocationsResource = new AllocationsResource(this);
  /** `client.agents`: list, run, ask, executions. */
  readonly agents: AgentsResource = new AgentsResource(this);
  /** `client.webhooks`: list, create, retrieve, delete, update, rotateSecret, revealSecret, test, deliveries. */
  readonly webhooks: WebhooksResource = new WebhooksResource(this);
  /** `client.me`: retrieve. */
  readonly me: MeResource = new MeResource(this);
  /** `client.tenant`: retrieve, update, sso. */
  readonly tenant: TenantResource = new TenantResource(this);
  /** `client.apiKeys`: list, create, delete, roll. */
  readonly apiKeys: ApiKeysResource = new ApiKeysResource(this);
  /** `client.auditLogs`: list. */
  readonly auditLogs: AuditLogsResource = new AuditLogsResource(this);
  /** `client.members`: list, retrieve, delete, update. */
  readonly members: MembersResource = new MembersResource(this);
  /** `client.invitations`: list, create, delete. */
  readonly invitations: InvitationsResource = new InvitationsResource(this);
}

/** Where each operation of the spec sits in the tree, by operationId (`listProjects` → `'projects.list'`). */
export const resourceMethods = {
  listProjects: 'projects.list',
  createProject: 'projects.create',
  getProject: 'projects.retrieve',
  updateProject: 'projects.update',
  listProjectStatusReports: 'projects.statusReports.list',
  createStatusReport: 'projects.statusReports.create',
  listStatusReports: 'statusReports.list',
  getStatusReport: 'statusReports.retrieve',
  listProjectMilestones: 'projects.milestones.list',
  createMilestone: 'projects.milestones.create',
  getMilestone: 'projects.milestones.retrieve',
  deleteMilestone: 'projects.milestones.delete',
  updateMilestone: 'projects.milestones.update',
  listRisks: 'risks.list',
  createRisk: 'risks.create',
  getRisk: 'risks.retrieve',
  updateRisk: 'risks.update',
  listIssues: 'issues.list',
  createIssue: 'issues.create',
  getIssue: 'issues.retrieve',
  updateIssue: 'issues.update',
  listResources: 'resources.list',
  createResource: 'resources.create',
  getResource: 'resources.retrieve',
  updateResource: 'resources.update',
  getResourceAvailability: 'resources.availability.retrieve',
  listAllocations: 'allocations.list',
  createAllocation: 'allocations.create',
  listAllocationConflicts: 'allocations.conflicts.list',
  getAllocation: 'allocations.retrieve',
  deleteAllocation: 'allocations.delete',
  updateAllocation: 'allocations.update',
  listAgents: 'agents.list',
  runAgent: 'agents.run',
  listAgentExecutions: 'agents.executions.list',
  getAgentExecution: 'agents.executions.retrieve',
  askAgent: 'agents.ask',
  listWebhooks: 'webhooks.list',
  createWebhook: 'webhooks.create',
  getWebhook: 'webhooks.retrieve',
  deleteWebhook: 'webhooks.delete',
  updateWebhook: 'webhooks.update',
  rotateWebhookSecret: 'webhooks.rotateSecret',
  revealWebhookSecret: 'webhooks.revealSecret',
  listWebhookDeliveries: 'webhooks.deliveries.list',
  testWebhook: 'webhooks.test',
  resendWebhookDelivery: 'webhooks.deliveries.resend',
  getMe: 'me.retrieve',
  getTenant: 'tenant.retrieve',
  updateTenant: 'tenant.update',
  listApiKeys: 'apiKeys.list',
  createApiKey: 'apiKeys.create',
  revokeApiKey: 'apiKeys.delete',
  rollApiKey: 'apiKeys.roll',
  listAuditLogs: 'auditLogs.list',
  getTenantSso: 'tenant.sso.retrieve',
  updateTenantSso: 'tenant.sso.update',
  deleteTenantSso: 'tenant.sso.delete',
  listMembers: 'members.list',
  getMember: 'members.retrieve',
  removeMember: 'members.delete',
  updateMember: 'members.update',
  listInvitations: 'invitations.list',
  createInvitation: 'invitations.create',
  revokeInvitation: 'invitations.delete',
} as const;
