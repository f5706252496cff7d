"""Meridian's Python SDK (beta).

``import meridian`` is the whole public surface:

- the clients ``Meridian`` (blocking) and ``AsyncMeridian`` (asyncio): retries, idempotency keys, timeouts, per-call
  options, typed errors, ``paginate``, ``wait_for_execution``;
- the request and response models, ``meridian.models`` (``meridian.models.ProjectCreate``, ``RiskSeverity``, …);
- the webhook helpers ``verify_webhook`` / ``unwrap_webhook`` / ``sign_webhook`` (also ``meridian.webhooks`` and
  ``client.webhooks``) and the typed ``WebhookEvent``;
- the exception classes, all subclasses of ``MeridianError``.

Everything under ``meridian._generated`` (and every other ``_``-module) is internal: import from ``meridian`` and
``meridian.models`` only.
"""

from . import models
from ._base_client import DEFAULT_BASE_URL, NOT_GIVEN, APIResponse, NotGiven, Timeout
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
from ._pagination import Page, async_paginate, paginate
from ._version import __version__
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
    "Page",
    "paginate",
    "async_paginate",
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
