/**
 * Handlers of the Webhooks tag.
 */
import { etagOf } from '../../services/concurrency.js';
import type { Services } from '../../services/index.js';
import { listPage } from '../pagination.js';
import type { HandlerMap } from '../types.js';

/**
 * Handlers for listWebhooks, createWebhook, getWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret,
 * listWebhookDeliveries, testWebhook.
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
  | 'listWebhookDeliveries'
  | 'testWebhook'
> {
  return {
    async listWebhooks(ctx) {
      return listPage(ctx, (page) => services.webhooks.list(ctx.actor, page));
    },
    async createWebhook({ actor, body }) {
      const webhook = await services.webhooks.create(actor, body);
      return {
        status: 201,
        body: webhook,
        headers: { Location: `/v1/webhooks/${webhook.id}`, ETag: etagOf(webhook.version) },
      };
    },
    async getWebhook({ actor, path }) {
      const webhook = await services.webhooks.get(actor, path.id);
      return { status: 200, body: webhook, headers: { ETag: etagOf(webhook.version) } };
    },
    async updateWebhook({ actor, path, body, headers }) {
      const webhook = await services.webhooks.update(actor, path.id, body, headers?.['If-Match']);
      return { status: 200, body: webhook, headers: { ETag: etagOf(webhook.version) } };
    },
    async deleteWebhook({ actor, path, headers }) {
      await services.webhooks.delete(actor, path.id, headers?.['If-Match']);
      return { status: 204 };
    },
    async rotateWebhookSecret({ actor, path }) {
      const webhook = await services.webhooks.rotateSecret(actor, path.id);
      return { status: 200, body: webhook, headers: { ETag: etagOf(webhook.version) } };
    },
    async listWebhookDeliveries(ctx) {
      const { actor, path, query } = ctx;
      return listPage(ctx, (page) =>
        services.webhooks.deliveries(actor, path.id, { status: query?.status }, page),
      );
    },
    async testWebhook({ actor, path }) {
      const delivery = await services.webhooks.sendTest(actor, path.id);
      return { status: 202, body: delivery };
    },
  };
}
