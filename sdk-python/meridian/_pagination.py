"""Auto-pagination over the API's offset pages, typed from the list method you pass.

Every list operation takes ``limit`` (1–100) and ``offset`` and answers ``{"data": [...], "pagination": {"limit",
"offset", "total", "hasMore"}}``, ordered by ``createdAt`` then ``id`` so pages stay stable while records are appended
(API guide, "Pagination"). ``paginate`` / ``async_paginate`` walk the pages for you.

The list method's own signature types the filters (a ``ParamSpec``): ``client.paginate(client.projects.list_projects,
stauts=...)`` is a type error, exactly as ``client.projects.list_projects(stauts=...)`` is, and the items are typed from
the page model (``Iterator[Project]``). Any list operation added to the spec works the same way after
``npm run generate``, with no code here.
"""

from __future__ import annotations

from typing import Any, AsyncIterator, Awaitable, Callable, Iterator, Protocol, Sequence, TypeVar

from typing_extensions import ParamSpec

__all__ = ["paginate", "async_paginate", "Page", "DEFAULT_PAGE_SIZE"]

DEFAULT_PAGE_SIZE = 100
"""Page size asked for when you pass no ``limit``: the API's maximum, to make the fewest requests."""

T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")
P = ParamSpec("P")


class _PaginationMeta(Protocol):
    """The ``pagination`` object of a page (``PaginationMeta``)."""

    @property
    def has_more(self) -> bool:
        """Whether records follow this page."""
        ...


class Page(Protocol[T_co]):
    """What a list operation returns: the generated ``…List`` models (``ProjectList``, ``RiskList``, …)."""

    @property
    def data(self) -> Sequence[T_co]:
        """The records of the page, in ``createdAt`` then ``id`` order."""
        ...

    @property
    def pagination(self) -> _PaginationMeta:
        """``limit``, ``offset``, ``total`` and ``has_more``."""
        ...


def _start(kwargs: dict[str, Any]) -> int:
    """Applies the default page size and takes the starting offset out of the arguments."""
    if kwargs.get("limit") is None:
        kwargs["limit"] = DEFAULT_PAGE_SIZE
    return int(kwargs.pop("offset", 0) or 0)


def paginate(list_method: Callable[P, Page[T]], /, *args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
    """Yields every item of a list operation, fetching page after page as you iterate.

    :param list_method: a list method of ``Meridian``, e.g. ``client.projects.list_projects``.
    :param args: the method's positional arguments (a path id, e.g. ``project_id`` for
        ``client.milestones.list_project_milestones``).
    :param kwargs: its keyword arguments, passed to every page: filters (``status=ProjectStatus.AT_RISK`` or
        ``status="AT_RISK"``), ``limit`` (the page size, 1–100, default 100), ``offset`` (where to start, default 0) and
        the per-call options ``timeout`` / ``max_retries`` / ``extra_headers``.
    :returns: an iterator of the items (``Project``, ``Risk``, …); it stops after the page whose
        ``pagination.has_more`` is false.
    :raises MeridianError: whatever a page request raises (after the client's retries).

    Example::

        for project in client.paginate(client.projects.list_projects, status="AT_RISK"):
            print(project.name)
    """
    offset = _start(kwargs)
    while True:
        page = list_method(*args, **{**kwargs, "offset": offset})  # type: ignore[arg-type]
        yield from page.data
        if not page.pagination.has_more or not page.data:
            return
        offset += len(page.data)


async def async_paginate(
    list_method: Callable[P, Awaitable[Page[T]]], /, *args: P.args, **kwargs: P.kwargs
) -> AsyncIterator[T]:
    """As ``paginate``, for ``AsyncMeridian``'s list methods: ``async for risk in async_paginate(client.risks.list_risks)``.

    :raises MeridianError: whatever a page request raises (after the client's retries).
    """
    offset = _start(kwargs)
    while True:
        page = await list_method(*args, **{**kwargs, "offset": offset})  # type: ignore[arg-type]
        for item in page.data:
            yield item
        if not page.pagination.has_more or not page.data:
            return
        offset += len(page.data)
