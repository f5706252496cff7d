/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts (version).
 * Do not make direct changes to the file: edit the spec and run `npm run generate`.
 */

/** The SDK's version: the spec's `info.version` and pre-release (sent in `User-Agent` and `X-Meridian-Client`). */
export const VERSION = '1.0.0-beta.1';
