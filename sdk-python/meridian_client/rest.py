# coding: utf-8

"""
    Meridian API

    Meridian is a multi-tenant project and portfolio management service. Through this API you read and write project data (projects, milestones, risks, issues, resources, allocations), trigger AI agent runs and poll their executions, ask natural-language questions that are answered with citations, register webhooks, and read the current user, the tenant and the audit log.  This document is the contract: it is served by every deployment at `GET /v1/openapi.json` and `GET /v1/openapi.yaml` (those two addresses are not operations of the API and need no key).  ## Authentication  Every request carries an API key: `Authorization: Bearer mk_live_…`. Keys are issued in Settings → API Keys or through the [API Keys](#tag/API-Keys) endpoints; the full key is shown once, at creation. A key belongs to a user, a user to a tenant, and every request sees only its tenant's data.  | Scope | Grants | |---|---| | `read` | every `GET` of project data, agents, `/me` and `/tenant`, and `POST /agents/ask` | | `write` | creating, updating and deleting project data (projects, milestones, risks, issues, resources, allocations) and `POST /agents/run` | | `admin` | webhooks, API keys and audit logs (reading them too) and tenant settings |  Scopes are cumulative: a key with `write` may also do everything `read` allows, and `admin` everything `write` allows. Create a key with only `read` for dashboards and reporting tools.  A missing, malformed, expired or revoked key answers **401** with `WWW-Authenticate: Bearer` (code `unauthenticated`). A valid key without the scope an operation needs (see `x-required-scope` on each operation) answers **403** (code `forbidden`). A record that belongs to another tenant is indistinguishable from one that does not exist: **404** (code `not_found`), never 403.  ## Errors  Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem documents (`Content-Type: application/problem+json`) with `type`, `title`, `status`, `detail`, `instance`, a stable machine-readable `code`, the `requestId` of the request and, for validation errors, `errors[]` naming each offending field (`location`, `path`, `message`). Branch on `code`, not on `title` or `detail`; new codes may be added.  | Status | `code` | When | |---|---|---| | 400 | `validation_failed` | The request does not match this document: wrong type or format, missing required field, unknown query parameter, unknown body property. | | 401 | `unauthenticated` | No key, or a malformed, unknown, expired or revoked key. Carries `WWW-Authenticate: Bearer`. | | 403 | `forbidden` | The key lacks the scope the operation requires. | | 404 | `not_found` | Unknown address, or a record that does not exist in your tenant. | | 405 | `method_not_allowed` | The path exists but not with this method. Carries `Allow`. | | 409 | `conflict` | A state conflict, e.g. a duplicate project `code`, or a request with the same `Idempotency-Key` still in flight. | | 409 | `invalid_transition` | A status change that is not allowed (see `ProjectStatus`). | | 412 | `precondition_failed` | `If-Match` does not match the record's current `ETag`. | | 413 | `payload_too_large` | The request body is larger than 1 MiB. | | 415 | `unsupported_media_type` | A request body that is not `application/json`. | | 422 | `validation_failed` | A well-formed request that breaks a business rule, e.g. `endDate` before `startDate`, or a `projectId` that names no project of your tenant. | | 422 | `idempotency_key_reused` | An `Idempotency-Key` reused with a different request body. | | 429 | `rate_limited` | Rate limit exceeded. Carries `Retry-After` (seconds). | | 500 | `internal_error` | An unexpected error. Report the `requestId`; no internals are ever exposed. | | 503 | `service_unavailable` | A dependency (the database) is unreachable. Carries `Retry-After`. |  Every response, success or error, carries `X-Request-Id`. Send your own `X-Request-Id` to have it echoed back.  ## Pagination  Every list takes `limit` (1–100, default 25) and `offset` (default 0) and answers `{ \"data\": [...], \"pagination\": { \"limit\", \"offset\", \"total\", \"hasMore\" } }`. Lists are ordered by `createdAt` ascending with `id` as tie-breaker (audit logs by `occurredAt`), so pages stay stable while records are appended. The response also carries an [RFC 8288](https://www.rfc-editor.org/rfc/rfc8288) `Link` header with `rel=\"next\"` and `rel=\"prev\"` where those pages exist. Filters restrict to exact matches and combine with AND.  ## Identifiers, dates, instants and money  - Ids are UUIDs (version 7: time-ordered). - Calendar dates are `YYYY-MM-DD` (`format: date`); date ranges are inclusive of both ends. - Instants are RFC 3339 in UTC, e.g. `2025-06-02T14:30:00Z` (`format: date-time`). - Money is a JSON number in major units (dollars, not cents) of the tenant's currency (the ISO 4217 code in   `GET /tenant` and in each project's read-only `currency`); amounts in requests are at most 10^15.  ## Updates and concurrency  `PATCH` changes only the fields present in the body; absent fields keep their values, and `null` clears a nullable field. Every mutable record has an integer `version` (starting at 1, incremented by each change) and responses that return one such record carry an `ETag`. Send it back in `If-Match` on `PATCH` or `DELETE` to make the change conditional: if the record changed meanwhile you get **412** `precondition_failed` and nothing is written. On `GET` of one record, send the `ETag` you hold in `If-None-Match` to get **304 Not Modified** (no body) while the record is unchanged.  ## Idempotency  Every `POST` accepts an `Idempotency-Key` header (any unique string, e.g. a UUID). Keys are kept per tenant for 24 hours: a retry with the same key and body returns the first response (status and body) without repeating the effect; the same key with a different body answers **422** `idempotency_key_reused`; while the first request is still running a retry answers **409** `conflict`.  ## Rate limits  Each tenant may make 1,000 requests per minute by default (`rateLimit.requestsPerMinute` on `GET /tenant`; higher limits are available on Enterprise plans). Every response carries the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: \"default\";q=1000;w=60` (quota per window of seconds) and `RateLimit: \"default\";r=999;t=42` (remaining requests, seconds until the window resets). Above the limit you get **429** `rate_limited` with `Retry-After` in seconds. Failed authentication attempts are also limited per client address.  ## Versioning  The major version is the base path, `/v1`. Within `v1` changes are additive only: new operations, new optional request fields, new response fields, new enum values and new error codes — clients should ignore unknown fields. Official client libraries for TypeScript/Node.js and Python are generated from this document; both are in beta.  ## Webhooks  Register endpoints with `POST /webhooks` (scope `admin`) to receive the events listed under *Webhooks* in this document: `project.status_changed`, `risk.created`, `risk.severity_escalated`, `milestone.missed`, `agent.execution_completed` and `budget.overrun_detected`. Each delivery is a `POST` with a JSON body `{ id, event, tenantId, timestamp, data }`, signed per [Standard Webhooks](https://www.standardwebhooks.com/) v1:  - `webhook-id`: the event id (the same on every retry of the event); - `webhook-timestamp`: Unix time in seconds of this attempt; - `webhook-signature`: `v1,<base64 of HMAC-SHA256(secret, \"{webhook-id}.{webhook-timestamp}.{raw body}\")>`,   where the key is the base64-decoded part of the endpoint's `whsec_…` secret. During the 24 hours after a secret   rotation the header carries two space-separated signatures, one per secret.  Verify with the `standardwebhooks` libraries (npm, PyPI) or the helpers of the Meridian SDKs, and reject timestamps more than 5 minutes from your clock. Delivery is **at least once** and **unordered**: deduplicate on `webhook-id` and order by `timestamp` if you need to. Answer any 2xx within 15 seconds. Failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all, the first immediately); `429`/`503` answers with `Retry-After` are honoured. An answer of `410 Gone` disables the endpoint at once, and an endpoint that has been failing for 5 days is disabled (`enabled: false` with a `disabledReason`). 

    The version of the OpenAPI document: 1.0.0
    Contact: api@meridian.example
    Generated by OpenAPI Generator (https://openapi-generator.tech)

    Do not edit the class manually.
"""  # noqa: E501


