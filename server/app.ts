/**
 * `createApp({ config, db, clock })`: the Express 5 application, built without listening (DESIGN.md).
 *
 * Order of the pipeline, and why:
 *   request id → security headers → access log → public docs (`/v1/openapi.json|yaml`)
 *   → failed-authentication limit per client address → authentication (401 before anything about the request
 *   is revealed) → per-tenant rate limit → JSON body (1 MiB) → express-openapi-validator (400, 404, 405, 415)
 *   → scope check (403) → handler (by operationId) → problem+json renderer.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import helmet from 'helmet';
import { type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { actorOf, authenticate, requireScope } from './http/auth.js';
import { buildHandlers } from './http/handlers/index.js';
import { problemHandler } from './http/problem.js';
import { FailedAuthGuard, tenantRateLimiter } from './http/rate-limit.js';
import { type LoadedSpec, loadSpec } from './http/spec.js';
import type { HandlerContext, OperationId } from './http/types.js';
import type { Database } from './repositories/db.js';
import { noneMatch } from './services/concurrency.js';
import { AppError } from './services/errors.js';
import { fingerprintOf } from './services/idempotency.js';
import { buildServices, type Services } from './services/index.js';

/** Inputs of {@link createApp}. */
export interface AppOptions {
  config: Config;
  db: Database;
  clock?: Clock;
  logger?: Logger;
}

