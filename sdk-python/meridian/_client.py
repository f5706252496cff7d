"""The clients: ``Meridian`` (blocking) and ``AsyncMeridian`` (asyncio), one resource tree each.

The tree is generated (``meridian/_generated/resources.py``: ``client.projects.list``, ``client.webhooks.deliveries``
…, with the same names as the TypeScript SDK's in snake_case). This file adds what generation cannot know: polling
an agent execution to its end (``client.agents.run_and_poll``, ``client.agents.executions.poll``), the webhook
helpers beside the webhook endpoint operations (``client.webhooks.unwrap``), and the client's own settings.
"""

from __future__ import annotations

import asyncio
import os
import time
from functools import cached_property
from types import TracebackType
from typing import Any, Callable, Mapping, Optional, Type, Union, overload
from uuid import UUID

import httpx
from typing_extensions import Self, Unpack

from ._errors import APITimeoutError, MeridianError
from ._generated.models.agent_execution import AgentExecution
from ._generated.models.agent_run_request import AgentRunRequest
from ._generated.params import AgentRunRequestParam
from ._generated.resources import (
    AgentsExecutionsResource,
    AgentsResource,
    AsyncAgentsExecutionsResource,
    AsyncAgentsResource,
    AsyncResourcesClient,
    AsyncWebhooksResource,
    SyncResourcesClient,
    WebhooksResource,
)
from ._types import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, NOT_GIVEN, NotGiven, Timeout
from ._webhooks import Webhooks

__all__ = ["Meridian", "AsyncMeridian", "TERMINAL_EXECUTION_STATUSES"]

TERMINAL_EXECUTION_STATUSES = frozenset({"COMPLETED", "FAILED"})
"""Execution statuses after which an agent run never changes again (spec: ``ExecutionStatus``)."""

RunBody = Union[AgentRunRequest, AgentRunRequestParam]


def _settings(api_key: Optional[str], base_url: Optional[str]) -> tuple[str, str]:
    api_key = api_key or os.environ.get("MERIDIAN_API_KEY")
    if not api_key:
        raise MeridianError("no API key: pass Meridian(api_key=...) or set MERIDIAN_API_KEY (keys look like mk_live_…)")
    return api_key, base_url or os.environ.get("MERIDIAN_BASE_URL") or DEFAULT_BASE_URL


def _still_running(execution_id: Union[str, UUID], status: str, timeout: float) -> APITimeoutError:
    return APITimeoutError(f"execution {execution_id} still {status} after {timeout} s")


