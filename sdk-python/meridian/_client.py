"""The ``Meridian`` client: configuration, the generated operation groups, and the helpers built on them."""

from __future__ import annotations

import os
import time
from functools import cached_property
from types import TracebackType
from typing import Any, Callable, Dict, Iterator, Optional, Type, TypeVar, Union
from uuid import UUID

import meridian_client.api
from meridian_client.api.agents_api import AgentsApi
from meridian_client.api.allocations_api import AllocationsApi
from meridian_client.api.api_keys_api import APIKeysApi
from meridian_client.api.audit_logs_api import AuditLogsApi
from meridian_client.api.identity_api import IdentityApi
from meridian_client.api.issues_api import IssuesApi
from meridian_client.api.milestones_api import MilestonesApi
from meridian_client.api.projects_api import ProjectsApi
from meridian_client.api.resources_api import ResourcesApi
from meridian_client.api.risks_api import RisksApi
from meridian_client.api.webhooks_api import WebhooksApi
from meridian_client.configuration import Configuration
from meridian_client.models.agent_execution import AgentExecution

from ._errors import APITimeoutError, MeridianError
from ._pagination import Page, paginate
from ._transport import RetryingApiClient, Timeout
from ._version import __version__

__all__ = ["Meridian", "DEFAULT_BASE_URL"]

DEFAULT_BASE_URL = "http://localhost:8080/v1"
"""Where ``npm start`` serves the API; used when neither ``base_url`` nor ``MERIDIAN_BASE_URL`` is set."""

TERMINAL_EXECUTION_STATUSES = frozenset({"COMPLETED", "FAILED"})
"""Execution statuses after which an agent run never changes again (spec: ``ExecutionStatus``)."""

T = TypeVar("T")


