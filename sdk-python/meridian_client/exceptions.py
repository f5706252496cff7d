"""
    Meridian API

    Meridian is a multi-tenant project and portfolio management service. Through this API you read and write project data (projects, milestones, risks, issues, resources, allocations), trigger AI agent runs and poll their executions, ask natural-language questions that are answered with citations, register webhooks, and read the current user, the tenant and the audit log.  This document is the contract: it is served by every deployment at `GET /v1/openapi.json` and `GET /v1/openapi.yaml` (those two addresses are not operations of the API and need no key).  ## Authentication  Every request carries an API key: `Authorization: Bearer mk_live_…`. Keys are issued in Settings → API Keys or through the [API Keys](#tag/API-Keys) endpoints; the full key is shown once, at creation. A key belongs to a user, a user to a tenant, and every request sees only its tenant's data.  | Scope | Grants | |---|---| | `read` | every `GET` of project data, agents, `/me` and `/tenant`, and `POST /agents/ask` | | `write` | creating, updating and deleting project data (projects, milestones, risks, issues, resources, allocations) and `POST /agents/run` | | `admin` | webhooks, API keys and audit logs (reading them too) and tenant settings |  Scopes are cumulative: a key with `write` may also do everything `read` allows, and `admin` everything `write` allows. Create a key with only `read` for dashboards and reporting tools.  A missing, malformed, expired or revoked key answers **401** with `WWW-Authenticate: Bearer` (code `unauthenticated`). A valid key without the scope an operation needs (see `x-required-scope` on each operation) answers **403** (code `forbidden`). A record that belongs to another tenant is indistinguishable from one that does not exist: **404** (code `not_found`), never 403.  ## Errors  Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem documents (`Content-Type: application/problem+json`) with `type`, `title`, `status`, `detail`, `instance`, a stable machine-readable `code`, the `requestId` of the request and, for validation errors, `errors[]` naming each offending field (`location`, `path`, `message`). Branch on `code`, not on `title` or `detail`; new codes may be added.  | Status | `code` | When | |---|---|---| | 400 | `validation_failed` | The request does not match this document: wrong type or format, missing required field, unknown query parameter, unknown body property. | | 401 | `unauthenticated` | No key, or a malformed, unknown, expired or revoked key. Carries `WWW-Authenticate: Bearer`. | | 403 | `forbidden` | The key lacks the scope the operation requires. | | 404 | `not_found` | Unknown address, or a record that does not exist in your tenant. | | 405 | `method_not_allowed` | The path exists but not with this method. Carries `Allow`. | | 409 | `conflict` | A state conflict, e.g. a duplicate project `code`, or a request with the same `Idempotency-Key` still in flight. | | 409 | `invalid_transition` | A status change that is not allowed (see `ProjectStatus`). | | 412 | `precondition_failed` | `If-Match` does not match the record's current `ETag`. | | 413 | `payload_too_large` | The request body is larger than 1 MiB. | | 415 | `unsupported_media_type` | A request body that is not `application/json`. | | 422 | `validation_failed` | A well-formed request that breaks a business rule, e.g. `endDate` before `startDate`, or a `projectId` that names no project of your tenant. | | 422 | `idempotency_key_reused` | An `Idempotency-Key` reused with a different request body. | | 429 | `rate_limited` | Rate limit exceeded. Carries `Retry-After` (seconds). | | 500 | `internal_error` | An unexpected error. Report the `requestId`; no internals are ever exposed. | | 503 | `service_unavailable` | A dependency (the database) is unreachable. Carries `Retry-After`. |  Every response, success or error, carries `X-Request-Id`. Send your own `X-Request-Id` to have it echoed back.  ## Pagination  Every list takes `limit` (1–100, default 25) and `offset` (default 0) and answers `{ \"data\": [...], \"pagination\": { \"limit\", \"offset\", \"total\", \"hasMore\" } }`. Lists are ordered by `createdAt` ascending with `id` as tie-breaker (audit logs by `occurredAt`), so pages stay stable while records are appended. The response also carries an [RFC 8288](https://www.rfc-editor.org/rfc/rfc8288) `Link` header with `rel=\"next\"` and `rel=\"prev\"` where those pages exist. Filters restrict to exact matches and combine with AND.  ## Identifiers, dates, instants and money  - Ids are UUIDs (version 7: time-ordered). - Calendar dates are `YYYY-MM-DD` (`format: date`); date ranges are inclusive of both ends. - Instants are RFC 3339 in UTC, e.g. `2025-06-02T14:30:00Z` (`format: date-time`). - Money is a JSON number in major units (dollars, not cents) of the tenant's currency (the ISO 4217 code in   `GET /tenant` and in each project's read-only `currency`); amounts in requests are at most 10^15.  ## Updates and concurrency  `PATCH` changes only the fields present in the body; absent fields keep their values, and `null` clears a nullable field. Every mutable record has an integer `version` (starting at 1, incremented by each change) and responses that return one such record carry an `ETag`. Send it back in `If-Match` on `PATCH` or `DELETE` to make the change conditional: if the record changed meanwhile you get **412** `precondition_failed` and nothing is written. On `GET` of one record, send the `ETag` you hold in `If-None-Match` to get **304 Not Modified** (no body) while the record is unchanged.  ## Idempotency  Every `POST` accepts an `Idempotency-Key` header (any unique string, e.g. a UUID). Keys are kept per tenant for 24 hours: a retry with the same key and body returns the first response (status and body) without repeating the effect; the same key with a different body answers **422** `idempotency_key_reused`; while the first request is still running a retry answers **409** `conflict`.  ## Rate limits  Each tenant may make 1,000 requests per minute by default (`rateLimit.requestsPerMinute` on `GET /tenant`; higher limits are available on Enterprise plans). Every response carries the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: \"default\";q=1000;w=60` (quota per window of seconds) and `RateLimit: \"default\";r=999;t=42` (remaining requests, seconds until the window resets). Above the limit you get **429** `rate_limited` with `Retry-After` in seconds. Failed authentication attempts are also limited per client address.  ## Versioning  The major version is the base path, `/v1`. Within `v1` changes are additive only: new operations, new optional request fields, new response fields, new enum values and new error codes — clients should ignore unknown fields. Official client libraries for TypeScript/Node.js and Python are generated from this document; both are in beta.  ## Webhooks  Register endpoints with `POST /webhooks` (scope `admin`) to receive the events listed under *Webhooks* in this document: `project.status_changed`, `risk.created`, `risk.severity_escalated`, `milestone.missed`, `agent.execution_completed` and `budget.overrun_detected`. Each delivery is a `POST` with a JSON body `{ id, event, tenantId, timestamp, data }`, signed per [Standard Webhooks](https://www.standardwebhooks.com/) v1:  - `webhook-id`: the event id (the same on every retry of the event); - `webhook-timestamp`: Unix time in seconds of this attempt; - `webhook-signature`: `v1,<base64 of HMAC-SHA256(secret, \"{webhook-id}.{webhook-timestamp}.{raw body}\")>`,   where the key is the base64-decoded part of the endpoint's `whsec_…` secret. During the 24 hours after a secret   rotation the header carries two space-separated signatures, one per secret.  Verify with the `standardwebhooks` libraries (npm, PyPI) or the helpers of the Meridian SDKs, and reject timestamps more than 5 minutes from your clock. Delivery is **at least once** and **unordered**: deduplicate on `webhook-id` and order by `timestamp` if you need to. Answer any 2xx within 15 seconds. Failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all, the first immediately); `429`/`503` answers with `Retry-After` are honoured. An answer of `410 Gone` disables the endpoint at once, and an endpoint that has been failing for 5 days is disabled (`enabled: false` with a `disabledReason`). 

    The version of the OpenAPI document: 1.0.0
    Contact: api@meridian.example
    Generated by OpenAPI Generator (https://openapi-generator.tech)

    Do not edit the class manually.
"""  # noqa: E501


