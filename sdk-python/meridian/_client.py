"""The clients: ``Meridian`` (blocking) and ``AsyncMeridian`` (asyncio), one attribute per tag of the spec.

Both are built on httpx (``httpx.Client`` / ``httpx.AsyncClient``) through ``meridian._base_client``, so retries,
errors, idempotency keys, timeouts and per-call options behave identically; the operations come from the generated
``meridian/_generated/resources.py``. This file names one operation, ``getAgentExecution``, which
``wait_for_execution`` polls, and one tag, ``Webhooks``, whose resource also carries the webhook helpers.
"""

from __future__ import annotations

import asyncio
import os
import time
from functools import cached_property
from types import TracebackType
from typing import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Optional, Type, TypeVar, Union
from uuid import UUID

import httpx
from typing_extensions import ParamSpec, Self

from ._base_client import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, NOT_GIVEN, NotGiven, Timeout
from ._errors import APITimeoutError, MeridianError
from ._generated.models.agent_execution import AgentExecution
from ._generated.resources import (
    AsyncResourcesClient,
    AsyncWebhooksResource,
    SyncResourcesClient,
    WebhooksResource,
)
from ._pagination import Page, async_paginate, paginate
from ._webhooks import Webhooks

__all__ = ["Meridian", "AsyncMeridian", "DEFAULT_BASE_URL", "TERMINAL_EXECUTION_STATUSES"]

TERMINAL_EXECUTION_STATUSES = frozenset({"COMPLETED", "FAILED"})
"""Execution statuses after which an agent run never changes again (spec: ``ExecutionStatus``)."""

T = TypeVar("T")
P = ParamSpec("P")


class WebhooksWithHelpers(WebhooksResource, Webhooks):
    """``client.webhooks``: the webhook endpoint operations (``list_webhooks``, ``create_webhook``, …) and the
    helpers ``verify``, ``unwrap`` and ``sign`` (as ``meridian.webhooks`` and the TypeScript SDK's
    ``client.webhooks``)."""


class AsyncWebhooksWithHelpers(AsyncWebhooksResource, Webhooks):
    """``AsyncMeridian().webhooks``: the endpoint operations (awaitable) and the (synchronous) helpers ``verify``,
    ``unwrap`` and ``sign``."""


def _settings(api_key: Optional[str], base_url: Optional[str]) -> tuple[str, str]:
    api_key = api_key or os.environ.get("MERIDIAN_API_KEY")
    if not api_key:
        raise MeridianError("no API key: pass Meridian(api_key=...) or set MERIDIAN_API_KEY (keys look like mk_live_…)")
    return api_key, base_url or os.environ.get("MERIDIAN_BASE_URL") or DEFAULT_BASE_URL


