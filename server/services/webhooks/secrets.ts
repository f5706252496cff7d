/**
 * Webhook signing secrets at rest (docs/webhooks.md, "Events and webhooks": "Secrets at rest"): `secret` and
 * `previous_secret` of `webhook_endpoints` are stored sealed by the app's {@link SecretBox} (AES-256-GCM under
 * `MERIDIAN_SECRET_KEY`), bound to their endpoint's row, and opened only to sign a delivery and, for an admin who
 * asks (`GET /webhooks/{id}/secret`), to reveal the current one.
 */
import type { SecretBox } from '../../crypto/secret-box.js';
import type { WebhookSecrets } from '../../repositories/webhook-endpoints.js';
import { replaceStoredSecrets, storedSecretsPage } from '../../repositories/webhook-endpoints.js';
import type { ServiceDeps } from '../context.js';

/** The context a webhook endpoint's secrets are sealed under: the row they belong to. */
export function secretContext(webhookId: string): string {
  return `webhook_endpoints:${webhookId}`;
}

/** Seals a new signing secret of endpoint `webhookId` for storage. */
export function sealSecret(box: SecretBox, webhookId: string, secret: string): string {
  return box.seal(secret, secretContext(webhookId));
}

/** The signing secrets of endpoint `webhookId` as stored, opened for signing. */
export function openSecrets(box: SecretBox, webhookId: string, stored: WebhookSecrets): WebhookSecrets {
  const context = secretContext(webhookId);
  return {
    secret: box.open(stored.secret, context),
    previousSecret: stored.previousSecret === null ? null : box.open(stored.previousSecret, context),
    previousSecretExpiresAt: stored.previousSecretExpiresAt,
  };
}

/** What {@link resealAllSecrets} did. */
export interface ResealReport {
  /** Endpoints looked at (every tenant's). */
  endpoints: number;
  /** Endpoints whose secrets were sealed again under the current key (or sealed for the first time). */
  resealed: number;
}

/**
 * Seals every endpoint's secrets under the current key (`npm run cli -- secrets rotate`): values sealed under
 * `MERIDIAN_SECRET_KEY_PREVIOUS`, or stored as plaintext, are opened and sealed again; values already under the
 * current key are left alone. Row by row, each write conditioned on the values read (a rotation meanwhile wins
 * and its row is read again on the next run). After it, the previous key may be dropped.
 * @throws Error when a value is sealed under a key that is not configured.
 */
export async function resealAllSecrets(deps: Pick<ServiceDeps, 'db' | 'secrets'>): Promise<ResealReport> {
  const box = deps.secrets;
  const report: ResealReport = { endpoints: 0, resealed: 0 };
  let after: string | null = null;
  for (;;) {
    const page = await storedSecretsPage(deps.db.knex, after, 500);
    if (page.length === 0) return report;
    for (const stored of page) {
      report.endpoints += 1;
      const context = secretContext(stored.id);
      const secret = box.reseal(stored.secret, context);
      const previousSecret =
        stored.previousSecret === null ? null : box.reseal(stored.previousSecret, context);
      if (secret === stored.secret && previousSecret === stored.previousSecret) continue;
      if (await replaceStoredSecrets(deps.db.knex, stored, { secret, previousSecret })) report.resealed += 1;
    }
    after = page.at(-1)?.id ?? null;
  }
}
