/**
 * The spec's schemas as types, straight from the generator (`npm run generate` writes `generated/openapi.ts`): a
 * new enum value or field in `spec/openapi.yaml` reaches the server without restating it here.
 */
import type { components, operations } from '../generated/openapi.js';

/** The type of the spec's schema `N` (`components.schemas.N`), e.g. `Schema<'ProjectStatus'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];

/** The operations of the spec that take query parameters. */
export type QueryOperationId = {
  [O in keyof operations]: NonNullable<operations[O]['parameters']['query']> extends Record<string, never>
    ? never
    : O;
}[keyof operations];

/**
 * The filters of a list operation: its query parameters without the page's `limit` and `offset` (docs/design.md,
 * "Conventions on the wire", Lists), as the generator types them, e.g. `ListFilter<'listRisks'>`. Handlers pass
 * them through unchanged; services and repositories name them by alias (`RiskFilter`).
 */
export type ListFilter<O extends QueryOperationId> = Omit<
  NonNullable<operations[O]['parameters']['query']>,
  'limit' | 'offset'
>;
