/**
 * Handlers of the Webhooks tag: validated input → one service call → a declared result (../result.ts).
 */
import type { Services } from '../../services/index.js';
import { accepted, created, noContent, ok, page, versioned } from '../result.js';
import type { HandlerMap } from '../types.js';

/**
 * Handlers for listWebhooks, createWebhook, getWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret,
 * revealWebhookSecret, listWebhookDeliveries, testWebhook, resendWebhookDelivery.
 */
export function webhookHandlers(
  services: Services,
): Pick<
  HandlerMap,
  | 'listWebhooks'
  | 'createWebhook'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'rotateWebhookSecret'
  | 'revealWebhookSecret'
  | 'listWebhookDeliveries'
  | 'testWebhook'
  | 'resendWebhookDelivery'
> {
  return {
    async listWebhooks(ctx) {
      return page(ctx, (_filter, p) => services.webhooks.list(ctx.actor, p));
    },
    async createWebhook(ctx) {
      return created(ctx, await services.webhooks.create(ctx.actor, ctx.body), '/webhooks/{id}');
    },
    async getWebhook({ actor, path }) {
      return versioned(await services.webhooks.get(actor, path.id));
    },
    async updateWebhook({ actor, path, body, headers }) {
      return versioned(await services.webhooks.update(actor, path.id, body, headers?.['If-Match']));
    },
    async deleteWebhook({ actor, path, headers }) {
      await services.webhooks.delete(actor, path.id, headers?.['If-Match']);
      return noContent();
    },
    async rotateWebhookSecret({ actor, path }) {
      return versioned(await services.webhooks.rotateSecret(actor, path.id));
    },
    async revealWebhookSecret({ actor, path }) {
      return ok(await services.webhooks.revealSecret(actor, path.id));
    },
    async listWebhookDeliveries(ctx) {
      return page(ctx, (filter, p) => services.webhooks.deliveries(ctx.actor, ctx.path.id, filter, p));
    },
    async testWebhook({ actor, path }) {
      return accepted(await services.webhooks.sendTest(actor, path.id));
    },
    async resendWebhookDelivery({ actor, path }) {
      return accepted(await services.webhooks.resendDelivery(actor, path.id, path.deliveryId));
    },
  };
}
