/**
 * What every response passes through at the edge of the app (docs/deploy.md, "HTTP"): compression, CORS for the
 * origins the deployment allows, and `GET /`, which points a browser to the settings console and an API client to
 * the API.
 */
import compression from 'compression';
import cors from 'cors';
import { type RequestHandler, Router } from 'express';
import { CONSOLE_PATH } from './console.js';
import { DOCS_PATH } from './docs.js';

/** Where `GET /` sends a browser: the settings console (docs/console.md). */
export const BROWSER_HOME = `${CONSOLE_PATH}/`;

/**
 * Compression (the `compression` middleware: Brotli or gzip as the client accepts; responses under 1 KiB are left
 * as they are, and `Cache-Control: no-transform` is honoured). Static assets that are stored precompressed
 * (server/http/docs.ts) are sent as stored and not compressed again.
 */
export function compressResponses(): RequestHandler {
  return compression({ threshold: 1024 });
}

/** Response headers a browser script may read on a cross-origin response. */
const EXPOSED_HEADERS = [
  'ETag',
  'Link',
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-Request-Id',
  'Idempotent-Replayed',
];

/**
 * CORS for `origins` (exact origins, or `*` for any), or null when the list is empty (CORS off: no
 * `Access-Control-*` header is ever sent, so browsers keep to the same origin). A preflight (`OPTIONS` with
 * `Access-Control-Request-Method`) is answered 204 here, before authentication: it carries no key by design
 * (Fetch standard, "CORS-preflight request"). Credentials (cookies) are never allowed: the API authenticates with
 * the `Authorization` header.
 */
export function corsFor(origins: string[]): RequestHandler | null {
  if (origins.length === 0) return null;
  return cors({
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Idempotency-Key',
      'If-Match',
      'If-None-Match',
      'X-Request-Id',
    ],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}

/**
 * `GET /`: a browser (`Accept` preferring `text/html`) is redirected (302) to {@link BROWSER_HOME}; any other
 * client gets JSON links to the API, its reference and its contract.
 */
export function rootRoutes(basePath: string): Router {
  const router = Router();
  router.get('/', (req, res) => {
    if (req.accepts(['application/json', 'text/html']) === 'text/html') {
      res.redirect(302, BROWSER_HOME);
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.json({
      name: 'Meridian',
      links: {
        api: basePath,
        docs: DOCS_PATH,
        openapi: `${basePath}/openapi.json`,
        health: '/healthz',
      },
    });
  });
  return router;
}
