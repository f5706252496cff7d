/**
 * The one place errors become responses: RFC 9457 `application/problem+json` with `code` and `requestId`
 * (DESIGN.md, Errors). No stack trace ever leaves the server.
 */
import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, ERROR_CODES, type ErrorCode, type FieldError } from '../services/errors.js';

/** The problem body (spec `Problem`). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: string;
  requestId: string;
  errors?: FieldError[];
}

const TYPE_BASE = 'https://meridian.dev/problems/';

/** Writes a problem response. */
export function sendProblem(
  res: Response,
  requestId: string,
  instance: string,
  error: {
    code: ErrorCode;
    status: number;
    title: string;
    detail: string;
    errors?: FieldError[] | undefined;
  },
  headers: Record<string, string> = {},
): void {
  const body: Problem = {
    type: `${TYPE_BASE}${error.code.replaceAll('_', '-')}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    instance,
    code: error.code,
    requestId,
  };
  if (error.errors && error.errors.length > 0) body.errors = error.errors;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(error.status).type('application/problem+json').send(JSON.stringify(body));
}

interface ValidatorIssue {
  path?: string;
  message?: string;
}

const LOCATIONS: FieldError['location'][] = ['body', 'query', 'path', 'header'];

/** express-openapi-validator reports `/body/name` or `.query.limit`; split off the location. */
function toFieldError(issue: ValidatorIssue): FieldError {
  const raw = (issue.path ?? '').replace(/^[./]/, '');
  const [head = '', ...rest] = raw.split(/[./]/);
  const location = (LOCATIONS as string[]).includes(head) ? (head as FieldError['location']) : 'body';
  const known = (LOCATIONS as string[]).includes(head) || head === 'params' || head === 'headers';
  const where: FieldError['location'] = head === 'params' ? 'path' : head === 'headers' ? 'header' : location;
  const segments = known ? rest : raw.split(/[./]/);
  // Body fields are JSON Pointers (`/tags/3`); parameters and headers are named as they are (`limit`).
  const path = where === 'body' ? `/${segments.join('/')}` : segments.join('.');
  return { location: where, path, message: issue.message ?? 'is invalid' };
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // pg: admin_shutdown
  '57P03', // pg: cannot_connect_now
  '53300', // pg: too_many_connections
  'SQLITE_BUSY',
]);

/** A database that cannot be reached or is locked: 503 with Retry-After (DESIGN.md), not a 500. */
function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; name?: string } | null;
  return !!e && (UNAVAILABLE_CODES.has(e.code ?? '') || e.name === 'KnexTimeoutError');
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'validation_failed';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    default:
      return status >= 500 ? 'internal_error' : 'validation_failed';
  }
}

/**
 * The Express error handler: AppErrors as they are; validator and body-parser errors mapped to their codes;
 * anything else is logged with its stack and answered 500 `internal_error` without details.
 */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = String(res.getHeader('X-Request-Id') ?? '');
    const instance = req.originalUrl.split('?')[0] ?? req.originalUrl;
    if (res.headersSent) {
      logger.error({ err, requestId }, 'error after the response started');
      res.end();
      return;
    }
    if (err instanceof AppError) {
      sendProblem(res, requestId, instance, { ...err, detail: err.message }, err.headers);
      return;
    }
    const e = err as {
      status?: number;
      statusCode?: number;
      type?: string;
      errors?: ValidatorIssue[];
      headers?: Record<string, string>;
      message?: string;
    };
    if (e.type === 'entity.too.large') {
      sendProblem(res, requestId, instance, {
        code: 'payload_too_large',
        status: 413,
        title: ERROR_CODES.payload_too_large.title,
        detail: 'The request body is larger than 1 MiB.',
      });
      return;
    }
    if (e.type === 'entity.parse.failed') {
      sendProblem(res, requestId, instance, {
        code: 'validation_failed',
        status: 400,
        title: ERROR_CODES.validation_failed.title,
        detail: 'The request body is not valid JSON.',
        errors: [{ location: 'body', path: '/', message: 'malformed JSON' }],
      });
      return;
    }
    const status = e.status ?? e.statusCode;
    if (status && status >= 400 && status < 500) {
      const code = codeForStatus(status);
      const headers: Record<string, string> = {};
      if (status === 405 && e.headers?.Allow) headers.Allow = e.headers.Allow;
      const errors = status === 400 ? (e.errors ?? []).map(toFieldError) : undefined;
      const detail =
        status === 400
          ? `The request is invalid: ${(errors ?? []).map((f) => `${f.location} ${f.path} ${f.message}`).join('; ')}.`
          : status === 404
            ? 'No such resource or operation.'
            : status === 405
              ? `This path does not accept the method; allowed: ${headers.Allow ?? 'see Allow'}.`
              : status === 415
                ? 'Send the body as application/json.'
                : (e.message ?? ERROR_CODES[code].title);
      sendProblem(
        res,
        requestId,
        instance,
        { code, status, title: ERROR_CODES[code].title, detail, errors },
        headers,
      );
      return;
    }
    if (isDatabaseUnavailable(err)) {
      logger.error({ err, requestId }, 'database unavailable');
      sendProblem(
        res,
        requestId,
        instance,
        {
          code: 'service_unavailable',
          status: 503,
          title: ERROR_CODES.service_unavailable.title,
          detail: 'The database is unavailable or busy; retry after the given number of seconds.',
        },
        { 'Retry-After': '2' },
      );
      return;
    }
    if (status && status >= 500 && (e.errors?.length ?? 0) > 0) {
      // express-openapi-validator reports a response that breaks the spec as a 500: a server bug.
      logger.error({ err, requestId, issues: e.errors }, 'response does not match the spec');
    } else {
      logger.error({ err, requestId }, 'unhandled error');
    }
    sendProblem(res, requestId, instance, {
      code: 'internal_error',
      status: 500,
      title: ERROR_CODES.internal_error.title,
      detail: 'An unexpected error occurred; quote the request id when reporting it.',
    });
  };
}
