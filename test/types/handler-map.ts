/**
 * Type-level tests, compiled by `tsc --noEmit` (npm test): the handler map typed from the spec rejects a missing
 * operation, an undeclared status and a body the spec does not allow. Each `@ts-expect-error` fails the build if
 * the line below it ever compiles.
 */
import type { Handler, HandlerMap } from '../../server/http/types.js';

const tenant = {
  id: '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f10',
  name: 'Acme',
  plan: 'TEAM' as const,
  currency: 'USD',
  timezone: 'UTC',
  rateLimit: { requestsPerMinute: 1000, used: 1, remaining: 999, resetAt: '2026-01-01T00:01:00.000Z' },
  settings: { llmEnabled: true, requireTwoFactor: false },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

export const allowed: Handler<'getTenant'> = async () => ({ status: 200, body: tenant });

// @ts-expect-error getTenant declares 200, not 201
export const wrongStatus: Handler<'getTenant'> = async () => ({ status: 201, body: tenant });

// @ts-expect-error `plan` must be one of FREE, TEAM, ENTERPRISE
export const wrongBody: Handler<'getTenant'> = async () => ({
  status: 200,
  body: { ...tenant, plan: 'GOLD' },
});

// @ts-expect-error a body without the required `rateLimit`
export const missingField: Handler<'getTenant'> = async () => ({
  status: 200,
  body: { ...tenant, rateLimit: undefined },
});

// @ts-expect-error every operationId of the spec needs a handler
export const incomplete: HandlerMap = { getTenant: allowed };
