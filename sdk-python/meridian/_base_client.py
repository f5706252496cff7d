"""The one request path every operation goes through, for the sync and the async client alike.

The generated resource methods (``meridian/_generated/resources.py``) hand an ``Operation`` and their arguments to
``SyncAPIClient`` / ``AsyncAPIClient``, which:

1. sort and check the arguments against the spec (``meridian._operation.split_arguments``; a failure raises
   ``RequestValidationError`` before anything is sent) and add the client's headers and, on a POST, one
   ``Idempotency-Key`` for every attempt;
2. send the request over httpx, retrying per ``meridian._transport``'s policy (the same on both clients);
3. turn a non-2xx answer into the ``MeridianError`` subclass for its status, and a 2xx answer into an ``APIResponse``
   (the parsed model, status, headers and ``X-Request-Id``), or a page of a list.

Nothing here knows an operation by name: a new operation in the spec needs no change in this file.
"""

from __future__ import annotations

import asyncio
import platform
import time
import uuid
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Dict, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union

import httpx
import pydantic

from ._errors import APIConnectionError, APIResponseValidationError, APITimeoutError, MeridianError, error_from_response
from ._generated.version import __version__
from ._operation import Operation, split_arguments
from ._pagination import AsyncPage, AsyncPaginator, SyncPage
from ._response import APIResponse
from ._transport import retry_delay, should_retry_status
from ._types import Timeout, as_httpx_timeout

__all__ = ["AsyncAPIClient", "AsyncAPIResource", "BaseClient", "SyncAPIClient", "SyncAPIResource", "USER_AGENT"]

T = TypeVar("T")
I = TypeVar("I")  # noqa: E741 -- the record type of a page

CLIENT_NAME = f"meridian-sdk-python/{__version__}"
"""The SDK's name and version, as sent in ``X-Meridian-Client``."""
USER_AGENT = (
    f"{CLIENT_NAME} {platform.python_implementation()}/{platform.python_version()} "
    f"({platform.system() or 'unknown'}; {platform.machine() or 'unknown'}) httpx/{httpx.__version__}"
)
"""``meridian-sdk-python/<version> CPython/3.12.1 (Linux; x86_64) httpx/0.28.1``: the SDK's and the runtime's."""


@dataclass
class _Call:
    """One call, ready to send: the request, its operation and the retries it may use."""

    operation: Operation[Any]
    request: httpx.Request
    max_retries: int
    timeout: Optional[Timeout]


class BaseClient:
    """What both clients share: configuration, request building and response parsing (no I/O)."""

    api_key: str
    base_url: str
    max_retries: int
    timeout: Optional[Timeout]
    default_headers: Dict[str, str]
    _http: Union[httpx.Client, httpx.AsyncClient]

    def _configure(
        self,
        api_key: str,
        base_url: str,
        max_retries: int,
        timeout: Optional[Timeout],
        default_headers: Optional[Mapping[str, str]],
    ) -> None:
        if max_retries < 0:
            raise MeridianError("max_retries must be >= 0")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.timeout = timeout
        self.default_headers = dict(default_headers or {})

    def _build(
        self, operation: Operation[Any], path_args: Sequence[Any], body: Any, kwargs: Mapping[str, Any]
    ) -> _Call:
        arguments = dict(kwargs)
        extra_headers: Optional[Mapping[str, str]] = arguments.pop("extra_headers", None)
        timeout: Optional[Timeout] = arguments.pop("timeout", None)
        max_retries: Optional[int] = arguments.pop("max_retries", None)
        parts = split_arguments(operation, path_args, body, arguments)
        headers = {
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
            "X-Meridian-Client": CLIENT_NAME,
            **self.default_headers,
            "Authorization": f"Bearer {self.api_key}",
            **parts.headers,
            **(extra_headers or {}),
        }
        if parts.content is not None:
            headers["Content-Type"] = "application/json"
        # Every POST carries an Idempotency-Key, the same on every attempt, so a retried create never creates
        # twice (spec: "Idempotency").
        if operation.method == "POST" and not any(k.lower() == "idempotency-key" for k in headers):
            headers["Idempotency-Key"] = str(uuid.uuid4())
        retries = self.max_retries if max_retries is None else max_retries
        if retries < 0:
            raise MeridianError("max_retries must be >= 0")
        effective = self.timeout if timeout is None else timeout
        root = self.base_url
        if operation.server is not None:
            root = str(httpx.URL(self.base_url + "/").join(operation.server)).rstrip("/")
        request = self._http.build_request(
            operation.method,
            root + parts.path,
            params=parts.query,
            headers=headers,
            content=parts.content,
            timeout=as_httpx_timeout(effective),
        )
        return _Call(operation, request, retries, effective)

    def _parse(self, call: _Call, response: httpx.Response) -> APIResponse[Any]:
        request_id = response.headers.get("X-Request-Id")
        model = call.operation.response
        data: Any = None
        if model is not None and response.status_code != 204:
            text = response.text
            parser: Any = model  # a generated model class: from_json() returns Optional[Self]
            try:
                data = parser.from_json(text)
            except (pydantic.ValidationError, ValueError) as exc:
                raise APIResponseValidationError(
                    f"{call.operation.operation_id}: the {response.status_code} answer does not match "
                    f"{model.__name__}: {exc}",
                    status=response.status_code,
                    request_id=request_id,
                    body=text,
                    headers=response.headers,
                ) from exc
            if data is None:
                raise APIResponseValidationError(
                    f"{call.operation.operation_id}: empty {response.status_code} answer",
                    status=response.status_code,
                    request_id=request_id,
                    headers=response.headers,
                )
        return APIResponse(data, response.status_code, response.headers, request_id, response)

    def _outcome(self, call: _Call, sent: Union[httpx.Response, Exception]) -> Tuple[Any, bool]:
        """What one attempt gave: ``(APIResponse, False)`` on success, ``(error, retryable)`` otherwise."""
        if isinstance(sent, httpx.Response):
            if 200 <= sent.status_code <= 299:
                return self._parse(call, sent), False
            error = error_from_response(sent.status_code, sent.content, sent.headers)
            return error, should_retry_status(sent.status_code)
        wrapped: MeridianError
        if isinstance(sent, httpx.TimeoutException):
            wrapped = APITimeoutError(f"request timed out (timeout {call.timeout!r} s): {sent!r}")
        else:
            wrapped = APIConnectionError(f"connection to the Meridian API failed: {sent!r}")
        wrapped.__cause__ = sent
        return wrapped, True


