/**
 * A tenant's single sign-on configuration (docs/members.md, "Single sign-on"): `GET|PUT|DELETE /tenant/sso`.
 * Enterprise plan only; the client secret is write-only, sealed by the secret box (server/crypto/secret-box.ts)
 * under the row's context, and opened only to sign someone in.
 */

import {
  deleteTenantSso,
  findTenantSso,
  listSealedSsoSecrets,
  saveTenantSso,
  type TenantSsoRecord,
  updateSealedSsoSecret,
} from '../../repositories/tenant-sso.js';
import type { TenantRecord } from '../../repositories/tenants.js';
import { inTransaction } from '../../repositories/transactions.js';
import type { Schema } from '../../schemas.js';
import { diff, recordAudit } from '../audit.js';
import type { Actor, ServiceDeps } from '../context.js';
import { AppError, businessRule } from '../errors.js';

/** Body of `GET|PUT /tenant/sso` (spec `TenantSso`). */
export type TenantSsoView = Schema<'TenantSso'>;
/** Body of `PUT /tenant/sso` (spec `TenantSsoUpdate`). */
export type TenantSsoInput = Schema<'TenantSsoUpdate'>;

/** A configuration with its secret opened: what the sign-in flow needs. */
export interface OpenedSso extends Omit<TenantSsoRecord, 'sealedSecret'> {
  clientSecret: string;
}

/** The secret box context of a tenant's client secret: a sealed value copied to another tenant does not open. */
function secretContext(tenantId: string): string {
  return `tenant_sso:${tenantId}`;
}

/** Options of {@link SsoSettingsService}. */
export interface SsoSettingsOptions extends ServiceDeps {
  /** Accept `http` issuers (`MERIDIAN_SSO_ALLOW_HTTP`). */
  allowHttp: boolean;
  /** `MERIDIAN_PUBLIC_URL`, or null (links then use the request's origin). */
  publicUrl: string | null;
}

/**
 * The origin links to this deployment start with: `MERIDIAN_PUBLIC_URL` when set, else the origin the request came
 * to (docs/accounts.md, "Cross-site requests", decides the same way). No trailing slash.
 */
export function linkBase(publicUrl: string | null, requestOrigin: string): string {
  return (publicUrl ?? requestOrigin).replace(/\/+$/, '');
}

/** The redirect URI every tenant registers at its provider, under the deployment's link base ({@link linkBase}). */
export function redirectUriOf(base: string): string {
  return `${base.replace(/\/+$/, '')}/auth/sso/callback`;
}

/** Reads and changes tenants' single sign-on configurations. */
export class SsoSettingsService {
  readonly #deps: ServiceDeps;
  readonly #allowHttp: boolean;
  readonly #publicUrl: string | null;

  constructor(options: SsoSettingsOptions) {
    this.#deps = options;
    this.#allowHttp = options.allowHttp;
    this.#publicUrl = options.publicUrl;
  }

