"""Meridian's Python SDK (beta).

``import meridian`` is the whole public surface:

- the clients ``Meridian`` (blocking) and ``AsyncMeridian`` (asyncio), one resource tree each
  (``client.projects.list(...)``, ``client.risks.create(...)``, ``client.webhooks.deliveries.list(webhook_id)``):
  calls return the data, ``client.<resource>.with_raw_response.<method>(...)`` the ``APIResponse``, lists a page
  that iterates every page; retries, idempotency keys, timeouts, per-call options, typed errors;
- the request and response models, ``meridian.models`` (``meridian.models.ProjectCreate``, ``RiskSeverity``, …);
- the webhook helpers ``verify_webhook`` / ``unwrap_webhook`` / ``sign_webhook`` (also ``meridian.webhooks`` and
  ``client.webhooks``) and the typed ``WebhookEvent``;
- the exception classes, all subclasses of ``MeridianError``.

Everything under ``meridian._generated`` (and every other ``_``-module) is internal: import from ``meridian`` and
``meridian.models`` only.
"""

from . import models
from ._client import AsyncMeridian, Meridian
from ._errors import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    MeridianError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    RequestValidationError,
    UnprocessableEntityError,
    WebhookVerificationError,
)
from ._generated.version import __version__
from ._pagination import AsyncPage, AsyncPaginator, SyncPage
from ._response import APIResponse
from ._types import DEFAULT_BASE_URL, NOT_GIVEN, NotGiven, Timeout
from ._webhooks import (
    HeadersLike,
    UnknownWebhookEvent,
    WebhookEvent,
    WebhookEventName,
    Webhooks,
    sign_webhook,
    unwrap_webhook,
    verify_webhook,
    webhooks,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "Meridian",
    "AsyncMeridian",
    "APIResponse",
    "Timeout",
    "NOT_GIVEN",
    "NotGiven",
    "models",
    "SyncPage",
    "AsyncPage",
    "AsyncPaginator",
    "webhooks",
    "Webhooks",
    "WebhookEvent",
    "WebhookEventName",
    "UnknownWebhookEvent",
    "HeadersLike",
    "verify_webhook",
    "unwrap_webhook",
    "sign_webhook",
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
    "__version__",
]