def _delay(retries: int, sent: Union[httpx.Response, Exception]) -> float:
    return retry_delay(retries, sent.headers if isinstance(sent, httpx.Response) else None)


class SyncAPIClient(BaseClient):
    """The blocking transport (``httpx.Client``): what ``meridian.Meridian`` is built on."""

    _http: httpx.Client
    _owns_http: bool

    def _send(self, call: _Call) -> APIResponse[Any]:
        retries = 0
        while True:
            sent: Union[httpx.Response, Exception]
            try:
                sent = self._http.send(call.request)
            except httpx.TransportError as exc:
                sent = exc
            result, retryable = self._outcome(call, sent)
            if isinstance(result, APIResponse):
                return result
            if not retryable or retries >= call.max_retries:
                raise result
            time.sleep(_delay(retries, sent))
            retries += 1

    def call(
        self, operation: Operation[T], path_args: Sequence[Any], body: Any, kwargs: Mapping[str, Any]
    ) -> APIResponse[T]:
        """Sends one operation, with retries, and returns its parsed answer; what every generated method does.

        :param path_args: the path parameters, in the path's order.
        :param body: the request model (or a mapping in the API's shape), or ``None``.
        :param kwargs: query and header parameters and body fields by Python name, and the per-call options
            ``extra_headers``, ``timeout`` and ``max_retries``.
        :raises RequestValidationError: an argument breaks the spec's constraints (nothing is sent).
        :raises APIStatusError: (a subclass per status) a non-2xx answer, once retries are used up.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        response: APIResponse[T] = self._send(self._build(operation, path_args, body, kwargs))
        return response

    def page_response(
        self, operation: Operation[Any], item: Type[I], path_args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> APIResponse[SyncPage[I]]:
        """A list operation's first page (``kwargs``' ``offset``, else 0) in an ``APIResponse``."""
        answer = self.call(operation, path_args, None, kwargs)

        def fetch(offset: int) -> SyncPage[I]:
            return self.page(operation, item, path_args, {**kwargs, "offset": offset})

        page: SyncPage[I] = SyncPage(answer.data, fetch)
        return APIResponse(page, answer.status_code, answer.headers, answer.request_id, answer.http_response)

    def page(
        self, operation: Operation[Any], item: Type[I], path_args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> SyncPage[I]:
        """A list operation's first page; iterating it fetches the following ones."""
        return self.page_response(operation, item, path_args, kwargs).data


class AsyncAPIClient(BaseClient):
    """The asyncio transport (``httpx.AsyncClient``): what ``meridian.AsyncMeridian`` is built on. Same policy as
    ``SyncAPIClient``; waits between attempts with ``asyncio.sleep``."""

    _http: httpx.AsyncClient
    _owns_http: bool

    async def _send(self, call: _Call) -> APIResponse[Any]:
        retries = 0
        while True:
            sent: Union[httpx.Response, Exception]
            try:
                sent = await self._http.send(call.request)
            except httpx.TransportError as exc:
                sent = exc
            result, retryable = self._outcome(call, sent)
            if isinstance(result, APIResponse):
                return result
            if not retryable or retries >= call.max_retries:
                raise result
            await asyncio.sleep(_delay(retries, sent))
            retries += 1

    async def call(
        self, operation: Operation[T], path_args: Sequence[Any], body: Any, kwargs: Mapping[str, Any]
    ) -> APIResponse[T]:
        """As ``SyncAPIClient.call``, awaited."""
        response: APIResponse[T] = await self._send(self._build(operation, path_args, body, kwargs))
        return response

    async def page_response(
        self, operation: Operation[Any], item: Type[I], path_args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> APIResponse[AsyncPage[I]]:
        """As ``SyncAPIClient.page_response``, awaited."""
        answer = await self.call(operation, path_args, None, kwargs)

        def fetch(offset: int) -> Awaitable[AsyncPage[I]]:
            return self._first_page(operation, item, path_args, {**kwargs, "offset": offset})

        page: AsyncPage[I] = AsyncPage(answer.data, fetch)
        return APIResponse(page, answer.status_code, answer.headers, answer.request_id, answer.http_response)

    async def _first_page(
        self, operation: Operation[Any], item: Type[I], path_args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> AsyncPage[I]:
        return (await self.page_response(operation, item, path_args, kwargs)).data

    def page(
        self, operation: Operation[Any], item: Type[I], path_args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> AsyncPaginator[I]:
        """A list operation's first page, to ``await``, or every record of every page, for ``async for``."""
        first: Callable[[], Awaitable[AsyncPage[I]]] = lambda: self._first_page(operation, item, path_args, kwargs)
        return AsyncPaginator(first)


class SyncAPIResource:
    """Base of the generated resource classes (``client.projects``, ``client.risks`` …) of ``Meridian``."""

    def __init__(self, client: SyncAPIClient) -> None:
        self._client = client


class AsyncAPIResource:
    """Base of the generated resource classes of ``AsyncMeridian``."""

    def __init__(self, client: AsyncAPIClient) -> None:
        self._client = client

