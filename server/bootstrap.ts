/**
 * The demo set-up of `npm start`: the demo tenant, its admin key, its owner's setup link and the NYC portfolio. {@link startDemo} is the one
 * place demo data is created, behind the one switch `config.demo` (docs/deploy.md, "Production": off in
 * production, so a deployment never gets a synthetic tenant or a printed key).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, publicBaseOf } from './config.js';
import { ensureSyntheticTenant, SYNTHETIC_TENANT_NAME } from './demo/synthetic.js';
import { NYC_SOURCE } from './import/nyc/checkpoints.js';
import { type ImportReport, importNycCapitalProjects } from './import/nyc/importer.js';
import { NYC_IMPORT_VERSION } from './import/nyc/version.js';
import { progressReporter } from './progress.js';
import { getImportFingerprint, setImportFingerprint } from './repositories/import-fingerprints.js';
import { findApiKeyByHash, findTenantsByName } from './repositories/tenants.js';
import { linkUrl } from './services/accounts/index.js';
import type { BaseDeps } from './services/context.js';
import { systemActor } from './services/context.js';
import { hashApiKey } from './services/identity/index.js';
import type { Services } from './services/index.js';

/** Name of the tenant `npm start` creates and fills with the NYC portfolio. */
export const DEMO_TENANT_NAME = 'NYC Capital Projects (demo)';

/** The bundled dataset (copied from shared/data with its provenance in datasets/README.md). */
export const NYC_DATASET = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'datasets',
  'nyc-capital-projects-2019-09-01.csv',
);

/** What {@link ensureDemoTenant} did. */
export interface DemoSetup {
  tenantId: string;
  created: boolean;
  /** The key value when this call created it from scratch (print it once), else null. */
  newKey: string | null;
  /** True when `MERIDIAN_API_KEY` was given and is now a key of the demo tenant. */
  configuredKey: boolean;
  /**
   * The token of the owner's one-time setup link when this call created the tenant (print the link once:
   * docs/accounts.md, "First run"), else null.
   */
  setupToken: string | null;
}

/**
 * Creates the demo tenant and an admin key on first run. With `apiKey` given (env `MERIDIAN_API_KEY`), that
 * value becomes an admin key of the demo tenant if it is not one yet.
 */
export async function ensureDemoTenant(
  deps: BaseDeps,
  services: Services,
  apiKey: string | null,
): Promise<DemoSetup> {
  const existing = (await findTenantsByName(deps.db.knex, DEMO_TENANT_NAME))[0];
  let tenantId = existing?.id;
  const created = !existing;
  let setupToken: string | null = null;
  if (!tenantId) {
    const { tenant, user } = await services.tenants.create({
      name: DEMO_TENANT_NAME,
      plan: 'TEAM',
      currency: 'USD',
      timezone: 'America/New_York',
      userName: 'Demo PMO lead',
    });
    tenantId = tenant.id;
    setupToken = (await services.accounts.issueLink(systemActor(tenantId), user.id, 'setup')).token;
  }
  const actor = systemActor(tenantId);
  let newKey: string | null = null;
  if (apiKey) {
    if (!(await findApiKeyByHash(deps.db.knex, hashApiKey(apiKey)))) {
      await services.apiKeys.create(actor, {
        name: 'Demo admin key (MERIDIAN_API_KEY)',
        scopes: ['read', 'write', 'admin'],
        key: apiKey,
      });
    }
  } else if (created) {
    newKey = (
      await services.apiKeys.create(actor, {
        name: 'Demo admin key',
        scopes: ['read', 'write', 'admin'],
      })
    ).key;
  }
  return { tenantId, created, newKey, configuredKey: apiKey !== null, setupToken };
}

/**
 * Imports the bundled NYC dataset into the tenant (idempotent). `onProgress(done, total)` hears of every CSV row
 * (server/progress.ts draws it as a bar or lines).
 */
export async function importDemoPortfolio(
  deps: BaseDeps,
  services: Services,
  tenantId: string,
  onProgress?: (done: number, total: number) => void,
): Promise<ImportReport> {
  const csv = fs.readFileSync(NYC_DATASET);
  return importNycCapitalProjects(deps, services, systemActor(tenantId), csv, {
    fileName: NYC_DATASET,
    ...(onProgress ? { onProgress } : {}),
  });
}

