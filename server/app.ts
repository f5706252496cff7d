/**
 * `createApp({ config, db, clock })`: the Express 5 application, built without listening (docs/design.md).
 *
 * Order of the pipeline, and why:
 *   request id → security headers → access log (query secrets redacted) → compression → CORS (when origins are
 *   configured; preflights answered here) → `GET /` (a browser to /docs, a client to JSON links) → health probes (`/healthz`, `/readyz`)
 *   → public docs (`/docs`, `/v1/openapi.json|yaml`) → `Cache-Control: no-store` on everything else under `/v1`
 *   → console sign-in at `/auth` (cookie sessions, its own checks: server/http/console/routes.ts) → authentication (401 before anything about the
 *   request is revealed; a failure counts against the failed-authentication limit per client address, 429 above it)
 *   → per-tenant rate limit → JSON body (1 MiB; 415 for a charset other than UTF-8) → express-openapi-validator
 *   (400, 404, 405, 415; HEAD validated as GET) → a required body that is missing, NUL in any string input (400)
 *   → operation and scope check (403) → Idempotency-Key (replay or reserve) → handler (by operationId) and its
 *   result (ETag, 304) → problem+json renderer. Requests Node's HTTP parser refuses (431, 400) never reach the
 *   app: {@link createServer} answers them.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { authenticate } from './http/auth.js';
import { answerClientErrors } from './http/client-errors.js';
import { peopleRoutes } from './http/console/people-routes.js';
import { consoleAuthRoutes } from './http/console/routes.js';
import { consoleRoutes } from './http/console.js';
import { callHandler, resolveOperation } from './http/dispatch.js';
import { docsRoutes } from './http/docs.js';
import { compressResponses, corsFor, rootRoutes } from './http/edge.js';
import { buildHandlers } from './http/handlers/index.js';
import { idempotencyKeys } from './http/idempotency.js';
import {
  accessLog,
  jsonBody,
  noStore,
  refuseNulCharacters,
  requestId,
  requireDeclaredBody,
  validateAgainstSpec,
} from './http/middleware.js';
import { probeRoutes } from './http/probes.js';
import { problemHandler } from './http/problem.js';
import { FailedAuthLimit, tenantRateLimit } from './http/rate-limit.js';
import { type LoadedSpec, loadSpec, pathsOf } from './http/spec.js';
import { createLogger } from './logging.js';
import type { Database } from './repositories/db.js';
import { AppError } from './services/errors.js';
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

/** Builds the application; the caller decides where it listens. */
export function createApp(options: AppOptions): MeridianApp {
  const { config, db } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const services = buildServices({ db, clock }, config, logger);
  const spec = loadSpec();
  const app = express();
  app.disable('x-powered-by');
  // No automatic weak ETags (and so no implicit 304s): ETags are the records' versions, set by handlers.
  app.set('etag', false);
  // Client addresses (the failed-authentication limit) come from X-Forwarded-For only behind a trusted proxy.
  app.set('trust proxy', config.trustProxy);
  // Paths match as the spec writes them: `/v1/Projects` is not `/v1/projects` (RFC 3986 §6.2.2.1: paths are
  // case-sensitive), for Express's routes and for the validator's path matching alike.
  app.set('case sensitive routing', true);

  app.use(requestId());
  app.use(helmet());
  app.use(accessLog(logger));
  app.use(compressResponses());
  // CORS only for the origins MERIDIAN_CORS_ORIGINS allows; preflights are answered here, before authentication.
  const allowOrigins = corsFor(config.corsOrigins);
  if (allowOrigins) app.use(config.basePath, allowOrigins);
  app.use(rootRoutes(config.basePath));
  // Liveness and readiness: no key, no rate limit, outside /v1 (docs/design.md, Operations).
  app.use(probeRoutes(services.readiness, logger));
  // The interactive API reference, rendered from /v1/openapi.json with assets from our own node_modules.
  app.use(docsRoutes(config.basePath));
  // The settings console (docs/console.md): its built page and hashed assets at /console; / sends a browser there.
  app.use(consoleRoutes());
  app.get(`${config.basePath}/openapi.json`, (_req, res) => {
    res.type('application/json').send(spec.json);
  });
  app.get(`${config.basePath}/openapi.yaml`, (_req, res) => {
    res.type('application/yaml').send(spec.yaml);
  });
  app.use(config.basePath, noStore());
  // Console sign-in (docs/accounts.md): cookie sessions at /auth, outside /v1 and before its Bearer chain.
  app.use('/auth', consoleAuthRoutes(services, config, spec, [peopleRoutes]));

  // The key is checked first; only failures count against (and are refused by) the per-address limit
  // (docs/design.md, "Limits").
  const failedAuth = new FailedAuthLimit(services.rateLimits, config.authFailuresPerMinute);
  app.use(
    config.basePath,
    authenticate(services.authentication, (req) => failedAuth.refusal(req)),
  );
  app.use(
    config.basePath,
    tenantRateLimit(services.rateLimits, (req) =>
      req.principal ? services.tenants.rateLimitOf(req.principal.tenant) : 1,
    ),
  );

  app.use(jsonBody());
  app.use(validateAgainstSpec(pathsOf(spec, true), config));
  app.use(requireDeclaredBody());
  app.use(refuseNulCharacters());
  app.use(resolveOperation());
  app.use(idempotencyKeys(services.idempotency));
  app.use(callHandler(buildHandlers(services), config.basePath));

  // Anything outside the base path.
  app.use((_req, _res, next) => {
    next(new AppError('not_found', `No such resource. The API lives under ${config.basePath}.`));
  });
  app.use(problemHandler(logger));
  return { app, services, logger, spec };
}

/**
 * The HTTP server for a built app, not yet listening: Node's server with the app as its request listener, and
 * requests Node's parser refuses (431 for a request line and headers over 16 KiB, 400 for an invalid one) answered
 * as problem+json (server/http/client-errors.ts) instead of Node's empty-bodied answers. `npm start` and the tests
 * listen through it.
 */
export function createServer(meridian: MeridianApp): Server {
  const server = createHttpServer(meridian.app);
  answerClientErrors(server, meridian.logger);
  return server;
}