  /** The origin of links to this deployment for a request that came to `requestOrigin` ({@link linkBase}). */
  linkBase(requestOrigin: string): string {
    return linkBase(this.#publicUrl, requestOrigin);
  }

  #view(record: TenantSsoRecord, base: string): TenantSsoView {
    return {
      issuerUrl: record.issuerUrl,
      clientId: record.clientId,
      clientSecretSet: true,
      allowedDomains: record.allowedDomains,
      defaultRole: record.defaultRole,
      passwordSignIn: record.passwordSignIn,
      redirectUri: redirectUriOf(base),
      signInUrl: `${base}/auth/sso/start?tenant=${encodeURIComponent(record.tenantId)}`,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  /**
   * `GET /tenant/sso`; `requestOrigin` is the origin the request came to (links use it without a public URL).
   * @throws AppError 404 when the tenant has no single sign-on.
   */
  async get(actor: Actor, requestOrigin: string): Promise<TenantSsoView> {
    const record = await findTenantSso(this.#deps.db.knex, actor.tenantId);
    if (!record) throw new AppError('not_found', 'Single sign-on is not configured for this tenant.');
    return this.#view(record, this.linkBase(requestOrigin));
  }

  /**
   * `PUT /tenant/sso`: replaces the configuration; the stored secret is kept when none is sent.
   * @throws AppError 403 outside the Enterprise plan; 422 for an `http` issuer where not allowed, a secret missing on
   *   the first configuration, or an issuer with a query or fragment.
   */
  async put(
    actor: Actor,
    tenant: TenantRecord,
    input: TenantSsoInput,
    requestOrigin: string,
  ): Promise<TenantSsoView> {
    if (tenant.plan !== 'ENTERPRISE') {
      throw new AppError(
        'forbidden',
        `Single sign-on needs the Enterprise plan; this tenant is on ${tenant.plan}.`,
      );
    }
    const issuer = this.#issuer(input.issuerUrl);
    const now = this.#deps.clock.now().toISOString();
    return inTransaction(this.#deps.db.knex, async (trx) => {
      const before = await findTenantSso(trx, actor.tenantId);
      if (!before && input.clientSecret === undefined) {
        throw businessRule('clientSecret is required the first time single sign-on is configured.', [
          { location: 'body', path: '/clientSecret', message: 'is required when no secret is stored' },
        ]);
      }
      const record: TenantSsoRecord = {
        tenantId: actor.tenantId,
        issuerUrl: issuer,
        clientId: input.clientId,
        sealedSecret:
          input.clientSecret === undefined
            ? (before as TenantSsoRecord).sealedSecret
            : this.#deps.secrets.seal(input.clientSecret, secretContext(actor.tenantId)),
        allowedDomains: [...new Set(input.allowedDomains.map((d) => d.toLowerCase()))],
        defaultRole: input.defaultRole,
        passwordSignIn: input.passwordSignIn ?? true,
        createdAt: before?.createdAt ?? now,
        updatedAt: now,
      };
      await saveTenantSso(trx, record);
      const shown = (r: TenantSsoRecord | null) =>
        r
          ? {
              issuerUrl: r.issuerUrl,
              clientId: r.clientId,
              allowedDomains: r.allowedDomains,
              defaultRole: r.defaultRole,
              passwordSignIn: r.passwordSignIn,
            }
          : {};
      const changes = diff(shown(before), shown(record));
      // The secret never enters the audit log; that it changed does.
      if (input.clientSecret !== undefined) changes.clientSecret = { from: null, to: '[REDACTED]' };
      await recordAudit(trx, actor, now, 'tenant.sso_updated', 'tenant', actor.tenantId, changes);
      return this.#view(record, this.linkBase(requestOrigin));
    });
  }

  #issuer(text: string): string {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw businessRule('issuerUrl must be an absolute URL.', [
        { location: 'body', path: '/issuerUrl', message: 'must be an absolute https URL' },
      ]);
    }
    const allowed = url.protocol === 'https:' || (this.#allowHttp && url.protocol === 'http:');
    if (!allowed || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
      throw businessRule(
        this.#allowHttp
          ? 'issuerUrl must be an http(s) URL without credentials, query or fragment.'
          : 'issuerUrl must be an https URL without credentials, query or fragment.',
        [{ location: 'body', path: '/issuerUrl', message: 'must be an https URL' }],
      );
    }
    // Kept as written: discovery compares it with the provider's `issuer` after URL normalisation.
    return text;
  }

  /** `DELETE /tenant/sso`: removes the configuration (nothing to remove is fine). */
  async delete(actor: Actor): Promise<void> {
    const now = this.#deps.clock.now().toISOString();
    await inTransaction(this.#deps.db.knex, async (trx) => {
      const before = await findTenantSso(trx, actor.tenantId);
      if (!before) return;
      await deleteTenantSso(trx, actor.tenantId);
      await recordAudit(trx, actor, now, 'tenant.sso_deleted', 'tenant', actor.tenantId, {
        issuerUrl: { from: before.issuerUrl, to: null },
      });
    });
  }

  /** The tenant's configuration with its secret opened, or null when it has none (the sign-in flow). */
  async opened(tenantId: string): Promise<OpenedSso | null> {
    const record = await findTenantSso(this.#deps.db.knex, tenantId);
    if (!record) return null;
    const { sealedSecret, ...rest } = record;
    return { ...rest, clientSecret: this.#deps.secrets.open(sealedSecret, secretContext(tenantId)) };
  }

  /**
   * Re-encrypts every stored client secret under the current key (`npm run cli -- secrets rotate`); returns how
   * many configurations there are and how many were re-encrypted.
   */
  async resealSecrets(): Promise<{ configurations: number; resealed: number }> {
    const { knex } = this.#deps.db;
    const stored = await listSealedSsoSecrets(knex);
    let resealed = 0;
    for (const { tenantId, sealedSecret } of stored) {
      const next = this.#deps.secrets.reseal(sealedSecret, secretContext(tenantId));
      if (next === sealedSecret) continue;
      await updateSealedSsoSecret(knex, tenantId, next);
      resealed += 1;
    }
    return { configurations: stored.length, resealed };
  }
}
