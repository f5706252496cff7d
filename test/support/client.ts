/**
 * A minimal HTTP client for contract tests: real fetch over real HTTP, every response checked against the spec.
 */
import type { OperationId } from '../../generated/operations.js';
import { assertConforms, type SeenResponse } from './contract.js';

/** Options of one request. */
export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Raw body text (sent as is; no JSON encoding). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Query parameters; an array is sent as the parameter repeated (`status=A&status=B`, `explode: true`). */
  query?: Record<string, string | number | boolean | undefined | readonly (string | number)[]>;
}

/** A response: status, headers and parsed JSON body (undefined when empty). */
export interface ApiResponse<T = any> extends SeenResponse {
  body: T;
}

/**
 * Calls `method path` on the server and checks the response against `operationId`'s declared responses.
 * Pass `operationId: null` for requests no operation matches (unknown paths, wrong methods).
 */
export async function call<T = any>(
  baseUrl: string,
  operationId: OperationId | null,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const url = new URL(baseUrl + path);
  for (const [k, v] of Object.entries(options.query ?? {})) {
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
    else if (v !== undefined) url.searchParams.set(k, String(v));
  }
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const parsed = text && /json/.test(type) ? JSON.parse(text) : text || undefined;
  const seen: ApiResponse<T> = { status: res.status, headers: res.headers, body: parsed as T };
  if (operationId) assertConforms(operationId, seen);
  return seen;
}

/** A client bound to a base URL and a key: `api.get('listProjects', '/projects', { query })`. */
export function client(baseUrl: string, key: string | null) {
  const bound =
    (method: string) =>
    <T = any>(operationId: OperationId | null, path: string, options: CallOptions = {}) =>
      call<T>(baseUrl, operationId, method, path, { key, ...options });
  return {
    get: bound('GET'),
    post: bound('POST'),
    patch: bound('PATCH'),
    delete: bound('DELETE'),
    put: bound('PUT'),
  };
}

/** A client as returned by `client(baseUrl, key)`. */
export type Api = ReturnType<typeof client>;