import ipaddress
import io
import json
import re
import ssl
from urllib.parse import urlparse

import urllib3

from meridian_client.exceptions import ApiException, ApiValueError

SUPPORTED_SOCKS_PROXIES = {"socks5", "socks5h", "socks4", "socks4a"}
RESTResponseType = urllib3.HTTPResponse


def is_socks_proxy_url(url):
    if url is None:
        return False
    split_section = url.split("://")
    if len(split_section) < 2:
        return False
    else:
        return split_section[0].lower() in SUPPORTED_SOCKS_PROXIES

def contenttype_matches(contenttype, maintype, subtype):
    """Matches the given contenttype against the given type and subtype

    :param contenttype: the content type to match
    :param maintype: the expected maintype
    :param subtype: the expected subtype
    :return: `true` when the given content type matches the given type and subtype,
        regardless of the presence of mime type parameters, otherwise returns `false`.
    :rtype: bool
    """
    pattern = '{type}/(?:[^+;]+\\+)?{subtype}(?:[ \t]*;.*)?'.format(
        type = re.escape(maintype),
        subtype = re.escape(subtype),
    )
    return re.fullmatch(pattern, contenttype, re.IGNORECASE) is not None

def should_bypass_proxies(url: str, no_proxy: str) -> bool:
    """Return whether ``url`` matches the comma-separated ``no_proxy`` rules."""
    parsed_url = urlparse(url)
    if not parsed_url.hostname:
        return True

    host = parsed_url.hostname.lower()
    host_and_port = parsed_url.netloc.lower()
    try:
        host_ip = ipaddress.ip_address(host)
    except ValueError:
        host_ip = None

    for entry in (entry.strip().lower() for entry in no_proxy.split(',')):
        if not entry:
            continue
        if entry == '*':
            return True

        if host_ip is not None:
            try:
                if host_ip in ipaddress.ip_network(entry, strict=False):
                    return True
            except ValueError:
                pass

        entry = entry.lstrip('.')
        if (
            host == entry
            or host.endswith('.' + entry)
            or host_and_port == entry
            or host_and_port.endswith('.' + entry)
        ):
            return True

    return False


