"""Retries, idempotency keys, timeouts and error mapping, hooked into the generated client.

``RetryingApiClient`` subclasses the generated ``meridian_client.ApiClient`` (which the generator owns and we never
edit) and overrides its single network entry point, ``call_api``. Every generated operation method goes through it,
so every operation present or future gets the behaviour with no per-operation code.

The policy mirrors the TypeScript SDK and the OpenAI/Stainless SDKs:

- retried: connection errors, timeouts, 408, 429 and 5xx except 501 (``not_implemented`` will not change by retrying);
- delay: ``Retry-After`` (seconds or an HTTP date) when the answer carries one between 0 and 60 s, else exponential
  backoff 0.5 s × 2ⁿ (n = retries so far) capped at 8 s, minus up to 25 % jitter;
- every POST carries an ``Idempotency-Key`` (a uuid4 unless the caller gave one) that is the same on every attempt,
  so the server replays the first answer instead of repeating the effect (API guide, "Idempotency").

urllib3's own ``Retry`` is switched off (``Configuration.retries = False``): it cannot honour ``Retry-After`` on POST
and would hide connection errors behind ``MaxRetryError``.
"""

from __future__ import annotations

import email.utils
import random
import time
import uuid
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union

import urllib3
from meridian_client.api_client import ApiClient
from meridian_client.configuration import Configuration
from meridian_client.exceptions import ApiException
from meridian_client.rest import RESTResponse

from ._errors import APIConnectionError, APITimeoutError, MeridianError, error_from_response

__all__ = ["RetryingApiClient", "retry_delay", "should_retry_status"]

INITIAL_RETRY_DELAY = 0.5
"""Seconds before the first retry when the server gives no ``Retry-After``."""
MAX_RETRY_DELAY = 8.0
"""Cap, in seconds, of the exponential backoff."""
MAX_RETRY_AFTER = 60.0
"""Longest ``Retry-After``, in seconds, the SDK waits for; longer advice falls back to the backoff."""

Timeout = Union[float, Tuple[float, float]]


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


class RetryingApiClient(ApiClient):
    """The generated ``ApiClient`` with retries, idempotency keys, a default timeout and typed errors.

    :param configuration: the generated ``Configuration`` (host, access token).
    :param max_retries: retries after the first attempt (0 disables retrying).
    :param timeout: default per-attempt timeout in seconds (total of connect and read), or a
        ``(connect, read)`` pair; an operation's ``_request_timeout=`` argument overrides it.
    :param sleep: the function used to wait between attempts (``time.sleep``; tests may pass their own).

    Non-2xx answers raise the ``MeridianError`` subclass for their status (see ``meridian._errors``) instead of the
    generated ``ApiException``; connection failures raise ``APIConnectionError`` and timeouts ``APITimeoutError``.
    """

    def __init__(
        self,
        configuration: Configuration,
        *,
        max_retries: int = 2,
        timeout: Optional[Timeout] = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        configuration.retries = False
        super().__init__(configuration)
        self.max_retries = max_retries
        self.timeout = timeout
        self._sleep = sleep

    def call_api(
        self,
        method: str,
        url: str,
        header_params: Optional[Dict[str, Any]] = None,
        body: Any = None,
        post_params: Any = None,
        _request_timeout: Optional[Timeout] = None,
    ) -> RESTResponse:
        """Sends the request, retrying per the module's policy, and returns the first 2xx answer (body read).

        :raises APIStatusError: (a subclass per status) for a non-2xx answer that is not retried or whose retries
            are used up.
        :raises APIConnectionError: when no answer could be had; ``APITimeoutError`` when the last attempt timed out.
        """
        headers: Dict[str, Any] = dict(header_params or {})
        if method.upper() == "POST" and not any(k.lower() == "idempotency-key" for k in headers):
            headers["Idempotency-Key"] = str(uuid.uuid4())
        timeout = _request_timeout if _request_timeout is not None else self.timeout

        retries = 0
        while True:
            answer_headers: Optional[Mapping[str, str]] = None
            error: MeridianError
            try:
                # The generated methods are unannotated; name their types once here for mypy --strict.
                send: Callable[..., RESTResponse] = self.rest_client.request
                response = send(method, url, headers=headers, body=body, post_params=post_params, _request_timeout=timeout)
                read: Callable[[], bytes] = response.read
                read()
            except urllib3.exceptions.NewConnectionError as exc:  # a subclass of ConnectTimeoutError in urllib3 2
                error = APIConnectionError(f"connection to the Meridian API failed: {exc}")
                error.__cause__ = exc
            except urllib3.exceptions.TimeoutError as exc:
                error = APITimeoutError(f"request timed out after {timeout} s: {exc}")
                error.__cause__ = exc
            except (urllib3.exceptions.HTTPError, OSError) as exc:
                error = APIConnectionError(f"connection to the Meridian API failed: {exc}")
                error.__cause__ = exc
            except ApiException as exc:  # the generated layer's wrapper of TLS errors: not worth retrying
                raise APIConnectionError(f"connection to the Meridian API failed: {exc.reason}") from exc
            else:
                status = int(response.status)
                if 200 <= status <= 299:
                    return response
                answer_headers = response.headers
                error = error_from_response(status, response.data, response.headers)
                if not should_retry_status(status):
                    raise error
            if retries >= self.max_retries:
                raise error
            self._sleep(retry_delay(retries, answer_headers))
            retries += 1
