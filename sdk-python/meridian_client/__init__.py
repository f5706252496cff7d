# coding: utf-8

# flake8: noqa

"""
    Meridian API

    Meridian is a multi-tenant project and portfolio management service. Through this API you read and write project data (projects, milestones, risks, issues, resources, allocations), trigger AI agent runs and poll their executions, ask natural-language questions that are answered with citations, register webhooks, and read the current user, the tenant and the audit log.  This document is the contract: it is served by every deployment at `GET /v1/openapi.json` and `GET /v1/openapi.yaml` (those two addresses are not operations of the API and need no key).  ## Authentication  Every request carries an API key: `Authorization: Bearer mk_live_…`. Keys are issued in Settings → API Keys or through the [API Keys](#tag/API-Keys) endpoints; the full key is shown once, at creation. A key belongs to a user, a user to a tenant, and every request sees only its tenant's data.  | Scope | Grants | |---|---| | `read` | every `GET` of project data, agents, `/me` and `/tenant`, and `POST /agents/ask` | | `write` | creating, updating and deleting project data (projects, milestones, risks, issues, resources, allocations) and `POST /agents/run` | | `admin` | webhooks, API keys and audit logs (reading them too) and tenant settings |  Scopes are cumulative: a key with `write` may also do everything `read` allows, and `admin` everything `write` allows. Create a key with only `read` for dashboards and reporting tools.  A missing, malformed, expired or revoked key answers **401** with `WWW-Authenticate: Bearer` (code `unauthenticated`). A valid key without the scope an operation needs (see `x-required-scope` on each operation) answers **403** (code `forbidden`). A record that belongs to another tenant is indistinguishable from one that does not exist: **404** (code `not_found`), never 403.  ## Errors  Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem documents (`Content-Type: application/problem+json`) with `type`, `title`, `status`, `detail`, `instance`, a stable machine-readable `code`, the `requestId` of the request and, for validation errors, `errors[]` naming each offending field (`location`, `path`, `message`). Branch on `code`, not on `title` or `detail`; new codes may be added.  | Status | `code` | When | |---|---|---| | 400 | `validation_failed` | The request does not match this document: wrong type or format, missing required field, unknown query parameter, unknown body property. | | 401 | `unauthenticated` | No key, or a malformed, unknown, expired or revoked key. Carries `WWW-Authenticate: Bearer`. | | 403 | `forbidden` | The key lacks the scope the operation requires. | | 404 | `not_found` | Unknown address, or a record that does not exist in your tenant. | | 405 | `method_not_allowed` | The path exists but not with this method. Carries `Allow`. | | 409 | `conflict` | A state conflict, e.g. a duplicate project `code`, or a request with the same `Idempotency-Key` still in flight. | | 409 | `invalid_transition` | A status change that is not allowed (see `ProjectStatus`). | | 412 | `precondition_failed` | `If-Match` does not match the record's current `ETag`. | | 413 | `payload_too_large` | The request body is larger than 1 MiB. | | 415 | `unsupported_media_type` | A request body that is not `application/json`. | | 422 | `validation_failed` | A well-formed request that breaks a business rule, e.g. `endDate` before `startDate`, or a `projectId` that names no project of your tenant. | | 422 | `idempotency_key_reused` | An `Idempotency-Key` reused with a different request body. | | 429 | `rate_limited` | Rate limit exceeded. Carries `Retry-After` (seconds). | | 500 | `internal_error` | An unexpected error. Report the `requestId`; no internals are ever exposed. | | 503 | `service_unavailable` | A dependency (the database) is unreachable. Carries `Retry-After`. |  Every response, success or error, carries `X-Request-Id`. Send your own `X-Request-Id` to have it echoed back.  ## Pagination  Every list takes `limit` (1–100, default 25) and `offset` (default 0) and answers `{ \"data\": [...], \"pagination\": { \"limit\", \"offset\", \"total\", \"hasMore\" } }`. Lists are ordered by `createdAt` ascending with `id` as tie-breaker (audit logs by `occurredAt`), so pages stay stable while records are appended. The response also carries an [RFC 8288](https://www.rfc-editor.org/rfc/rfc8288) `Link` header with `rel=\"next\"` and `rel=\"prev\"` where those pages exist. Filters restrict to exact matches and combine with AND.  ## Identifiers, dates, instants and money  - Ids are UUIDs (version 7: time-ordered). - Calendar dates are `YYYY-MM-DD` (`format: date`); date ranges are inclusive of both ends. - Instants are RFC 3339 in UTC, e.g. `2025-06-02T14:30:00Z` (`format: date-time`). - Money is a JSON number in major units (dollars, not cents) of the tenant's currency (the ISO 4217 code in   `GET /tenant` and in each project's read-only `currency`); amounts in requests are at most 10^15.  ## Updates and concurrency  `PATCH` changes only the fields present in the body; absent fields keep their values, and `null` clears a nullable field. Every mutable record has an integer `version` (starting at 1, incremented by each change) and responses that return one such record carry an `ETag`. Send it back in `If-Match` on `PATCH` or `DELETE` to make the change conditional: if the record changed meanwhile you get **412** `precondition_failed` and nothing is written. On `GET` of one record, send the `ETag` you hold in `If-None-Match` to get **304 Not Modified** (no body) while the record is unchanged.  ## Idempotency  Every `POST` accepts an `Idempotency-Key` header (any unique string, e.g. a UUID). Keys are kept per tenant for 24 hours: a retry with the same key and body returns the first response (status and body) without repeating the effect; the same key with a different body answers **422** `idempotency_key_reused`; while the first request is still running a retry answers **409** `conflict`.  ## Rate limits  Each tenant may make 1,000 requests per minute by default (`rateLimit.requestsPerMinute` on `GET /tenant`; higher limits are available on Enterprise plans). Every response carries the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: \"default\";q=1000;w=60` (quota per window of seconds) and `RateLimit: \"default\";r=999;t=42` (remaining requests, seconds until the window resets). Above the limit you get **429** `rate_limited` with `Retry-After` in seconds. Failed authentication attempts are also limited per client address.  ## Versioning  The major version is the base path, `/v1`. Within `v1` changes are additive only: new operations, new optional request fields, new response fields, new enum values and new error codes — clients should ignore unknown fields. Official client libraries for TypeScript/Node.js and Python are generated from this document; both are in beta.  ## Webhooks  Register endpoints with `POST /webhooks` (scope `admin`) to receive the events listed under *Webhooks* in this document: `project.status_changed`, `risk.created`, `risk.severity_escalated`, `milestone.missed`, `agent.execution_completed` and `budget.overrun_detected`. Each delivery is a `POST` with a JSON body `{ id, event, tenantId, timestamp, data }`, signed per [Standard Webhooks](https://www.standardwebhooks.com/) v1:  - `webhook-id`: the event id (the same on every retry of the event); - `webhook-timestamp`: Unix time in seconds of this attempt; - `webhook-signature`: `v1,<base64 of HMAC-SHA256(secret, \"{webhook-id}.{webhook-timestamp}.{raw body}\")>`,   where the key is the base64-decoded part of the endpoint's `whsec_…` secret. During the 24 hours after a secret   rotation the header carries two space-separated signatures, one per secret.  Verify with the `standardwebhooks` libraries (npm, PyPI) or the helpers of the Meridian SDKs, and reject timestamps more than 5 minutes from your clock. Delivery is **at least once** and **unordered**: deduplicate on `webhook-id` and order by `timestamp` if you need to. Answer any 2xx within 15 seconds. Failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all, the first immediately); `429`/`503` answers with `Retry-After` are honoured. An answer of `410 Gone` disables the endpoint at once, and an endpoint that has been failing for 5 days is disabled (`enabled: false` with a `disabledReason`). 

    The version of the OpenAPI document: 1.0.0
    Contact: api@meridian.example
    Generated by OpenAPI Generator (https://openapi-generator.tech)

    Do not edit the class manually.
"""  # noqa: E501


