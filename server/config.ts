/**
 * Configuration: the only module that reads `process.env` (server/config-integrations.ts reads the env it is handed).
 *
 * Every variable is listed in the README's configuration table; keep the two in step.
 */

import fs from 'node:fs';
import path from 'node:path';
import { type LlmConfig, llmOf, type MailConfig, mailOf } from './config-integrations.js';
import { bool, int } from './config-values.js';
import { newSecretKey, parseSecretKey, type SecretKeys } from './crypto/secret-box.js';

export type { LlmConfig, MailConfig } from './config-integrations.js';

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
  /** Requests per tenant in any 60 s when the tenant has no override (env `MERIDIAN_RATE_LIMIT`, default 1000; the seed's limit). */
  defaultRateLimitPerMinute: number;
  /**
   * Express's `trust proxy` (env `MERIDIAN_TRUST_PROXY`: `true`, a hop count, or a list of addresses/subnets;
   * default false). Set it behind a load balancer so client addresses are the clients', not the balancer's.
   */
  trustProxy: boolean | number | string;
  /**
   * Failed authentications allowed per client address in any 60 s (env `MERIDIAN_AUTH_FAILURE_LIMIT`, default 30);
   * above it, requests without a valid key get 429 (a valid key is never refused by it).
   */
  authFailuresPerMinute: number;
  /** Admin key of the demo tenant created on first start (env `MERIDIAN_API_KEY`); null → a new key is generated and printed once. */
  demoApiKey: string | null;
  /**
   * The one switch of everything synthetic (docs/deploy.md, "Production"): create the demo tenant(s), their keys and
   * their data at start. Env `MERIDIAN_DEMO`; default on, off when NODE_ENV=production.
   */
  demo: boolean;
  /** Import the bundled NYC portfolio into the demo tenant and create the synthetic demo tenant at start (env `MERIDIAN_IMPORT_DEMO`, default true; only with {@link Config.demo}). */
  importDemo: boolean;
  /**
   * Origins allowed to call the API from a browser (env `MERIDIAN_CORS_ORIGINS`, comma-separated, e.g.
   * `https://app.example.com`; `*` allows any). Empty (the default): CORS is off, no cross-origin headers.
   */
  corsOrigins: string[];
  /**
   * Apply pending migrations when an entry point starts (env `MERIDIAN_MIGRATE_ON_START`; default on, off when
   * NODE_ENV=production, where migrations are their own step: `node dist/migrate.js`, docs/deploy.md "Upgrades").
   */
  migrateOnStart: boolean;
  /**
   * Longest wait on SIGTERM for in-flight requests and jobs to finish before the process exits anyway, in ms (env
   * `MERIDIAN_SHUTDOWN_TIMEOUT_MS`, default 10000).
   */
  shutdownTimeoutMs: number;
  /**
   * Where the API is mounted (`/v1`): its routes, the served spec and every `Location` header are under it; `Link`
   * headers take the request's own origin.
   */
  basePath: '/v1';
  /**
   * Allow webhook URLs on plain http and on loopback, private, link-local, unique-local, CGNAT and metadata
   * addresses (env `MERIDIAN_WEBHOOK_ALLOW_PRIVATE=true`; default false in every mode: private targets are opted
   * into explicitly, never implied by NODE_ENV; docs/webhooks.md, "Events and webhooks").
   */
  webhookAllowPrivate: boolean;
  /**
   * Delay before each delivery attempt, in ms: the first entry is the first attempt (always 0: immediately), the
   * length is the number of attempts (env `MERIDIAN_WEBHOOK_RETRY_SCHEDULE`, comma-separated; default docs/design.md's
   * 0,5000,300000,1800000,7200000,18000000,36000000,36000000).
   */
  webhookRetrySchedule: number[];
  /** Timeout of one delivery attempt in ms (env `MERIDIAN_WEBHOOK_TIMEOUT_MS`, default 15000). */
  webhookTimeoutMs: number;
  /**
   * Run the job runner (webhook deliveries and agent executions) and the periodic sweeps inside the API process
   * (env `MERIDIAN_WORKER`; default on, off when NODE_ENV=test so test servers send and run nothing unless a test
   * starts a runner). `npm run worker` runs them alone.
   */
  worker: boolean;
  /** How often an idle job runner looks for due jobs, in ms (env `MERIDIAN_WORKER_POLL_MS`, default 500). */
  workerPollMs: number;
  /**
   * Lease of an agent execution's claim, in ms (env `MERIDIAN_AGENT_LEASE_MS`, default 60000): the worker extends it
   * every third of it while the run lasts; a worker that dies leaves it to expire, then the run is retried.
   */
  agentLeaseMs: number;
  /**
   * Pause after each stage of an agent run, in ms (env `MERIDIAN_AGENT_STAGE_DELAY_MS`, default 0): for
   * demonstrations of progress and for crash tests that need a run to kill mid-way.
   */
  agentStageDelayMs: number;
  /**
   * The language model that may write Ask answers and the agents' prose (docs/agents.md, "Bring your own model"),
   * or null (the default: the embedded engine only). Set when both `MERIDIAN_LLM_BASE_URL` and `MERIDIAN_LLM_MODEL`
   * are.
   */
  llm: LlmConfig | null;
  /**
   * The keys that encrypt secrets at rest (docs/webhooks.md, "Events and webhooks": "Secrets at rest"): `current`
   * from env `MERIDIAN_SECRET_KEY` (base64 of 32 bytes) and `previous` from `MERIDIAN_SECRET_KEY_PREVIOUS` (still
   * opens values sealed before a key rotation). Without `MERIDIAN_SECRET_KEY`, outside production, the key is read
   * from the local key file {@link Config.localSecretKeyFile}, generated on first use.
   */
  secretKeys: SecretKeys;
  /**
   * The local key file the current key came from (env `MERIDIAN_SECRET_KEY_FILE`, default `./data/secret.key`),
   * or null when `MERIDIAN_SECRET_KEY` is set; the entry points warn while it is in use.
   */
  localSecretKeyFile: string | null;
  /**
   * Outgoing mail (invitations; docs/members.md, "Mail"), or null when `MERIDIAN_SMTP_URL` is unset: then invitation
   * links are only returned by the API, never mailed.
   */
  mail: MailConfig | null;
  /**
   * Accept an OpenID Connect issuer on plain `http` (env `MERIDIAN_SSO_ALLOW_HTTP=true`; default false: issuers
   * are `https` only). For a provider on the same machine in tests and trials (docs/members.md).
   */
  ssoAllowHttp: boolean;
  /**
   * The address people reach this deployment at, e.g. `https://pm.example.com` (env `MERIDIAN_PUBLIC_URL`; no
   * trailing slash), or null: then links printed by `npm start` and the CLI use `http://127.0.0.1:<PORT>`, and the
   * console's requests are checked against the request's own origin (docs/accounts.md, "Cross-site requests").
   * Required in production (docs/deploy.md, "Production").
   */
  publicUrl: string | null;
  /** A console session ends after this long without use, in ms (env `MERIDIAN_SESSION_IDLE_MINUTES`, default 720: 12 h). */
  sessionIdleMs: number;
  /** A console session ends this long after sign-in whatever its use, in ms (env `MERIDIAN_SESSION_MAX_HOURS`, default 336: 14 days). */
  sessionAbsoluteMs: number;
}

