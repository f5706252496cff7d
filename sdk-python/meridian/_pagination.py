"""Pages of a list operation, typed by their records.

Every list operation takes ``limit`` (1–100) and ``offset`` and answers ``{"data": [...], "pagination": {"limit",
"offset", "total", "hasMore"}}``, ordered by ``createdAt`` then ``id`` (or by ``sort``) so pages stay stable while
records are appended (API guide, "Pagination"). A list method returns the first page: iterate it (``for`` /
``async for``) for every record of every page, or work page by page with ``has_next_page()`` and
``get_next_page()``. A list added to the spec pages the same way after ``npm run generate``, with no code here.
"""

from __future__ import annotations

from typing import (
    Any,
    AsyncIterator,
    Awaitable,
    Callable,
    Generator,
    Generic,
    Iterator,
    List,
    Optional,
    Protocol,
    TypeVar,
)

from ._errors import MeridianError

__all__ = ["SyncPage", "AsyncPage", "AsyncPaginator", "ListBody"]

T = TypeVar("T")


class _PaginationMeta(Protocol):
    @property
    def limit(self) -> int: ...

    @property
    def offset(self) -> int: ...

    @property
    def total(self) -> int: ...

    @property
    def has_more(self) -> bool: ...


class ListBody(Protocol):
    """A list operation's parsed body: the generated ``…List`` models (``ProjectList``, ``RiskList``, …)."""

    @property
    def data(self) -> Any: ...

    @property
    def pagination(self) -> _PaginationMeta: ...


class _Page(Generic[T]):
    """What both kinds of page share: the records, ``pagination`` and the offset of the next page."""

    def __init__(self, body: ListBody) -> None:
        self.data: List[T] = list(body.data)
        """The records of this page."""
        self.pagination = body.pagination
        """``limit``, ``offset``, ``total`` and ``has_more`` (the API's ``hasMore``)."""

    def has_next_page(self) -> bool:
        """Whether another page follows (``pagination.has_more``, and this page is not empty)."""
        return bool(self.pagination.has_more) and len(self.data) > 0

    def _next_offset(self) -> int:
        if not self.has_next_page():
            raise MeridianError("no next page: check has_next_page() first")
        return int(self.pagination.offset) + len(self.data)

    def __repr__(self) -> str:
        p = self.pagination
        return f"{type(self).__name__}(offset={p.offset}, limit={p.limit}, total={p.total}, records={len(self.data)})"


class SyncPage(_Page[T]):
    """One page of a list, from ``Meridian``: iterate it for every record from here to the end of the list.

    ::

        for project in client.projects.list(status="AT_RISK"):    # every page, fetched as the loop goes
            print(project.name)

        page = client.risks.list(severity="HIGH", limit=50)        # page by page
        while True:
            print([r.title for r in page.data])
            if not page.has_next_page():
                break
            page = page.get_next_page()
    """

    def __init__(self, body: ListBody, fetch: Callable[[int], SyncPage[T]]) -> None:
        super().__init__(body)
        self._fetch = fetch

    def get_next_page(self) -> SyncPage[T]:
        """The next page: the same filters and page size, ``offset`` past this page.

        :raises MeridianError: there is no next page; as the list method otherwise.
        """
        return self._fetch(self._next_offset())

    def iter_pages(self) -> Iterator[SyncPage[T]]:
        """This page and every following one, fetched as the iteration reaches them."""
        page: Optional[SyncPage[T]] = self
        while page is not None:
            yield page
            page = page.get_next_page() if page.has_next_page() else None

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data


class AsyncPage(_Page[T]):
    """One page of a list, from ``AsyncMeridian``: ``async for`` over it gives every record from here to the end."""

    def __init__(self, body: ListBody, fetch: Callable[[int], Awaitable[AsyncPage[T]]]) -> None:
        super().__init__(body)
        self._fetch = fetch

    async def get_next_page(self) -> AsyncPage[T]:
        """The next page. :raises MeridianError: there is no next page; as the list method otherwise."""
        return await self._fetch(self._next_offset())

    async def iter_pages(self) -> AsyncIterator[AsyncPage[T]]:
        """This page and every following one."""
        page: Optional[AsyncPage[T]] = self
        while page is not None:
            yield page
            page = await page.get_next_page() if page.has_next_page() else None

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item


class AsyncPaginator(Generic[T]):
    """What ``AsyncMeridian``'s list methods return, without ``await``: await it for the first ``AsyncPage``, or
    ``async for`` over it for every record of every page.

    ::

        page = await client.projects.list(limit=10)
        async for project in client.projects.list(status="AT_RISK"):
            print(project.name)
    """

    def __init__(self, first: Callable[[], Awaitable[AsyncPage[T]]]) -> None:
        self._first = first

    def __await__(self) -> Generator[Any, None, AsyncPage[T]]:
        return self._first().__await__()

    async def __aiter__(self) -> AsyncIterator[T]:
        page = await self._first()
        async for item in page:
            yield item