__version__ = "0.1.0b1"

# Define package exports
__all__ = [
    "APIKeysApi",
    "AgentsApi",
    "AllocationsApi",
    "AuditLogsApi",
    "IdentityApi",
    "IssuesApi",
    "MilestonesApi",
    "ProjectsApi",
    "ResourcesApi",
    "RisksApi",
    "WebhooksApi",
    "ApiResponse",
    "ApiClient",
    "Configuration",
    "OpenApiException",
    "ApiTypeError",
    "ApiValueError",
    "ApiKeyError",
    "ApiAttributeError",
    "ApiException",
    "Agent",
    "AgentDepth",
    "AgentExecution",
    "AgentExecutionCompletedData",
    "AgentExecutionCompletedEvent",
    "AgentExecutionList",
    "AgentId",
    "AgentList",
    "AgentOutput",
    "AgentRunRequest",
    "Allocation",
    "AllocationConflict",
    "AllocationConflictList",
    "AllocationCreate",
    "AllocationList",
    "AllocationUpdate",
    "ApiKey",
    "ApiKeyCreate",
    "ApiKeyList",
    "ApiKeyScope",
    "ApiKeyWithSecret",
    "AskAnswer",
    "AskRequest",
    "AuditActor",
    "AuditLogEntry",
    "AuditLogEntryList",
    "AvailabilityGranularity",
    "AvailabilityPeriod",
    "AvailabilityTotals",
    "BudgetOverrunDetectedData",
    "BudgetOverrunDetectedEvent",
    "BudgetOverrunKind",
    "BudgetSummary",
    "Citation",
    "CitationType",
    "ConflictingAllocation",
    "DeliveryAttempt",
    "ExecutionError",
    "ExecutionStatus",
    "FieldChange",
    "Finding",
    "FindingSeverity",
    "Issue",
    "IssueCreate",
    "IssueList",
    "IssuePriority",
    "IssueStatus",
    "IssueUpdate",
    "Me",
    "MeApiKey",
    "MeTenant",
    "MeUser",
    "Milestone",
    "MilestoneCreate",
    "MilestoneList",
    "MilestoneMissedData",
    "MilestoneMissedEvent",
    "MilestoneStatus",
    "MilestoneUpdate",
    "PaginationMeta",
    "Problem",
    "ProblemFieldError",
    "ProblemFieldLocation",
    "Project",
    "ProjectCreate",
    "ProjectDetail",
    "ProjectList",
    "ProjectStatus",
    "ProjectStatusChangedData",
    "ProjectStatusChangedEvent",
    "ProjectUpdate",
    "Resource",
    "ResourceAvailability",
    "ResourceCreate",
    "ResourceList",
    "ResourceUpdate",
    "Risk",
    "RiskCreate",
    "RiskCreatedData",
    "RiskCreatedEvent",
    "RiskList",
    "RiskSeverity",
    "RiskSeverityEscalatedData",
    "RiskSeverityEscalatedEvent",
    "RiskStatus",
    "RiskUpdate",
    "SeveritySource",
    "TeamMember",
    "Tenant",
    "TenantPlan",
    "TenantRateLimit",
    "WebhookDelivery",
    "WebhookDeliveryList",
    "WebhookDeliveryStatus",
    "WebhookEndpoint",
    "WebhookEndpointCreate",
    "WebhookEndpointList",
    "WebhookEndpointUpdate",
    "WebhookEndpointWithSecret",
    "WebhookEventFilter",
    "WebhookEventType",
]

