/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts (webhook events).
 * Do not make direct changes to the file: edit the spec and run `npm run generate`.
 */

import type { webhooks } from './schema.js';

/** The payload of each webhook event of the spec, keyed by its `event` name. */
export interface WebhookEventMap {
  /**
   * project.status_changed
   *
   * Sent when a project's `status` changes, whatever caused it (`PATCH /projects/{id}` or an import).
   * `data` carries the previous and the new status and the project as `GET /projects/{id}` shows its fields.
   */
  'project.status_changed': NonNullable<webhooks['project.status_changed']['post']['requestBody']>['content']['application/json'];
  /**
   * risk.created
   *
   * Sent when a risk is created. `data` carries the new risk.
   */
  'risk.created': NonNullable<webhooks['risk.created']['post']['requestBody']>['content']['application/json'];
  /**
   * risk.severity_escalated
   *
   * Sent when a risk's severity rises (LOW < MEDIUM < HIGH < CRITICAL), whether derived from a new score or set
   * manually. A fall in severity sends nothing.
   */
  'risk.severity_escalated': NonNullable<webhooks['risk.severity_escalated']['post']['requestBody']>['content']['application/json'];
  /**
   * milestone.missed
   *
   * Sent once per milestone when its due date has passed (in the tenant's timezone) while it is not COMPLETED;
   * the milestone becomes MISSED. Detected by a periodic sweep and by the `schedule-health` agent; a milestone
   * set to MISSED by hand is announced too. A milestone reopened by hand after it was announced is not announced
   * again.
   */
  'milestone.missed': NonNullable<webhooks['milestone.missed']['post']['requestBody']>['content']['application/json'];
  /**
   * agent.execution_completed
   *
   * Sent when an agent execution ends, successfully (`COMPLETED`, with its output) or not (`FAILED`, with its error).
   */
  'agent.execution_completed': NonNullable<webhooks['agent.execution_completed']['post']['requestBody']>['content']['application/json'];
  /**
   * budget.overrun_detected
   *
   * Sent once per crossing: when a project's `actualCost` (kind `ACTUAL`) or `forecastCost` (kind `FORECAST`)
   * rises above its `budget`. It is sent again only after the amount has fallen back to or below the budget and
   * crossed it again. Projects without a budget never send it.
   */
  'budget.overrun_detected': NonNullable<webhooks['budget.overrun_detected']['post']['requestBody']>['content']['application/json'];
}

/** The name of a webhook event, e.g. `'risk.created'`. */
export type WebhookEventName = keyof WebhookEventMap;

/** Any webhook event payload: a union discriminated by `event`. */
export type WebhookEvent = WebhookEventMap[WebhookEventName];
