/**
 * Identity (docs/design.md, "Auth, tenants, users, keys"), one feature folder: tenants and their users
 * (./tenants.ts), API keys (./api-keys.ts), authentication (./authentication.ts) and the authenticated keys a
 * process holds for a few seconds (./principals.ts). {@link buildIdentity} wires the three services of one app
 * around one principal cache, so a revocation or a tenant's change in this process reaches authentication at once.
 */
import type { ServiceDeps } from '../context.js';
import type { RateLimitService } from '../rate-limits.js';
import { ApiKeyService } from './api-keys.js';
import { AuthenticationService } from './authentication.js';
import { PrincipalCache } from './principals.js';
import { TenantService } from './tenants.js';

export {
  API_KEY_PATTERN,
  type ApiKeyCreateInput,
  ApiKeyService,
  type ApiKeyView,
  generateApiKey,
  hashApiKey,
  hasScope,
} from './api-keys.js';
export { AuthenticationService } from './authentication.js';
export { AUTH_CACHE_TTL_MS, type Principal, PrincipalCache } from './principals.js';
export {
  type MeView,
  type TenantCreateInput,
  TenantService,
  type TenantUpdateInput,
  type TenantView,
} from './tenants.js';

/** The identity services of one app. */
export interface Identity {
  /** The authenticated keys this app holds: a role change or a removal drops the user's (`forgetUser`). */
  principals: PrincipalCache;
  tenants: TenantService;
  apiKeys: ApiKeyService;
  authentication: AuthenticationService;
}

/**
 * Builds the identity services of one app over its shared dependencies, with one principal cache between them.
 * @param options.defaultRateLimitPerMinute requests per minute of a tenant without its own limit.
 * @param options.authCacheMs how long an authenticated key is held (default AUTH_CACHE_TTL_MS).
 * @param options.rateLimits the app's rate limiter: `GET /tenant` reads the tenant's window from it.
 */
export function buildIdentity(
  deps: ServiceDeps,
  options: { defaultRateLimitPerMinute: number; authCacheMs?: number; rateLimits: RateLimitService },
): Identity {
  const principals = new PrincipalCache(options.authCacheMs);
  return {
    principals,
    tenants: new TenantService({
      ...deps,
      principals,
      defaultRateLimitPerMinute: options.defaultRateLimitPerMinute,
      rateLimits: options.rateLimits,
    }),
    apiKeys: new ApiKeyService({ ...deps, principals }),
    authentication: new AuthenticationService({ ...deps, principals }),
  };
}
