/**
 * The framework-level steps of the pipeline (server/app.ts): request id, access log, JSON body and the
 * express-openapi-validator setup. Each is configured here once; createApp only puts them in order.
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Config } from '../config.js';
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

/** One log line per request, under the request id. Only method and URL: headers (and so API keys) never reach the logs. */
export function accessLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req) => (req as Request).requestId ?? randomUUID(),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

/** JSON bodies up to 1 MiB (docs/design.md, Limits: larger → 413), keeping the bytes as sent in `req.rawBody`. */
export function jsonBody(): RequestHandler {
  return express.json({
    limit: '1mb',
    type: JSON_TYPES,
    // The Idempotency-Key fingerprint is over the request as the client sent it, before the validator fills in
    // defaults.
    verify: (req, _res, buf) => {
      (req as Request).rawBody = buf;
    },
  });
}

/**
 * express-openapi-validator over the spec: requests always (400, 404, 405, 415; unknown query parameters refused),
 * responses when `config.validateResponses` (development and tests; a breach is a 500 and a log line).
 */
export function validateAgainstSpec(spec: LoadedSpec, config: Config): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The validator mutates the document it is given; hand it a copy so /openapi.json stays as written.
    apiSpec: structuredClone(spec.document) as never,
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses: config.validateResponses ? { removeAdditional: false, allErrors: true } : false,
    validateSecurity: false,
    // Ajv's full format checks: real calendar dates (2024-13-01 and 2019-02-30 are refused), not only the shape.
    validateFormats: true,
    ajvFormats: { mode: 'full' },
    ignoreUndocumented: false,
  }) as RequestHandler[];
}
