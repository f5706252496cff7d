/**
 * Configuration: the only module that reads `process.env`.
 *
 * Every variable is listed in the README's configuration table; keep the two in step.
 */
import path from 'node:path';

/** Runtime environment; decides response validation and log format. */
export type NodeEnv = 'development' | 'test' | 'production';

/** Resolved service configuration. */
export interface Config {
  /** `development` | `test` | `production` (env `NODE_ENV`, default `development`). */
  env: NodeEnv;
  /** TCP port to listen on (env `PORT`, default 8080). 0 picks a free port. */
  port: number;
  /** Interface to bind (env `HOST`, default `127.0.0.1`). */
  host: string;
  /** `postgres://…` selects Postgres (env `DATABASE_URL`); null means the embedded SQLite file. */
  databaseUrl: string | null;
  /** SQLite file used when `databaseUrl` is null (env `MERIDIAN_SQLITE_FILE`, default `./data/meridian.sqlite`). */
  sqliteFile: string;
  /** Validate responses against the spec (on in development and test, off in production; env `MERIDIAN_VALIDATE_RESPONSES`). */
  validateResponses: boolean;
  /** pino log level (env `LOG_LEVEL`, default `info`, `silent` in test). */
  logLevel: string;
  /** Requests per minute per tenant when the tenant has no override (env `MERIDIAN_RATE_LIMIT`, default 1000; the seed's limit). */
  defaultRateLimitPerMinute: number;
  /** Failed authentication attempts allowed per client address per minute (env `MERIDIAN_AUTH_FAILURE_LIMIT`, default 30). */
  authFailuresPerMinute: number;
  /** Admin key of the demo tenant created on first start (env `MERIDIAN_API_KEY`); null → a new key is generated and printed once. */
  demoApiKey: string | null;
  /** Import the bundled NYC portfolio into the demo tenant on first start (env `MERIDIAN_IMPORT_DEMO`, default true). */
  importDemo: boolean;
  /** Public base URL used in `Location` and `Link` headers is derived from the request; this is the `/v1` mount path. */
  basePath: '/v1';
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/**
 * Reads the configuration from an environment (defaults to `process.env`).
 * @throws Error when a numeric variable is not a non-negative integer or NODE_ENV is unknown.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = (env.NODE_ENV ?? 'development') as NodeEnv;
  if (!['development', 'test', 'production'].includes(nodeEnv)) {
    throw new Error(`NODE_ENV must be development, test or production, got "${nodeEnv}"`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() ? env.DATABASE_URL.trim() : null;
  return {
    env: nodeEnv,
    port: int('PORT', env.PORT, 8080),
    host: env.HOST?.trim() || '127.0.0.1',
    databaseUrl,
    sqliteFile: path.resolve(env.MERIDIAN_SQLITE_FILE?.trim() || './data/meridian.sqlite'),
    validateResponses: bool(env.MERIDIAN_VALIDATE_RESPONSES, nodeEnv !== 'production'),
    logLevel: env.LOG_LEVEL?.trim() || (nodeEnv === 'test' ? 'silent' : 'info'),
    defaultRateLimitPerMinute: int('MERIDIAN_RATE_LIMIT', env.MERIDIAN_RATE_LIMIT, 1000),
    authFailuresPerMinute: int('MERIDIAN_AUTH_FAILURE_LIMIT', env.MERIDIAN_AUTH_FAILURE_LIMIT, 30),
    demoApiKey: env.MERIDIAN_API_KEY?.trim() || null,
    importDemo: bool(env.MERIDIAN_IMPORT_DEMO, true),
    basePath: '/v1',
  };
}
