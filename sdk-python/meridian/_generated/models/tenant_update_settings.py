# coding: utf-8

"""
    Meridian API

    Meridian is a multi-tenant project and portfolio management service. Through this API you read and write project data (projects, milestones, risks, issues, resources, allocations), trigger AI agent runs and poll their executions, ask natural-language questions that are answered with citations, register webhooks, and read the current user, the tenant and the audit log.  This document is the contract: it is served by every deployment at `GET /v1/openapi.json` and `GET /v1/openapi.yaml`, and rendered as an interactive reference (with \"Test Request\" against the same server) at `GET /docs`. Those addresses are not operations of the API and need no key.  ## Health checks  Two more addresses outside `/v1` need no key, are not rate limited and are meant for load balancers and orchestrators (Kubernetes liveness and readiness probes):  - `GET /healthz` (liveness) answers **200** `{\"status\": \"ok\"}` whenever the process can answer at all. - `GET /readyz` (readiness) answers **200** `{\"status\": \"ready\", \"checks\": {\"database\": \"ok\", \"migrations\": \"ok\"}}`   when the database answers within 2 seconds and every database migration is applied; otherwise **503**   `service_unavailable` (a problem document whose `detail` says which check failed) with `Retry-After` in   seconds. Send traffic to a server only while it is ready.  ## Authentication  Every request carries an API key: `Authorization: Bearer mk_live_…`. Keys are issued in Settings → API Keys or through the [API Keys](#tag/API-Keys) endpoints; the full key is shown once, at creation. A key belongs to a user, a user to a tenant, and every request sees only its tenant's data.  | Scope | Grants | |---|---| | `read` | every `GET` of project data, agents, `/me` and `/tenant`, and `POST /agents/ask` | | `write` | creating, updating and deleting project data (projects, status reports, milestones, risks, issues, resources, allocations) and `POST /agents/run` | | `admin` | webhooks, API keys and audit logs (reading them too) and tenant settings |  Scopes are cumulative: a key with `write` may also do everything `read` allows, and `admin` everything `write` allows. Create a key with only `read` for dashboards and reporting tools.  A missing, malformed, expired or revoked key answers **401** with `WWW-Authenticate: Bearer` (code `unauthenticated`). Revocation takes effect at once on the server that revoked the key and within 5 seconds on the other servers of a deployment (each keeps an authenticated key for up to 5 seconds); expiry is checked on every request. A valid key without the scope an operation needs (see `x-required-scope` on each operation) answers **403** (code `forbidden`). A record that belongs to another tenant is indistinguishable from one that does not exist: **404** (code `not_found`), never 403.  ## Errors  Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem documents (`Content-Type: application/problem+json`) with `type`, `title`, `status`, `detail`, `instance`, a stable machine-readable `code`, the `requestId` of the request and, for validation errors, `errors[]` naming each offending field (`location`, `path`, `message`). Branch on `code`, not on `title` or `detail`; new codes may be added.  | Status | `code` | When | |---|---|---| | 400 | `validation_failed` | The request does not match this document: wrong type or format, missing required field, unknown query parameter, unknown body property, a NUL character in a string (see *Strings*), or a request that is not valid HTTP. | | 401 | `unauthenticated` | No key, or a malformed, unknown, expired or revoked key. Carries `WWW-Authenticate: Bearer`. | | 403 | `forbidden` | The key lacks the scope the operation requires. | | 404 | `not_found` | Unknown address, or a record that does not exist in your tenant. | | 405 | `method_not_allowed` | The path exists but not with this method. Carries `Allow` (which lists `HEAD` wherever `GET` is allowed). | | 408 | `request_timeout` | The request was not received in time. | | 409 | `conflict` | A state conflict, e.g. a duplicate project `code`, or a request with the same `Idempotency-Key` still in flight. | | 409 | `invalid_transition` | A status change that is not allowed (see `ProjectStatus`). | | 412 | `precondition_failed` | `If-Match` does not match the record's current `ETag`. | | 413 | `payload_too_large` | The request body is larger than 1 MiB. | | 415 | `unsupported_media_type` | A request body that is not `application/json`, or JSON in a charset other than UTF-8 (e.g. `charset=utf-16`). | | 422 | `validation_failed` | A well-formed request that breaks a business rule, e.g. `endDate` before `startDate`, or a `projectId` that names no project of your tenant. | | 422 | `idempotency_key_reused` | An `Idempotency-Key` reused with a different request body. | | 429 | `rate_limited` | Rate limit exceeded. Carries `Retry-After` (seconds). | | 431 | `request_header_fields_too_large` | The request line and headers together exceed 16 KiB (e.g. a very long query string). | | 500 | `internal_error` | An unexpected error. Report the `requestId`; no internals are ever exposed. | | 503 | `service_unavailable` | A dependency (the database) is unreachable. Carries `Retry-After`. |  Every response, success or error, carries `X-Request-Id`. Send your own `X-Request-Id` to have it echoed back.  ## Requests and responses  - **Strings.** No string input may contain the NUL character (U+0000, `\"\\u0000\"` in JSON, `%00` in a URL): not a   body field, not an object key, not a query or path parameter. Such a request answers **400**   `validation_failed` with `errors[]` naming each field (e.g. `{ \"location\": \"body\", \"path\": \"/name\" }`), and   nothing is stored. (Header values with NUL are refused by the HTTP parser with 400 as well.) The rule holds for   every string of this document; it is stated here once rather than as a `pattern` on each string. - **Bodies** are JSON in UTF-8 (`Content-Type: application/json`, with no charset or `charset=utf-8`), at most   1 MiB. Another media type or charset answers **415**, a larger body **413**. - **The request line and headers** together may be up to 16 KiB (Node.js's default); a longer request, such as a   query string of 100 KB, answers **431** `request_header_fields_too_large` as a problem document. - **`HEAD`** is answered on every path that answers `GET`, exactly as `GET` (status and headers, `Content-Length`   and `ETag` included) but without a body. `Allow` on a 405 lists `HEAD` wherever `GET` is allowed. - **Caching.** Every response under `/v1` carries `Cache-Control: no-store`: they hold tenant data read with a   key, and some hold a secret shown once (the `key` of a new API key, the `secret` of a new or rotated webhook   endpoint), so no browser or shared cache may keep them. (`/v1/openapi.json` and `/v1/openapi.yaml` may be   cached.) Conditional requests (`If-None-Match`, `If-Match`) still work: keep the `ETag` yourself. - **Secrets in URLs.** Send the API key only in the `Authorization` header. A key sent as a query parameter   (`?api_key=…`) is refused like any unknown parameter (400), and the server's access log writes every query   parameter whose name looks like a secret (`key`, `token`, `secret`, `password`, `signature`, …) as   `[REDACTED]`.  ## Pagination  Every list takes `limit` (1–100, default 25) and `offset` (default 0) and answers `{ \"data\": [...], \"pagination\": { \"limit\", \"offset\", \"total\", \"hasMore\" } }`. Lists are ordered by `createdAt` ascending with `id` as tie-breaker (audit logs by `occurredAt`), so pages stay stable while records are appended; status reports are the exception, newest first (`asOf` descending), because a project's latest state is what their readers want first. The response also carries an [RFC 8288](https://www.rfc-editor.org/rfc/rfc8288) `Link` header with `rel=\"next\"` and `rel=\"prev\"` where those pages exist. Filters restrict to exact matches and combine with AND.  ## Sorting and searching  Lists that users sort take `sort`: a field name for ascending order or the same name with a leading `-` for descending, e.g. `GET /projects?sort=-budget`, `GET /risks?sort=-score`, `GET /issues?sort=-priority` (priority order, not alphabetical), `GET /audit-logs?sort=-occurredAt` (newest first). Each list names its fields in its `sort` enum; any other value answers **400** `validation_failed`. Ties are broken by `id` in the same direction, so pages stay stable, and every order is served by an index. `GET /projects` also takes `q`, a case-insensitive search of the name, code and description, and `tag`.  ## Identifiers, dates, instants and money  - Ids are UUIDs (version 7: time-ordered). - Calendar dates are `YYYY-MM-DD` (`format: date`); date ranges are inclusive of both ends. - Instants are RFC 3339 in UTC, e.g. `2025-06-02T14:30:00Z` (`format: date-time`). - Money is a JSON number in major units (dollars, not cents) of the tenant's currency (the ISO 4217 code in   `GET /tenant` and in each project's read-only `currency`); amounts in requests are at most 10^15. - Unknown is `null`, never 0: a cost, progress or forecast nobody reported is null, and a figure computed from   an unknown (e.g. `budgetSummary.remaining` without an `actualCost`) is null too.  ## Updates and concurrency  `PATCH` changes only the fields present in the body; absent fields keep their values, and `null` clears a nullable field. The body is required; an empty object `{}` is a valid body that changes nothing: the answer is **200** with the record as it is (same `version` and `ETag`, no audit entry, no event), after the `If-Match` check. A `PATCH` with `Content-Type: application/json` and no body at all answers **400** (without that header, **415**).  Every mutable record has an integer `version` (starting at 1, incremented by each change) and responses that return one such record carry an `ETag`. Send it back in `If-Match` on `PATCH` or `DELETE` to make the change conditional: if the record changed meanwhile you get **412** `precondition_failed` and nothing is written. On `GET` of one record, send the `ETag` you hold in `If-None-Match` to get **304 Not Modified** (no body) while the record is unchanged.  ## Idempotency  Every `POST` accepts an `Idempotency-Key` header (any unique string, e.g. a UUID). Keys are kept per tenant for 24 hours: a retry with the same key and body returns the first response (status and body) without repeating the effect; the same key with a different body answers **422** `idempotency_key_reused`; while the first request is still running a retry answers **409** `conflict`.  ## Rate limits  Each tenant may make 1,000 requests per minute by default (`rateLimit.requestsPerMinute` on `GET /tenant`; higher limits are available on Enterprise plans). The window slides: in **any** 60 seconds at most that many requests pass, whatever the clock minute (600 requests at 12:00:59 and 600 at 12:01:01 let exactly 1,000 through), and the count is shared by every server of the deployment. Refused requests do not count. Every response carries the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: \"default\"; q=1000; w=60` (quota per window of seconds) and `RateLimit: \"default\"; r=999; t=42` (remaining requests, and seconds until the oldest request in the window leaves it, that is until quota starts to come back). Above the limit you get **429** `rate_limited` with `Retry-After` in seconds: the earliest moment a retry can pass.  Failed authentication is limited per client address (30 failures in any 60 seconds by default): further requests from that address **without a valid key** get 429 instead of 401 until the oldest failure is 60 seconds old. A request with a valid key is never refused by this limit, whoever shares its address.  ## Versioning  The major version is the base path, `/v1`. Within `v1` changes are additive only: new operations, new optional request fields, new response fields, new enum values and new error codes — clients should ignore unknown fields. Official client libraries for TypeScript/Node.js and Python are generated from this document; both are in beta.  ## Webhooks  Register endpoints with `POST /webhooks` (scope `admin`) to receive the events listed under *Webhooks* in this document: `project.status_changed`, `risk.created`, `risk.severity_escalated`, `milestone.missed`, `agent.execution_completed` and `budget.overrun_detected`. Each delivery is a `POST` with a JSON body `{ id, event, tenantId, timestamp, data }`, signed per [Standard Webhooks](https://www.standardwebhooks.com/) v1:  - `webhook-id`: the event id (the same on every retry of the event); - `webhook-timestamp`: Unix time in seconds of this attempt; - `webhook-signature`: `v1,<base64 of HMAC-SHA256(secret, \"{webhook-id}.{webhook-timestamp}.{raw body}\")>`,   where the key is the base64-decoded part of the endpoint's `whsec_…` secret. During the 24 hours after a secret   rotation the header carries two space-separated signatures, one per secret.  Verify with the `standardwebhooks` libraries (npm, PyPI) or the helpers of the Meridian SDKs, and reject timestamps more than 5 minutes from your clock. Delivery is **at least once** and **unordered**: deduplicate on `webhook-id` and order by `timestamp` if you need to. Answer any 2xx within 15 seconds. Failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all, the first immediately); `429`/`503` answers with `Retry-After` are honoured. An answer of `410 Gone` disables the endpoint at once, and an endpoint that has been failing for 5 days is disabled (`enabled: false` with a `disabledReason`). 

    The version of the OpenAPI document: 1.0.0
    Contact: api@meridian.example
    Generated by OpenAPI Generator (https://openapi-generator.tech)

    Do not edit the class manually.
"""  # noqa: E501


