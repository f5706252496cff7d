/**
 * What the entry points share about starting and stopping (docs/deploy.md, "Operations"): the port checked before
 * any slow start-up work, start-up failures the operator can fix reported as one line, and a bounded, draining
 * shutdown on SIGTERM/SIGINT.
 */
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { Logger } from 'pino';
import { type Config, ConfigError } from './config.js';
import { SecretBox } from './crypto/secret-box.js';
import { type Database, migrate, pendingMigrations } from './repositories/db.js';

/** The port is taken by another process (EADDRINUSE) or not ours to bind (EACCES). */
export class PortUnavailableError extends Error {
  override readonly name = 'PortUnavailableError';
}

function portError(err: NodeJS.ErrnoException, port: number, host: string): Error {
  if (err.code === 'EADDRINUSE')
    return new PortUnavailableError(
      `port ${port} on ${host} is already in use (EADDRINUSE): stop what listens there or set PORT to another port`,
    );
  if (err.code === 'EACCES')
    return new PortUnavailableError(
      `port ${port} on ${host} may not be bound by this user (EACCES): set PORT`,
    );
  return err;
}

/**
 * Binds `port` on `host` for a moment and lets it go, so a busy port is reported before migrations and the demo
 * import run. Port 0 (any free port) is not checked. @throws PortUnavailableError when the port cannot be bound.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(portError(err, port, host)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Listens on `port`/`host`, rejecting with the one-line {@link PortUnavailableError} on a busy port. */
export function listen(server: NetServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => reject(portError(err, port, host));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/**
 * The line an entry point prints when it cannot start: the message alone for what the operator fixes (a missing
 * or invalid setting, a busy port), the stack for anything else.
 */
export function startupFailure(err: unknown): string {
  if (err instanceof ConfigError || err instanceof PortUnavailableError) return err.message;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/**
 * Applies pending migrations, or (MERIDIAN_MIGRATE_ON_START=false, production's default) checks that none is
 * pending. @throws ConfigError naming the first pending migration and the command that applies it.
 */
export async function migrateOrCheck(db: Database, config: Config): Promise<void> {
  if (config.migrateOnStart) {
    await migrate(db, { secrets: new SecretBox(config.secretKeys) });
    return;
  }
  const pending = await pendingMigrations(db);
  if (pending.length > 0)
    throw new ConfigError(
      `${pending.length} migration(s) pending (first: ${pending[0]}): run node dist/migrate.js (npm run migrate) first, or set MERIDIAN_MIGRATE_ON_START=true`,
    );
}

/** What a shutdown stops, in order. */
export interface ShutdownSteps {
  /** Stops accepting connections and resolves when the requests in flight are answered. */
  closeServer?: () => Promise<void>;
  /** Force-closes the remaining connections (called when the bound is reached). */
  abortConnections?: () => void;
  /** Stops claiming jobs and resolves when the jobs in flight end. */
  stopJobs?: () => Promise<void>;
  /** Closes the database pool. */
  closeDatabase: () => Promise<void>;
}

/**
 * On SIGTERM or SIGINT: stop accepting requests and jobs, wait for those in flight (at most `timeoutMs`, then
 * the remaining connections are closed), close the database, flush the log and exit (0 when everything drained in
 * time, 1 otherwise). A second signal exits at once.
 */
export function drainOnSignals(steps: ShutdownSteps, logger: Logger, timeoutMs: number): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    const started = Date.now();
    logger.info({ signal, timeoutMs }, 'shutting down: draining requests and jobs');
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const drained = Promise.all([steps.closeServer?.(), steps.stopJobs?.()]).then(() => 'drained' as const);
    const outcome = await Promise.race([drained, bound]);
    clearTimeout(timer);
    if (outcome === 'timeout') steps.abortConnections?.();
    await steps.closeDatabase().catch((err: unknown) => logger.error({ err }, 'closing the database failed'));
    logger.info({ outcome, ms: Date.now() - started }, 'stopped');
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    process.exit(outcome === 'drained' ? 0 : 1);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
