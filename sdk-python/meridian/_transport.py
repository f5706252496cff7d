"""The retry policy of both clients (``meridian._base_client`` applies it to every operation).

The policy mirrors the TypeScript SDK and the OpenAI/Stainless SDKs:

- retried: connection errors, timeouts, 408, 429 and 5xx except 501 (``not_implemented`` will not change by retrying);
- delay: ``Retry-After`` (seconds or an HTTP date) when the answer carries one between 0 and 60 s, else exponential
  backoff 0.5 s × 2ⁿ (n = retries so far) capped at 8 s, minus up to 25 % jitter;
- every POST carries an ``Idempotency-Key`` (a uuid4 unless the caller gave one) that is the same on every attempt,
  so the server replays the first answer instead of repeating the effect (API guide, "Idempotency").
"""

from __future__ import annotations

import email.utils
import random
import time
from typing import Mapping, Optional

__all__ = ["retry_delay", "should_retry_status", "INITIAL_RETRY_DELAY", "MAX_RETRY_DELAY", "MAX_RETRY_AFTER"]

INITIAL_RETRY_DELAY = 0.5
"""Seconds before the first retry when the server gives no ``Retry-After``."""
MAX_RETRY_DELAY = 8.0
"""Cap, in seconds, of the exponential backoff."""
MAX_RETRY_AFTER = 60.0
"""Longest ``Retry-After``, in seconds, the SDK waits for; longer advice falls back to the backoff."""


def should_retry_status(status: int) -> bool:
    """Whether an HTTP status is worth retrying: 408, 429 and 5xx except 501."""
    return status in (408, 429) or (500 <= status <= 599 and status != 501)


def _parse_retry_after(headers: Optional[Mapping[str, str]], now: float) -> Optional[float]:
    """``Retry-After`` as seconds from now: a number of seconds or an HTTP date (RFC 9110 §10.2.3)."""
    if headers is None:
        return None
    value = headers.get("Retry-After")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return when.timestamp() - now


def retry_delay(retries_so_far: int, headers: Optional[Mapping[str, str]] = None) -> float:
    """Seconds to wait before the next attempt.

    :param retries_so_far: 0 before the first retry, 1 before the second, …
    :param headers: the failed answer's headers, if there was an answer (for ``Retry-After``).
    :returns: ``Retry-After`` when it is within (0, 60] s, else ``min(0.5 × 2ⁿ, 8) × (1 − U(0, 0.25))``.
    """
    retry_after = _parse_retry_after(headers, time.time())
    if retry_after is not None and 0 < retry_after <= MAX_RETRY_AFTER:
        return retry_after
    backoff = min(INITIAL_RETRY_DELAY * 2.0**retries_so_far, MAX_RETRY_DELAY)
    return backoff * (1 - 0.25 * random.random())
