/**
 * Meridian's command line: `npm run cli -- <command>`.
 *
 *   migrate                                         apply pending migrations
 *   tenants create --name <name> [--plan TEAM] [--currency USD] [--timezone UTC] [--rate-limit 1000]
 *   keys create --tenant <id|name> --scopes read,write [--name <label>] [--expires-at <RFC 3339>]
 *   users create --tenant <id|name> --email <email> --role owner|admin|member|viewer [--name <name>]
 *   users reset --email <email>                     print a reset link (new password, second factor off)
 *   users setup-link --tenant <id|name>             print a new setup link for the tenant's first owner
 *   import nyc-capital-projects <file> --tenant <id|name>
 *   secrets rotate                                  re-encrypt every stored secret under MERIDIAN_SECRET_KEY
 *
 * Uses the same configuration as the server (DATABASE_URL or MERIDIAN_SQLITE_FILE, MERIDIAN_SECRET_KEY).
 */
import fs from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { systemClock } from './clock.js';
import { loadConfig, localSecretKeyWarning, publicBaseOf } from './config.js';
import { SecretBox } from './crypto/secret-box.js';
import { importNycCapitalProjects } from './import/nyc/importer.js';
import { formatImportReport } from './import/nyc/report.js';
import { progressReporter } from './progress.js';
import { migrate, openDatabase } from './repositories/db.js';
import type { ApiKeyScope, TenantPlan, UserRole } from './repositories/tenants.js';
import { isRole, linkUrl, ROLES } from './services/accounts/index.js';
import { systemActor } from './services/context.js';
import { buildServices } from './services/index.js';
import { INSTANT_RULE, isInstant } from './services/instants.js';

const SCOPES: ApiKeyScope[] = ['read', 'write', 'admin'];
const PLANS: TenantPlan[] = ['FREE', 'TEAM', 'ENTERPRISE'];

function parseScopes(value: string): ApiKeyScope[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !(SCOPES as string[]).includes(s));
  if (scopes.length === 0 || bad.length > 0)
    throw new InvalidArgumentError(`scopes must be a list of ${SCOPES.join(', ')}`);
  return scopes as ApiKeyScope[];
}

function parsePlan(value: string): TenantPlan {
  if (!(PLANS as string[]).includes(value))
    throw new InvalidArgumentError(`plan must be one of ${PLANS.join(', ')}`);
  return value as TenantPlan;
}

function parseRole(value: string): UserRole {
  if (!isRole(value)) throw new InvalidArgumentError(`role must be one of ${ROLES.join(', ')}`);
  return value;
}

function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

async function withServices<T>(work: (ctx: ReturnType<typeof open>) => Promise<T>): Promise<T> {
  const ctx = open();
  try {
    await migrate(ctx.db, { secrets: new SecretBox(ctx.config.secretKeys) });
    return await work(ctx);
  } finally {
    await ctx.db.close();
  }
}

function open() {
  const config = loadConfig();
  const db = openDatabase(config);
  const deps = { db, clock: systemClock };
  return { config, db, deps, services: buildServices(deps, config) };
}

const program = new Command().name('meridian').description('Meridian administration commands');

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(() => withServices(async () => console.log('migrations applied')));

const tenants = program.command('tenants').description('manage tenants');
tenants
  .command('create')
  .description('create a tenant and its owner user; prints the tenant id')
  .requiredOption('--name <name>', 'tenant name')
  .option('--plan <plan>', 'FREE, TEAM or ENTERPRISE', parsePlan, 'FREE')
  .option('--currency <code>', 'ISO 4217 currency of money fields', 'USD')
  .option('--timezone <tz>', 'IANA time zone', 'UTC')
  .option('--rate-limit <n>', 'requests per minute (override of the default)', parsePositiveInt)
  .action(
    (opts: { name: string; plan: TenantPlan; currency: string; timezone: string; rateLimit?: number }) =>
      withServices(async ({ services }) => {
        const { tenant, user } = await services.tenants.create({
          name: opts.name,
          plan: opts.plan,
          currency: opts.currency.toUpperCase(),
          timezone: opts.timezone,
          rateLimitPerMinute: opts.rateLimit ?? null,
        });
        console.log(
          JSON.stringify({ tenantId: tenant.id, name: tenant.name, plan: tenant.plan, ownerUserId: user.id }),
        );
      }),
  );

const keys = program.command('keys').description('manage API keys');
keys
  .command('create')
  .description('create an API key; the key is printed once and cannot be shown again')
  .requiredOption('--tenant <idOrName>', 'tenant id or exact name')
  .requiredOption('--scopes <list>', 'comma-separated: read, write, admin', parseScopes)
  .option('--name <label>', 'label shown in key lists', 'CLI key')
  .option('--expires-at <instant>', 'RFC 3339 expiry instant')
  .action((opts: { tenant: string; scopes: ApiKeyScope[]; name: string; expiresAt?: string }) =>
    withServices(async ({ services }) => {
      if (opts.expiresAt !== undefined && !isInstant(opts.expiresAt)) {
        throw new InvalidArgumentError(`--expires-at ${INSTANT_RULE}`);
      }
      const tenant = await services.tenants.resolve(opts.tenant);
      const { apiKey, key } = await services.apiKeys.create(systemActor(tenant.id), {
        name: opts.name,
        scopes: opts.scopes,
        expiresAt: opts.expiresAt ? new Date(opts.expiresAt).toISOString() : null,
      });
      console.log(
        JSON.stringify({ id: apiKey.id, prefix: apiKey.prefix, scopes: apiKey.scopes, tenantId: tenant.id }),
      );
      console.log(`API key (shown once, store it now): ${key}`);
    }),
  );

