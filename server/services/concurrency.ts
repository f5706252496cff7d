/**
 * Optimistic concurrency: `version` ⇄ `ETag`, and the `If-Match` check (RFC 9110 §13.1.1; docs/design.md).
 */
import { preconditionFailed } from './errors.js';

/** The strong entity tag of a record version: `"<version>"`. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * Throws 412 `precondition_failed` unless `ifMatch` is absent, `*`, or lists the current strong ETag.
 * Weak tags (`W/"…"`) never match: If-Match uses the strong comparison.
 */
export function checkIfMatch(ifMatch: string | undefined, version: number): void {
  if (ifMatch === undefined) return;
  const wanted = ifMatch.trim();
  if (wanted === '*') return;
  const current = etagOf(version);
  const tags = wanted.split(',').map((t) => t.trim());
  if (!tags.includes(current)) throw preconditionFailed(version);
}

/**
 * Whether `If-None-Match` lists `etag` (or is `*`): the GET answers 304 Not Modified. Uses the weak comparison
 * (RFC 9110 §13.1.2): `W/"3"` matches `"3"`.
 */
export function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  const tags = ifNoneMatch.split(',').map(weak);
  return tags.includes('*') || tags.includes(weak(etag));
}