/**
 * The base of links people open (setup and reset links, docs/accounts.md "First run"): `MERIDIAN_PUBLIC_URL`, else
 * this server's own address (`http://127.0.0.1:<PORT>` when it listens on every interface).
 */
export function publicBaseOf(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

function publicUrlOf(value: string | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`MERIDIAN_PUBLIC_URL must be an http(s) URL, got "${text}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    throw new ConfigError(
      `MERIDIAN_PUBLIC_URL must be an http(s) URL without query or fragment, got "${text}"`,
    );
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * A configuration the process cannot start with; its message is one line naming the variables, printed without a
 * stack by the entry points.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The settings production cannot run without (docs/deploy.md, "Production"), each named when missing: a database
 * chosen explicitly (`DATABASE_URL`, or `MERIDIAN_SQLITE_FILE` for the embedded file), `MERIDIAN_PUBLIC_URL`, and
 * `MERIDIAN_SECRET_KEY` (or an explicitly named `MERIDIAN_SECRET_KEY_FILE`).
 */
export function missingProductionSettings(env: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => Boolean(env[name]?.trim());
  const missing: string[] = [];
  if (!set('DATABASE_URL') && !set('MERIDIAN_SQLITE_FILE'))
    missing.push('DATABASE_URL (or MERIDIAN_SQLITE_FILE)');
  if (!set('MERIDIAN_PUBLIC_URL')) missing.push('MERIDIAN_PUBLIC_URL');
  if (!set('MERIDIAN_SECRET_KEY') && !set('MERIDIAN_SECRET_KEY_FILE')) missing.push('MERIDIAN_SECRET_KEY');
  return missing;
}

function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim().replace(/\/+$/, ''))
    .filter((part) => part !== '');
}

/** Reads the key in `file`, or writes a new one there (mode 600) when it does not exist yet. */
function localKey(file: string): Buffer {
  try {
    return parseSecretKey(fs.readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${newSecretKey()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    // Another process (the API and a worker starting together) wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parseSecretKey(fs.readFileSync(file, 'utf8'), file);
}

function secretKeysOf(
  env: NodeJS.ProcessEnv,
  nodeEnv: NodeEnv,
): { secretKeys: SecretKeys; localSecretKeyFile: string | null } {
  const previousText = env.MERIDIAN_SECRET_KEY_PREVIOUS?.trim();
  const previous = previousText ? parseSecretKey(previousText, 'MERIDIAN_SECRET_KEY_PREVIOUS') : null;
  const currentText = env.MERIDIAN_SECRET_KEY?.trim();
  if (currentText)
    return {
      secretKeys: { current: parseSecretKey(currentText, 'MERIDIAN_SECRET_KEY'), previous },
      localSecretKeyFile: null,
    };
  const named = env.MERIDIAN_SECRET_KEY_FILE?.trim();
  if (nodeEnv === 'production' && !named)
    throw new Error(
      'MERIDIAN_SECRET_KEY is required in production: base64 of 32 random bytes (openssl rand -base64 32); it encrypts webhook secrets at rest',
    );
  const file = path.resolve(named || './data/secret.key');
  return { secretKeys: { current: localKey(file), previous }, localSecretKeyFile: file };
}

/**
 * The warning the entry points print while secrets are encrypted under the local key file (development and the
 * quick start), or null when `MERIDIAN_SECRET_KEY` is set.
 */
export function localSecretKeyWarning(config: Pick<Config, 'localSecretKeyFile'>): string | null {
  if (config.localSecretKeyFile === null) return null;
  return (
    `warning: webhook secrets are encrypted under the local key file ${config.localSecretKeyFile} ` +
    '(generated on first start; keep it with the database, never in a backup beside it). ' +
    'Set MERIDIAN_SECRET_KEY (openssl rand -base64 32) in production.'
  );
}

/** docs/design.md's delivery schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

function schedule(name: string, value: string | undefined, fallback: number[]): number[] {
  if (value === undefined || value.trim() === '') return fallback;
  const steps = value.split(',').map((part) => int(name, part.trim(), Number.NaN));
  if (steps.length === 0 || steps.some((n) => Number.isNaN(n)))
    throw new Error(`${name} must be comma-separated non-negative integers, got "${value}"`);
  // Deliveries are queued due at once (in the event's transaction): the first attempt is immediate.
  if (steps[0] !== 0)
    throw new Error(`${name} must start with 0 (the first attempt is immediate), got "${value}"`);
  return steps;
}

function trustProxyOf(value: string | undefined): boolean | number | string {
  const v = value?.trim();
  if (!v || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/**
 * Reads the configuration from an environment (defaults to `process.env`).
 * Outside production without `MERIDIAN_SECRET_KEY`, reads (and on first use writes) the local key file.
 * @throws Error when a numeric variable is not a non-negative integer, NODE_ENV is unknown, only one of
 *   MERIDIAN_LLM_BASE_URL and MERIDIAN_LLM_MODEL is set (or the URL is not http(s)), a secret key is not base64 of
 *   32 bytes, MERIDIAN_SECRET_KEY is missing in production, or MERIDIAN_PUBLIC_URL is not an http(s) URL.
 * @throws ConfigError when NODE_ENV is unknown, or production lacks a setting it needs (all of them named in one line).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = (env.NODE_ENV ?? 'development') as NodeEnv;
  if (!['development', 'test', 'production'].includes(nodeEnv)) {
    throw new ConfigError(`NODE_ENV must be development, test or production, got "${nodeEnv}"`);
  }
  const production = nodeEnv === 'production';
  if (production) {
    const missing = missingProductionSettings(env);
    if (missing.length > 0)
      throw new ConfigError(
        `production (NODE_ENV=production) needs ${missing.join(', ')}: see docs/deploy.md, "Production"`,
      );
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
    trustProxy: trustProxyOf(env.MERIDIAN_TRUST_PROXY),
    authFailuresPerMinute: int('MERIDIAN_AUTH_FAILURE_LIMIT', env.MERIDIAN_AUTH_FAILURE_LIMIT, 30),
    demoApiKey: env.MERIDIAN_API_KEY?.trim() || null,
    demo: bool(env.MERIDIAN_DEMO, !production),
    importDemo: bool(env.MERIDIAN_IMPORT_DEMO, true),
    corsOrigins: listOf(env.MERIDIAN_CORS_ORIGINS),
    migrateOnStart: bool(env.MERIDIAN_MIGRATE_ON_START, !production),
    shutdownTimeoutMs: int('MERIDIAN_SHUTDOWN_TIMEOUT_MS', env.MERIDIAN_SHUTDOWN_TIMEOUT_MS, 10_000),
    basePath: '/v1',
    webhookAllowPrivate: bool(env.MERIDIAN_WEBHOOK_ALLOW_PRIVATE, false),
    webhookRetrySchedule: schedule(
      'MERIDIAN_WEBHOOK_RETRY_SCHEDULE',
      env.MERIDIAN_WEBHOOK_RETRY_SCHEDULE,
      DEFAULT_RETRY_SCHEDULE_MS,
    ),
    webhookTimeoutMs: int('MERIDIAN_WEBHOOK_TIMEOUT_MS', env.MERIDIAN_WEBHOOK_TIMEOUT_MS, 15_000),
    worker: bool(env.MERIDIAN_WORKER, nodeEnv !== 'test'),
    workerPollMs: int('MERIDIAN_WORKER_POLL_MS', env.MERIDIAN_WORKER_POLL_MS, 500),
    agentLeaseMs: Math.max(300, int('MERIDIAN_AGENT_LEASE_MS', env.MERIDIAN_AGENT_LEASE_MS, 60_000)),
    agentStageDelayMs: int('MERIDIAN_AGENT_STAGE_DELAY_MS', env.MERIDIAN_AGENT_STAGE_DELAY_MS, 0),
    llm: llmOf(env),
    ...secretKeysOf(env, nodeEnv),
    mail: mailOf(env),
    ssoAllowHttp: bool(env.MERIDIAN_SSO_ALLOW_HTTP, false),
    publicUrl: publicUrlOf(env.MERIDIAN_PUBLIC_URL),
    sessionIdleMs:
      Math.max(1, int('MERIDIAN_SESSION_IDLE_MINUTES', env.MERIDIAN_SESSION_IDLE_MINUTES, 720)) * 60_000,
    sessionAbsoluteMs:
      Math.max(1, int('MERIDIAN_SESSION_MAX_HOURS', env.MERIDIAN_SESSION_MAX_HOURS, 336)) * 3_600_000,
  };
}
