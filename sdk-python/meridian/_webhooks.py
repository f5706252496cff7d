"""Verification of signed webhook deliveries, per Standard Webhooks v1 (https://www.standardwebhooks.com/).

Meridian signs every delivery (docs/DESIGN.md, "Events and webhooks"; API guide, "Webhooks") with three headers:

- ``webhook-id``: the event id, the same on every retry of the event (deduplicate on it);
- ``webhook-timestamp``: Unix time, in seconds, of this attempt;
- ``webhook-signature``: space-separated ``v1,<base64 HMAC-SHA256>`` entries (two during the 24 hours after a
  secret rotation), each over ``"{webhook-id}.{webhook-timestamp}.{raw body}"`` keyed with the base64-decoded part of
  the endpoint's ``whsec_…`` secret.

Verify the raw bytes you received, before any JSON parsing: re-serialising changes the bytes and breaks the signature.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union

from ._errors import WebhookVerificationError

__all__ = ["verify_webhook", "unwrap_webhook", "sign_webhook", "DEFAULT_TOLERANCE"]

DEFAULT_TOLERANCE = 300
"""Seconds a ``webhook-timestamp`` may differ from the receiver's clock (5 minutes, as the API guide advises)."""

_SECRET_PREFIX = "whsec_"


def _secret_key(secret: str) -> bytes:
    """The HMAC key: the base64-decoded part of a ``whsec_…`` secret (the prefix is optional)."""
    encoded = secret[len(_SECRET_PREFIX) :] if secret.startswith(_SECRET_PREFIX) else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise WebhookVerificationError("webhook secret is not base64 (expected whsec_<base64>)") from exc


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    """Case-insensitive header lookup that works with plain dicts as well as framework header objects."""
    value = headers.get(name)
    if value is None:
        for key, candidate in headers.items():
            if key.lower() == name:
                return candidate
    return value


def sign_webhook(payload: Union[bytes, str], msg_id: str, timestamp: int, secret: str) -> str:
    """The ``v1,<base64>`` signature of a payload, as Meridian computes it.

    Useful for tests of your own receiver. ``timestamp`` is Unix time in seconds.
    """
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    signed = f"{msg_id}.{timestamp}.".encode() + body
    digest = hmac.new(_secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def verify_webhook(
    payload: Union[bytes, str],
    headers: Mapping[str, str],
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    *,
    now: Optional[float] = None,
) -> None:
    """Checks that a delivery was signed by Meridian with ``secret`` and is fresh.

    :param payload: the raw request body, exactly as received (``bytes``, or ``str`` encoded as UTF-8).
    :param headers: the request headers (any mapping; names are matched case-insensitively).
    :param secret: the endpoint's ``whsec_…`` secret from ``POST /webhooks`` or ``rotate-secret``.
    :param tolerance: seconds the timestamp may be away from ``now`` in either direction (default 300).
    :param now: the current Unix time in seconds (default: the system clock); for tests.
    :raises WebhookVerificationError: a header is missing, the timestamp is not an integer or is outside the
        tolerance, or no ``v1`` signature matches (compared in constant time).
    """
    msg_id = _header(headers, "webhook-id")
    raw_timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not raw_timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    try:
        timestamp = int(raw_timestamp)
    except ValueError as exc:
        raise WebhookVerificationError("webhook-timestamp is not a Unix time in seconds") from exc
    current = time.time() if now is None else now
    if timestamp < current - tolerance:
        raise WebhookVerificationError("webhook-timestamp is too old (possible replay)")
    if timestamp > current + tolerance:
        raise WebhookVerificationError("webhook-timestamp is too far in the future")

    expected = sign_webhook(payload, msg_id, timestamp, secret).split(",", 1)[1].encode("ascii")
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode("ascii", errors="replace"), expected):
            return
    raise WebhookVerificationError("no webhook-signature matches the payload")


def unwrap_webhook(
    payload: Union[bytes, str],
    headers: Mapping[str, str],
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    *,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Verifies a delivery (see ``verify_webhook``) and returns its parsed JSON body.

    The body is ``{"id", "event", "tenantId", "timestamp", "data"}``; ``event`` names the type (e.g.
    ``"risk.created"``) and the matching model in ``meridian_client.models`` (e.g. ``RiskCreatedEvent``) can parse it:
    ``RiskCreatedEvent.from_dict(event)``.

    :raises WebhookVerificationError: as ``verify_webhook``, or when the body is not a JSON object.
    """
    verify_webhook(payload, headers, secret, tolerance, now=now)
    try:
        event = json.loads(payload)
    except ValueError as exc:
        raise WebhookVerificationError("webhook payload is not JSON") from exc
    if not isinstance(event, dict):
        raise WebhookVerificationError("webhook payload is not a JSON object")
    return event
