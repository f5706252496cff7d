/**
 * `npm run worker` / `node dist/worker.js`: the job runner (every kind of server/jobs/registry.ts: webhook
 * deliveries and agent executions) and the periodic sweeps alone, without the API (docs/design.md, "Job runner":
 * any number of worker processes on one Postgres; they claim jobs with `FOR UPDATE SKIP LOCKED`). Migrates first
 * (outside production, where `node dist/migrate.js` is its own step), so it can start before the API. SIGTERM stops
 * claiming and waits for the jobs in flight, at most MERIDIAN_SHUTDOWN_TIMEOUT_MS (docs/deploy.md, "Operations").
 */

import { systemClock } from './clock.js';
import { loadConfig, localSecretKeyWarning } from './config.js';
import { createJobRunner, startSweeps } from './jobs/index.js';
import { drainOnSignals, migrateOrCheck, startupFailure } from './lifecycle.js';
import { createLogger } from './logging.js';
import { openDatabase } from './repositories/db.js';
import { buildServices } from './services/index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'meridian-worker');
  const db = openDatabase(config);
  const warning = localSecretKeyWarning(config);
  if (warning) process.stdout.write(`meridian-worker: ${warning}\n`);
  await migrateOrCheck(db, config);
  const services = buildServices({ db, clock: systemClock }, config, logger);
  const worker = createJobRunner({ services, clock: systemClock, config, logger }).start();
  const stopSweeps = startSweeps(services, logger);
  process.stdout.write(
    `meridian-worker: Node.js ${process.version}, ${config.env} mode\nmeridian-worker: ${worker.id} running jobs (${worker.kinds.join(', ')}) from ${db.dialect === 'sqlite' ? config.sqliteFile : 'postgres (DATABASE_URL)'}\n`,
  );
  drainOnSignals(
    {
      stopJobs: async () => {
        stopSweeps();
        await worker.stop();
      },
      closeDatabase: () => db.close(),
    },
    logger,
    config.shutdownTimeoutMs,
  );
}

main().catch((err: unknown) => {
  console.error(`meridian-worker: failed to start: ${startupFailure(err)}`);
  process.exit(1);
});