// People (docs/accounts.md, "First run"): each command prints a one-time link (24 h) for the person to open.
const users = program.command('users').description('manage the people who sign in to the console');
users
  .command('create')
  .description('create an account (or find it in that tenant) and print a one-time setup link')
  .requiredOption('--tenant <idOrName>', 'tenant id or exact name')
  .requiredOption('--email <email>', 'the email the person signs in with')
  .requiredOption('--role <role>', ROLES.join(', '), parseRole)
  .option('--name <name>', 'display name (default: the part of the email before the @)')
  .action((opts: { tenant: string; email: string; role: UserRole; name?: string }) =>
    withServices(async ({ config, services }) => {
      const tenant = await services.tenants.resolve(opts.tenant);
      const actor = systemActor(tenant.id);
      const { account, created } = await services.accounts.findOrCreate(actor, {
        tenantId: tenant.id,
        email: opts.email,
        role: opts.role,
        ...(opts.name ? { name: opts.name } : {}),
      });
      if (account.passwordHash !== null)
        throw new Error(`${account.email} already has a password: use users reset --email ${account.email}`);
      const { token } = await services.accounts.issueLink(actor, account.id, 'setup');
      console.log(JSON.stringify({ userId: account.id, email: account.email, role: account.role, created }));
      console.log(`Setup link (valid 24 h, works once): ${linkUrl(publicBaseOf(config), 'setup', token)}`);
    }),
  );
users
  .command('reset')
  .description('print a one-time reset link: a new password, the second factor off, every session ended')
  .requiredOption('--email <email>', 'the email the person signs in with')
  .action((opts: { email: string }) =>
    withServices(async ({ config, services }) => {
      const account = await services.accounts.findByEmail(opts.email);
      if (!account) throw new Error(`no account has the email ${opts.email}`);
      const { token } = await services.accounts.issueLink(systemActor(account.tenantId), account.id, 'reset');
      console.log(`Reset link (valid 24 h, works once): ${linkUrl(publicBaseOf(config), 'reset', token)}`);
    }),
  );
users
  .command('setup-link')
  .description(
    "print a new one-time setup link for the tenant's first owner (the demo owner has no email yet)",
  )
  .requiredOption('--tenant <idOrName>', 'tenant id or exact name')
  .action((opts: { tenant: string }) =>
    withServices(async ({ config, services }) => {
      const tenant = await services.tenants.resolve(opts.tenant);
      const owner = await services.accounts.firstOwner(tenant.id);
      if (!owner) throw new Error(`tenant ${tenant.name} has no owner`);
      if (owner.passwordHash !== null)
        throw new Error(`the owner already has a password: use users reset --email ${owner.email}`);
      const { token } = await services.accounts.issueLink(systemActor(tenant.id), owner.id, 'setup');
      console.log(`Setup link (valid 24 h, works once): ${linkUrl(publicBaseOf(config), 'setup', token)}`);
    }),
  );

const secrets = program.command('secrets').description('manage secrets encrypted at rest');
secrets
  .command('rotate')
  .description(
    're-encrypt every stored secret under MERIDIAN_SECRET_KEY (values under MERIDIAN_SECRET_KEY_PREVIOUS or ' +
      'stored unencrypted included); afterwards the previous key may be dropped',
  )
  .action(() =>
    withServices(async ({ config, services }) => {
      const warning = localSecretKeyWarning(config);
      if (warning) console.error(warning);
      const report = await services.webhooks.resealSecrets();
      const sso = await services.ssoSettings.resealSecrets();
      console.log(
        JSON.stringify({
          webhookEndpoints: report.endpoints,
          reencrypted: report.resealed,
          ssoConfigurations: sso.configurations,
          ssoReencrypted: sso.resealed,
        }),
      );
    }),
  );

program
  .command('import')
  .description('import a dataset; only nyc-capital-projects exists')
  .argument('<source>', 'nyc-capital-projects')
  .argument('<file>', 'CSV file')
  .requiredOption('--tenant <idOrName>', 'tenant id or exact name')
  .option('--json', 'print the whole report as JSON')
  .action((source: string, file: string, opts: { tenant: string; json?: boolean }) =>
    withServices(async ({ deps, services }) => {
      if (source !== 'nyc-capital-projects') throw new InvalidArgumentError(`unknown source "${source}"`);
      const tenant = await services.tenants.resolve(opts.tenant);
      // A bar when stdout is a terminal; otherwise a plain line every 250 rows on stderr (stdout keeps the report).
      const progress = progressReporter({ label: 'imported', unit: 'status reports' });
      const report = await importNycCapitalProjects(
        deps,
        services,
        systemActor(tenant.id),
        fs.readFileSync(file),
        { fileName: file, onProgress: progress.onProgress },
      ).finally(() => progress.stop());
      if (opts.json) {
        console.log(JSON.stringify(report, null, 2));
        return;
      }
      console.log(formatImportReport(report));
    }),
  );

program.parseAsync().catch((err: unknown) => {
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