class ExecutionsWithPolling(AgentsExecutionsResource):
    """``client.agents.executions``: ``list``, ``retrieve`` and ``poll``."""

    def poll(
        self,
        execution_id: Union[str, UUID],
        *,
        poll_interval: float = 1.0,
        timeout: float = 300.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> AgentExecution:
        """Polls ``GET /agents/executions/{executionId}`` until the run is COMPLETED or FAILED, and returns it.

        :param execution_id: the ``execution_id`` (a UUID or its string) from ``client.agents.run(...)``.
        :param poll_interval: seconds between polls.
        :param timeout: seconds to wait in all before giving up.
        :returns: the final ``AgentExecution``: ``output`` is set when ``status`` is COMPLETED, ``error`` when FAILED
            (a failed run is returned, not raised).
        :raises APITimeoutError: the execution is still PENDING or RUNNING after ``timeout`` seconds.
        :raises NotFoundError: no execution with this id in your tenant; other ``MeridianError`` s as any call.
        """
        deadline = time.monotonic() + timeout
        while True:
            execution = self.retrieve(execution_id)
            if execution.status.value in TERMINAL_EXECUTION_STATUSES:
                return execution
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _still_running(execution_id, execution.status.value, timeout)
            sleep(min(poll_interval, remaining))


class AgentsWithPolling(AgentsResource):
    """``client.agents``: ``list``, ``run``, ``ask``, ``run_and_poll`` and ``executions``."""

    @cached_property
    def executions(self) -> ExecutionsWithPolling:
        """``client.agents.executions``: ``list``, ``retrieve``, ``poll``."""
        return ExecutionsWithPolling(self._client)

    @overload
    def run_and_poll(self, body: RunBody, /, *, poll_interval: float = 1.0, timeout: float = 300.0) -> AgentExecution:
        ...

    @overload
    def run_and_poll(
        self, *, poll_interval: float = 1.0, timeout: float = 300.0, **fields: Unpack[AgentRunRequestParam]
    ) -> AgentExecution:
        ...

    def run_and_poll(
        self, body: Optional[RunBody] = None, *, poll_interval: float = 1.0, timeout: float = 300.0, **fields: Any
    ) -> AgentExecution:
        """Starts an agent run (``client.agents.run``) and polls it until it is COMPLETED or FAILED
        (``client.agents.executions.poll``)::

            execution = client.agents.run_and_poll(agent_id="budget-health")
            print(execution.status, execution.output.summary if execution.output else execution.error)

        :param body: the run as an ``AgentRunRequest`` or a dict, or its fields as keyword arguments (``agent_id``,
            ``scope``, ``depth``, ``as_of``).
        :param poll_interval: seconds between polls; ``timeout``: seconds to wait in all.
        :raises APITimeoutError: the execution is still PENDING or RUNNING after ``timeout`` seconds.
        """
        run = self.run(body) if body is not None else self.run(**fields)
        return self.executions.poll(run.execution_id, poll_interval=poll_interval, timeout=timeout)


class AsyncExecutionsWithPolling(AsyncAgentsExecutionsResource):
    """``AsyncMeridian().agents.executions``: ``list``, ``retrieve`` and ``poll``."""

    async def poll(
        self, execution_id: Union[str, UUID], *, poll_interval: float = 1.0, timeout: float = 300.0
    ) -> AgentExecution:
        """As ``ExecutionsWithPolling.poll``, waiting with ``asyncio.sleep``.

        :raises APITimeoutError: the execution is still PENDING or RUNNING after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            execution = await self.retrieve(execution_id)
            if execution.status.value in TERMINAL_EXECUTION_STATUSES:
                return execution
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _still_running(execution_id, execution.status.value, timeout)
            await asyncio.sleep(min(poll_interval, remaining))


class AsyncAgentsWithPolling(AsyncAgentsResource):
    """``AsyncMeridian().agents``: ``list``, ``run``, ``ask``, ``run_and_poll`` and ``executions``."""

    @cached_property
    def executions(self) -> AsyncExecutionsWithPolling:
        """``AsyncMeridian().agents.executions``: ``list``, ``retrieve``, ``poll``."""
        return AsyncExecutionsWithPolling(self._client)

    @overload
    async def run_and_poll(
        self, body: RunBody, /, *, poll_interval: float = 1.0, timeout: float = 300.0
    ) -> AgentExecution: ...

    @overload
    async def run_and_poll(
        self, *, poll_interval: float = 1.0, timeout: float = 300.0, **fields: Unpack[AgentRunRequestParam]
    ) -> AgentExecution: ...

    async def run_and_poll(
        self, body: Optional[RunBody] = None, *, poll_interval: float = 1.0, timeout: float = 300.0, **fields: Any
    ) -> AgentExecution:
        """As ``AgentsWithPolling.run_and_poll``, awaited.

        :raises APITimeoutError: the execution is still PENDING or RUNNING after ``timeout`` seconds.
        """
        run = await (self.run(body) if body is not None else self.run(**fields))
        return await self.executions.poll(run.execution_id, poll_interval=poll_interval, timeout=timeout)


class WebhooksWithHelpers(WebhooksResource, Webhooks):
    """``client.webhooks``: the webhook endpoint operations (``list``, ``create``, ``rotate_secret``, ``test``,
    ``deliveries`` …) and the helpers ``verify``, ``unwrap`` and ``sign`` for the deliveries you receive."""


class AsyncWebhooksWithHelpers(AsyncWebhooksResource, Webhooks):
    """``AsyncMeridian().webhooks``: the endpoint operations (awaitable) and the (synchronous) helpers."""


class _Lifecycle:
    """The constructor's settings, shared by both clients."""

    api_key: str
    base_url: str
    max_retries: int
    timeout: Optional[Timeout]
    default_headers: dict[str, str]

    def _options(
        self, max_retries: Optional[int], timeout: Union[Timeout, None, NotGiven], headers: Optional[Mapping[str, str]]
    ) -> dict[str, Any]:
        return {
            "api_key": self.api_key,
            "base_url": self.base_url,
            "max_retries": self.max_retries if max_retries is None else max_retries,
            "timeout": self.timeout if isinstance(timeout, NotGiven) else timeout,
            "default_headers": {**self.default_headers, **(headers or {})},
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r}, max_retries={self.max_retries}, timeout={self.timeout!r})"


