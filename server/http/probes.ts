/**
 * `GET /healthz` and `GET /readyz` (docs/design.md, Operations): outside `/v1`, without a key, before the rate
 * limits, and logged at debug level only (a load balancer or Kubernetes polls them every few seconds).
 *
 * - `/healthz` (liveness): 200 `{"status":"ok"}` whenever the process can answer; it touches nothing else, so a
 *   database outage never gets a healthy process restarted.
 * - `/readyz` (readiness): 200 `{"status":"ready","checks":{…}}` when the database answers within 2 s and every
 *   migration is applied (with a language model configured, `details.languageModel` shows its circuit breaker, which
 *   never decides readiness: docs/agents.md, "Bring your own model"); otherwise 503 `service_unavailable` (problem+json) with `Retry-After`, so traffic goes
 *   elsewhere until it is.
 */
import { type Request, type RequestHandler, Router } from 'express';
import type { Logger } from 'pino';
import { AppError } from '../services/errors.js';
import type { Readiness, ReadinessService } from '../services/readiness.js';

/** The paths of the probes (the access log lowers their lines to debug). */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** Seconds a client should wait before asking `/readyz` again after a 503. */
export const READY_RETRY_AFTER_SECONDS = 5;

/** Whether a request is one of the probes (for the access log's level). */
export function isProbe(req: Pick<Request, 'path'>): boolean {
  return PROBE_PATHS.has(req.path);
}

/** Why the process is not ready, in one sentence for the problem's `detail`. */
function reasonOf(readiness: Readiness): string {
  if (readiness.checks.database !== 'ok') return 'Not ready: the database is unreachable.';
  const n = readiness.pendingMigrations.length;
  return `Not ready: ${n} database migration${n === 1 ? ' is' : 's are'} not applied (${readiness.pendingMigrations.join(', ')}).`;
}

/** The router of both probes. A change of readiness is logged once (warn when lost, info when regained). */
export function probeRoutes(readiness: ReadinessService, logger: Logger): Router {
  const router = Router();
  let wasReady: boolean | null = null;
  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  router.get('/healthz', noStore, (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  router.get('/readyz', noStore, async (_req, res, next) => {
    const state = await readiness.check();
    if (state.ready !== wasReady) {
      if (state.ready) logger.info({ checks: state.checks }, 'ready');
      else logger.warn({ checks: state.checks, pending: state.pendingMigrations }, 'not ready');
      wasReady = state.ready;
    }
    if (!state.ready) {
      next(
        new AppError('service_unavailable', reasonOf(state), {
          headers: { 'Retry-After': String(READY_RETRY_AFTER_SECONDS) },
        }),
      );
      return;
    }
    res
      .status(200)
      .json({ status: 'ready', checks: state.checks, ...(state.details ? { details: state.details } : {}) });
  });
  return router;
}