/**
 * The fingerprint of an import of `file`'s bytes: the importer's version and the file's SHA-256
 * (`nyc-v<version>:sha256:<hex>`); the same file under the same importer gives the same fingerprint.
 */
export function importFingerprint(file: Buffer): string {
  return `nyc-v${NYC_IMPORT_VERSION}:sha256:${createHash('sha256').update(file).digest('hex')}`;
}

/**
 * Imports the bundled NYC dataset unless the tenant's last complete import had the same fingerprint
 * ({@link importFingerprint}): then the file is hashed, not parsed, and null is returned. The fingerprint is
 * recorded after the import ends, so an interrupted import runs again (and skips, by its checkpoints, what it
 * stored).
 */
export async function importDemoPortfolioIfChanged(
  deps: BaseDeps,
  services: Services,
  tenantId: string,
  onProgress?: (done: number, total: number) => void,
): Promise<ImportReport | null> {
  const fingerprint = importFingerprint(fs.readFileSync(NYC_DATASET));
  if ((await getImportFingerprint(deps.db.knex, tenantId, NYC_SOURCE)) === fingerprint) return null;
  const report = await importDemoPortfolio(deps, services, tenantId, onProgress);
  await setImportFingerprint(deps.db.knex, tenantId, NYC_SOURCE, fingerprint, deps.clock.now().toISOString());
  return report;
}

/**
 * The demo at start, when `config.demo` is on (and nothing at all when it is off): the demo tenant and its admin
 * key (printed once, on creation, unless `MERIDIAN_API_KEY` gives it), and the NYC portfolio when
 * `config.importDemo`. `say` writes one line of start-up output.
 */
export async function startDemo(
  config: Pick<Config, 'demo' | 'importDemo' | 'demoApiKey' | 'publicUrl' | 'host' | 'port'>,
  deps: BaseDeps,
  services: Services,
  say: (line: string) => void,
): Promise<void> {
  if (!config.demo) return;
  const demo = await ensureDemoTenant(deps, services, config.demoApiKey);
  if (demo.created) say(`meridian: created the demo tenant ${demo.tenantId}`);
  let syntheticKey: string | null = null;
  if (config.importDemo) {
    // A bar on a terminal, plain lines (on stdout, with the rest of start-up) otherwise.
    const progress = progressReporter({ label: '  imported', unit: 'status reports', line: say });
    const report = await importDemoPortfolioIfChanged(
      deps,
      services,
      demo.tenantId,
      progress.onProgress,
    ).finally(() => progress.stop());
    say(
      report === null
        ? `meridian: the NYC capital projects portfolio is imported and its file unchanged (importer v${NYC_IMPORT_VERSION}): not read again`
        : `meridian: imported the NYC capital projects portfolio: ${report.reportsStored} status reports stored, ` +
            `${report.projectsCreated} projects created, ${report.rowsAlreadyImported} already imported, ` +
            `${report.skipped.length} skipped, ${report.milestonesDerived} derived milestones written (the mapping and its counts: npm run cli -- import nyc-capital-projects ` +
            `datasets/nyc-capital-projects-2019-09-01.csv --tenant "${DEMO_TENANT_NAME}")`,
    );
    // The synthetic demo (an engineering firm, docs/agents.md, Demo tenants) is created with the NYC demo; its key is
    // printed after the NYC demo's, which stays the first key of the output.
    const started = Date.now();
    const synthetic = await ensureSyntheticTenant(deps, services, deps.clock.now());
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
  // The owner's one-time setup link (docs/accounts.md, "First run"): printed once, like the key.
  if (demo.setupToken) {
    say(
      `  Console sign-in for the demo tenant's owner: open this one-time setup link within 24 hours to choose an\n` +
        `  email and password (it works once):\n\n    ${linkUrl(publicBaseOf(config), 'setup', demo.setupToken)}\n`,
    );
  } else {
    say(
      `meridian: the owner's setup link was printed on first start; print a new one with: npm run cli -- users setup-link --tenant "${DEMO_TENANT_NAME}"`,
    );
  }
}
