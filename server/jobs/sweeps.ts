/**
 * Periodic sweeps, run wherever the job runner runs (the API process unless MERIDIAN_WORKER=false, and
 * `npm run worker`): the missed-milestone sweep (docs/webhooks.md, "Events and webhooks") and the purge of ended
 * console sessions, tokens and throttling counters (docs/accounts.md, "Sessions").
 */
import type { Logger } from 'pino';
import type { Services } from '../services/index.js';

/** Default interval between sweeps. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Runs `services.milestones.sweepMissed()` and `services.sessions.purgeEnded()` now and then every `intervalMs`;
 * one sweep at a time. Returns a function that stops it. Errors are logged and the next tick tries again.
 */
export function startSweeps(services: Services, logger: Logger, intervalMs = SWEEP_INTERVAL_MS): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const marked = await services.milestones.sweepMissed();
      if (marked > 0) logger.info({ marked }, 'milestones marked MISSED');
    } catch (err) {
      logger.error({ err }, 'missed-milestone sweep failed');
    }
    try {
      const purged = await services.sessions.purgeEnded();
      if (purged.sessions + purged.tokens > 0) logger.info(purged, 'ended console sessions purged');
    } catch (err) {
      logger.error({ err }, 'console session purge failed');
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
