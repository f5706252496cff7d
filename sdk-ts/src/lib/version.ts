/** The SDK's version (kept equal to package.json's by a test); sent in `User-Agent` and `X-Meridian-Client`. */
export const VERSION = '0.1.0-beta.0';