from typing import Any, Optional
from typing_extensions import Self

class OpenApiException(Exception):
    """The base exception class for all OpenAPIExceptions"""


class ApiTypeError(OpenApiException, TypeError):
    def __init__(self, msg, path_to_item=None, valid_classes=None,
                 key_type=None) -> None:
        """ Raises an exception for TypeErrors

        Args:
            msg (str): the exception message

        Keyword Args:
            path_to_item (list): a list of keys an indices to get to the
                                 current_item
                                 None if unset
            valid_classes (tuple): the primitive classes that current item
                                   should be an instance of
                                   None if unset
            key_type (bool): False if our value is a value in a dict
                             True if it is a key in a dict
                             False if our item is an item in a list
                             None if unset
        """
        self.path_to_item = path_to_item
        self.valid_classes = valid_classes
        self.key_type = key_type
        full_msg = msg
        if path_to_item:
            full_msg = "{0} at {1}".format(msg, render_path(path_to_item))
        super(ApiTypeError, self).__init__(full_msg)


class ApiValueError(OpenApiException, ValueError):
    def __init__(self, msg, path_to_item=None) -> None:
        """
        Args:
            msg (str): the exception message

        Keyword Args:
            path_to_item (list) the path to the exception in the
                received_data dict. None if unset
        """

        self.path_to_item = path_to_item
        full_msg = msg
        if path_to_item:
            full_msg = "{0} at {1}".format(msg, render_path(path_to_item))
        super(ApiValueError, self).__init__(full_msg)


