/**
 * A child process for the import crash test (test/integration/import-crash.test.ts): runs the real NYC import into an
 * existing database with the checkpoint store injected, and SIGKILLs itself inside the checkpoint write of the
 * `MERIDIAN_CRASH_AT`-th row — after that row's report is stored, before its transaction commits. Without
 * `MERIDIAN_CRASH_AT` it runs the import to the end and prints its report as JSON.
 *
 * Env: MERIDIAN_TEST_CONNECTION (JSON of `openDatabase`'s options), MERIDIAN_TENANT_ID, MERIDIAN_CRASH_AT.
 */
import fs from 'node:fs';
import { NYC_DATASET } from '../../server/bootstrap.js';
import { systemClock } from '../../server/clock.js';
import { type CheckpointStore, checkpointTable } from '../../server/import/nyc/checkpoints.js';
import { importNycCapitalProjects } from '../../server/import/nyc/importer.js';
import { openDatabase } from '../../server/repositories/db.js';
import { systemActor } from '../../server/services/context.js';
import { buildServices } from '../../server/services/index.js';

const db = openDatabase(JSON.parse(process.env.MERIDIAN_TEST_CONNECTION as string));
const crashAt = Number(process.env.MERIDIAN_CRASH_AT ?? 0);
let writes = 0;
const checkpoints: CheckpointStore = {
  get: checkpointTable.get,
  async set(trx, ...rest) {
    writes++;
    if (writes === crashAt) {
      process.stdout.write(`killing myself in checkpoint write ${writes}\n`);
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => undefined);
    }
    return checkpointTable.set(trx, ...rest);
  },
};
const deps = { db, clock: systemClock };
const services = buildServices(deps, { defaultRateLimitPerMinute: 1000 });
const report = await importNycCapitalProjects(
  deps,
  services,
  systemActor(process.env.MERIDIAN_TENANT_ID as string),
  fs.readFileSync(NYC_DATASET),
  { fileName: NYC_DATASET, checkpoints },
);
process.stdout.write(
  `${JSON.stringify({ reportsStored: report.reportsStored, rowsAlreadyImported: report.rowsAlreadyImported })}\n`,
);
await db.close();
