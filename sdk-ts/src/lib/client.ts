/**
 * `Meridian`: the client. Built on openapi-fetch's `createClient<paths>`; every operation of the spec becomes a
 * method from the generated `operationTable`, so this file names no operation except `getAgentExecution`, which
 * `waitForExecution()` polls.
 */
import createClient, { type Client } from 'openapi-fetch';
import { type OperationId, type OperationMethods, operationTable } from '../generated/operations.js';
import type { paths } from '../generated/schema.js';
import { APIConnectionError, APIError, APIUserAbortError, MeridianError, TimeoutError } from './errors.js';
import { CallContext, type Fetch, send } from './transport.js';
import type {
  APIResult,
  ListItem,
  ListOperationId,
  ListParams,
  OperationData,
  OperationParams,
  RequestOptions,
} from './types.js';
import { VERSION } from './version.js';
import { type Webhooks, webhooks } from './webhooks.js';

/** Settings of a {@link Meridian} client. Every field is optional. */
export interface MeridianOptions {
  /** API key, `mk_live_…` (default: env `MERIDIAN_API_KEY`). Sent as `Authorization: Bearer <key>`. */
  apiKey?: string | undefined;
  /** Base URL including `/v1` (default: env `MERIDIAN_BASE_URL`, else `http://localhost:8080/v1`). */
  baseUrl?: string | undefined;
  /** Retries after the first attempt on connection errors, timeouts, 408, 429 and 5xx except 501 (default 2). */
  maxRetries?: number | undefined;
  /** Timeout of each attempt in milliseconds, until the whole response body has arrived (default 60000). */
  timeoutMs?: number | undefined;
  /** A `fetch` implementation (default: the global `fetch` of Node 20+). Receives a `Request`. */
  fetch?: Fetch | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
}

/** Options of {@link Meridian.waitForExecution}. */
export interface WaitOptions {
  /** Delay between polls in milliseconds (default 1000). */
  intervalMs?: number;
  /** Give up after this many milliseconds (default 300000, 5 minutes). */
  timeoutMs?: number;
  /** Stops waiting; the call then rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
}

/** The default base URL: the local server of `npm start`. */
export const DEFAULT_BASE_URL = 'http://localhost:8080/v1';
/** Default retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 2;
/** Default timeout of one attempt, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** `paginate()`'s arguments after the operationId: params are required when the operation has required ones. */
export type PaginateArgs<K extends ListOperationId> =
  Record<never, never> extends ListParams<K>
    ? [params?: ListParams<K>, options?: RequestOptions]
    : [params: ListParams<K>, options?: RequestOptions];

/** The state of an agent execution as `getAgentExecution` returns it. */
export type AgentExecutionResult = OperationData<'getAgentExecution'>;

// Declaration merging: the generated interface declares one typed method per operation; the constructor loop
// below (over the generated table) provides them.
export interface Meridian extends OperationMethods {}

/**
 * The Meridian API client.
 *
 * ```ts
 * import { Meridian } from '@meridian/sdk';
 * const client = new Meridian(); // MERIDIAN_API_KEY, MERIDIAN_BASE_URL
 * const { data: project, requestId } = await client.getProject({ id });
 * for await (const risk of client.paginate('listRisks', { severity: 'HIGH' })) console.log(risk.title);
 * ```
 *
 * Every operation of the spec is a method named after its operationId taking `(params, options?)` and resolving to
 * `{ data, requestId, response }`; errors are thrown as {@link APIError} subclasses (see `errors.ts`).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above.
export class Meridian {
  /** The webhook helper (`verify`, `unwrap`, `sign`); needs no client: `import { webhooks } from '@meridian/sdk'`. */
  static readonly webhooks: Webhooks = webhooks;
  /** The webhook helper, as {@link Meridian.webhooks}. */
  readonly webhooks: Webhooks = webhooks;
  /** The base URL requests go to (ends in `/v1`, no trailing slash). */
  readonly baseUrl: string;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** Timeout of each attempt, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * The underlying openapi-fetch client (`GET`, `POST`, … by path), for what the typed methods do not cover. It
   * shares the retrying transport; its errors are returned as `{ error }`, not thrown.
   */
  readonly raw: Client<paths>;
  readonly #fetch: Fetch;

  /**
   * @throws {@link MeridianError} when no API key is given and `MERIDIAN_API_KEY` is unset, or a number option is
   *   negative.
   */
  constructor(options: MeridianOptions = {}) {
    const env = typeof process === 'undefined' ? {} : process.env;
    const apiKey = options.apiKey ?? env.MERIDIAN_API_KEY;
    if (!apiKey) {
      throw new MeridianError(
        'No API key: pass new Meridian({ apiKey }) or set MERIDIAN_API_KEY (keys look like mk_live_…).',
      );
    }
    this.baseUrl = (options.baseUrl ?? env.MERIDIAN_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.maxRetries = nonNegative('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.timeoutMs = nonNegative('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const base = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
    this.#fetch = base;
    const client = `meridian-sdk-ts/${VERSION}`;
    const runtime = typeof process === 'undefined' ? 'unknown' : `node/${process.versions.node}`;
    this.raw = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: {
        ...options.defaultHeaders,
        Authorization: `Bearer ${apiKey}`,
        'User-Agent': `${client} ${runtime}`,
        'X-Meridian-Client': client,
      },
      fetch: (request: Request) =>
        send(
          request,
          { fetch: base, maxRetries: this.maxRetries, timeoutMs: this.timeoutMs },
          new CallContext(),
        ),
    });
  }

