"""Verification of signed webhook deliveries, per Standard Webhooks v1 (https://www.standardwebhooks.com/).

Meridian signs every delivery (docs/webhooks.md, "Events and webhooks"; API guide, "Webhooks") with three headers:

- ``webhook-id``: the event id, the same on every retry of the event (deduplicate on it);
- ``webhook-timestamp``: Unix time, in seconds, of this attempt;
- ``webhook-signature``: space-separated ``v1,<base64 HMAC-SHA256>`` entries (two during the 24 hours after a
  secret rotation), each over ``"{webhook-id}.{webhook-timestamp}.{raw body}"`` keyed with the base64-decoded part of
  the endpoint's ``whsec_…`` secret.

Verify the raw bytes you received, before any JSON parsing: re-serialising changes the bytes and breaks the signature.

The shapes are the TypeScript SDK's (sdk-ts/src/lib/webhooks.ts): ``sign`` returns the three headers, which ``verify``
and ``unwrap`` accept as they are; ``unwrap`` returns the event typed from the spec's ``webhooks`` section.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
import uuid
from datetime import datetime
from typing import Any, Dict, Iterable, Mapping, Optional, Protocol, Tuple, Union
from uuid import UUID

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from ._errors import WebhookVerificationError
from ._generated.webhook_events import WEBHOOK_EVENT_MODELS, KnownWebhookEvent, WebhookEventName

__all__ = [
    "DEFAULT_TOLERANCE",
    "HeadersLike",
    "UnknownWebhookEvent",
    "WebhookEvent",
    "WebhookEventName",
    "Webhooks",
    "sign_webhook",
    "unwrap_webhook",
    "verify_webhook",
    "webhooks",
]

DEFAULT_TOLERANCE = 300
"""Seconds a ``webhook-timestamp`` may differ from the receiver's clock (5 minutes, as the API guide advises)."""

_SECRET_PREFIX = "whsec_"


class HeadersLike(Protocol):
    """Request headers as frameworks give them: a ``dict``, Flask/Werkzeug's ``request.headers``, Starlette's,
    ``http.server``'s ``self.headers``, or the ``dict`` that ``sign_webhook`` returns. Names match case-insensitively;
    a header given more than once is joined with spaces (the signature header's list form)."""

    def items(self) -> Iterable[Tuple[str, Any]]:
        """The (name, value) pairs."""
        ...


