"""The fields of nested request objects as TypedDicts (``settings={"llm_enabled": False}``); the models of ``meridian.models`` are accepted too.

Generated from spec/openapi.yaml by sdk-python/scripts/generate_operations.py. Do not edit: change the spec and
run `npm run generate`.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal, Mapping, Optional, Sequence, Union
from uuid import UUID

from typing_extensions import NotRequired, Required, TypedDict

from meridian._generated.models.agent_depth import AgentDepth
from meridian._generated.models.agent_id import AgentId
from meridian._generated.models.agent_run_request import AgentRunRequest
from meridian._generated.models.allocation_create import AllocationCreate
from meridian._generated.models.allocation_update import AllocationUpdate
from meridian._generated.models.api_key_create import ApiKeyCreate
from meridian._generated.models.api_key_roll import ApiKeyRoll
from meridian._generated.models.api_key_scope import ApiKeyScope
from meridian._generated.models.ask_request import AskRequest
from meridian._generated.models.invitation_create import InvitationCreate
from meridian._generated.models.issue_create import IssueCreate
from meridian._generated.models.issue_priority import IssuePriority
from meridian._generated.models.issue_status import IssueStatus
from meridian._generated.models.issue_update import IssueUpdate
from meridian._generated.models.member_update import MemberUpdate
from meridian._generated.models.milestone_create import MilestoneCreate
from meridian._generated.models.milestone_status import MilestoneStatus
from meridian._generated.models.milestone_update import MilestoneUpdate
from meridian._generated.models.project_create import ProjectCreate
from meridian._generated.models.project_status import ProjectStatus
from meridian._generated.models.project_update import ProjectUpdate
from meridian._generated.models.resource_create import ResourceCreate
from meridian._generated.models.resource_update import ResourceUpdate
from meridian._generated.models.risk_create import RiskCreate
from meridian._generated.models.risk_severity import RiskSeverity
from meridian._generated.models.risk_status import RiskStatus
from meridian._generated.models.risk_update import RiskUpdate
from meridian._generated.models.sso_role import SsoRole
from meridian._generated.models.status_report_create import StatusReportCreate
from meridian._generated.models.tenant_sso_update import TenantSsoUpdate
from meridian._generated.models.tenant_update import TenantUpdate
from meridian._generated.models.tenant_update_settings import TenantUpdateSettings
from meridian._generated.models.user_role import UserRole
from meridian._generated.models.webhook_endpoint_create import WebhookEndpointCreate
from meridian._generated.models.webhook_endpoint_update import WebhookEndpointUpdate
from meridian._generated.models.webhook_event_type import WebhookEventType

__all__ = ['AgentRunRequestParam', 'AllocationCreateParam', 'AllocationUpdateParam', 'ApiKeyCreateParam', 'ApiKeyRollParam', 'AskRequestParam', 'InvitationCreateParam', 'IssueCreateParam', 'IssueUpdateParam', 'MemberUpdateParam', 'MilestoneCreateParam', 'MilestoneUpdateParam', 'ProjectCreateParam', 'ProjectUpdateParam', 'ResourceCreateParam', 'ResourceUpdateParam', 'RiskCreateParam', 'RiskUpdateParam', 'StatusReportCreateParam', 'TenantSsoUpdateParam', 'TenantUpdateParam', 'TenantUpdateSettingsParam', 'WebhookEndpointCreateParam', 'WebhookEndpointUpdateParam']


class AgentRunRequestParam(TypedDict, total=False):
    """The fields of ``meridian.models.AgentRunRequest`` as a dict, by their snake_case names."""
    agent_id: Required[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]]
    scope: NotRequired[str]
    """`all` for the whole portfolio, or `project:<uuid>` for one project of your tenant."""
    depth: NotRequired[Union[AgentDepth, Literal["quick", "standard", "deep"]]]
    as_of: NotRequired[Union[date, str]]
    """The date the analysis judges against (overdue means due before it; status reports dated after it are left
    out). Default: today in the tenant's time zone; it cannot be later than that.
    """


class AllocationCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.AllocationCreate`` as a dict, by their snake_case names."""
    resource_id: Required[Union[UUID, str]]
    """A resource of your tenant (else 422)."""
    project_id: Required[Union[UUID, str]]
    """A project of your tenant (else 422)."""
    start_date: Required[Union[date, str]]
    """First day of the allocation."""
    end_date: Required[Union[date, str]]
    """Last day; must be on or after `startDate` (else 422)."""
    allocation_percent: Required[float]
    """Share of the resource's weekly capacity, in percent."""
    role: NotRequired[Optional[str]]
    """Role on the project."""


class AllocationUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.AllocationUpdate`` as a dict, by their snake_case names."""
    start_date: NotRequired[Union[date, str]]
    """First day of the allocation."""
    end_date: NotRequired[Union[date, str]]
    """Last day; the result must be on or after `startDate` (else 422)."""
    allocation_percent: NotRequired[float]
    """Share of the resource's weekly capacity, in percent."""
    role: NotRequired[Optional[str]]
    """Role on the project; null clears it."""


class ApiKeyCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.ApiKeyCreate`` as a dict, by their snake_case names."""
    name: Required[str]
    """A name to recognise the key by."""
    scopes: Required[Sequence[Union[ApiKeyScope, Literal["read", "write", "admin"]]]]
    """Scopes to grant."""
    expires_at: NotRequired[Union[datetime, str]]
    """When the key stops working; omit for a key that never expires."""


class ApiKeyRollParam(TypedDict, total=False):
    """The fields of ``meridian.models.ApiKeyRoll`` as a dict, by their snake_case names."""
    grace_period: Required[Literal["now", "1h", "24h", "7d"]]
    """How long the old key keeps working after the successor is issued: `now` (refused from the next request
    on), one hour, 24 hours or 7 days. An earlier `expiresAt` of the old key stays.
    """
    expires_at: NotRequired[Union[datetime, str]]
    """When the successor stops working; omit for a successor that never expires."""


class AskRequestParam(TypedDict, total=False):
    """The fields of ``meridian.models.AskRequest`` as a dict, by their snake_case names."""
    question: Required[str]
    """The question, in natural language."""
    project_id: NotRequired[Union[UUID, str]]
    """Restrict the answer to this project of your tenant: its own fields and its risks, issues, milestones and
    allocations (404 `not_found` when it names no project of your tenant).
    """


class InvitationCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.InvitationCreate`` as a dict, by their snake_case names."""
    email: Required[str]
    """The invitee's email; compared case-insensitively with existing accounts."""
    role: Required[Union[UserRole, Literal["owner", "admin", "member", "viewer"]]]


class IssueCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.IssueCreate`` as a dict, by their snake_case names."""
    project_id: Required[Union[UUID, str]]
    """A project of your tenant (else 422)."""
    title: Required[str]
    """Short statement of the issue."""
    description: NotRequired[Optional[str]]
    """Free-text description."""
    status: NotRequired[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]]
    priority: NotRequired[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]
    assignee_id: NotRequired[Optional[Union[UUID, str]]]
    """A resource of your tenant working on it."""
    due_date: NotRequired[Optional[Union[date, str]]]
    """Date by which it should be resolved."""


class IssueUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.IssueUpdate`` as a dict, by their snake_case names."""
    title: NotRequired[str]
    """Short statement of the issue."""
    description: NotRequired[Optional[str]]
    """Free-text description; null clears it."""
    status: NotRequired[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]]
    priority: NotRequired[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]
    assignee_id: NotRequired[Optional[Union[UUID, str]]]
    """A resource of your tenant working on it; null unassigns."""
    due_date: NotRequired[Optional[Union[date, str]]]
    """Date by which it should be resolved; null clears it."""


class MemberUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.MemberUpdate`` as a dict, by their snake_case names."""
    role: Required[Union[UserRole, Literal["owner", "admin", "member", "viewer"]]]


class MilestoneCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.MilestoneCreate`` as a dict, by their snake_case names."""
    name: Required[str]
    """Name of the milestone."""
    due_date: Required[Union[date, str]]
    """Date by which it must be completed."""
    description: NotRequired[Optional[str]]
    """Free-text description."""
    status: NotRequired[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]]


class MilestoneUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.MilestoneUpdate`` as a dict, by their snake_case names."""
    name: NotRequired[str]
    """Name of the milestone."""
    description: NotRequired[Optional[str]]
    """Free-text description; null clears it."""
    due_date: NotRequired[Union[date, str]]
    """Date by which it must be completed."""
    status: NotRequired[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]]


class ProjectCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.ProjectCreate`` as a dict, by their snake_case names."""
    name: Required[str]
    """Name of the project."""
    start_date: Required[Union[date, str]]
    """Planned start date."""
    end_date: Required[Union[date, str]]
    """Baseline finish date; must be on or after `startDate` (else 422)."""
    budget: NotRequired[Optional[float]]
    """Baseline budget."""
    project_manager_id: NotRequired[Optional[Union[UUID, str]]]
    """A resource of the tenant who manages the project."""
    description: NotRequired[Optional[str]]
    """Free-text description."""
    status: NotRequired[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]]
    code: NotRequired[Optional[str]]
    """Your external reference; unique within the tenant (else 409 `conflict`)."""
    forecast_end_date: NotRequired[Optional[Union[date, str]]]
    """Forecast finish date."""
    forecast_cost: NotRequired[Optional[float]]
    """Estimate at completion."""
    actual_cost: NotRequired[Optional[float]]
    """Cost incurred to date; omit it (or send null) while no cost is known."""
    progress: NotRequired[Optional[int]]
    """Percent complete; omit it (or send null) while no progress is known."""
    tags: NotRequired[Sequence[str]]
    """Free labels, at most 20."""
    category: NotRequired[Optional[str]]
    """What kind of project it is; a list is written comma-separated (`Bridges, Streets and Roadways`)."""
    borough: NotRequired[Optional[str]]
    """Where the project is; a list is written comma-separated (`Manhattan, Bronx`)."""
    managing_agency: NotRequired[Optional[str]]
    """The organisation that manages the project."""
    client_agency: NotRequired[Optional[str]]
    """The organisation(s) the project is delivered for; a list is written comma-separated."""


class ProjectUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.ProjectUpdate`` as a dict, by their snake_case names."""
    name: NotRequired[str]
    """Name of the project."""
    start_date: NotRequired[Union[date, str]]
    """Planned start date."""
    end_date: NotRequired[Union[date, str]]
    """Baseline finish date."""
    budget: NotRequired[Optional[float]]
    """Baseline budget; null removes it."""
    project_manager_id: NotRequired[Optional[Union[UUID, str]]]
    """A resource of the tenant who manages the project; null removes it."""
    description: NotRequired[Optional[str]]
    """Free-text description; null clears it."""
    status: NotRequired[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]]
    code: NotRequired[Optional[str]]
    """Your external reference; unique within the tenant; null clears it."""
    forecast_end_date: NotRequired[Optional[Union[date, str]]]
    """Forecast finish date; null clears it."""
    forecast_cost: NotRequired[Optional[float]]
    """Estimate at completion; null clears it."""
    actual_cost: NotRequired[Optional[float]]
    """Cost incurred to date; null makes it unknown again."""
    progress: NotRequired[Optional[int]]
    """Percent complete; null makes it unknown again."""
    tags: NotRequired[Sequence[str]]
    """Replaces the whole list of labels."""
    category: NotRequired[Optional[str]]
    """What kind of project it is; a list is written comma-separated; null clears it."""
    borough: NotRequired[Optional[str]]
    """Where the project is; a list is written comma-separated; null clears it."""
    managing_agency: NotRequired[Optional[str]]
    """The organisation that manages the project; null clears it."""
    client_agency: NotRequired[Optional[str]]
    """The organisation(s) the project is delivered for; a list is written comma-separated; null clears it."""


class ResourceCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.ResourceCreate`` as a dict, by their snake_case names."""
    name: Required[str]
    """Full name."""
    email: NotRequired[Optional[str]]
    """Email address."""
    role: NotRequired[Optional[str]]
    """Job role."""
    skills: NotRequired[Sequence[str]]
    """Skills."""
    capacity_hours_per_week: NotRequired[float]
    """Hours the person can work per week."""
    cost_rate_per_hour: NotRequired[Optional[float]]
    """Cost of one hour of work in major units of the tenant's currency."""
    active: NotRequired[bool]
    """Whether the person is active."""


class ResourceUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.ResourceUpdate`` as a dict, by their snake_case names."""
    name: NotRequired[str]
    """Full name."""
    email: NotRequired[Optional[str]]
    """Email address; null clears it."""
    role: NotRequired[Optional[str]]
    """Job role; null clears it."""
    skills: NotRequired[Sequence[str]]
    """Replaces the whole list of skills."""
    capacity_hours_per_week: NotRequired[float]
    """Hours the person can work per week."""
    cost_rate_per_hour: NotRequired[Optional[float]]
    """Cost of one hour of work; null clears it."""
    active: NotRequired[bool]
    """Whether the person is active."""


class RiskCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.RiskCreate`` as a dict, by their snake_case names."""
    title: Required[str]
    """Short statement of the risk."""
    project_id: Required[Union[UUID, str]]
    """A project of your tenant (else 422)."""
    likelihood: Required[int]
    """1 (rare) to 5 (almost certain)."""
    impact: Required[int]
    """1 (negligible) to 5 (severe)."""
    description: NotRequired[Optional[str]]
    """Free-text description."""
    status: NotRequired[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]]
    severity: NotRequired[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]
    owner_id: NotRequired[Optional[Union[UUID, str]]]
    """A resource of your tenant who owns the risk."""
    mitigation: NotRequired[Optional[str]]
    """Planned mitigation."""
    due_date: NotRequired[Optional[Union[date, str]]]
    """Date by which the mitigation is due."""


class RiskUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.RiskUpdate`` as a dict, by their snake_case names."""
    title: NotRequired[str]
    """Short statement of the risk."""
    description: NotRequired[Optional[str]]
    """Free-text description; null clears it."""
    likelihood: NotRequired[int]
    """1 (rare) to 5 (almost certain)."""
    impact: NotRequired[int]
    """1 (negligible) to 5 (severe)."""
    severity: NotRequired[Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]
    """A severity to set manually, or null to return to the severity derived from the score."""
    status: NotRequired[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]]
    owner_id: NotRequired[Optional[Union[UUID, str]]]
    """A resource of your tenant who owns the risk; null clears it."""
    mitigation: NotRequired[Optional[str]]
    """Mitigation; null clears it."""
    due_date: NotRequired[Optional[Union[date, str]]]
    """Date by which the mitigation is due; null clears it."""


class StatusReportCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.StatusReportCreate`` as a dict, by their snake_case names."""
    as_of: Required[Union[date, str]]
    """The date the report describes; not after today in the tenant's time zone (else 422)."""
    status: Required[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]]
    phase: NotRequired[Optional[str]]
    """The project's phase as reported, free text (e.g. `Scoping/Planning`, `Design`, `Construction Procurement`,
    `Construction`, `Close-Out`): phases differ between organisations and kinds of project, so Meridian keeps
    the reporter's word instead of an enum. Null when not reported.
    """
    forecast_end_date: NotRequired[Optional[Union[date, str]]]
    """Forecast finish date as of `asOf`, or null when not reported."""
    forecast_cost: NotRequired[Optional[float]]
    """Estimate at completion as of `asOf`, in the tenant's currency, or null when not reported."""
    actual_cost: NotRequired[Optional[float]]
    """Cost incurred up to `asOf`, or null when not reported."""
    progress: NotRequired[Optional[int]]
    """Percent complete at `asOf`, or null when not reported."""
    summary: NotRequired[Optional[str]]
    """The narrative of the report, or null."""
    budget_change_latest: NotRequired[Optional[float]]
    """Change of the forecast cost since the previous report (positive = more expensive), as reported, or null."""
    budget_change_total: NotRequired[Optional[float]]
    """Change of the forecast cost since the project's first report, as reported, or null."""
    schedule_change_latest_days: NotRequired[Optional[int]]
    """Change of the forecast finish since the previous report, in calendar days (positive = later), as reported,
    or null.
    """
    schedule_change_total_days: NotRequired[Optional[int]]
    """Change of the forecast finish since the project's first report, in calendar days, as reported, or null."""


class TenantSsoUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.TenantSsoUpdate`` as a dict, by their snake_case names."""
    issuer_url: Required[str]
    """The provider's issuer, `https://…` (plain `http` only where the deployment allows it,
    `MERIDIAN_SSO_ALLOW_HTTP=true`).
    """
    client_id: Required[str]
    """Meridian's client id at the provider."""
    client_secret: NotRequired[str]
    """The client secret; stored encrypted, never returned. Required the first time; omit it to keep the stored
    one.
    """
    allowed_domains: Required[Sequence[str]]
    """Email domains whose verified addresses may sign in, e.g. `example.com` (compared case-insensitively)."""
    default_role: Required[Union[SsoRole, Literal["admin", "member", "viewer"]]]
    password_sign_in: NotRequired[bool]
    """Whether members may still sign in with a password (default true)."""


class TenantUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.TenantUpdate`` as a dict, by their snake_case names."""
    name: NotRequired[str]
    """The tenant's name (leading and trailing spaces are removed)."""
    currency: NotRequired[str]
    """ISO 4217 code of every money field, e.g. `EUR` (a code this server's ICU data knows, else 422). Meridian
    stores amounts without conversion: a change relabels every existing amount (budgets, forecast and actual
    costs, webhook payloads sent from then on) in the new currency, it does not convert them. Use it to
    correct the currency, not to convert a portfolio.
    """
    timezone: NotRequired[str]
    """IANA time zone, e.g. `Europe/Paris`: one of the zones this server's ICU data knows
    (`Intl.supportedValuesOf('timeZone')`, plus `UTC`), else 422. Decides from then on when a due date has
    passed.
    """
    settings: NotRequired[Union[TenantUpdateSettings, TenantUpdateSettingsParam]]
    """Settings to change; an empty object changes nothing."""


class TenantUpdateSettingsParam(TypedDict, total=False):
    """The fields of ``meridian.models.TenantUpdateSettings`` as a dict, by their snake_case names."""
    llm_enabled: NotRequired[bool]
    """See `TenantSettings.llmEnabled`."""
    require_two_factor: NotRequired[bool]
    """See `TenantSettings.requireTwoFactor`. Only a user with the role `owner` may change it (else 403)."""


class WebhookEndpointCreateParam(TypedDict, total=False):
    """The fields of ``meridian.models.WebhookEndpointCreate`` as a dict, by their snake_case names."""
    url: Required[str]
    """An https URL (http only where the deployment allows private targets) whose host resolves to public
    addresses only, without credentials (`user:password@`).
    """
    events: Required[Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]]]
    """Event kinds to deliver, or `["*"]` for all."""
    description: NotRequired[Optional[str]]
    """Your note about the endpoint."""
    enabled: NotRequired[bool]
    """Whether to deliver to it."""


class WebhookEndpointUpdateParam(TypedDict, total=False):
    """The fields of ``meridian.models.WebhookEndpointUpdate`` as a dict, by their snake_case names."""
    url: NotRequired[str]
    """An https URL (http only where the deployment allows private targets) whose host resolves to public
    addresses only, without credentials (`user:password@`).
    """
    events: NotRequired[Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]]]
    """Replaces the list of event kinds."""
    description: NotRequired[Optional[str]]
    """Your note; null clears it."""
    enabled: NotRequired[bool]
    """Whether to deliver to it; true re-enables a disabled endpoint."""