  /**
   * Calls an operation by its operationId; what every generated method does. Prefer `client.<operationId>()`.
   *
   * @throws {@link APIError} subclass by status once retries are exhausted; {@link APIConnectionError},
   *   {@link TimeoutError} or {@link APIUserAbortError} when no response arrived.
   */
  async request<K extends OperationId>(
    operationId: K,
    params?: OperationParams<K>,
    options: RequestOptions = {},
  ): Promise<APIResult<OperationData<K>>> {
    const op = operationTable[operationId];
    if (!op) throw new MeridianError(`unknown operation ${String(operationId)}`);
    const input = (params ?? {}) as Record<string, unknown>;
    const pick = (names: readonly string[]) => {
      const out: Record<string, unknown> = {};
      for (const name of names) if (input[name] !== undefined) out[name] = input[name];
      return out;
    };
    const ctx = new CallContext();
    const sendOptions = {
      fetch: this.#fetch,
      maxRetries: nonNegative('maxRetries', options.maxRetries ?? this.maxRetries),
      timeoutMs: nonNegative('timeoutMs', options.timeoutMs ?? this.timeoutMs),
      signal: options.signal,
    };
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      // The table and the generated types come from the same spec; openapi-fetch's own per-path typing would
      // need the path as a literal, which a table-driven call does not have.
      const call = this.raw.request as unknown as (
        method: string,
        path: string,
        init: Record<string, unknown>,
      ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      result = await call(op.method.toLowerCase(), op.path, {
        params: {
          path: pick(op.pathParams),
          query: pick(op.queryParams),
          header: input.headers as Record<string, string> | undefined,
        },
        body: op.hasBody ? input.body : undefined,
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

  /**
   * Iterates over every item of a list operation, page after page, following `pagination.hasMore` with
   * `limit`/`offset` (each page is one request, with the usual retries). Lists are ordered by `createdAt` then `id`,
   * so records appended meanwhile show up at the end rather than shifting pages.
   *
   * ```ts
   * for await (const project of client.paginate('listProjects', { status: 'AT_RISK', limit: 100 })) { … }
   * ```
   *
   * @param operationId - a list operation (one whose body is `{ data: [...], pagination }`).
   * @param params - the operation's params; `limit` sets the page size (1–100), `offset` where to start.
   * @throws as the operation's method, at the page that fails.
   */
  async *paginate<K extends ListOperationId>(
    operationId: K,
    ...[params, options]: PaginateArgs<K>
  ): AsyncGenerator<ListItem<K>, void, undefined> {
    if (!operationTable[operationId]?.paginated) {
      throw new MeridianError(`${operationId} is not a list operation with limit and offset`);
    }
    const base = { ...(params ?? {}) } as Record<string, unknown>;
    let offset = typeof base.offset === 'number' ? base.offset : 0;
    for (;;) {
      const { data } = await this.request(
        operationId,
        { ...base, offset } as unknown as OperationParams<K>,
        options,
      );
      const page = data as unknown as {
        data: ListItem<K>[];
        pagination: { offset: number; hasMore: boolean };
      };
      for (const item of page.data) yield item;
      if (!page.pagination.hasMore || page.data.length === 0) return;
      offset = page.pagination.offset + page.data.length;
    }
  }

  /**
   * Polls `GET /agents/executions/{executionId}` every `intervalMs` until the execution is COMPLETED or FAILED, and
   * returns it (check `status`: a FAILED execution is returned, with its `error`, not thrown).
   *
   * @throws {@link TimeoutError} when it is still PENDING or RUNNING after `timeoutMs`; {@link NotFoundError} for an
   *   unknown id; the usual errors of `getAgentExecution`.
   */
  async waitForExecution(executionId: string, options: WaitOptions = {}): Promise<AgentExecutionResult> {
    const intervalMs = options.intervalMs ?? 1000;
    const timeoutMs = options.timeoutMs ?? 300_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const requestOptions = options.signal ? { signal: options.signal } : {};
      const { data } = await this.getAgentExecution({ executionId }, requestOptions);
      if (data.status === 'COMPLETED' || data.status === 'FAILED') return data;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new TimeoutError(`execution ${executionId} still ${data.status} after ${timeoutMs} ms`);
      }
      await delay(Math.min(intervalMs, remaining), options.signal);
    }
  }
}

for (const operationId of Object.keys(operationTable) as OperationId[]) {
  Object.defineProperty(Meridian.prototype, operationId, {
    value: function (this: Meridian, params?: unknown, options?: RequestOptions) {
      return this.request(operationId, params as never, options);
    },
    writable: true,
    configurable: true,
  });
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0)
    throw new MeridianError(`${name} must be a number ≥ 0, got ${value}`);
  return value;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError('aborted by the caller'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new APIUserAbortError('aborted by the caller'));
      },
      { once: true },
    );
  });
}
