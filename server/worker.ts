/**
 * `npm run worker`: the job runner (every kind of server/jobs/registry.ts: webhook deliveries and agent executions)
 * and the periodic sweeps alone, without the API (docs/design.md, "Job runner": any number of worker processes on
 * one Postgres; they claim jobs with `FOR UPDATE SKIP LOCKED`). Migrates first, so it can start before the API.
 * Stops on SIGTERM/SIGINT after the round in flight settles.
 */

import { systemClock } from './clock.js';
import { loadConfig, localSecretKeyWarning } from './config.js';
import { SecretBox } from './crypto/secret-box.js';
import { createJobRunner, startSweeps } from './jobs/index.js';
import { createLogger } from './logging.js';
import { migrate, openDatabase } from './repositories/db.js';
import { buildServices } from './services/index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'meridian-worker');
  const db = openDatabase(config);
  const warning = localSecretKeyWarning(config);
  if (warning) process.stdout.write(`meridian-worker: ${warning}\n`);
  await migrate(db, { secrets: new SecretBox(config.secretKeys) });
  const services = buildServices({ db, clock: systemClock }, config, logger);
  const worker = createJobRunner({ services, clock: systemClock, config, logger }).start();
  const stopSweeps = startSweeps(services, logger);
  process.stdout.write(
    `meridian-worker: Node.js ${process.version}\nmeridian-worker: ${worker.id} running jobs (${worker.kinds.join(', ')}) from ${db.dialect === 'sqlite' ? config.sqliteFile : 'postgres (DATABASE_URL)'}\n`,
  );
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(0), 20_000).unref();
    stopSweeps();
    void worker
      .stop()
      .then(() => db.close())
      .then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(`meridian-worker: failed to start: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
