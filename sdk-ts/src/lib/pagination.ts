/**
 * Pages of a list operation. Every list answers `{ data: [...], pagination: { limit, offset, total, hasMore } }`,
 * ordered by `createdAt` then `id` unless `sort` says otherwise, so records appended meanwhile show up at the end
 * instead of shifting pages (the spec's "Pagination"). A list method returns a {@link PagePromise}: await it for the
 * first {@link Page}, or iterate it with `for await` for every record of every page.
 */
import type { OperationId } from '../generated/operations.js';
import { APIPromise } from './api-promise.js';
import { MeridianError } from './errors.js';
import type { APIResult, RequestOptions } from './types.js';

/** `pagination` of a page, as the API sends it. */
export interface PaginationMeta {
  /** The page size asked for (1–100). */
  limit: number;
  /** Records skipped before this page. */
  offset: number;
  /** Records in the whole list. */
  total: number;
  /** Whether records follow this page. */
  hasMore: boolean;
}

/** What a page needs to fetch the next one: the list method's call, with another `offset`. */
export type FetchPage<Item> = (offset: number) => APIPromise<Page<Item>>;

/**
 * One page of a list: its records (`data`), its `pagination`, and the way to the next page.
 *
 * ```ts
 * let page = await client.risks.list({ severity: 'HIGH', limit: 50 });
 * for (;;) {
 *   for (const risk of page.data) console.log(risk.title);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 *
 * A page is also async-iterable over every record from this page on, fetching the following pages as it goes.
 */
export class Page<Item> implements AsyncIterable<Item> {
  /** The records of this page. */
  readonly data: Item[];
  /** `limit`, `offset`, `total` and `hasMore`. */
  readonly pagination: PaginationMeta;
  readonly #fetch: FetchPage<Item>;

  constructor(body: { data: Item[]; pagination: PaginationMeta }, fetchPage: FetchPage<Item>) {
    this.data = body.data;
    this.pagination = body.pagination;
    this.#fetch = fetchPage;
  }

  /** Whether another page follows (`pagination.hasMore`, and this page is not empty). */
  hasNextPage(): boolean {
    return this.pagination.hasMore && this.data.length > 0;
  }

  /**
   * Fetches the next page: the same filters and page size, `offset` moved past this page.
   *
   * @throws {@link MeridianError} when there is no next page; as the list method otherwise.
   */
  getNextPage(): APIPromise<Page<Item>> {
    if (!this.hasNextPage()) throw new MeridianError('no next page: check hasNextPage() first');
    return this.#fetch(this.pagination.offset + this.data.length);
  }

  /** This page and every following one, fetched as the iteration reaches them. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page: Page<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * What a list method returns: a promise of the first {@link Page} (`await`), and an async iterable over every
 * record of every page (`for await`), requesting page after page as the loop asks for them.
 *
 * ```ts
 * for await (const project of client.projects.list({ status: 'AT_RISK' })) console.log(project.name);
 * ```
 */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this;
  }
}

/** Sends one page request of a list operation; the client's `request()` with its result typed as a page body. */
export type PageRequest = <K extends OperationId>(
  operationId: K,
  pathArgs: string[],
  params: Record<string, unknown>,
  options: RequestOptions | undefined,
) => Promise<APIResult<{ data: unknown[]; pagination: PaginationMeta }>>;

/**
 * The {@link PagePromise} of a list call: `send` requests the page at `offset` (the caller's `offset`, else 0), and
 * each page fetches the next with the same params.
 */
export function pagePromise<Item>(
  operationId: OperationId,
  pathArgs: string[],
  params: Record<string, unknown> | undefined,
  options: RequestOptions | undefined,
  send: PageRequest,
): PagePromise<Item> {
  const fetchPage = (offset: number): PagePromise<Item> =>
    new PagePromise<Item>(
      send(operationId, pathArgs, offset === 0 ? { ...params } : { ...params, offset }, options).then(
        (result) => ({
          ...result,
          data: new Page<Item>(result.data as { data: Item[]; pagination: PaginationMeta }, fetchPage),
        }),
      ),
    );
  const start = typeof params?.offset === 'number' ? params.offset : 0;
  return fetchPage(start);
}
