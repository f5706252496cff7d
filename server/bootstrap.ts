/**
 * First-start set-up used by `npm start`: the demo tenant, its admin key, its owner's setup link and the NYC
 * portfolio.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ImportReport, importNycCapitalProjects } from './import/nyc/importer.js';
import { findApiKeyByHash, findTenantsByName } from './repositories/tenants.js';
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