# import apis into sdk package
from meridian_client.api.api_keys_api import APIKeysApi as APIKeysApi
from meridian_client.api.agents_api import AgentsApi as AgentsApi
from meridian_client.api.allocations_api import AllocationsApi as AllocationsApi
from meridian_client.api.audit_logs_api import AuditLogsApi as AuditLogsApi
from meridian_client.api.identity_api import IdentityApi as IdentityApi
from meridian_client.api.issues_api import IssuesApi as IssuesApi
from meridian_client.api.milestones_api import MilestonesApi as MilestonesApi
from meridian_client.api.projects_api import ProjectsApi as ProjectsApi
from meridian_client.api.resources_api import ResourcesApi as ResourcesApi
from meridian_client.api.risks_api import RisksApi as RisksApi
from meridian_client.api.webhooks_api import WebhooksApi as WebhooksApi

# import ApiClient
from meridian_client.api_response import ApiResponse as ApiResponse
from meridian_client.api_client import ApiClient as ApiClient
from meridian_client.configuration import Configuration as Configuration
from meridian_client.exceptions import OpenApiException as OpenApiException
from meridian_client.exceptions import ApiTypeError as ApiTypeError
from meridian_client.exceptions import ApiValueError as ApiValueError
from meridian_client.exceptions import ApiKeyError as ApiKeyError
from meridian_client.exceptions import ApiAttributeError as ApiAttributeError
from meridian_client.exceptions import ApiException as ApiException

