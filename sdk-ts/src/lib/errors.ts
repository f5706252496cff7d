/**
 * The SDK's error classes. HTTP errors are mapped by status family from the API's RFC 9457 problem documents
 * (`application/problem+json` with `code` and `requestId`, see the spec's "Errors" section).
 */
import type { Problem, ProblemFieldError } from '../generated/models.js';

/** Fields shared by every SDK error; all optional because a connection error has no response. */
export interface MeridianErrorInit {
  status?: number | undefined;
  problem?: Problem | undefined;
  requestId?: string | null | undefined;
  response?: Response | undefined;
  cause?: unknown;
}

/**
 * Base class of every error the SDK throws. Catch it to handle any failure of a call.
 *
 * HTTP errors are {@link APIError} subclasses; {@link APIConnectionError} and {@link TimeoutError} mean no response
 * arrived; {@link WebhookVerificationError} comes from `webhooks.verify()`.
 */
export class MeridianError extends Error {
  override name = 'MeridianError';
  /** HTTP status of the response, when there was one. */
  readonly status: number | undefined;
  /** The Problem's stable machine-readable `code` (e.g. `not_found`, `invalid_transition`): branch on this. */
  readonly code: string | undefined;
  /** The Problem's short human-readable `title`. */
  readonly title: string | undefined;
  /** The Problem's explanation of this occurrence. */
  readonly detail: string | undefined;
  /** For validation errors, one entry per offending field (`location`, `path`, `message`). */
  readonly errors: ProblemFieldError[] | undefined;
  /** The request's `X-Request-Id` (header, else the Problem's `requestId`); null when no response arrived. */
  readonly requestId: string | null;
  /** The raw response (body already read), when there was one. */
  readonly response: Response | undefined;
  /** The parsed problem document, when the body was one. */
  readonly problem: Problem | undefined;

  constructor(message: string, init: MeridianErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.problem = init.problem;
    this.code = init.problem?.code;
    this.title = init.problem?.title;
    this.detail = init.problem?.detail;
    this.errors = init.problem?.errors;
    this.requestId = init.requestId ?? init.problem?.requestId ?? null;
    this.response = init.response;
  }
}

/** An HTTP error response (status ≥ 400). The subclass tells the status family; `code` tells the exact case. */
export class APIError extends MeridianError {
  override name = 'APIError';
  declare readonly status: number;

  /**
   * Builds the error class that matches `response.status` (400 → {@link BadRequestError}, …, ≥ 500 →
   * {@link InternalServerError}; other statuses, e.g. 405/413/415, → {@link APIError}).
   *
   * @param response - the final response (its body already read).
   * @param body - the parsed body: a Problem document, or whatever the server sent.
   */
  static fromResponse(response: Response, body: unknown): APIError {
    const problem = isProblem(body) ? body : undefined;
    const requestId = response.headers.get('x-request-id') ?? problem?.requestId ?? null;
    const status = response.status;
    const what = problem
      ? `${problem.code}: ${problem.detail ?? problem.title}`
      : typeof body === 'string' && body
        ? body.slice(0, 200)
        : response.statusText || 'no body';
    const message = `${status} ${what}${requestId ? ` (request ${requestId})` : ''}`;
    const Class = errorClassForStatus(status);
    return new Class(message, { status, problem, requestId, response });
  }
}

/** 400: the request does not match the spec (wrong type or format, unknown field or query parameter). */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/** 401: missing, malformed, unknown, expired or revoked API key (code `unauthenticated`). */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 403: the key lacks the scope the operation requires (code `forbidden`). */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/** 404: unknown address, or a record that does not exist in your tenant (code `not_found`). */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** 409: a state conflict: `invalid_transition`, a duplicate `code`, or the same `Idempotency-Key` still in flight. */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 412: `If-Match` does not match the record's current `ETag` (code `precondition_failed`); nothing was written. */
export class PreconditionFailedError extends APIError {
  override name = 'PreconditionFailedError';
}
/** 422: a well-formed request that breaks a business rule, or an `Idempotency-Key` reused with another body. */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
/** 429: the tenant's rate limit is exceeded (code `rate_limited`); thrown once retries are exhausted. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
/** ≥ 500: a server-side failure (500 `internal_error`, 503 `service_unavailable`, 501 `not_implemented`, …). */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** No response arrived: DNS failure, refused or reset connection (after the retries). `cause` holds the reason. */
export class APIConnectionError extends MeridianError {
  override name = 'APIConnectionError';
}

/** An attempt took longer than `timeoutMs` (after the retries), or `waitForExecution` ran out of time. */
export class TimeoutError extends APIConnectionError {
  override name = 'TimeoutError';
}

/** The caller aborted the request through `options.signal`. Never retried. */
export class APIUserAbortError extends MeridianError {
  override name = 'APIUserAbortError';
}

/** A webhook delivery failed verification (missing header, stale timestamp, no matching signature, bad secret). */
export class WebhookVerificationError extends MeridianError {
  override name = 'WebhookVerificationError';
}

type APIErrorClass = new (message: string, init: MeridianErrorInit) => APIError;

/** The error class for an HTTP status (see {@link APIError.fromResponse}). */
export function errorClassForStatus(status: number): APIErrorClass {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 412:
      return PreconditionFailedError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : APIError;
  }
}

function isProblem(body: unknown): body is Problem {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Problem).status === 'number' &&
    typeof (body as Problem).code === 'string'
  );
}