from __future__ import annotations
import pprint
import re  # noqa: F401
import json

from pydantic import BaseModel, ConfigDict, Field, StrictBool
from typing import Any, ClassVar, Dict, List, Optional
from typing import Optional, Set
from typing_extensions import Self
from pydantic_core import to_jsonable_python

class TenantUpdateSettings(BaseModel):
    """
    Settings to change; an empty object changes nothing.
    """ # noqa: E501
    llm_enabled: Optional[StrictBool] = Field(default=None, description="See `TenantSettings.llmEnabled`.", alias="llmEnabled")
    __properties: ClassVar[List[str]] = ["llmEnabled"]

    model_config = ConfigDict(
        validate_by_name=True,
        validate_by_alias=True,
        validate_assignment=True,
        protected_namespaces=(),
    )


    def to_str(self) -> str:
        """Returns the string representation of the model using alias"""
        return pprint.pformat(self.model_dump(by_alias=True))

    def to_json(self) -> str:
        """Returns the JSON representation of the model using alias"""
        return json.dumps(to_jsonable_python(self.to_dict()))

    @classmethod
    def from_json(cls, json_str: str) -> Optional[Self]:
        """Create an instance of TenantUpdateSettings from a JSON string"""
        return cls.from_dict(json.loads(json_str))

    def to_dict(self) -> Dict[str, Any]:
        """Return the dictionary representation of the model using alias.

        This has the following differences from calling pydantic's
        `self.model_dump(by_alias=True)`:

        * `None` is only added to the output dict for nullable fields that
          were set at model initialization. Other fields with value `None`
          are ignored.
        """
        excluded_fields: Set[str] = set([
        ])

        _dict = self.model_dump(
            by_alias=True,
            exclude=excluded_fields,
            exclude_none=True,
        )
        return _dict

    @classmethod
    def from_dict(cls, obj: Optional[Dict[str, Any]]) -> Optional[Self]:
        """Create an instance of TenantUpdateSettings from a dict"""
        if obj is None:
            return None

        if not isinstance(obj, dict):
            return cls.model_validate(obj)

        _obj = cls.model_validate({
            "llmEnabled": obj.get("llmEnabled")
        })
        return _obj


