"""Auto-pagination over the API's offset pages.

Every list operation takes ``limit`` (1–100) and ``offset`` and answers ``{"data": [...], "pagination": {"limit",
"offset", "total", "hasMore"}}``, ordered by ``createdAt`` then ``id`` so pages stay stable while records are appended
(API guide, "Pagination"). ``paginate`` walks the pages for you.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Protocol, Sequence, TypeVar

__all__ = ["paginate", "DEFAULT_PAGE_SIZE"]

DEFAULT_PAGE_SIZE = 100
"""Page size ``paginate`` asks for when you pass no ``limit``: the API's maximum, to make the fewest requests."""

T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")


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


def paginate(list_method: Callable[..., Page[T]], /, **params: Any) -> Iterator[T]:
    """Yields every item of a list operation, fetching page after page as you iterate.

    :param list_method: a generated list method, e.g. ``client.projects.list_projects`` or ``client.risks.list_risks``.
    :param params: the operation's own arguments (filters such as ``status=ProjectStatus.AT_RISK``, ``project_id=…``),
        passed to every page. ``limit`` sets the page size (default 100); ``offset`` where to start (default 0).
    :returns: an iterator of the items (``Project``, ``Risk``, …); it stops after the page whose
        ``pagination.has_more`` is false.
    :raises MeridianError: whatever a page request raises (after the client's retries).

    Example::

        for project in client.paginate(client.projects.list_projects, status="AT_RISK"):
            print(project.name)
    """
    params.setdefault("limit", DEFAULT_PAGE_SIZE)
    offset = int(params.pop("offset", 0) or 0)
    while True:
        page = list_method(offset=offset, **params)
        yield from page.data
        if not page.pagination.has_more or not page.data:
            return
        offset += len(page.data)
