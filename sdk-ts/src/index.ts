/**
 * `@meridian/sdk`: the official TypeScript client of the Meridian API (beta), for Node.js 20+ and browsers.
 *
 * - {@link Meridian}: the client, one property per resource (`client.projects`, `client.risks`, …) and one method
 *   per operation (`list`, `create`, `retrieve`, `update`, `delete`, or the operation's own verb), generated from
 *   the spec; calls return the data (`withResponse()` for the request id and the `Response`), lists auto-page;
 * - error classes by status family ({@link APIError} and subclasses, {@link APIConnectionError}, {@link TimeoutError});
 * - {@link webhooks}: Standard Webhooks verification and typed event payloads (also `client.webhooks`);
 * - a type per component schema of the spec (`Project`, `Risk`, `ProjectStatus`, …) and a `…Params` type per method.
 */
export type * from './generated/models.js';
export { type OperationId, type OperationSpec, operationTable } from './generated/operations.js';
export * from './generated/resources.js';
export type { components, operations, paths } from './generated/schema.js';
export { VERSION } from './generated/version.js';
export type { WebhookEvent, WebhookEventMap, WebhookEventName } from './generated/webhooks.js';
export { APIPromise } from './lib/api-promise.js';
export {
  type AgentExecutionResult,
  AgentsWithPolling,
  ExecutionsWithPolling,
  Meridian,
  Meridian as default,
  type PollOptions,
  WebhooksWithHelpers,
} from './lib/client.js';
export {
  APIClient,
  APIResource,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type MeridianOptions,
} from './lib/core.js';
export {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  errorClassForStatus,
  InternalServerError,
  MeridianError,
  type MeridianErrorInit,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
  WebhookVerificationError,
} from './lib/errors.js';
export { Page, PagePromise, type PaginationMeta } from './lib/pagination.js';
export { type Fetch, isRetryableStatus, retryDelayMs } from './lib/transport.js';
export type {
  APIResult,
  OperationData,
  OperationHeaders,
  OperationParams,
  OperationQuery,
  PageItem,
  RequestOptions,
} from './lib/types.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  signWebhook,
  unwrapWebhook,
  type VerifyOptions,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSignatureHeaders,
  webhooks,
} from './lib/webhooks.js';