/** The built application and what it was built from. */
export interface MeridianApp {
  app: Express;
  services: Services;
  logger: Logger;
  spec: LoadedSpec;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Operations whose success body carries a secret shown once: their Idempotency-Key replays answer 409. */
const ONE_TIME_SECRETS: ReadonlySet<string> = new Set([
  'createApiKey',
  'createWebhook',
  'rotateWebhookSecret',
]);
const JSON_TYPES = ['application/json', 'application/*+json'];

/** Builds the application; the caller decides where it listens. */
export function createApp(options: AppOptions): MeridianApp {
  const { config, db } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'meridian' } });
  const services = buildServices({ db, clock }, config);
  const spec = loadSpec();
  const handlers = buildHandlers(services);
  const app = express();
  app.disable('x-powered-by');
  // No automatic weak ETags (and so no implicit 304s): ETags are the records' versions, set by handlers.
  app.set('etag', false);
  // Client addresses (the failed-authentication limit) come from X-Forwarded-For only behind a trusted proxy.
  app.set('trust proxy', config.trustProxy);

  // Request id: the client's when it is a sane token, else a new UUID; on every response and log line.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const given = req.get('x-request-id');
    req.requestId = given && REQUEST_ID.test(given) ? given : `req_${randomUUID()}`;
    res.setHeader('X-Request-Id', req.requestId);
    next();
  });
  app.use(helmet());
  app.use(
    pinoHttp({
      logger,
      genReqId: (req) => (req as Request).requestId ?? randomUUID(),
      // Only method and URL: headers (and so API keys) never reach the logs.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  app.get(`${config.basePath}/openapi.json`, (_req, res) => {
    res.type('application/json').send(spec.json);
  });
  app.get(`${config.basePath}/openapi.yaml`, (_req, res) => {
    res.type('application/yaml').send(spec.yaml);
  });

  const limits = {
    clock,
    sharedDb: db.dialect === 'postgres' ? db : null,
    limitOf: (req: Request) => (req.principal ? services.identity.rateLimitOf(req.principal.tenant) : 1),
    authFailuresPerMinute: config.authFailuresPerMinute,
  };
  const failedAuth = new FailedAuthGuard(limits);
  app.use(config.basePath, failedAuth.check());
  app.use(
    config.basePath,
    authenticate(services.identity, (req) => failedAuth.recordFailure(req)),
  );
  app.use(config.basePath, tenantRateLimiter(limits));
  app.use(
    express.json({
      limit: '1mb',
      type: JSON_TYPES,
      // Keep the bytes as sent: the Idempotency-Key fingerprint is over the request as the client sent it, before
      // the validator fills in defaults.
      verify: (req, _res, buf) => {
        (req as Request).rawBody = buf;
      },
    }),
  );
  app.use(
    OpenApiValidator.middleware({
      // The validator mutates the document it is given; hand it a copy so /openapi.json stays as written.
      apiSpec: structuredClone(spec.document) as never,
      validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
      validateResponses: config.validateResponses ? { removeAdditional: false, allErrors: true } : false,
      validateSecurity: false,
      // Ajv's full format checks: real calendar dates (2024-13-01 and 2019-02-30 are refused), not only the shape.
      validateFormats: true,
      ajvFormats: { mode: 'full' },
      ignoreUndocumented: false,
    }),
  );

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      const schema = (
        req as Request & {
          openapi?: {
            schema?: { operationId?: string; parameters?: { in: string; name: string }[] };
            pathParams?: Record<string, string>;
          };
        }
      ).openapi;
      const operationId = schema?.schema?.operationId as OperationId | undefined;
      if (!operationId || !(operationId in handlers)) {
        next(new AppError('not_found', 'No such operation.'));
        return;
      }
      const principal = req.principal;
      if (!principal) throw new AppError('unauthenticated', 'Authentication required.');
      requireScope(principal, spec.scopes.get(operationId) ?? 'admin', operationId);
      const headers: Record<string, string> = {};
      for (const name of spec.headerParams.get(operationId) ?? []) {
        const value = req.get(name);
        if (value !== undefined) headers[name] = value;
      }
      const ctx = {
        operationId,
        path: schema?.pathParams ?? {},
        query: req.query,
        headers,
        body: req.body,
        principal,
        actor: actorOf(req),
        baseUrl: `${req.protocol}://${req.get('host')}${config.basePath}`,
        req,
      } as unknown as HandlerContext<typeof operationId>;
      const handler = handlers[operationId] as (
        c: typeof ctx,
      ) => Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>;
      // Idempotency-Key (POST only): reserve or replay before the handler runs; store the success after.
      const idempotencyKey = req.method === 'POST' ? req.get('idempotency-key') : undefined;
      const tenantId = principal.tenant.id;
      if (idempotencyKey !== undefined) {
        const fingerprint = fingerprintOf(req.method, req.path, req.rawBody);
        const reservation = await services.idempotency.begin(tenantId, idempotencyKey, fingerprint);
        if (reservation.kind === 'replay' && ONE_TIME_SECRETS.has(operationId)) {
          throw new AppError(
            'conflict',
            'A request with this Idempotency-Key already succeeded' +
              (reservation.response.headers.Location ? ` (${reservation.response.headers.Location})` : '') +
              '. Its response carried a one-time secret, which Meridian does not keep, so it cannot be replayed: ' +
              'use the record it created (rotate or revoke it if the secret was lost).',
          );
        }
        if (reservation.kind === 'replay') {
          const { status, headers: stored, body } = reservation.response;
          for (const [name, value] of Object.entries(stored)) res.setHeader(name, value);
          res.setHeader('Idempotent-Replayed', 'true');
          if (body === undefined) res.status(status).end();
          else res.status(status).json(body);
          return;
        }
      }
      let result: Awaited<ReturnType<typeof handler>>;
      try {
        result = await handler(ctx);
      } catch (err) {
        if (idempotencyKey !== undefined) await services.idempotency.release(tenantId, idempotencyKey);
        throw err;
      }
      if (idempotencyKey !== undefined) {
        await services.idempotency.complete(tenantId, idempotencyKey, {
          status: result.status,
          headers: result.headers ?? {},
          // A one-time secret (API key, webhook secret) is never stored, not even for a replay (DESIGN.md).
          body: ONE_TIME_SECRETS.has(operationId) ? undefined : result.body,
        });
      }
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      const etag = result.headers?.ETag;
      if (
        req.method === 'GET' &&
        result.status === 200 &&
        etag &&
        noneMatch(req.get('if-none-match'), etag)
      ) {
        res.status(304).end();
        return;
      }
      if (result.body === undefined) res.status(result.status).end();
      else res.status(result.status).json(result.body);
    } catch (err) {
      next(err);
    }
  });

  // Anything outside /v1.
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    next(new AppError('not_found', 'No such resource. The API lives under /v1.'));
  });
  app.use(problemHandler(logger));
  return { app, services, logger, spec };
}
