/**
 * Assertions shared by the contract and integration tests: RFC 9457 problem documents, their `errors[]`, and RFC 8288
 * `Link` headers.
 */
import { expect } from 'chai';
import type { ApiResponse } from './client.js';

/** Detail text that looks like a leaked stack trace or source location. */
const STACK_LIKE = /(\bat\s+\S+\s+\(|\bat\s+\/|\.ts:\d+|\.js:\d+|node_modules|\/work\/)/;

/**
 * Asserts an RFC 9457 problem response: status, content type, `code`, the members every problem carries, the
 * `X-Request-Id` header equal to `requestId`, and no stack trace in `detail`. Returns the body.
 */
export function expectProblem(res: ApiResponse, status: number, code: string): any {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  const body = res.body;
  expect(body).to.be.an('object');
  expect(body.status).to.equal(status);
  expect(body.code).to.equal(code);
  expect(body.type).to.be.a('string').and.not.equal('');
  expect(body.title).to.be.a('string').and.not.equal('');
  expect(body.requestId).to.be.a('string').and.not.equal('');
  expect(res.headers.get('x-request-id')).to.equal(body.requestId);
  if (body.detail !== undefined) {
    expect(body.detail).to.be.a('string');
    expect(body.detail).not.to.match(STACK_LIKE);
  }
  expect(JSON.stringify(body)).not.to.match(/\.ts:\d+|node_modules/);
  return body;
}

/** The `errors[]` entries of a problem as `location:path` strings. */
export function fieldErrors(body: any): string[] {
  return ((body?.errors ?? []) as { location: string; path: string }[]).map((e) => `${e.location}:${e.path}`);
}

/** Parses an RFC 8288 `Link` header into `{ rel: url }`. */
export function parseLink(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (m?.[1] && m[2]) out[m[2]] = m[1];
  }
  return out;
}

/** Turns an absolute URL under `/v1` into a path the test client accepts (relative to the base URL). */
export function apiPathOf(url: string, baseUrl: string): string {
  const u = new URL(url, baseUrl);
  expect(u.origin).to.equal(new URL(baseUrl).origin);
  expect(u.pathname.startsWith('/v1/')).to.equal(true, `${url} is not under /v1`);
  return u.pathname.slice('/v1'.length) + u.search;
}
