/**
 * The one place errors become responses: RFC 9457 `application/problem+json` with `code` and `requestId`
 * (docs/design.md, Errors). No stack trace ever leaves the server.
 *
 * Each source of errors has its own small mapper to a {@link ProblemOf}, tried in order: our own `AppError`s, the
 * JSON body parser's, any other 4xx error with a `status` (express-openapi-validator's 400/404/405/415, the body
 * parser's rarer ones), an unreachable database (503), and last anything else (500). Node's HTTP parser is one more
 * source, outside Express: {@link httpParserProblem} maps what it refuses (a 431 above all) for client-errors.ts.
 * One function builds every problem document ({@link problemDocument}); the Express renderer and client-errors.ts
 * write it.
 */
import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, ERROR_CODES, type ErrorCode, type FieldError } from '../services/errors.js';
import { INSTANT_RULE } from '../services/instants.js';

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

/** What a mapper makes of an error: the problem to answer with, and for a server fault what to log. */
export interface ProblemOf {
  code: ErrorCode;
  status: number;
  title: string;
  detail: string;
  errors?: FieldError[] | undefined;
  headers?: Record<string, string>;
  /** Logged at error level with the error and the request id. */
  log?: { message: string; fields?: Record<string, unknown> };
}

/** An error as Express middleware reports it: http-errors' shape (body parser, express-openapi-validator). */
interface HttpErrorLike {
  status?: number;
  statusCode?: number;
  type?: string;
  errors?: ValidatorIssue[];
  headers?: Record<string, string>;
  message?: string;
}

interface ValidatorIssue {
  path?: string;
  message?: string;
}

/** A problem with its code's status and title unless told otherwise. */
function problem(code: ErrorCode, detail: string, extra: Partial<ProblemOf> = {}): ProblemOf {
  return { code, status: ERROR_CODES[code].status, title: ERROR_CODES[code].title, detail, ...extra };
}

function httpErrorOf(err: unknown): HttpErrorLike {
  return typeof err === 'object' && err !== null ? (err as HttpErrorLike) : {};
}

// ------------------------------------------------------------------------------------------------- mappers

/** Our own errors (services, auth, rate limits) carry everything already. */
function fromAppError(err: unknown): ProblemOf | undefined {
  if (!(err instanceof AppError)) return undefined;
  const { code, status, title, errors, headers } = err;
  return { code, status, title, detail: err.message, errors, headers };
}

/** The JSON body parser (express.json): a body over 1 MiB, or one that is not JSON. */
function fromBodyParser(err: unknown): ProblemOf | undefined {
  switch (httpErrorOf(err).type) {
    case 'entity.too.large':
      return problem('payload_too_large', 'The request body is larger than 1 MiB.');
    case 'entity.parse.failed':
      return problem('validation_failed', 'The request body is not valid JSON.', {
        errors: [{ location: 'body', path: '/', message: 'malformed JSON' }],
      });
    default:
      return undefined;
  }
}

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

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
  // Ajv says `must match format "date-time"`; the instant rule says what would match (server/services/instants.ts).
  const message = issue.message === 'must match format "date-time"' ? INSTANT_RULE : issue.message;
  return { location: where, path, message: message ?? 'is invalid' };
}

/**
 * The validator's `Allow` with `HEAD` added where `GET` is allowed: HEAD is answered wherever GET is
 * (middleware.ts), though the spec declares no `head` operations.
 */
function withHead(allow: string | undefined): string | undefined {
  if (allow === undefined) return undefined;
  const methods = allow.split(',').map((m) => m.trim());
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'].join(', ') : allow;
}