class Meridian:
    """A client of the Meridian API.

    ::

        import meridian

        client = meridian.Meridian()                     # MERIDIAN_API_KEY, MERIDIAN_BASE_URL
        page = client.projects.list_projects(status="AT_RISK", limit=10)
        risk = client.risks.create_risk(meridian.models.RiskCreate(title="…", project_id=…, likelihood=4, impact=3))

    Operations are grouped as the API reference groups them (by tag), one attribute per group, and each operation is
    a method named after its ``operationId`` in snake_case with the spec's description as docstring:
    ``projects``, ``milestones``, ``risks``, ``issues``, ``resources``, ``allocations``, ``agents``, ``webhooks``,
    ``identity`` (``get_me``, ``get_tenant``), ``api_keys`` and ``audit_logs``. A group added to the API later is
    reachable the same way (``client.<tag in snake_case>``) as soon as the SDK is regenerated. Each method has a
    ``…_with_http_info`` twin that returns status, headers (``X-Request-Id``, ``ETag``, ``Link``) and data.

    :param api_key: a ``mk_live_…`` key; defaults to the ``MERIDIAN_API_KEY`` environment variable.
    :param base_url: the API root including ``/v1``; defaults to ``MERIDIAN_BASE_URL``, else
        ``http://localhost:8080/v1``.
    :param max_retries: how many times a failed request is retried (connection errors, timeouts, 408, 429, 5xx
        other than 501); 0 disables retries.
    :param timeout: seconds each attempt may take (connect plus read), or a ``(connect, read)`` pair.
    :param default_headers: headers sent with every request (e.g. ``{"X-Request-Id": …}``).
    :raises MeridianError: when no API key is given and ``MERIDIAN_API_KEY`` is unset.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        max_retries: int = 2,
        timeout: Optional[Timeout] = 60.0,
        *,
        default_headers: Optional[Dict[str, str]] = None,
    ) -> None:
        api_key = api_key or os.environ.get("MERIDIAN_API_KEY")
        if not api_key:
            raise MeridianError("no API key: pass Meridian(api_key=...) or set MERIDIAN_API_KEY")
        base_url = base_url or os.environ.get("MERIDIAN_BASE_URL") or DEFAULT_BASE_URL
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        configuration = Configuration(host=self.base_url, access_token=api_key)
        self.api_client = RetryingApiClient(configuration, max_retries=max_retries, timeout=timeout)
        """The generated ``ApiClient`` (with retries); pass it to any generated ``…Api`` class yourself if needed."""
        self.api_client.user_agent = f"meridian-python/{__version__}"
        self.api_client.default_headers.update(default_headers or {})

    @property
    def max_retries(self) -> int:
        """Retries after the first attempt."""
        return int(self.api_client.max_retries)

    @property
    def timeout(self) -> Optional[Timeout]:
        """Default per-attempt timeout in seconds."""
        timeout: Optional[Timeout] = self.api_client.timeout
        return timeout

    # One attribute per tag of the spec. Typed for editors; `__getattr__` below serves tags added later.
    @cached_property
    def projects(self) -> ProjectsApi:
        """Projects: list (filter ``status``), create, get (with milestones, team, budget summary), update."""
        return ProjectsApi(self.api_client)

    @cached_property
    def milestones(self) -> MilestonesApi:
        """Milestones of a project: list, create, get, update, delete."""
        return MilestonesApi(self.api_client)

    @cached_property
    def risks(self) -> RisksApi:
        """Risks: list (filters ``project_id``, ``status``, ``severity``), create, get, update."""
        return RisksApi(self.api_client)

    @cached_property
    def issues(self) -> IssuesApi:
        """Issues: list, create, get, update."""
        return IssuesApi(self.api_client)

    @cached_property
    def resources(self) -> ResourcesApi:
        """Resources (people): list, create, get, update, availability."""
        return ResourcesApi(self.api_client)

    @cached_property
    def allocations(self) -> AllocationsApi:
        """Allocations of resources to projects and their over-allocation conflicts."""
        return AllocationsApi(self.api_client)

    @cached_property
    def agents(self) -> AgentsApi:
        """AI agents: catalogue, run, executions (see ``wait_for_execution``), ask."""
        return AgentsApi(self.api_client)

    @cached_property
    def webhooks(self) -> WebhooksApi:
        """Webhook endpoints: list, create, get, update, delete, rotate secret, deliveries, test."""
        return WebhooksApi(self.api_client)

    @cached_property
    def identity(self) -> IdentityApi:
        """The caller: ``get_me()`` (user, key, tenant) and ``get_tenant()`` (plan, currency, rate limit)."""
        return IdentityApi(self.api_client)

    @cached_property
    def api_keys(self) -> APIKeysApi:
        """API keys of the tenant: list, create (secret shown once), revoke."""
        return APIKeysApi(self.api_client)

    @cached_property
    def audit_logs(self) -> AuditLogsApi:
        """The append-only audit log."""
        return AuditLogsApi(self.api_client)

    def __getattr__(self, name: str) -> Any:
        """Any other generated group, by its tag in snake_case (``client.time_entries`` → ``TimeEntriesApi``)."""
        wanted = name.replace("_", "").lower() + "api"
        for class_name in dir(meridian_client.api):
            if class_name.lower() == wanted:
                api = getattr(meridian_client.api, class_name)(self.api_client)
                setattr(self, name, api)
                return api
        raise AttributeError(f"{type(self).__name__!s} has no attribute or API group {name!r}")

    def paginate(self, list_method: Callable[..., Page[T]], /, **params: Any) -> Iterator[T]:
        """Every item of a list operation across all pages; see ``meridian.paginate``."""
        return paginate(list_method, **params)

    def wait_for_execution(
        self,
        execution_id: Union[str, UUID],
        interval: float = 1.0,
        timeout: float = 300.0,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> AgentExecution:
        """Polls ``GET /agents/executions/{executionId}`` until the run is COMPLETED or FAILED, and returns it.

        :param execution_id: the ``executionId`` (a UUID or its string) from ``client.agents.run_agent(...)``.
        :param interval: seconds between polls.
        :param timeout: seconds to wait in all before giving up.
        :returns: the final ``AgentExecution``: ``output`` is set when ``status`` is COMPLETED, ``error`` when FAILED
            (a failed run is returned, not raised).
        :raises APITimeoutError: the execution is still PENDING or RUNNING after ``timeout`` seconds.
        :raises NotFoundError: no execution with this id in your tenant; other ``MeridianError`` s as any call.
        """
        deadline = time.monotonic() + timeout
        while True:
            execution = self.agents.get_agent_execution(UUID(str(execution_id)))
            status = getattr(execution.status, "value", execution.status)
            if status in TERMINAL_EXECUTION_STATUSES:
                return execution
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise APITimeoutError(f"execution {execution_id} still {status} after {timeout} s")
            sleep(min(interval, remaining))

    def close(self) -> None:
        """Closes the pooled connections. The client is also a context manager."""
        self.api_client.rest_client.pool_manager.clear()

    def __enter__(self) -> Meridian:
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