class Meridian(SyncResourcesClient):
    """A blocking client of the Meridian API (``AsyncMeridian`` is the asyncio one, with the same methods).

    ::

        import meridian

        client = meridian.Meridian()                     # MERIDIAN_API_KEY, MERIDIAN_BASE_URL
        page = client.projects.list_projects(status="AT_RISK", limit=10)
        for risk in client.paginate(client.risks.list_risks, severity="HIGH"):
            print(risk.title)

    Operations are grouped as the API reference groups them (by tag), one attribute per group, and each operation is
    a method named after its ``operationId`` in snake_case with the spec's description as docstring:
    ``projects``, ``milestones``, ``risks``, ``issues``, ``resources``, ``allocations``, ``agents``, ``webhooks``,
    ``identity`` (``get_me``, ``get_tenant``), ``api_keys`` and ``audit_logs``. Path ids and the body are positional,
    everything else is keyword-only. Each method has a ``…_with_response`` twin returning an ``APIResponse`` (``data``,
    ``status_code``, ``headers`` such as ``ETag`` and ``Link``, and ``request_id``), and takes the per-call options
    ``timeout=``, ``max_retries=`` and ``extra_headers=``.

    :param api_key: a ``mk_live_…`` key; defaults to the ``MERIDIAN_API_KEY`` environment variable.
    :param base_url: the API root including ``/v1``; defaults to ``MERIDIAN_BASE_URL``, else
        ``http://localhost:8080/v1``.
    :param max_retries: how many times a failed request is retried (connection errors, timeouts, 408, 429, 5xx
        other than 501); 0 disables retries. Default 2.
    :param timeout: seconds each phase of an attempt may take (connect, each read, write; default 60), a
        ``(connect, read)`` pair, an ``httpx.Timeout``, or ``None`` for no limit.
    :param default_headers: headers sent with every request (e.g. ``{"X-Request-Id": …}``).
    :param http_client: an httpx client of your own (proxies, TLS settings, event hooks); the SDK then leaves closing
        it to you.
    :raises MeridianError: when no API key is given and ``MERIDIAN_API_KEY`` is unset, or ``max_retries`` < 0.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: Optional[Timeout] = DEFAULT_TIMEOUT,
        *,
        default_headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        api_key, base_url = _settings(api_key, base_url)
        self._configure(api_key, base_url, max_retries, timeout, default_headers)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.Client()

    @cached_property
    def webhooks(self) -> WebhooksWithHelpers:
        """Webhook endpoints (``list_webhooks``, ``create_webhook``, ``get_webhook``, ``update_webhook``,
        ``delete_webhook``, ``rotate_webhook_secret``, ``list_webhook_deliveries``, ``test_webhook``) and the helpers
        ``verify``, ``unwrap`` and ``sign`` for the deliveries you receive."""
        return WebhooksWithHelpers(self)

    def with_options(
        self,
        *,
        max_retries: Optional[int] = None,
        timeout: Union[Timeout, None, NotGiven] = NOT_GIVEN,
        default_headers: Optional[Mapping[str, str]] = None,
    ) -> Meridian:
        """A copy of the client with other settings, sharing its connection pool: for a run of calls with other
        options (``client.with_options(max_retries=0).identity.get_me()``). Single calls can pass ``timeout=`` and
        ``max_retries=`` themselves. Closing the copy leaves the pool open: close the original.

        :param max_retries: retries after the first attempt (default: this client's).
        :param timeout: as the constructor's (default: this client's; ``None`` means no limit).
        :param default_headers: headers merged over this client's.
        """
        copy = Meridian(
            self.api_key,
            self.base_url,
            self.max_retries if max_retries is None else max_retries,
            self.timeout if isinstance(timeout, NotGiven) else timeout,
            default_headers={**self.default_headers, **(default_headers or {})},
            http_client=self._http,
        )
        return copy

    def paginate(self, list_method: Callable[P, Page[T]], /, *args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
        """Every item of a list operation across all pages, typed from the method: see ``meridian.paginate``.

        ``for project in client.paginate(client.projects.list_projects, status="AT_RISK", limit=50): …``

        :raises MeridianError: what a page request raises.
        """
        return paginate(list_method, *args, **kwargs)

    def wait_for_execution(
        self,
        execution_id: Union[str, UUID],
        interval: float = 1.0,
        timeout: float = 300.0,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> AgentExecution:
        """Polls ``GET /agents/executions/{executionId}`` until the run is COMPLETED or FAILED, and returns it.

        :param execution_id: the ``execution_id`` (a UUID or its string) from ``client.agents.run_agent(...)``.
        :param interval: seconds between polls.
        :param timeout: seconds to wait in all before giving up.
        :returns: the final ``AgentExecution``: ``output`` is set when ``status`` is COMPLETED, ``error`` when FAILED
            (a failed run is returned, not raised).
        :raises APITimeoutError: the execution is still PENDING or RUNNING after ``timeout`` seconds.
        :raises NotFoundError: no execution with this id in your tenant; other ``MeridianError`` s as any call.
        """
        deadline = time.monotonic() + timeout
        while True:
            execution = self.agents.get_agent_execution(execution_id)
            status = execution.status.value
            if status in TERMINAL_EXECUTION_STATUSES:
                return execution
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise APITimeoutError(f"execution {execution_id} still {status} after {timeout} s")
            sleep(min(interval, remaining))

    def close(self) -> None:
        """Closes the connection pool (unless you passed your own ``http_client``). The client is also a context
        manager: ``with meridian.Meridian() as client: …``."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Meridian(base_url={self.base_url!r}, max_retries={self.max_retries}, timeout={self.timeout!r})"