/** Any other 4xx error with a status: express-openapi-validator's 400/404/405/415 above all. */
function fromClientError(err: unknown): ProblemOf | undefined {
  const e = httpErrorOf(err);
  const status = e.status ?? e.statusCode;
  if (!status || status < 400 || status >= 500) return undefined;
  const code = CODE_BY_STATUS[status] ?? 'validation_failed';
  const allow = status === 405 ? withHead(e.headers?.Allow) : undefined;
  const errors = status === 400 ? (e.errors ?? []).map(toFieldError) : undefined;
  const details: Partial<Record<number, string>> = {
    400: `The request is invalid: ${(errors ?? []).map((f) => `${f.location} ${f.path} ${f.message}`).join('; ')}.`,
    404: 'No such resource or operation.',
    405: `This path does not accept the method; allowed: ${allow ?? 'see Allow'}.`,
    415: 'Send the body as application/json in UTF-8.',
  };
  const detail = details[status] ?? e.message ?? ERROR_CODES[code].title;
  return problem(code, detail, { status, errors, headers: allow ? { Allow: allow } : {} });
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

/** A database that cannot be reached or is locked: 503 with Retry-After (docs/design.md, Errors), not a 500. */
function fromDatabaseOutage(err: unknown): ProblemOf | undefined {
  const e = err as { code?: string; name?: string } | null;
  if (!e || !(UNAVAILABLE_CODES.has(e.code ?? '') || e.name === 'KnexTimeoutError')) return undefined;
  return problem(
    'service_unavailable',
    'The database is unavailable or busy; retry after the given number of seconds.',
    {
      headers: { 'Retry-After': '2' },
      log: { message: 'database unavailable' },
    },
  );
}

/** Anything else is a server bug: logged with its stack, answered 500 without details. */
function fromUnknown(err: unknown): ProblemOf {
  const e = httpErrorOf(err);
  // express-openapi-validator reports a response that breaks the spec as a 500 with the issues.
  const badResponse = (e.status ?? e.statusCode ?? 0) >= 500 && (e.errors?.length ?? 0) > 0;
  return problem('internal_error', 'An unexpected error occurred; quote the request id when reporting it.', {
    log: badResponse
      ? { message: 'response does not match the spec', fields: { issues: e.errors } }
      : { message: 'unhandled error' },
  });
}

const MAPPERS = [fromAppError, fromBodyParser, fromClientError, fromDatabaseOutage];

/** The problem for `err`: the first mapper's that recognises it, else a 500. */
function toProblem(err: unknown): ProblemOf {
  for (const map of MAPPERS) {
    const mapped = map(err);
    if (mapped) return mapped;
  }
  return fromUnknown(err);
}

/**
 * What Node's HTTP parser refused, before any middleware ran (`clientError`, server/http/client-errors.ts): the
 * request line and headers over Node's limit (16 KiB by default, `--max-http-header-size`) → 431; a request not
 * received in time → 408; chunk extensions over Node's limit → 413; anything else (an invalid character, a NUL in a
 * header value, a malformed request line) → 400.
 */
export function httpParserProblem(parserCode: string | undefined): ProblemOf {
  switch (parserCode) {
    case 'HPE_HEADER_OVERFLOW':
      return problem(
        'request_header_fields_too_large',
        'The request line and headers are larger than the server accepts (16 KiB); send long filters in fewer, shorter parameters.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem('request_timeout', 'The request was not received in time.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problem('payload_too_large', 'The chunk extensions of the request body are too large.');
    default:
      return problem('validation_failed', 'The request is not valid HTTP/1.1 and could not be read.');
  }
}

// ------------------------------------------------------------------------------------------------ renderer

const TYPE_BASE = 'https://meridian.dev/problems/';

/** The `application/problem+json` body of `problem`, for the request `requestId` at `instance` (its path). */
export function problemDocument(problem: ProblemOf, requestId: string, instance?: string): Problem {
  const body: Problem = {
    type: `${TYPE_BASE}${problem.code.replaceAll('_', '-')}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    ...(instance !== undefined ? { instance } : {}),
    code: problem.code,
    requestId,
  };
  if (problem.errors && problem.errors.length > 0) body.errors = problem.errors;
  return body;
}

/** Writes `problem` as the response: its headers, its status and the `application/problem+json` body. */
function render(res: Response, requestId: string, instance: string, problem: ProblemOf): void {
  for (const [name, value] of Object.entries(problem.headers ?? {})) res.setHeader(name, value);
  res
    .status(problem.status)
    .type('application/problem+json')
    .send(JSON.stringify(problemDocument(problem, requestId, instance)));
}

/**
 * The Express error handler: maps the error by its source and renders it; server faults are logged with the
 * request id. An error after the response started can only be logged (the response is ended as it is).
 */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = String(res.getHeader('X-Request-Id') ?? '');
    if (res.headersSent) {
      logger.error({ err, requestId }, 'error after the response started');
      res.end();
      return;
    }
    const problem = toProblem(err);
    if (problem.log) logger.error({ err, requestId, ...problem.log.fields }, problem.log.message);
    render(res, requestId, req.originalUrl.split('?')[0] ?? req.originalUrl, problem);
  };
}