# import models into sdk package
from meridian_client.models.agent import Agent as Agent
from meridian_client.models.agent_depth import AgentDepth as AgentDepth
from meridian_client.models.agent_execution import AgentExecution as AgentExecution
from meridian_client.models.agent_execution_completed_data import AgentExecutionCompletedData as AgentExecutionCompletedData
from meridian_client.models.agent_execution_completed_event import AgentExecutionCompletedEvent as AgentExecutionCompletedEvent
from meridian_client.models.agent_execution_list import AgentExecutionList as AgentExecutionList
from meridian_client.models.agent_id import AgentId as AgentId
from meridian_client.models.agent_list import AgentList as AgentList
from meridian_client.models.agent_output import AgentOutput as AgentOutput
from meridian_client.models.agent_run_request import AgentRunRequest as AgentRunRequest
from meridian_client.models.allocation import Allocation as Allocation
from meridian_client.models.allocation_conflict import AllocationConflict as AllocationConflict
from meridian_client.models.allocation_conflict_list import AllocationConflictList as AllocationConflictList
from meridian_client.models.allocation_create import AllocationCreate as AllocationCreate
from meridian_client.models.allocation_list import AllocationList as AllocationList
from meridian_client.models.allocation_update import AllocationUpdate as AllocationUpdate
from meridian_client.models.api_key import ApiKey as ApiKey
from meridian_client.models.api_key_create import ApiKeyCreate as ApiKeyCreate
from meridian_client.models.api_key_list import ApiKeyList as ApiKeyList
from meridian_client.models.api_key_scope import ApiKeyScope as ApiKeyScope
from meridian_client.models.api_key_with_secret import ApiKeyWithSecret as ApiKeyWithSecret
from meridian_client.models.ask_answer import AskAnswer as AskAnswer
from meridian_client.models.ask_request import AskRequest as AskRequest
from meridian_client.models.audit_actor import AuditActor as AuditActor
from meridian_client.models.audit_log_entry import AuditLogEntry as AuditLogEntry
from meridian_client.models.audit_log_entry_list import AuditLogEntryList as AuditLogEntryList
from meridian_client.models.availability_granularity import AvailabilityGranularity as AvailabilityGranularity
from meridian_client.models.availability_period import AvailabilityPeriod as AvailabilityPeriod
from meridian_client.models.availability_totals import AvailabilityTotals as AvailabilityTotals
from meridian_client.models.budget_overrun_detected_data import BudgetOverrunDetectedData as BudgetOverrunDetectedData
from meridian_client.models.budget_overrun_detected_event import BudgetOverrunDetectedEvent as BudgetOverrunDetectedEvent
from meridian_client.models.budget_overrun_kind import BudgetOverrunKind as BudgetOverrunKind
from meridian_client.models.budget_summary import BudgetSummary as BudgetSummary
from meridian_client.models.citation import Citation as Citation
from meridian_client.models.citation_type import CitationType as CitationType
from meridian_client.models.conflicting_allocation import ConflictingAllocation as ConflictingAllocation
from meridian_client.models.delivery_attempt import DeliveryAttempt as DeliveryAttempt
from meridian_client.models.execution_error import ExecutionError as ExecutionError
from meridian_client.models.execution_status import ExecutionStatus as ExecutionStatus
from meridian_client.models.field_change import FieldChange as FieldChange
from meridian_client.models.finding import Finding as Finding
from meridian_client.models.finding_severity import FindingSeverity as FindingSeverity
from meridian_client.models.issue import Issue as Issue
from meridian_client.models.issue_create import IssueCreate as IssueCreate
from meridian_client.models.issue_list import IssueList as IssueList
from meridian_client.models.issue_priority import IssuePriority as IssuePriority
from meridian_client.models.issue_status import IssueStatus as IssueStatus
from meridian_client.models.issue_update import IssueUpdate as IssueUpdate
from meridian_client.models.me import Me as Me
from meridian_client.models.me_api_key import MeApiKey as MeApiKey
from meridian_client.models.me_tenant import MeTenant as MeTenant
from meridian_client.models.me_user import MeUser as MeUser
from meridian_client.models.milestone import Milestone as Milestone
from meridian_client.models.milestone_create import MilestoneCreate as MilestoneCreate
from meridian_client.models.milestone_list import MilestoneList as MilestoneList
from meridian_client.models.milestone_missed_data import MilestoneMissedData as MilestoneMissedData
from meridian_client.models.milestone_missed_event import MilestoneMissedEvent as MilestoneMissedEvent
from meridian_client.models.milestone_status import MilestoneStatus as MilestoneStatus
from meridian_client.models.milestone_update import MilestoneUpdate as MilestoneUpdate
from meridian_client.models.pagination_meta import PaginationMeta as PaginationMeta
from meridian_client.models.problem import Problem as Problem
from meridian_client.models.problem_field_error import ProblemFieldError as ProblemFieldError
from meridian_client.models.problem_field_location import ProblemFieldLocation as ProblemFieldLocation
from meridian_client.models.project import Project as Project
from meridian_client.models.project_create import ProjectCreate as ProjectCreate
from meridian_client.models.project_detail import ProjectDetail as ProjectDetail
from meridian_client.models.project_list import ProjectList as ProjectList
from meridian_client.models.project_status import ProjectStatus as ProjectStatus
from meridian_client.models.project_status_changed_data import ProjectStatusChangedData as ProjectStatusChangedData
from meridian_client.models.project_status_changed_event import ProjectStatusChangedEvent as ProjectStatusChangedEvent
from meridian_client.models.project_update import ProjectUpdate as ProjectUpdate
from meridian_client.models.resource import Resource as Resource
from meridian_client.models.resource_availability import ResourceAvailability as ResourceAvailability
from meridian_client.models.resource_create import ResourceCreate as ResourceCreate
from meridian_client.models.resource_list import ResourceList as ResourceList
from meridian_client.models.resource_update import ResourceUpdate as ResourceUpdate
from meridian_client.models.risk import Risk as Risk
from meridian_client.models.risk_create import RiskCreate as RiskCreate
from meridian_client.models.risk_created_data import RiskCreatedData as RiskCreatedData
from meridian_client.models.risk_created_event import RiskCreatedEvent as RiskCreatedEvent
from meridian_client.models.risk_list import RiskList as RiskList
from meridian_client.models.risk_severity import RiskSeverity as RiskSeverity
from meridian_client.models.risk_severity_escalated_data import RiskSeverityEscalatedData as RiskSeverityEscalatedData
from meridian_client.models.risk_severity_escalated_event import RiskSeverityEscalatedEvent as RiskSeverityEscalatedEvent
from meridian_client.models.risk_status import RiskStatus as RiskStatus
from meridian_client.models.risk_update import RiskUpdate as RiskUpdate
from meridian_client.models.severity_source import SeveritySource as SeveritySource
from meridian_client.models.team_member import TeamMember as TeamMember
from meridian_client.models.tenant import Tenant as Tenant
from meridian_client.models.tenant_plan import TenantPlan as TenantPlan
from meridian_client.models.tenant_rate_limit import TenantRateLimit as TenantRateLimit
from meridian_client.models.webhook_delivery import WebhookDelivery as WebhookDelivery
from meridian_client.models.webhook_delivery_list import WebhookDeliveryList as WebhookDeliveryList
from meridian_client.models.webhook_delivery_status import WebhookDeliveryStatus as WebhookDeliveryStatus
from meridian_client.models.webhook_endpoint import WebhookEndpoint as WebhookEndpoint
from meridian_client.models.webhook_endpoint_create import WebhookEndpointCreate as WebhookEndpointCreate
from meridian_client.models.webhook_endpoint_list import WebhookEndpointList as WebhookEndpointList
from meridian_client.models.webhook_endpoint_update import WebhookEndpointUpdate as WebhookEndpointUpdate
from meridian_client.models.webhook_endpoint_with_secret import WebhookEndpointWithSecret as WebhookEndpointWithSecret
from meridian_client.models.webhook_event_filter import WebhookEventFilter as WebhookEventFilter
from meridian_client.models.webhook_event_type import WebhookEventType as WebhookEventType