class Meridian(_Lifecycle, SyncResourcesClient):
    """A blocking client of the Meridian API (``AsyncMeridian`` is the asyncio one, with the same tree).

    ::

        import meridian

        client = meridian.Meridian()                     # MERIDIAN_API_KEY, MERIDIAN_BASE_URL
        for project in client.projects.list(status="AT_RISK"):
            print(project.name)
        risk = client.risks.create(title="Flood", project_id=project.id, likelihood=3, impact=4)
        answer = client.risks.with_raw_response.retrieve(risk.id)   # .data, .headers, .request_id

    One attribute per resource (``projects``, ``projects.milestones``, ``projects.status_reports``,
    ``status_reports``, ``risks``, ``issues``, ``resources``, ``allocations``, ``agents``, ``webhooks``, ``me``,
    ``tenant``, ``api_keys``, ``audit_logs``), one method per operation (``list``, ``create``, ``retrieve``,
    ``update``, ``delete`` or its own verb). Every method takes the per-call options ``timeout=``, ``max_retries=``
    and ``extra_headers=``.

    :param api_key: a ``mk_live_…`` key; defaults to the ``MERIDIAN_API_KEY`` environment variable.
    :param base_url: the API root including ``/v1``; defaults to ``MERIDIAN_BASE_URL``, else
        ``http://localhost:8080/v1``.
    :param max_retries: how many times a failed request is retried (connection errors, timeouts, 408, 429, 5xx
        other than 501); 0 disables retries. Default 2.
    :param timeout: seconds each phase of an attempt may take (connect, each read, write; default 60), a
        ``(connect, read)`` pair, an ``httpx.Timeout``, or ``None`` for no limit.
    :param default_headers: headers sent with every request.
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
    def agents(self) -> AgentsWithPolling:
        """``client.agents``: ``list``, ``run``, ``ask``, ``run_and_poll``, ``executions``."""
        return AgentsWithPolling(self)

    @cached_property
    def webhooks(self) -> WebhooksWithHelpers:
        """``client.webhooks``: the endpoint operations, ``deliveries``, and ``verify`` / ``unwrap`` / ``sign``."""
        return WebhooksWithHelpers(self)

    def with_options(
        self,
        *,
        max_retries: Optional[int] = None,
        timeout: Union[Timeout, None, NotGiven] = NOT_GIVEN,
        default_headers: Optional[Mapping[str, str]] = None,
    ) -> Meridian:
        """A copy of the client with other settings, sharing its connection pool: for a run of calls with other
        options (``client.with_options(max_retries=0).me.retrieve()``). Closing the copy leaves the pool open."""
        return Meridian(**self._options(max_retries, timeout, default_headers), http_client=self._http)

    def close(self) -> None:
        """Closes the connection pool (unless you passed your own ``http_client``); also ``with``."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]
    ) -> None:
        self.close()


class AsyncMeridian(_Lifecycle, AsyncResourcesClient):
    """An asyncio client of the Meridian API: ``Meridian``'s tree, awaitable, on ``httpx.AsyncClient``.

    ::

        async with meridian.AsyncMeridian() as client:   # MERIDIAN_API_KEY, MERIDIAN_BASE_URL
            me = await client.me.retrieve()
            async for project in client.projects.list(status="AT_RISK"):
                print(project.name)

    Takes ``Meridian``'s arguments (an ``httpx.AsyncClient`` as ``http_client=``).

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
    def agents(self) -> AsyncAgentsWithPolling:
        """``client.agents``: ``list``, ``run``, ``ask``, ``run_and_poll``, ``executions``."""
        return AsyncAgentsWithPolling(self)

    @cached_property
    def webhooks(self) -> AsyncWebhooksWithHelpers:
        """``client.webhooks``: the endpoint operations, ``deliveries``, and ``verify`` / ``unwrap`` / ``sign``."""
        return AsyncWebhooksWithHelpers(self)

    def with_options(
        self,
        *,
        max_retries: Optional[int] = None,
        timeout: Union[Timeout, None, NotGiven] = NOT_GIVEN,
        default_headers: Optional[Mapping[str, str]] = None,
    ) -> AsyncMeridian:
        """As ``Meridian.with_options``: a copy with other settings sharing the connection pool."""
        return AsyncMeridian(**self._options(max_retries, timeout, default_headers), http_client=self._http)

    async def close(self) -> None:
        """Closes the connection pool (unless you passed your own ``http_client``); also ``async with``."""
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]
    ) -> None:
        await self.close()
