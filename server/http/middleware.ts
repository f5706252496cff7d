/**
 * The framework-level steps of the pipeline (server/app.ts): request id, `Cache-Control: no-store`, access log, JSON
 * body, the express-openapi-validator setup (with `HEAD` answered as `GET`) and the NUL-character rule. Each is
 * configured here once; createApp only puts them in order.
 */
import { randomUUID } from 'node:crypto';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Config } from '../config.js';
import { AppError, type FieldError } from '../services/errors.js';
import { isInstant } from '../services/instants.js';
import { isProbe } from './probes.js';
import type { LoadedSpec } from './spec.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_TYPES = ['application/json', 'application/*+json'];

/** Request id: the client's `X-Request-Id` when it is a sane token, else a new one; on every response and log line. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.requestId = given && REQUEST_ID.test(given) ? given : `req_${randomUUID()}`;
    res.setHeader('X-Request-Id', req.requestId);
    next();
  };
}

/**
 * `Cache-Control: no-store` on every response under the base path (docs/design.md, Conventions on the wire): they are
 * tenant data read with a key, and some carry a secret shown once (a new API key, a webhook secret), so no shared or
 * browser cache may keep them. The served spec documents (`/v1/openapi.json|yaml`) are answered before this step and
 * stay cacheable.
 */
