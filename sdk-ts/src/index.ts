/**
 * `@meridian/sdk`: the official TypeScript/Node.js client of the Meridian API (beta).
 *
 * - {@link Meridian}: the client, one typed method per operationId of the spec, plus `paginate()` and
 *   `waitForExecution()`;
 * - error classes by status family ({@link APIError} and subclasses, {@link APIConnectionError}, {@link TimeoutError});
 * - {@link webhooks}: Standard Webhooks verification and typed event payloads;
 * - a type per component schema of the spec (`Project`, `Risk`, `ProjectStatus`, …).
 */
export type * from './generated/models.js';
export {
  type OperationId,
  type OperationMethods,
  type OperationSpec,
  operationTable,
} from './generated/operations.js';
export type { components, operations, paths } from './generated/schema.js';
export type { WebhookEvent, WebhookEventMap, WebhookEventName } from './generated/webhooks.js';
export {
  type AgentExecutionResult,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  Meridian,
  Meridian as default,
  type MeridianOptions,
  type PaginateArgs,
  type WaitOptions,
} from './lib/client.js';
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
export { type Fetch, isRetryableStatus, retryDelayMs } from './lib/transport.js';
export type {
  APIResult,
  ListItem,
  ListOperationId,
  ListParams,
  OperationData,
  OperationParams,
  RequestOptions,
} from './lib/types.js';
export { VERSION } from './lib/version.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
  type WebhookBody,
  type WebhookHeaders,
  Webhooks,
  webhooks,
} from './lib/webhooks.js';
