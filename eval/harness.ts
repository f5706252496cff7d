/**
 * The eval's world: a fresh database (a SQLite file, or a throwaway schema of the Postgres server named by
 * `DATABASE_URL`), the real app listening on 127.0.0.1 with a fixed clock, and three tenants: the NYC demo
 * portfolio (imported as `npm start` imports it), the fixture PMO and its twin (eval/fixture.ts, created through
 * the API), and the synthetic engineering firm (server/demo/, as `npm start` creates it).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { createApp } from '../server/app.js';
import { importDemoPortfolio } from '../server/bootstrap.js';
import { ManualClock } from '../server/clock.js';
import { type LlmConfig, loadConfig } from '../server/config.js';
import { ensureSyntheticTenant } from '../server/demo/synthetic.js';
import { type Database, migrate, openDatabase } from '../server/repositories/db.js';
import { systemActor } from '../server/services/context.js';
import type { Services } from '../server/services/index.js';
import { createFixture, createTwin } from './fixture.js';

/** The eval's today (the fixture's dates are set around it): missed milestones and conflicts count from it. */
export const EVAL_NOW = '2026-05-15T12:00:00.000Z';

/** A tenant of the eval: its id and a read-only key (what Ask needs) and a read+write key. */
export interface EvalTenant {
  id: string;
  readKey: string;
  writeKey: string;
}

/** The running world. */
export interface EvalWorld {
  baseUrl: string;
  db: Database;
  /** The app's services (the tests look behind the API: the evidence an answer was written from). */
  services: Services;
  tenants: { nyc: EvalTenant; fixture: EvalTenant; twin: EvalTenant; synthetic: EvalTenant };
  close(): Promise<void>;
}

async function openEvalDatabase(
  databaseUrl: string | undefined,
): Promise<{ db: Database; dispose(): Promise<void> }> {
  if (databaseUrl) {
    const schema = `eval_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const admin = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
    await admin.raw(`CREATE SCHEMA "${schema}"`);
    const db = openDatabase({ databaseUrl, sqliteFile: '', pgSchema: schema });
    return {
      db,
      async dispose() {
        await db.close();
        await admin.raw(`DROP SCHEMA "${schema}" CASCADE`);
        await admin.destroy();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-eval-'));
  const db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'eval.sqlite') });
  return {
    db,
    async dispose() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Builds the world. `databaseUrl` (a `postgres://` URL) selects Postgres; otherwise a temporary SQLite file.
 * @param log progress lines (the NYC import takes a few seconds).
 */
export async function startEvalWorld(
  options: {
    databaseUrl?: string | undefined;
    log?: (line: string) => void;
    /** Validate every response against the spec (default true: the eval checks the contract too; the bench turns it off, as production does). */
    validateResponses?: boolean;
    /** A language model to answer with (`npm run eval -- --engine llm`); default none, the embedded engine. */
    llm?: LlmConfig | null;
  } = {},
): Promise<EvalWorld> {
  const log = options.log ?? (() => undefined);
  const { db, dispose } = await openEvalDatabase(options.databaseUrl);
  await migrate(db);
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      MERIDIAN_RATE_LIMIT: '1000000',
      MERIDIAN_VALIDATE_RESPONSES: options.validateResponses === false ? 'false' : 'true',
    }),
    llm: options.llm ?? null,
  };
  const clock = new ManualClock(EVAL_NOW);
  const meridian = createApp({ config, db, clock });
  const server: Server = await new Promise((resolve) => {
    const s = meridian.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const { tenants, apiKeys } = meridian.services;
  const tenant = async (name: string, currency = 'USD', timezone = 'UTC'): Promise<EvalTenant> => {
    const created = await tenants.create({ name, userName: 'Eval', currency, timezone });
    const actor = systemActor(created.tenant.id);
    return {
      id: created.tenant.id,
      readKey: (await apiKeys.create(actor, { name: 'eval read', scopes: ['read'] })).key,
      writeKey: (await apiKeys.create(actor, { name: 'eval write', scopes: ['read', 'write'] })).key,
    };
  };
  const nyc = await tenant('NYC Capital Projects (eval)', 'USD', 'America/New_York');
  log('importing the NYC portfolio…');
  await importDemoPortfolio({ db, clock }, meridian.services, nyc.id, () => undefined);
  const fixture = await tenant('Harbor City PMO (eval fixture)');
  await createFixture(baseUrl, fixture.writeKey);
  const twin = await tenant('Twin Harbor PMO (eval twin)');
  await createTwin(baseUrl, twin.writeKey);
  // The synthetic demo tenant as `npm start` creates it, anchored on the eval's today (server/demo/).
  const made = await ensureSyntheticTenant({ db, clock }, meridian.services, clock.now());
  const madeActor = systemActor(made.tenantId);
  const synthetic: EvalTenant = {
    id: made.tenantId,
    readKey: (await apiKeys.create(madeActor, { name: 'eval read', scopes: ['read'] })).key,
    writeKey: made.newKey ?? '',
  };
  // Postgres plans from table statistics, which autovacuum gathers a minute or so after a bulk load: gather them
  // now, as a deployment that has been running would have them.
  if (db.dialect === 'postgres') await db.knex.raw('ANALYZE');
  log('world ready');
  return {
    baseUrl,
    db,
    services: meridian.services,
    tenants: { nyc, fixture, twin, synthetic },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dispose();
    },
  };
}
