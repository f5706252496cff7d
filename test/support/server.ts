/**
 * Test harness: the real server, in-process on 127.0.0.1 port 0, over a real database: a fresh SQLite file, or,
 * with MERIDIAN_TEST_DB=postgres, a fresh schema in the Postgres server named by TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import type { Logger } from 'pino';
import { createApp, createServer, type MeridianApp } from '../../server/app.js';
import { type Clock, systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { type Database, migrate, openDatabase } from '../../server/repositories/db.js';
import type { ApiKeyScope } from '../../server/repositories/tenants.js';
import { systemActor } from '../../server/services/context.js';

/** Which database this run uses: `sqlite` (default) or `postgres` (MERIDIAN_TEST_DB=postgres). */
export const TEST_DB: 'sqlite' | 'postgres' =
  process.env.MERIDIAN_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/** A tenant made for one test, with a key per scope set. */
export interface TestTenant {
  tenantId: string;
  userId: string;
  keys: { read: string; write: string; admin: string };
}

/** A running test server. */
export interface TestServer {
  baseUrl: string;
  db: Database;
  meridian: MeridianApp;
  /** Creates a tenant with read-only, read+write and admin keys (and optionally its own rate limit). */
  createTenant(name?: string, options?: { rateLimitPerMinute?: number }): Promise<TestTenant>;
  close(): Promise<void>;
}

/** Where a test database lives, as `openDatabase` takes it (a child process can open the same one). */
export interface TestConnection {
  databaseUrl: string | null;
  sqliteFile: string;
  pgSchema?: string;
}

/**
 * Opens a fresh database for this run (SQLite temp file or a new Postgres schema), migrated unless `migrated` is
 * false (a migration test runs them itself).
 */
export async function openTestDatabase(
  kind: 'sqlite' | 'postgres' = TEST_DB,
  options: { migrated?: boolean } = {},
): Promise<{ db: Database; connection: TestConnection; dispose: () => Promise<void> }> {
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('MERIDIAN_TEST_DB=postgres needs TEST_DATABASE_URL');
    const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    await admin.raw(`CREATE SCHEMA "${schema}"`);
    const connection = { databaseUrl: url, sqliteFile: '', pgSchema: schema };
    const db = openDatabase(connection);
    if (options.migrated !== false) await migrate(db);
    return {
      db,
      connection,
      dispose: async () => {
        await db.close();
        await admin.raw(`DROP SCHEMA "${schema}" CASCADE`);
        await admin.destroy();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-test-'));
  const connection = { databaseUrl: null, sqliteFile: path.join(dir, 'test.sqlite') };
  const db = openDatabase(connection);
  if (options.migrated !== false) await migrate(db);
  return {
    db,
    connection,
    dispose: async () => {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the real app on 127.0.0.1:0 over a fresh database, through `createServer` as `npm start` does. Response
 * validation is on (NODE_ENV=test). `logger` replaces the configured one (a test that reads the access log).
 */
export async function startTestServer(
  options: { clock?: Clock; env?: NodeJS.ProcessEnv; db?: 'sqlite' | 'postgres'; logger?: Logger } = {},
): Promise<TestServer> {
  const { db, dispose } = await openTestDatabase(options.db);
  // Tests send webhooks to receivers on 127.0.0.1: private targets are allowed explicitly, as they must be.
  const config = loadConfig({ NODE_ENV: 'test', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true', ...options.env });
  const meridian = createApp({
    config,
    db,
    clock: options.clock ?? systemClock,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const s = createServer(meridian).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const { tenants, apiKeys } = meridian.services;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    db,
    meridian,
    async createTenant(name = `Tenant ${randomUUID().slice(0, 8)}`, options = {}) {
      const { tenant, user } = await tenants.create({
        name,
        userName: 'Test user',
        // Sign-in emails are unique per deployment (docs/accounts.md, "Accounts").
        userEmail: `pm-${randomUUID().slice(0, 8)}@example.com`,
        rateLimitPerMinute: options.rateLimitPerMinute ?? null,
      });
      const actor = systemActor(tenant.id);
      const key = async (scopes: ApiKeyScope[]) =>
        (await apiKeys.create(actor, { name: scopes.join('+'), scopes })).key;
      return {
        tenantId: tenant.id,
        userId: user.id,
        keys: {
          read: await key(['read']),
          write: await key(['read', 'write']),
          admin: await key(['read', 'write', 'admin']),
        },
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dispose();
    },
  };
}
