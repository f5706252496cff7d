"""Meridian's Python SDK (beta).

``import meridian`` gives the hand-written layer: the ``Meridian`` client (retries, idempotency keys, timeouts, typed
errors), ``paginate``, ``Meridian.wait_for_execution``, ``verify_webhook`` / ``unwrap_webhook``, and the exception
classes. The request and response models are generated from the API description and re-exported as
``meridian.models`` (``meridian.models.ProjectCreate``, ``meridian.models.RiskSeverity``, …).
"""

from . import models

from ._client import DEFAULT_BASE_URL, Meridian
from ._errors import (
    APIConnectionError,
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
    UnprocessableEntityError,
    WebhookVerificationError,
)
from ._pagination import paginate
from ._version import __version__
from ._webhooks import sign_webhook, unwrap_webhook, verify_webhook

__all__ = [
    "DEFAULT_BASE_URL",
    "Meridian",
    "models",
    "paginate",
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
    "WebhookVerificationError",
    "__version__",
]
