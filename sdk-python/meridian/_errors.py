"""Exceptions raised by the Meridian SDK, one class per family of HTTP status.

The server answers every error with an RFC 9457 problem document (``application/problem+json``)::

    {"type", "title", "status", "detail", "instance", "code", "requestId", "errors": [{"location", "path", "message"}]}

and the classes below carry those fields as attributes. The mapping from status to class follows the error table in
the API's user guide (``info.description`` of spec/openapi.yaml) and the class names of the OpenAI/Stainless SDKs.
Branch on ``code`` (stable, snake_case) rather than on ``title`` or ``detail``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Type

__all__ = [
    "MeridianError",
    "APIStatusError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "PreconditionFailedError",
    "UnprocessableEntityError",
    "RateLimitError",
    "InternalServerError",
    "APIConnectionError",
    "APITimeoutError",
    "APIResponseValidationError",
    "RequestValidationError",
    "WebhookVerificationError",
]


class MeridianError(Exception):
    """Base class of every exception the SDK raises.

    Attributes (all ``None`` or empty when the error did not come from an HTTP answer, e.g. a connection error):

    - ``status``: the HTTP status code (``int``).
    - ``code``: the problem's stable machine-readable code, e.g. ``"invalid_transition"``.
    - ``title``: the short summary of the problem type.
    - ``detail``: the explanation of this occurrence.
    - ``errors``: for validation errors, one ``{"location", "path", "message"}`` dict per offending field.
    - ``request_id``: the request's ``X-Request-Id`` (from the body's ``requestId`` or the response header); quote it
      when you report a problem.
    - ``body``: the decoded response body (a ``dict`` for JSON, else the text), or ``None``.
    - ``headers``: the response headers (a case-insensitive mapping), or an empty dict.
    """

    status: Optional[int]
    code: Optional[str]
    title: Optional[str]
    detail: Optional[str]
    errors: List[Dict[str, Any]]
    request_id: Optional[str]
    body: Any
    headers: Mapping[str, str]

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        code: Optional[str] = None,
        title: Optional[str] = None,
        detail: Optional[str] = None,
        errors: Optional[List[Dict[str, Any]]] = None,
        request_id: Optional[str] = None,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.errors = list(errors or [])
        self.request_id = request_id
        self.body = body
        self.headers = headers if headers is not None else {}


class APIStatusError(MeridianError):
    """The server answered with a non-2xx status. Subclasses name the common statuses; statuses without a class of
    their own (405, 413, 415, …) raise this class directly."""


class BadRequestError(APIStatusError):
    """400 ``validation_failed``: the request does not match the API description (wrong type or format, missing
    required field, unknown query parameter or body property). ``errors`` names each offending field."""


class AuthenticationError(APIStatusError):
    """401 ``unauthenticated``: no API key, or a malformed, unknown, expired or revoked one."""


class PermissionDeniedError(APIStatusError):
    """403 ``forbidden``: the key lacks the scope the operation requires (``read``, ``write`` or ``admin``)."""


class NotFoundError(APIStatusError):
    """404 ``not_found``: unknown address, or a record that does not exist in your tenant."""


class ConflictError(APIStatusError):
    """409 ``conflict`` or ``invalid_transition``: a duplicate unique value, a status change that is not allowed, or a
    request with the same ``Idempotency-Key`` still in flight."""


class PreconditionFailedError(APIStatusError):
    """412 ``precondition_failed``: ``If-Match`` does not match the record's current ``ETag``; nothing was written.
    Fetch the record again and retry the change on the fresh version."""


class UnprocessableEntityError(APIStatusError):
    """422 ``validation_failed`` or ``idempotency_key_reused``: a well-formed request that breaks a business rule
    (e.g. ``endDate`` before ``startDate``), or an ``Idempotency-Key`` reused with a different body."""


class RateLimitError(APIStatusError):
    """429 ``rate_limited``: the tenant's requests-per-minute limit is exhausted. Raised after the SDK's own retries
    (which honour ``Retry-After``) are used up; ``retry_after`` holds the server's advice in seconds, if any."""

    @property
    def retry_after(self) -> Optional[float]:
        """The ``Retry-After`` header in seconds, or ``None`` when absent or not a number of seconds."""
        value = self.headers.get("Retry-After")
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None