class ApiAttributeError(OpenApiException, AttributeError):
    def __init__(self, msg, path_to_item=None) -> None:
        """
        Raised when an attribute reference or assignment fails.

        Args:
            msg (str): the exception message

        Keyword Args:
            path_to_item (None/list) the path to the exception in the
                received_data dict
        """
        self.path_to_item = path_to_item
        full_msg = msg
        if path_to_item:
            full_msg = "{0} at {1}".format(msg, render_path(path_to_item))
        super(ApiAttributeError, self).__init__(full_msg)


class ApiKeyError(OpenApiException, KeyError):
    def __init__(self, msg, path_to_item=None) -> None:
        """
        Args:
            msg (str): the exception message

        Keyword Args:
            path_to_item (None/list) the path to the exception in the
                received_data dict
        """
        self.path_to_item = path_to_item
        full_msg = msg
        if path_to_item:
            full_msg = "{0} at {1}".format(msg, render_path(path_to_item))
        super(ApiKeyError, self).__init__(full_msg)


class ApiException(OpenApiException):

    def __init__(
        self, 
        status=None, 
        reason=None, 
        http_resp=None,
        *,
        body: Optional[str] = None,
        data: Optional[Any] = None,
    ) -> None:
        self.status = status
        self.reason = reason
        self.body = body
        self.data = data
        self.headers = None

        if http_resp:
            if self.status is None:
                self.status = http_resp.status
            if self.reason is None:
                self.reason = http_resp.reason
            if self.body is None:
                try:
                    self.body = http_resp.data.decode('utf-8')
                except Exception:
                    pass
            self.headers = http_resp.headers

    @classmethod
    def from_response(
        cls, 
        *, 
        http_resp, 
        body: Optional[str], 
        data: Optional[Any],
    ) -> Self:
        if http_resp.status == 400:
            raise BadRequestException(http_resp=http_resp, body=body, data=data)

        if http_resp.status == 401:
            raise UnauthorizedException(http_resp=http_resp, body=body, data=data)

        if http_resp.status == 403:
            raise ForbiddenException(http_resp=http_resp, body=body, data=data)

        if http_resp.status == 404:
            raise NotFoundException(http_resp=http_resp, body=body, data=data)

        # Added new conditions for 409 and 422
        if http_resp.status == 409:
            raise ConflictException(http_resp=http_resp, body=body, data=data)

        if http_resp.status == 422:
            raise UnprocessableEntityException(http_resp=http_resp, body=body, data=data)

        if 500 <= http_resp.status <= 599:
            raise ServiceException(http_resp=http_resp, body=body, data=data)
        raise ApiException(http_resp=http_resp, body=body, data=data)

    def __str__(self):
        """Custom error messages for exception"""
        error_message = "({0})\n"\
                        "Reason: {1}\n".format(self.status, self.reason)
        if self.headers:
            error_message += "HTTP response headers: {0}\n".format(
                self.headers)

        if self.body:
            error_message += "HTTP response body: {0}\n".format(self.body)

        if self.data:
            error_message += "HTTP response data: {0}\n".format(self.data)

        return error_message


class BadRequestException(ApiException):
    pass


class NotFoundException(ApiException):
    pass


class UnauthorizedException(ApiException):
    pass


class ForbiddenException(ApiException):
    pass


class ServiceException(ApiException):
    pass


class ConflictException(ApiException):
    """Exception for HTTP 409 Conflict."""
    pass


class UnprocessableEntityException(ApiException):
    """Exception for HTTP 422 Unprocessable Entity."""
    pass


def render_path(path_to_item):
    """Returns a string representation of a path"""
    result = ""
    for pth in path_to_item:
        if isinstance(pth, int):
            result += "[{0}]".format(pth)
        else:
            result += "['{0}']".format(pth)
    return result
