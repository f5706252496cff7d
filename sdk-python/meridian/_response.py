"""``APIResponse``: a successful answer with its status, headers and request id, as ``with_raw_response`` gives it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Optional, TypeVar

import httpx

__all__ = ["APIResponse"]

T = TypeVar("T")


@dataclass(frozen=True)
class APIResponse(Generic[T]):
    """A successful answer: what ``client.<resource>.with_raw_response.<method>(...)`` returns (the plain method
    returns ``data``).

    - ``data``: the parsed body (a model of ``meridian.models``, a page for list methods), ``None`` for 204;
      ``parse()`` returns it too;
    - ``status_code``: the HTTP status (200, 201, 202, 204);
    - ``headers``: the response headers (case-insensitive: ``headers["etag"]`` is ``headers["ETag"]``);
    - ``request_id``: the ``X-Request-Id`` of the request (quote it when you report a problem), as on errors;
    - ``http_response``: the underlying ``httpx.Response`` (its body already read).
    """

    data: T
    status_code: int
    headers: httpx.Headers
    request_id: Optional[str]
    http_response: httpx.Response

    def parse(self) -> T:
        """The parsed body: what the plain method returns."""
        return self.data

    @property
    def etag(self) -> Optional[str]:
        """The ``ETag`` header (the record's version, for ``if_match=`` / ``if_none_match=``), if any."""
        etag: Optional[str] = self.headers.get("ETag")
        return etag
