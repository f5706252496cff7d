/**
 * The spec's schemas as types, straight from the generator (`npm run generate` writes `generated/openapi.ts`): a
 * new enum value or field in `spec/openapi.yaml` reaches the server without restating it here.
 */
import type { components } from '../generated/openapi.js';

/** The type of the spec's schema `N` (`components.schemas.N`), e.g. `Schema<'ProjectStatus'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];
