/**
 * `npm start`: migrate, create the demo tenant and import the NYC portfolio on first run, print the admin key
 * once, run the job runner (webhook deliveries and agent executions) and the periodic sweeps in this process unless
 * MERIDIAN_WORKER=false, and listen on PORT (default 8080).
 */
import type { AddressInfo } from 'node:net';
import { createApp, createServer } from './app.js';
import { DEMO_TENANT_NAME, ensureDemoTenant, importDemoPortfolio } from './bootstrap.js';
import { systemClock } from './clock.js';
import { loadConfig, localSecretKeyWarning } from './config.js';
import { SecretBox } from './crypto/secret-box.js';
import { ensureSyntheticTenant, SYNTHETIC_TENANT_NAME } from './demo/synthetic.js';
import { createJobRunner, startSweeps } from './jobs/index.js';
import { progressReporter } from './progress.js';
import { migrate, openDatabase } from './repositories/db.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = openDatabase(config);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`meridian: Node.js ${process.version}`);
  say(`meridian: database ${db.dialect === 'sqlite' ? config.sqliteFile : 'postgres (DATABASE_URL)'}`);
  const warning = localSecretKeyWarning(config);
  if (warning) say(`meridian: ${warning}`);
  await migrate(db, { secrets: new SecretBox(config.secretKeys) });
  const meridian = createApp({ config, db, clock: systemClock });
  const { services, logger } = meridian;
  const deps = { db, clock: systemClock };
  const demo = await ensureDemoTenant(deps, services, config.demoApiKey);
  if (demo.created) say(`meridian: created the demo tenant ${demo.tenantId}`);
  // Printed after the NYC demo's key, which stays the first key of the output.
  let syntheticKey: string | null = null;
  if (config.importDemo) {
    say(
      'meridian: importing the NYC capital projects portfolio (idempotent; skips what is already imported)',
    );
    // A bar on a terminal, plain lines (on stdout, with the rest of start-up) otherwise.
    const progress = progressReporter({ label: '  imported', unit: 'status reports', line: say });
    const report = await importDemoPortfolio(deps, services, demo.tenantId, progress.onProgress).finally(() =>
      progress.stop(),
    );
    say(
      `meridian: ${report.reportsStored} status reports stored, ${report.projectsCreated} projects created, ` +
        `${report.rowsAlreadyImported} already imported, ${report.skipped.length} skipped, ` +
        `${report.milestonesDerived} derived milestones written ` +
        `(the mapping and its counts: npm run cli -- import nyc-capital-projects ` +
        `datasets/nyc-capital-projects-2019-09-01.csv --tenant "${DEMO_TENANT_NAME}")`,
    );
    // The synthetic demo (an engineering firm, docs/agents.md, Demo tenants) is created with the NYC demo, under the same switch.
    const started = Date.now();
    const synthetic = await ensureSyntheticTenant(deps, services, systemClock.now());
    if (synthetic.created) {
      const c = synthetic.counts;
      say(
        `meridian: created the synthetic demo tenant "${SYNTHETIC_TENANT_NAME}" (${c.projects} projects, ${c.people} people, ` +
          `${c.allocations} allocations, ${c.risks} risks, ${c.issues} issues, ${c.milestones} milestones) in ${Date.now() - started} ms`,
      );
      syntheticKey = synthetic.newKey;
    }
  }
  if (demo.newKey) {
    say('');
    say(`  Admin API key of the demo tenant (shown once, store it now):\n\n    ${demo.newKey}\n`);
  } else if (demo.configuredKey) {
    say('meridian: using MERIDIAN_API_KEY as the demo admin key');
  } else {
    say(
      `meridian: the demo admin key was printed on first start; create another with: npm run cli -- keys create --tenant "${DEMO_TENANT_NAME}" --scopes read,write,admin`,
    );
  }
  if (syntheticKey) {
    say(
      `\n  Admin API key of the synthetic demo tenant (shown once, store it now):\n\n    ${syntheticKey}\n`,
    );
  }
  // The job runner (webhook deliveries and agent executions) runs in the API process unless MERIDIAN_WORKER=false
  // (then: npm run worker); it shares the app's job queue, so an enqueue wakes it at once.
  const worker = config.worker
    ? createJobRunner({ services, clock: systemClock, config, logger }).start()
    : null;
  if (worker) say(`meridian: job runner (${worker.kinds.join(', ')}) running in this process`);
  // The periodic sweeps (missed milestones) run wherever the job runner runs; several at once are safe.
  const stopSweeps = config.worker ? startSweeps(services, logger) : null;
  const server = createServer(meridian).listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    say(`meridian: listening on http://${config.host}:${port}${config.basePath}`);
    logger.info({ port }, 'listening');
  });
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      stopSweeps?.();
      void (worker?.stop() ?? Promise.resolve())
        .then(() => db.close())
        // The access log is buffered (server/logging.ts): write out what is left before leaving.
        .then(() => new Promise<void>((resolve) => logger.flush(() => resolve())))
        .then(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(`meridian: failed to start: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
