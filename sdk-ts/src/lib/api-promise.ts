/**
 * `APIPromise`: what every resource method returns. Awaiting it gives the parsed body; `.withResponse()` gives the
 * body with the request id and the raw `Response`, `.asResponse()` the `Response` alone (the openai-node shape).
 */
import type { APIResult } from './types.js';

/**
 * A promise of an operation's data that also exposes the response it came from.
 *
 * ```ts
 * const risk = await client.risks.retrieve(id);
 * const { data, requestId, response } = await client.risks.retrieve(id).withResponse();
 * const etag = (await client.risks.retrieve(id).asResponse()).headers.get('etag');
 * ```
 *
 * The request is sent once, when the method is called; every accessor reads the same answer.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<APIResult<T>>;
  #data: Promise<T> | undefined;

  /** @param result - the call's outcome: the parsed body, the request id and the raw response. */
  constructor(result: Promise<APIResult<T>>) {
    // The executor is unused: `then`, `catch` and `finally` below answer from `result`.
    super((resolve) => resolve(undefined as T));
    this.#result = result;
  }

  /** Promises made by `then` on an `APIPromise` are plain promises. */
  static override get [Symbol.species]() {
    return Promise;
  }

  /**
   * The parsed body with the request id (`X-Request-Id`) and the raw `Response` (status, `ETag`, `Link`,
   * `RateLimit` headers; its body already read).
   *
   * @throws as awaiting the call does.
   */
  withResponse(): Promise<APIResult<T>> {
    return this.#result;
  }

  /** The raw `Response` (its body already read). @throws as awaiting the call does. */
  asResponse(): Promise<Response> {
    return this.#result.then((result) => result.response);
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#result.then((result) => result.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a promise; awaiting it gives the parsed body.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#parsed().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}
