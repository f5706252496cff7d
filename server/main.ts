/**
 * The API process (`npm start` from source, `node dist/main.js` from the build): check the port, migrate (or, in
 * production, check that `node dist/migrate.js` has run), create the demo when `MERIDIAN_DEMO` is on
 * (`startDemo` of server/bootstrap.ts, the one place it happens), run the job runner (webhook deliveries and agent executions) and the
 * periodic sweeps in this process unless MERIDIAN_WORKER=false, and listen on PORT (default 8080). SIGTERM drains
 * requests and jobs (docs/deploy.md, "Operations").
 */
import { createApp, createServer } from './app.js';
import { startDemo } from './bootstrap.js';
import { systemClock } from './clock.js';
import { type Config, loadConfig, localSecretKeyWarning } from './config.js';
import { createJobRunner, startSweeps } from './jobs/index.js';
import { checkPortFree, drainOnSignals, listen, migrateOrCheck, startupFailure } from './lifecycle.js';
import { openDatabase } from './repositories/db.js';

/** How this process runs, for its first line: the mode, the demo switch, and source or build. */
function modeLine(config: Config): string {
  const from = import.meta.url.endsWith('.js') ? 'the build (dist/)' : 'source (TypeScript through tsx)';
  const demo = config.demo ? 'demo on' : 'demo off';
  const hint =
    config.env === 'production'
      ? ''
      : '; production: npm run build, then NODE_ENV=production node dist/main.js';
  return `meridian: ${config.env} mode, ${demo}, running from ${from}${hint}`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(modeLine(config));
  // A busy port is reported now, before migrations and the demo import.
  await checkPortFree(config.port, config.host);
  const db = openDatabase(config);
  say(`meridian: Node.js ${process.version}`);
  say(`meridian: database ${db.dialect === 'sqlite' ? config.sqliteFile : 'postgres (DATABASE_URL)'}`);
  const warning = localSecretKeyWarning(config);
  if (warning) say(`meridian: ${warning}`);
  await migrateOrCheck(db, config);
  const meridian = createApp({ config, db, clock: systemClock });
  const { services, logger } = meridian;
  await startDemo(config, { db, clock: systemClock }, services, say);
  // The job runner (webhook deliveries and agent executions) runs in the API process unless MERIDIAN_WORKER=false
  // (then: npm run worker); it shares the app's job queue, so an enqueue wakes it at once.
  const worker = config.worker
    ? createJobRunner({ services, clock: systemClock, config, logger }).start()
    : null;
  if (worker) say(`meridian: job runner (${worker.kinds.join(', ')}) running in this process`);
  // The periodic sweeps (missed milestones) run wherever the job runner runs; several at once are safe.
  const stopSweeps = config.worker ? startSweeps(services, logger) : null;
  const server = createServer(meridian);
  await listen(server, config.port, config.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  say(`meridian: listening on http://${config.host}:${port}${config.basePath}`);
  logger.info({ port }, 'listening');
  drainOnSignals(
    {
      closeServer: () => new Promise<void>((resolve) => server.close(() => resolve())),
      abortConnections: () => server.closeAllConnections(),
      stopJobs: async () => {
        stopSweeps?.();
        await worker?.stop();
      },
      closeDatabase: () => db.close(),
    },
    logger,
    config.shutdownTimeoutMs,
  );
}

main().catch((err: unknown) => {
  console.error(`meridian: failed to start: ${startupFailure(err)}`);
  process.exit(1);
});
