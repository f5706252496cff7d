/**
 * The settings console (docs/console.md): the single-page app built by Vite into `console/dist`, served at
 * `/console`. Hashed assets (`/console/assets/*`) are immutable for a year; every other path under `/console` answers
 * the app's page, never cached, with a per-request nonce that the page hands to Mantine for the `<style>` elements it
 * injects, so the Content-Security-Policy needs no `unsafe-inline`. `GET /` sends a browser to `/console/` (server/http/edge.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';

/** Where the console is served. */
export const CONSOLE_PATH = '/console';

/** The build Vite writes (`npm run build:console`, scripts/build-console.ts). */
export const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console/dist');

/** The page's policy: this origin only; styles also from elements carrying this request's nonce. */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The console's routes. The page is read from `dist` at start; a missing build answers 503 with the command that
 * makes it (the README's `npm start` builds it first: scripts/build-console.ts).
 */
export function consoleRoutes(dist: string = CONSOLE_DIST): Router {
  const router = Router();
  const indexFile = path.join(dist, 'index.html');
  const page = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
  router.use(
    `${CONSOLE_PATH}/assets`,
    express.static(path.join(dist, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: false,
    }),
  );
  router.get([CONSOLE_PATH, `${CONSOLE_PATH}/{*rest}`], (_req, res) => {
    if (page === null) {
      res
        .status(503)
        .type('text/plain')
        .send('The console is not built: run `npm run build:console` (npm start builds it when missing).\n');
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    res.set('Content-Security-Policy', contentSecurityPolicy(nonce));
    res.set('Cache-Control', 'no-cache');
    res.type('html').send(page.replaceAll('__CSP_NONCE__', nonce));
  });
  return router;
}