class InternalServerError(APIStatusError):
    """A 5xx answer: 500 ``internal_error`` (report the ``request_id``), 501 ``not_implemented`` (the operation is
    described but not built yet), 503 ``service_unavailable`` (a dependency is down; retried automatically)."""


class APIConnectionError(MeridianError):
    """No HTTP answer: the connection could not be made or broke (DNS, refused, reset, TLS). Retried automatically
    up to ``max_retries`` times before it is raised."""


class APITimeoutError(APIConnectionError):
    """The request took longer than the client's ``timeout`` (seconds, per attempt), or ``wait_for_execution`` ran out
    of time. Timed-out requests are retried like connection errors."""


class RequestValidationError(MeridianError, ValueError):
    """An argument breaks the spec's constraints and the request was not sent: a path id that is not a UUID
    (``get_project("not-a-uuid")``), a ``limit`` outside 1–100, a string longer than its ``maxLength``, a value that is
    not one of an enum's, a body of the wrong model. ``errors`` names each offending argument in the server's shape,
    ``{"location": "path" | "query" | "header" | "body", "path": <name on the wire>, "message"}``; ``status`` is
    ``None``. The pydantic ``ValidationError`` it wraps is the ``__cause__``. (A body model itself validates when you
    build it: ``RiskCreate(likelihood=9)`` raises pydantic's ``ValidationError`` in your code, before any call.)"""


class APIResponseValidationError(MeridianError):
    """A 2xx answer whose body does not match the operation's response model (a server newer or older than the
    SDK in an incompatible way, or a proxy's page). ``status``, ``request_id``, ``headers`` and the raw ``body``
    (text) are set."""


class WebhookVerificationError(MeridianError, ValueError):
    """A webhook delivery failed Standard Webhooks verification: missing headers, a bad or stale timestamp, or no
    matching signature. Answer the delivery with 400 and do not process it."""


_BY_STATUS: Dict[int, Type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def error_class_for_status(status: int) -> Type[APIStatusError]:
    """The exception class for an HTTP status: the table above, ``InternalServerError`` for 500–599, else
    ``APIStatusError``."""
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if 500 <= status <= 599:
        return InternalServerError
    return APIStatusError


def error_from_response(status: int, raw_body: Optional[bytes], headers: Mapping[str, str]) -> APIStatusError:
    """Builds the exception for a non-2xx answer from its status, raw body and headers.

    A problem+json body fills ``code``, ``title``, ``detail``, ``errors`` and ``request_id``; any other body is kept
    as text in ``body``, and the request id then comes from the ``X-Request-Id`` header.
    """
    text = raw_body.decode("utf-8", errors="replace") if raw_body else ""
    body: Any = text or None
    problem: Dict[str, Any] = {}
    if text:
        try:
            body = json.loads(text)
        except ValueError:
            pass
        else:
            if isinstance(body, dict):
                problem = body

    def text_field(name: str) -> Optional[str]:
        value = problem.get(name)
        return value if isinstance(value, str) else None

    raw_errors = problem.get("errors")
    errors = [e for e in raw_errors if isinstance(e, dict)] if isinstance(raw_errors, list) else []
    request_id = text_field("requestId") or headers.get("X-Request-Id")
    code = text_field("code")
    title = text_field("title")
    detail = text_field("detail")
    summary = detail or title or (text[:200] if text and not problem else "") or "HTTP error"
    message = f"{status}{f' {code}' if code else ''}: {summary}"
    if request_id:
        message += f" (request id {request_id})"
    return error_class_for_status(status)(
        message,
        status=status,
        code=code,
        title=title,
        detail=detail,
        errors=errors,
        request_id=request_id,
        body=body,
        headers=headers,
    )