class AsyncMeridian(AsyncResourcesClient):
    """An asyncio client of the Meridian API: ``Meridian``'s methods, awaitable, on ``httpx.AsyncClient``.

    ::

        import asyncio, meridian

        async def main() -> None:
            async with meridian.AsyncMeridian() as client:   # MERIDIAN_API_KEY, MERIDIAN_BASE_URL
                me = await client.identity.get_me()
                async for project in client.paginate(client.projects.list_projects, status="AT_RISK"):
                    print(project.name)

        asyncio.run(main())

    Operations are grouped as the API reference groups them (by tag), one attribute per group, and each operation is
    a method named after its ``operationId`` in snake_case with the spec's description as docstring:
    ``projects``, ``milestones``, ``risks``, ``issues``, ``resources``, ``allocations``, ``agents``, ``webhooks``,
    ``identity`` (``get_me``, ``get_tenant``), ``api_keys`` and ``audit_logs``. Path ids and the body are positional,
    everything else is keyword-only. Each method has a ``…_with_response`` twin returning an ``APIResponse`` (``data``,
    ``status_code``, ``headers`` such as ``ETag`` and ``Link``, and ``request_id``), and takes the per-call options
    ``timeout=``, ``max_retries=`` and ``extra_headers=``.

    :param api_key: a ``mk_live_…`` key; defaults to the ``MERIDIAN_API_KEY`` environment variable.
    :param base_url: the API root including ``/v1``; defaults to ``MERIDIAN_BASE_URL``, else
        ``http://localhost:8080/v1``.
    :param max_retries: how many times a failed request is retried (connection errors, timeouts, 408, 429, 5xx
        other than 501); 0 disables retries. Default 2.
    :param timeout: seconds each phase of an attempt may take (connect, each read, write; default 60), a
        ``(connect, read)`` pair, an ``httpx.Timeout``, or ``None`` for no limit.
    :param default_headers: headers sent with every request (e.g. ``{"X-Request-Id": …}``).
    :param http_client: an httpx client of your own (proxies, TLS settings, event hooks); the SDK then leaves closing
        it to you.
    :raises MeridianError: when no API key is given and ``MERIDIAN_API_KEY`` is unset, or ``max_retries`` < 0.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: Optional[Timeout] = DEFAULT_TIMEOUT,
        *,
        default_headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        api_key, base_url = _settings(api_key, base_url)
        self._configure(api_key, base_url, max_retries, timeout, default_headers)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient()

    @cached_property
    def webhooks(self) -> AsyncWebhooksWithHelpers:
        """Webhook endpoints (awaitable operations) and the helpers ``verify``, ``unwrap`` and ``sign``."""
        return AsyncWebhooksWithHelpers(self)

    def with_options(
        self,
        *,
        max_retries: Optional[int] = None,
        timeout: Union[Timeout, None, NotGiven] = NOT_GIVEN,
        default_headers: Optional[Mapping[str, str]] = None,
    ) -> AsyncMeridian:
        """As ``Meridian.with_options``: a copy with other settings sharing the connection pool."""
        return AsyncMeridian(
            self.api_key,
            self.base_url,
            self.max_retries if max_retries is None else max_retries,
            self.timeout if isinstance(timeout, NotGiven) else timeout,
            default_headers={**self.default_headers, **(default_headers or {})},
            http_client=self._http,
        )

    def paginate(
        self, list_method: Callable[P, Awaitable[Page[T]]], /, *args: P.args, **kwargs: P.kwargs
    ) -> AsyncIterator[T]:
        """Every item of a list operation across all pages, for ``async for``: see ``meridian.async_paginate``.

        ``async for risk in client.paginate(client.risks.list_risks, severity="HIGH"): …``

        :raises MeridianError: what a page request raises.
        """
        return async_paginate(list_method, *args, **kwargs)

    async def wait_for_execution(
        self,
        execution_id: Union[str, UUID],
        interval: float = 1.0,
        timeout: float = 300.0,
    ) -> AgentExecution:
        """As ``Meridian.wait_for_execution``, waiting with ``asyncio.sleep``.

        :raises APITimeoutError: the execution is still PENDING or RUNNING after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            execution = await self.agents.get_agent_execution(execution_id)
            status = execution.status.value
            if status in TERMINAL_EXECUTION_STATUSES:
                return execution
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise APITimeoutError(f"execution {execution_id} still {status} after {timeout} s")
            await asyncio.sleep(min(interval, remaining))

    async def close(self) -> None:
        """Closes the connection pool (unless you passed your own ``http_client``). Also ``async with``."""
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"AsyncMeridian(base_url={self.base_url!r}, max_retries={self.max_retries}, timeout={self.timeout!r})"