class UnknownWebhookEvent(BaseModel):
    """An event this version of the SDK does not know yet (the API adds event types without a new major version:
    ignore what you do not handle). ``data`` is the payload's ``data`` object as parsed JSON."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    id: UUID = Field(description="The event id; equals the ``webhook-id`` header.")
    event: str = Field(description="The event kind, e.g. ``project.archived``.")
    tenant_id: UUID = Field(alias="tenantId", description="Tenant in which the event occurred.")
    timestamp: datetime = Field(description="When the event occurred (RFC 3339, UTC).")
    data: Dict[str, Any] = Field(default_factory=dict, description="The event's data, as sent.")


WebhookEvent = Union[KnownWebhookEvent, UnknownWebhookEvent]
"""What ``unwrap_webhook`` returns: one of the spec's event models (``meridian.models.RiskCreatedEvent``, …; narrow
with ``isinstance`` or ``match``), or ``UnknownWebhookEvent`` for an event newer than this SDK."""


def _secret_key(secret: str) -> bytes:
    """The HMAC key: the base64-decoded part of a ``whsec_…`` secret (the prefix is optional)."""
    encoded = secret[len(_SECRET_PREFIX) :] if secret.startswith(_SECRET_PREFIX) else secret
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise WebhookVerificationError("webhook secret is not base64 (expected whsec_<base64>)") from exc
    if not key:
        raise WebhookVerificationError("webhook secret is empty (expected whsec_<base64>)")
    return key


def _header(headers: Union[HeadersLike, Mapping[str, str]], name: str) -> Optional[str]:
    """Case-insensitive lookup; repeated headers are joined with a space."""
    values = [str(value) for key, value in headers.items() if key.lower() == name and value is not None]
    return " ".join(values) if values else None


def _signature(payload: Union[bytes, str], msg_id: str, timestamp: Union[int, str], secret: str) -> str:
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    signed = f"{msg_id}.{timestamp}.".encode() + body
    return base64.b64encode(hmac.new(_secret_key(secret), signed, hashlib.sha256).digest()).decode("ascii")


def sign_webhook(
    payload: Union[bytes, str],
    secret: str,
    *,
    msg_id: Optional[str] = None,
    timestamp: Optional[int] = None,
) -> Dict[str, str]:
    """Signs a payload as Meridian does and returns the three headers of the delivery, ready for ``verify_webhook``
    (and for a request to your own receiver in its tests)::

        headers = meridian.sign_webhook(body, secret)
        meridian.verify_webhook(body, headers, secret)   # passes

    :param payload: the raw body (``bytes``, or ``str`` encoded as UTF-8).
    :param secret: the endpoint's ``whsec_…`` secret.
    :param msg_id: the event id for ``webhook-id`` (default: a random ``msg_…`` id).
    :param timestamp: Unix time in seconds for ``webhook-timestamp`` (default: now).
    :returns: ``{"webhook-id": …, "webhook-timestamp": "<seconds>", "webhook-signature": "v1,<base64>"}`` — the keys
        and values of the TypeScript SDK's ``webhooks.sign``.
    :raises WebhookVerificationError: the secret is not ``whsec_<base64>``.
    """
    msg_id = msg_id if msg_id is not None else f"msg_{uuid.uuid4().hex}"
    stamp = str(int(time.time()) if timestamp is None else int(timestamp))
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": stamp,
        "webhook-signature": "v1," + _signature(payload, msg_id, stamp, secret),
    }


def verify_webhook(
    payload: Union[bytes, str],
    headers: Union[HeadersLike, Mapping[str, str]],
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    *,
    now: Optional[float] = None,
) -> None:
    """Checks that a delivery was signed by Meridian with ``secret`` and is fresh.

    :param payload: the raw request body, exactly as received (``bytes``, or ``str`` encoded as UTF-8).
    :param headers: the request headers (see ``HeadersLike``; names are matched case-insensitively), or what
        ``sign_webhook`` returned.
    :param secret: the endpoint's ``whsec_…`` secret from ``POST /webhooks`` or ``rotate-secret``. During the 24 hours
        after a rotation Meridian sends two signatures; one matching this secret passes.
    :param tolerance: seconds the timestamp may be away from ``now`` in either direction (default 300).
    :param now: the current Unix time in seconds (default: the system clock); for tests.
    :raises WebhookVerificationError: a header is missing, the timestamp is not an integer or is outside the
        tolerance, the secret is not base64, or no ``v1`` signature matches (compared in constant time).
    """
    msg_id = _header(headers, "webhook-id")
    raw_timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not raw_timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    if not raw_timestamp.isdigit():
        raise WebhookVerificationError("webhook-timestamp is not a Unix time in seconds")
    timestamp = int(raw_timestamp)
    current = time.time() if now is None else now
    if timestamp < current - tolerance:
        raise WebhookVerificationError("webhook-timestamp is too old (possible replay)")
    if timestamp > current + tolerance:
        raise WebhookVerificationError("webhook-timestamp is too far in the future")

    expected = _signature(payload, msg_id, raw_timestamp, secret).encode("ascii")
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode("ascii", errors="replace"), expected):
            return
    raise WebhookVerificationError("no webhook-signature matches the payload")


def unwrap_webhook(
    payload: Union[bytes, str],
    headers: Union[HeadersLike, Mapping[str, str]],
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    *,
    now: Optional[float] = None,
) -> WebhookEvent:
    """Verifies a delivery (see ``verify_webhook``) and returns its event, typed.

    The body ``{"id", "event", "tenantId", "timestamp", "data"}`` is parsed into the model of its ``event`` (the
    spec's ``webhooks`` section: ``risk.created`` → ``meridian.models.RiskCreatedEvent``, …); an event name this SDK
    does not know yet gives an ``UnknownWebhookEvent``. Narrow with ``isinstance``::

        event = meridian.unwrap_webhook(body, headers, secret)
        if isinstance(event, meridian.models.RiskSeverityEscalatedEvent):
            print(event.data.risk.title, event.data.previous_severity, "->", event.data.severity)

    :returns: a ``WebhookEvent``.
    :raises WebhookVerificationError: as ``verify_webhook``, or when the body is not a JSON object of the event's shape.
    """
    verify_webhook(payload, headers, secret, tolerance, now=now)
    try:
        raw = json.loads(payload)
    except ValueError as exc:
        raise WebhookVerificationError("webhook payload is not JSON") from exc
    if not isinstance(raw, dict):
        raise WebhookVerificationError("webhook payload is not a JSON object")
    model = WEBHOOK_EVENT_MODELS.get(str(raw.get("event")))
    try:
        if model is None:
            return UnknownWebhookEvent.model_validate(raw)
        event: KnownWebhookEvent = model.model_validate(raw)  # type: ignore[assignment]
        return event
    except pydantic.ValidationError as exc:
        raise WebhookVerificationError(f"webhook payload does not match its event {raw.get('event')!r}: {exc}") from exc


class Webhooks:
    """The webhook helpers as one object, as the TypeScript SDK's ``webhooks``: ``meridian.webhooks`` and
    ``client.webhooks`` (beside the webhook endpoint operations) offer ``verify``, ``unwrap`` and ``sign``. They need
    no API key and make no request.

    - ``verify``: ``verify_webhook``; raises ``WebhookVerificationError`` when the delivery is not authentic or fresh;
    - ``unwrap``: ``unwrap_webhook``; verifies, then returns the typed event;
    - ``sign``: ``sign_webhook``; the three ``webhook-*`` headers, for tests of a receiver.
    """

    verify = staticmethod(verify_webhook)
    unwrap = staticmethod(unwrap_webhook)
    sign = staticmethod(sign_webhook)


webhooks = Webhooks()
"""The package's webhook helper (also reachable as ``client.webhooks``)."""
