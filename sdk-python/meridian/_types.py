"""Small types every module of the SDK shares: timeouts, the ``NOT_GIVEN`` sentinel, the client's defaults."""

from __future__ import annotations

from typing import Literal, Optional, Tuple, Union

import httpx

__all__ = ["DEFAULT_BASE_URL", "DEFAULT_MAX_RETRIES", "DEFAULT_TIMEOUT", "NOT_GIVEN", "NotGiven", "Timeout"]

Timeout = Union[float, Tuple[float, float], httpx.Timeout]
"""A timeout in seconds: one number for every phase of an attempt (connect, each read, write, pool), a
``(connect, read)`` pair, or an ``httpx.Timeout``."""

DEFAULT_BASE_URL = "http://localhost:8080/v1"
"""Where ``npm start`` serves the API; used when neither ``base_url`` nor ``MERIDIAN_BASE_URL`` is set."""
DEFAULT_MAX_RETRIES = 2
"""Retries after the first attempt, as in the TypeScript SDK and the OpenAI/Stainless SDKs."""
DEFAULT_TIMEOUT = 60.0
"""Seconds each phase of an attempt may take by default."""


class NotGiven:
    """The type of ``NOT_GIVEN``: "leave this out", where ``None`` has a meaning of its own (a JSON ``null`` that
    clears a field, or no timeout)."""

    def __bool__(self) -> Literal[False]:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()
"""The default of every optional body field: the field is not sent (``None`` sends ``null``)."""


def as_httpx_timeout(timeout: Optional[Timeout]) -> httpx.Timeout:
    """A ``Timeout`` as httpx takes it."""
    if isinstance(timeout, httpx.Timeout):
        return timeout
    if isinstance(timeout, tuple):
        connect, read = timeout
        return httpx.Timeout(read, connect=connect)
    return httpx.Timeout(timeout)
