/**
 * `APIClient`: the settings and the one request path every resource method goes through, and `APIResource`, the
 * base of the generated resource classes (`src/generated/resources.ts`). Built on openapi-fetch's `createClient`;
 * requests are described by the generated `operationTable`, so nothing here names an operation.
 */
import createClient, { type Client } from 'openapi-fetch';
import { type OperationId, operationTable } from '../generated/operations.js';
import type { paths } from '../generated/schema.js';
import { APIPromise } from './api-promise.js';
import { APIConnectionError, APIError, APIUserAbortError, MeridianError, TimeoutError } from './errors.js';
import { type PagePromise, pagePromise } from './pagination.js';
import { clientHeaders, env } from './runtime.js';
import { CallContext, type Fetch, send } from './transport.js';
import type { APIResult, OperationData, RequestOptions } from './types.js';

/** Settings of a client. Every field is optional. */
export interface MeridianOptions {
  /** API key, `mk_live_…` (default: env `MERIDIAN_API_KEY`). Sent as `Authorization: Bearer <key>`. */
  apiKey?: string | undefined;
  /** Base URL including `/v1` (default: env `MERIDIAN_BASE_URL`, else `http://localhost:8080/v1`). */
  baseUrl?: string | undefined;
  /** Retries after the first attempt on connection errors, timeouts, 408, 429 and 5xx except 501 (default 2). */
  maxRetries?: number | undefined;
  /** Timeout of each attempt in milliseconds, until the whole response body has arrived (default 60000). */
  timeoutMs?: number | undefined;
  /** A `fetch` implementation (default: the global `fetch`). Receives a `Request`. */
  fetch?: Fetch | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
}

/** The default base URL: the local server of `npm start`. */
export const DEFAULT_BASE_URL = 'http://localhost:8080/v1';
/** Default retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 2;
/** Default timeout of one attempt, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

type RawCall = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * The transport and settings the resource tree runs on. `Meridian` extends it (through the generated
 * `MeridianResources`, which adds the tree).
 */
export class APIClient {
  /** The base URL requests go to (ends in `/v1`, no trailing slash). */
  readonly baseUrl: string;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** Timeout of each attempt, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * The underlying openapi-fetch client (`GET`, `POST`, … by path), for what the resource methods do not cover. It
   * shares the retrying transport; its errors are returned as `{ error }`, not thrown.
   */
  readonly raw: Client<paths>;
  readonly #fetch: Fetch;

  /**
   * @throws {@link MeridianError} when no API key is given and `MERIDIAN_API_KEY` is unset, or a number option is
   *   negative.
   */
  constructor(options: MeridianOptions = {}) {
    const apiKey = options.apiKey ?? env('MERIDIAN_API_KEY');
    if (!apiKey) {
      throw new MeridianError(
        'No API key: pass new Meridian({ apiKey }) or set MERIDIAN_API_KEY (keys look like mk_live_…).',
      );
    }
    this.baseUrl = (options.baseUrl ?? env('MERIDIAN_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.maxRetries = nonNegative('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.timeoutMs = nonNegative('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.#fetch = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
    this.raw = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: { ...options.defaultHeaders, ...clientHeaders(), Authorization: `Bearer ${apiKey}` },
      // Array query parameters as repeated keys (`?status=AT_RISK&status=OFF_TRACK`): the spec's `form` style
      // with `explode: true`, the default of OpenAPI and of the server's validator.
      querySerializer: { array: { style: 'form', explode: true } },
      fetch: (request: Request) =>
        send(
          request,
          { fetch: this.#fetch, maxRetries: this.maxRetries, timeoutMs: this.timeoutMs },
          new CallContext(),
        ),
    });
  }

  /**
   * Sends one operation and resolves to its parsed body, request id and response; what every resource method does.
   *
   * @param operationId - the operation, as the generated table names it.
   * @param pathArgs - the path parameters, in the path's order.
   * @param params - the request body's fields and the query parameters, side by side (the table tells which is
   *   which).
   * @throws {@link APIError} subclass by status once retries are exhausted; {@link APIConnectionError},
   *   {@link TimeoutError} or {@link APIUserAbortError} when no response arrived.
   */
  async request<K extends OperationId>(
    operationId: K,
    pathArgs: readonly string[],
    params: object | undefined,
    options: RequestOptions = {},
  ): Promise<APIResult<OperationData<K>>> {
    const op = operationTable[operationId];
    if (!op) throw new MeridianError(`unknown operation ${String(operationId)}`);
    const query: Record<string, unknown> = {};
    const body: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(params ?? {})) {
      if (value === undefined) continue;
      if ((op.queryParams as readonly string[]).includes(name) || !op.hasBody) query[name] = value;
      else body[name] = value;
    }
    const path = Object.fromEntries(op.pathParams.map((name, i) => [name, pathArgs[i]]));
    const ctx = new CallContext();
    const sendOptions = {
      fetch: this.#fetch,
      maxRetries: nonNegative('maxRetries', options.maxRetries ?? this.maxRetries),
      timeoutMs: nonNegative('timeoutMs', options.timeoutMs ?? this.timeoutMs),
      signal: options.signal,
    };
    let result: Awaited<ReturnType<RawCall>>;
    try {
      // The table and the generated types come from the same spec; openapi-fetch's own per-path typing would
      // need the path as a literal, which a table-driven call does not have.
      result = await (this.raw.request as unknown as RawCall)(op.method.toLowerCase(), op.path, {
        params: { path, query },
        body: op.hasBody ? body : undefined,
        headers: options.headers,
        fetch: (request: Request) => send(request, sendOptions, ctx),
      });
    } catch (error) {
      if (error instanceof MeridianError) throw error;
      if (options.signal?.aborted)
        throw new APIUserAbortError('request aborted by the caller', { cause: error });
      if (ctx.timedOut) {
        throw new TimeoutError(`${op.method} ${op.path} timed out after ${sendOptions.timeoutMs} ms`, {
          cause: error,
        });
      }
      throw new APIConnectionError(`${op.method} ${op.path} failed while reading the response`, {
        cause: error,
      });
    } finally {
      ctx.dispose();
    }
    const { response } = result;
    if (!response.ok) throw APIError.fromResponse(response, result.error);
    return {
      data: result.data as OperationData<K>,
      requestId: response.headers.get('x-request-id'),
      response,
    };
  }

  /** {@link request} as an {@link APIPromise}: what the generated methods of single records return. */
  call<K extends OperationId>(
    operationId: K,
    pathArgs: readonly string[],
    params: object | undefined,
    options: RequestOptions | undefined,
  ): APIPromise<OperationData<K>> {
    return new APIPromise(this.request(operationId, pathArgs, params, options));
  }

  /** {@link request} as a {@link PagePromise}: what the generated methods of list operations return. */
  list<Item>(
    operationId: OperationId,
    pathArgs: string[],
    params: object | undefined,
    options: RequestOptions | undefined,
  ): PagePromise<Item> {
    return pagePromise<Item>(
      operationId,
      pathArgs,
      params as Record<string, unknown> | undefined,
      options,
      (id, args, p, o) => this.request(id, args, p, o) as never,
    );
  }
}

/** The base of every generated resource class: a handle on the client whose transport it uses. */
export class APIResource {
  /** The client this resource sends through. */
  protected readonly _client: APIClient;

  constructor(client: APIClient) {
    this._client = client;
  }
}

/** Checks a count or a duration option. @throws {@link MeridianError} when it is negative or not a number. */
export function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0)
    throw new MeridianError(`${name} must be a number ≥ 0, got ${value}`);
  return value;
}