export function noStore(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

/**
 * Query parameter names whose values are secrets: an API key, a token, a password or a signature sent in the URL by
 * mistake (`?api_key=…`). Matched anywhere in the name, case-insensitively, so `apiKey`, `access_token`,
 * `X-Amz-Signature` and `client_secret` are caught too.
 */
const SECRET_PARAMETER = /key|token|secret|passw|pwd|signature|sig$|auth|credential|session|cookie/i;

/**
 * Meridian's secrets by their form, wherever they appear: API keys (`mk_live_…`), tokens (`mt_…`) and webhook
 * signing secrets (`whsec_…`), with the underscore sent as is or percent-encoded (`%5F`). A token's `mt` is not
 * preceded by a letter, digit or underscore, so `format_mt_x` is no token; the longer prefixes match anywhere.
 */
const SECRET_VALUE = /(mk(?:_|%5[Ff])live|(?<![A-Za-z0-9_])mt|whsec)(_|%5[Ff])[A-Za-z0-9+/=%_.~-]+/g;

/**
 * `text` with every secret of Meridian's forms ({@link SECRET_VALUE}) masked: its prefix kept, the rest replaced by
 * `[REDACTED]` (`mk_live_[REDACTED]`), so a log line still shows what kind of secret was sent where.
 */
export function maskSecrets(text: string): string {
  return text.replace(SECRET_VALUE, '$1$2[REDACTED]');
}

/**
 * The URL as the access log writes it: the path as sent, and the query string with the value of every parameter
 * whose name looks like a secret replaced by `[REDACTED]` (names and the other values stay as sent, so a log line
 * still shows what was asked). Parameters are split on `&` and at their first `=`, as Express's query parser does.
 * Then every secret of Meridian's forms anywhere in the URL (path, names, values) is masked by {@link maskSecrets}.
 */
export function redactUrl(url: string): string {
  return maskSecrets(redactQueryParameters(url));
}

function redactQueryParameters(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // A malformed escape: judge the name as sent.
      }
      return SECRET_PARAMETER.test(name) ? `${rawName}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/**
 * One log line per request, under the request id: method, URL (secrets redacted by {@link redactUrl}) and
 * status. Headers (and so `Authorization`) never reach the logs. The health probes (`/healthz`, `/readyz`, polled
 * every few seconds) are logged at debug level, every other request at info (pino-http's default level).
 */
export function accessLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    customLogLevel: (req) => (isProbe(req as Request) ? 'debug' : 'info'),
    genReqId: (req) => (req as Request).requestId ?? randomUUID(),
    serializers: {
      // pino's request serializer has already put Express's `originalUrl` (the URL as sent) into `url`.
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * JSON bodies up to 1 MiB (docs/design.md, Limits: larger → 413), keeping the bytes as sent in `req.rawBody`.
 *
 * A body whose `Content-Encoding` (gzip, deflate, br: the parser inflates them) does not match its bytes answers 400
 * saying so. Two refusals come before parsing: a JSON body in a charset other than UTF-8 (RFC 8259 §8.1: JSON exchanged between
 * systems is UTF-8) is 415, not a parse error; and a JSON request with no body bytes at all keeps `req.body`
 * undefined instead of the parser's `{}`, so an operation whose body is required answers 400 (an empty object `{}`
 * is a body, and the spec says what it does).
 * @throws AppError 415 `unsupported_media_type` for a charset other than UTF-8.
 */
export function jsonBody(): RequestHandler[] {
  const parse = express.json({
    limit: '1mb',
    type: JSON_TYPES,
    // The Idempotency-Key fingerprint is over the request as the client sent it, before the validator fills in
    // defaults.
    verify: (req, _res, buf) => {
      (req as Request).rawBody = buf;
    },
  });
  const charsetOf: RequestHandler = (req, _res, next) => {
    if (req.is(JSON_TYPES)) {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.get('content-type') ?? '')?.[1];
      if (charset !== undefined && !UTF8.has(charset.toLowerCase()))
        throw new AppError(
          'unsupported_media_type',
          `Send the body as application/json in UTF-8 (charset=${charset} is not supported).`,
        );
    }
    next();
  };
  const emptyIsNoBody: RequestHandler = (req, _res, next) => {
    if ((req.rawBody?.length ?? 0) === 0 && req.is(JSON_TYPES)) req.body = undefined;
    next();
  };
  // The parser inflates gzip, deflate and br bodies; one that is not what its Content-Encoding says fails in zlib
  // (Z_DATA_ERROR, Z_BUF_ERROR…), which the parser reports as a bare 400.
  const notEncodedAsSaid: ErrorRequestHandler = (err, req, _res, next) => {
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^(Z_|ERR_BROTLI|ERR__)/.test(code)) {
      const declared = req.get('content-encoding')?.trim() ?? '';
      const encoding = /^[\w ,.-]{1,40}$/.test(declared) ? declared : 'the declared encoding';
      const message = `is not valid ${encoding} data (Content-Encoding: ${encoding}): send it compressed as the header says, or uncompressed without the header`;
      next(
        new AppError('validation_failed', `The request body ${message}.`, {
          errors: [{ location: 'body', path: '/', message }],
        }),
      );
      return;
    }
    next(err);
  };
  return [charsetOf, parse, notEncodedAsSaid as unknown as RequestHandler, emptyIsNoBody];
}

/** The request as express-openapi-validator leaves it: the matched operation and the path parameters. */
type ValidatedRequest = Request & {
  openapi?: {
    schema?: { operationId?: string; requestBody?: { required?: boolean } };
    pathParams?: Record<string, string>;
  };
};

/**
 * express-openapi-validator over the spec: requests always (400, 404, 405, 415; unknown query parameters refused),
 * responses when `config.validateResponses` (development and tests; a breach is a 500 and a log line).
 *
 * `HEAD` is answered as `GET` without a body (RFC 9110 §9.3.2; docs/design.md): the spec declares no `head`
 * operations, so a HEAD request is matched and validated as the path's GET, then carries on as HEAD (Node sends no
 * body for it; the headers, `Content-Length` included, are the GET's). On a path without GET it answers the 405 a GET
 * would.
 */
export function validateAgainstSpec(spec: LoadedSpec, config: Config): RequestHandler[] {
  const validator = OpenApiValidator.middleware({
    // The validator mutates the document it is given; hand it a copy so /openapi.json stays as written.
    apiSpec: structuredClone(spec.document) as never,
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses: config.validateResponses ? { removeAdditional: false, allErrors: true } : false,
    validateSecurity: false,
    // Ajv's full format checks: real calendar dates (2024-13-01 and 2019-02-30 are refused), not only the shape.
    validateFormats: true,
    ajvFormats: { mode: 'full' },
    // Instants: RFC 3339 without leap seconds, years 0001–9999 in UTC, for every operation (docs/design.md,
    // Conventions: "Instants"); the same rule services apply when they store one (server/services/instants.ts).
    formats: { 'date-time': { type: 'string', validate: isInstant } },
    ignoreUndocumented: false,
  }) as RequestHandler[];
  const heads = new WeakSet<Request>();
  const headAsGet: RequestHandler = (req, _res, next) => {
    if (req.method === 'HEAD') {
      heads.add(req);
      req.method = 'GET';
    }
    next();
  };
  const restore = (req: Request) => {
    if (heads.has(req)) req.method = 'HEAD';
  };
  const restoreHead: RequestHandler = (req, _res, next) => {
    restore(req);
    next();
  };
  const restoreHeadOnError: ErrorRequestHandler = (err, req, _res, next) => {
    restore(req);
    next(err);
  };
  return [headAsGet, ...validator, restoreHead, restoreHeadOnError as unknown as RequestHandler];
}

/**
 * A request without a body to an operation whose body is required (`requestBody.required: true`) answers 400 naming
 * the body. express-openapi-validator 5.6 only enforces it when the body schema itself lists required properties, so
 * a `PATCH` (no required fields) with no body would get through as if it were `{}` (docs/design.md, "Conventions on
 * the wire"); `{}` itself is a body, and a no-op (the spec's "Updates and concurrency").
 * @throws AppError 400 `validation_failed`.
 */
export function requireDeclaredBody(): RequestHandler {
  return (req, _res, next) => {
    if (req.body === undefined && (req as ValidatedRequest).openapi?.schema?.requestBody?.required) {
      const message = 'is required: send a JSON object (an empty object {} changes nothing)';
      throw new AppError('validation_failed', `The request is invalid: body ${message}.`, {
        errors: [{ location: 'body', path: '/', message }],
      });
    }
    next();
  };
}

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
/** At most this many fields are named in one answer. */
const MAX_NUL_ERRORS = 20;

/** A JSON Pointer token (RFC 6901), with a NUL shown as `\u0000` rather than sent back raw. */
function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll(NUL, '\\u0000');
}

/**
 * The fields of `root` whose string values (or object keys) contain NUL, walked without recursion (a body may be
 * nested thousands deep). Body fields are JSON Pointers (`/tags/3`), query parameters dotted names (`tag.1`).
 */
function nulFields(root: unknown, location: FieldError['location']): FieldError[] {
  const found: FieldError[] = [];
  const join = (base: string, key: string) =>
    location === 'body'
      ? `${base}/${pointerToken(key)}`
      : base
        ? `${base}.${pointerToken(key)}`
        : pointerToken(key);
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0 && found.length < MAX_NUL_ERRORS) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (value.includes(NUL)) found.push({ location, path: path || '/', message: NUL_MESSAGE });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const childPath = join(path, key);
        if (key.includes(NUL)) found.push({ location, path: childPath, message: `name ${NUL_MESSAGE}` });
        stack.push([child, childPath]);
      }
    }
  }
  return found;
}

/**
 * Refuses the NUL character (U+0000) in every string input with 400 `validation_failed` naming each field
 * (docs/design.md, Limits; the spec's "Strings" rule): body values and keys, query parameters and path parameters.
 * Postgres cannot store NUL in text while SQLite can, so refusing it here makes both databases answer alike, and
 * no string with NUL reaches a repository. Header values need no check here: Node's HTTP parser refuses a NUL in a
 * header before any middleware runs (400, server/http/client-errors.ts).
 *
 * Runs after express-openapi-validator (its 400s come first and name the same fields the same way), before the
 * operation's scope check, like every other request-shape error.
 * @throws AppError 400 `validation_failed` with `errors[]`.
 */
export function refuseNulCharacters(): RequestHandler {
  return (req, _res, next) => {
    const errors = [
      ...nulFields((req as ValidatedRequest).openapi?.pathParams ?? {}, 'path'),
      ...nulFields(req.query, 'query'),
      ...nulFields(req.body, 'body'),
    ].slice(0, MAX_NUL_ERRORS);
    if (errors.length > 0) {
      throw new AppError(
        'validation_failed',
        `The request is invalid: ${errors.map((f) => `${f.location} ${f.path} ${f.message}`).join('; ')}.`,
        { errors },
      );
    }
    next();
  };
}
