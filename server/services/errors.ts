/**
 * Typed errors with a stable `code` (docs/design.md, "Conventions on the wire"). Services throw them; the HTTP layer
 * renders them, in exactly one place, as RFC 9457 `application/problem+json`.
 */
import type { Schema } from '../schemas.js';

/** One failing field of a request (spec `ProblemFieldError`, rendered in the problem's `errors` list). */
export type FieldError = Schema<'ProblemFieldError'>;

/** The stable error codes of docs/design.md with their HTTP status and title. */
export const ERROR_CODES = {
  validation_failed: { status: 400, title: 'Request validation failed' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  invalid_transition: { status: 409, title: 'Invalid status transition' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  request_timeout: { status: 408, title: 'Request timeout' },
  request_header_fields_too_large: { status: 431, title: 'Request header fields too large' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal server error' },
  not_implemented: { status: 501, title: 'Not implemented' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const;

/** A stable, snake_case error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * An error a client can act on. `status` follows from `code` unless given (422 business-rule failures use
 * `validation_failed` with status 422, as docs/design.md's "422 business rule" says).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { status?: number; errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code].status;
    this.title = ERROR_CODES[code].title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

/** 404 `not_found` for a record that does not exist in the caller's tenant (other tenants' ids included). */
export function notFound(resourceType: string, id: string): AppError {
  return new AppError('not_found', `No ${resourceType} with id ${id} exists in this tenant.`);
}

/** 422 `validation_failed`: the request is well-formed but breaks a business rule. */
export function businessRule(detail: string, errors?: FieldError[]): AppError {
  return new AppError('validation_failed', detail, { status: 422, ...(errors ? { errors } : {}) });
}

/** 412 `precondition_failed` when `If-Match` names another version than the stored one. */
export function preconditionFailed(current: number): AppError {
  return new AppError(
    'precondition_failed',
    `If-Match does not match the current version (${current}); fetch the record again and retry.`,
  );
}