class RESTResponse(io.IOBase):

    def __init__(self, resp) -> None:
        self.response = resp
        self.status = resp.status
        self.reason = resp.reason
        self.data = None

    def read(self):
        if self.data is None:
            self.data = self.response.data
        return self.data

    @property
    def headers(self):
        """Returns a dictionary of response headers."""
        return self.response.headers

    def getheaders(self):
        """Returns a dictionary of the response headers; use ``headers`` instead."""
        return self.response.headers

    def getheader(self, name, default=None):
        """Returns a given response header; use ``headers.get()`` instead."""
        return self.response.headers.get(name, default)


class RESTClientObject:

    def __init__(self, configuration) -> None:
        # urllib3.PoolManager will pass all kw parameters to connectionpool
        # https://github.com/shazow/urllib3/blob/f9409436f83aeb79fbaf090181cd81b784f1b8ce/urllib3/poolmanager.py#L75  # noqa: E501
        # https://github.com/shazow/urllib3/blob/f9409436f83aeb79fbaf090181cd81b784f1b8ce/urllib3/connectionpool.py#L680  # noqa: E501
        # Custom SSL certificates and client certificates: http://urllib3.readthedocs.io/en/latest/advanced-usage.html  # noqa: E501

        # cert_reqs
        if configuration.verify_ssl:
            cert_reqs = ssl.CERT_REQUIRED
        else:
            cert_reqs = ssl.CERT_NONE

        pool_args = {
            "cert_reqs": cert_reqs,
            "ca_certs": configuration.ssl_ca_cert,
            "cert_file": configuration.cert_file,
            "key_file": configuration.key_file,
            "ca_cert_data": configuration.ca_cert_data,
        }
        if configuration.assert_hostname is not None:
            pool_args['assert_hostname'] = (
                configuration.assert_hostname
            )

        if configuration.retries is not None:
            pool_args['retries'] = configuration.retries

        if configuration.tls_server_name:
            pool_args['server_hostname'] = configuration.tls_server_name


        if configuration.socket_options is not None:
            pool_args['socket_options'] = configuration.socket_options

        if configuration.connection_pool_maxsize is not None:
            pool_args['maxsize'] = configuration.connection_pool_maxsize

        # https pool manager
        self.pool_manager: urllib3.PoolManager

        if configuration.proxy and not should_bypass_proxies(
            configuration.host, configuration.no_proxy or ''
        ):
            if is_socks_proxy_url(configuration.proxy):
                from urllib3.contrib.socks import SOCKSProxyManager
                pool_args["proxy_url"] = configuration.proxy
                pool_args["headers"] = configuration.proxy_headers
                self.pool_manager = SOCKSProxyManager(**pool_args)
            else:
                pool_args["proxy_url"] = configuration.proxy
                pool_args["proxy_headers"] = configuration.proxy_headers
                if configuration.proxy_ssl_context is not None:
                    pool_args["proxy_ssl_context"] = configuration.proxy_ssl_context
                self.pool_manager = urllib3.ProxyManager(**pool_args)
        else:
            self.pool_manager = urllib3.PoolManager(**pool_args)

    def request(
        self,
        method,
        url,
        headers=None,
        body=None,
        post_params=None,
        _request_timeout=None
    ):
        """Perform requests.

        :param method: http request method
        :param url: http request url
        :param headers: http request headers
        :param body: request json body, for `application/json`
        :param post_params: request post parameters,
                            `application/x-www-form-urlencoded`
                            and `multipart/form-data`
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        """
        method = method.upper()
        assert method in [
            'GET',
            'HEAD',
            'DELETE',
            'POST',
            'PUT',
            'PATCH',
            'OPTIONS'
        ]

        if post_params and body:
            raise ApiValueError(
                "body parameter cannot be used with post_params parameter."
            )

        post_params = post_params or {}
        headers = headers or {}

        timeout = None
        if _request_timeout:
            if isinstance(_request_timeout, (int, float)):
                timeout = urllib3.Timeout(total=_request_timeout)
            elif (
                    isinstance(_request_timeout, tuple)
                    and len(_request_timeout) == 2
                ):
                timeout = urllib3.Timeout(
                    connect=_request_timeout[0],
                    read=_request_timeout[1]
                )

        try:
            # For `POST`, `PUT`, `PATCH`, `OPTIONS`, `DELETE`
            if method in ['POST', 'PUT', 'PATCH', 'OPTIONS', 'DELETE']:

                content_type = headers.get('Content-Type')
                is_json = (
                    not content_type
                    or contenttype_matches(content_type, 'application', 'json')
                )
                # JSON is valid YAML 1.2, so structured YAML bodies can use
                # the existing JSON serializer:
                # https://yaml.org/spec/1.2.2/#13-relation-to-json
                is_structured_yaml = (
                    content_type
                    and (
                        contenttype_matches(content_type, 'application', 'yaml')
                        or contenttype_matches(content_type, 'text', 'yaml')
                        or contenttype_matches(content_type, 'text', 'x-yaml')
                    )
                    and not isinstance(body, (str, bytes))
                )
                if is_json or is_structured_yaml:
                    request_body = None
                    if body is not None:
                        request_body = json.dumps(body)
                    r = self.pool_manager.request(
                        method,
                        url,
                        body=request_body,
                        timeout=timeout,
                        headers=headers,
                        preload_content=False
                    )
                elif contenttype_matches(content_type, 'application', 'x-www-form-urlencoded'):
                    r = self.pool_manager.request(
                        method,
                        url,
                        fields=post_params,
                        encode_multipart=False,
                        timeout=timeout,
                        headers=headers,
                        preload_content=False
                    )
                elif contenttype_matches(content_type, 'multipart', 'form-data'):
                    # must del headers['Content-Type'], or the correct
                    # Content-Type which generated by urllib3 will be
                    # overwritten.
                    del headers['Content-Type']
                    # Ensures that dict objects are serialized
                    post_params = [(a, json.dumps(b)) if isinstance(b, dict) else (a,b) for a, b in post_params]
                    r = self.pool_manager.request(
                        method,
                        url,
                        fields=post_params,
                        encode_multipart=True,
                        timeout=timeout,
                        headers=headers,
                        preload_content=False
                    )
                # Pass a `string` parameter directly in the body to support
                # other content types than JSON when `body` argument is
                # provided in serialized form.
                elif isinstance(body, str) or isinstance(body, bytes):
                    r = self.pool_manager.request(
                        method,
                        url,
                        body=body,
                        timeout=timeout,
                        headers=headers,
                        preload_content=False
                    )
                elif content_type.startswith('text/') and isinstance(body, bool):
                    request_body = "true" if body else "false"
                    r = self.pool_manager.request(
                        method,
                        url,
                        body=request_body,
                        preload_content=False,
                        timeout=timeout,
                        headers=headers)
                else:
                    # Cannot generate the request from given parameters
                    msg = """Cannot prepare a request message for provided
                             arguments. Please check that your arguments match
                             declared content type."""
                    raise ApiException(status=0, reason=msg)
            # For `GET`, `HEAD`
            else:
                r = self.pool_manager.request(
                    method,
                    url,
                    fields={},
                    timeout=timeout,
                    headers=headers,
                    preload_content=False
                )
        except urllib3.exceptions.SSLError as e:
            msg = "\n".join([type(e).__name__, str(e)])
            raise ApiException(status=0, reason=msg)

        return RESTResponse(r)
