"""The API's resource tree, typed from the spec, for ``Meridian`` and ``AsyncMeridian``.

Generated from spec/openapi.yaml by sdk-python/scripts/generate_operations.py. Do not edit: change the spec and
run `npm run generate`.
"""

# ruff: noqa: E501
from __future__ import annotations

from datetime import date, datetime
from functools import cached_property
from typing import Any, List, Literal, Mapping, Optional, Sequence, Union, overload
from uuid import UUID

from pydantic import Field
from typing_extensions import Annotated

from meridian._base_client import AsyncAPIClient, AsyncAPIResource, SyncAPIClient, SyncAPIResource
from meridian._operation import Operation, Param
from meridian._pagination import AsyncPage, AsyncPaginator, SyncPage
from meridian._response import APIResponse
from meridian._types import NOT_GIVEN, NotGiven, Timeout
from meridian._generated.models.agent import Agent
from meridian._generated.models.agent_depth import AgentDepth
from meridian._generated.models.agent_execution import AgentExecution
from meridian._generated.models.agent_execution_list import AgentExecutionList
from meridian._generated.models.agent_id import AgentId
from meridian._generated.models.agent_list import AgentList
from meridian._generated.models.agent_run_request import AgentRunRequest
from meridian._generated.models.allocation import Allocation
from meridian._generated.models.allocation_conflict import AllocationConflict
from meridian._generated.models.allocation_conflict_list import AllocationConflictList
from meridian._generated.models.allocation_create import AllocationCreate
from meridian._generated.models.allocation_list import AllocationList
from meridian._generated.models.allocation_sort import AllocationSort
from meridian._generated.models.allocation_update import AllocationUpdate
from meridian._generated.models.api_key import ApiKey
from meridian._generated.models.api_key_create import ApiKeyCreate
from meridian._generated.models.api_key_list import ApiKeyList
from meridian._generated.models.api_key_roll import ApiKeyRoll
from meridian._generated.models.api_key_scope import ApiKeyScope
from meridian._generated.models.api_key_with_secret import ApiKeyWithSecret
from meridian._generated.models.ask_answer import AskAnswer
from meridian._generated.models.ask_request import AskRequest
from meridian._generated.models.audit_log_entry import AuditLogEntry
from meridian._generated.models.audit_log_entry_list import AuditLogEntryList
from meridian._generated.models.audit_log_sort import AuditLogSort
from meridian._generated.models.availability_granularity import AvailabilityGranularity
from meridian._generated.models.execution_status import ExecutionStatus
from meridian._generated.models.invitation import Invitation
from meridian._generated.models.invitation_create import InvitationCreate
from meridian._generated.models.invitation_created import InvitationCreated
from meridian._generated.models.invitation_list import InvitationList
from meridian._generated.models.issue import Issue
from meridian._generated.models.issue_create import IssueCreate
from meridian._generated.models.issue_list import IssueList
from meridian._generated.models.issue_priority import IssuePriority
from meridian._generated.models.issue_sort import IssueSort
from meridian._generated.models.issue_status import IssueStatus
from meridian._generated.models.issue_update import IssueUpdate
from meridian._generated.models.me import Me
from meridian._generated.models.member import Member
from meridian._generated.models.member_list import MemberList
from meridian._generated.models.member_update import MemberUpdate
from meridian._generated.models.milestone import Milestone
from meridian._generated.models.milestone_create import MilestoneCreate
from meridian._generated.models.milestone_list import MilestoneList
from meridian._generated.models.milestone_sort import MilestoneSort
from meridian._generated.models.milestone_status import MilestoneStatus
from meridian._generated.models.milestone_update import MilestoneUpdate
from meridian._generated.models.project import Project
from meridian._generated.models.project_create import ProjectCreate
from meridian._generated.models.project_detail import ProjectDetail
from meridian._generated.models.project_list import ProjectList
from meridian._generated.models.project_sort import ProjectSort
from meridian._generated.models.project_status import ProjectStatus
from meridian._generated.models.project_update import ProjectUpdate
from meridian._generated.models.resource import Resource
from meridian._generated.models.resource_availability import ResourceAvailability
from meridian._generated.models.resource_create import ResourceCreate
from meridian._generated.models.resource_list import ResourceList
from meridian._generated.models.resource_sort import ResourceSort
from meridian._generated.models.resource_update import ResourceUpdate
from meridian._generated.models.risk import Risk
from meridian._generated.models.risk_create import RiskCreate
from meridian._generated.models.risk_list import RiskList
from meridian._generated.models.risk_severity import RiskSeverity
from meridian._generated.models.risk_sort import RiskSort
from meridian._generated.models.risk_status import RiskStatus
from meridian._generated.models.risk_update import RiskUpdate
from meridian._generated.models.sso_role import SsoRole
from meridian._generated.models.status_report import StatusReport
from meridian._generated.models.status_report_create import StatusReportCreate
from meridian._generated.models.status_report_list import StatusReportList
from meridian._generated.models.tenant import Tenant
from meridian._generated.models.tenant_sso import TenantSso
from meridian._generated.models.tenant_sso_update import TenantSsoUpdate
from meridian._generated.models.tenant_update import TenantUpdate
from meridian._generated.models.tenant_update_settings import TenantUpdateSettings
from meridian._generated.models.user_role import UserRole
from meridian._generated.models.webhook_delivery import WebhookDelivery
from meridian._generated.models.webhook_delivery_list import WebhookDeliveryList
from meridian._generated.models.webhook_delivery_status import WebhookDeliveryStatus
from meridian._generated.models.webhook_endpoint import WebhookEndpoint
from meridian._generated.models.webhook_endpoint_create import WebhookEndpointCreate
from meridian._generated.models.webhook_endpoint_list import WebhookEndpointList
from meridian._generated.models.webhook_endpoint_update import WebhookEndpointUpdate
from meridian._generated.models.webhook_endpoint_with_secret import WebhookEndpointWithSecret
from meridian._generated.models.webhook_event_type import WebhookEventType
from meridian._generated.models.webhook_secret import WebhookSecret
from meridian._generated.params import AgentRunRequestParam, AllocationCreateParam, AllocationUpdateParam, ApiKeyCreateParam, ApiKeyRollParam, AskRequestParam, InvitationCreateParam, IssueCreateParam, IssueUpdateParam, MemberUpdateParam, MilestoneCreateParam, MilestoneUpdateParam, ProjectCreateParam, ProjectUpdateParam, ResourceCreateParam, ResourceUpdateParam, RiskCreateParam, RiskUpdateParam, StatusReportCreateParam, TenantSsoUpdateParam, TenantUpdateParam, TenantUpdateSettingsParam, WebhookEndpointCreateParam, WebhookEndpointUpdateParam

# One descriptor per operation: what the client validates, where each argument goes, which models.

_LIST_PROJECTS: Operation[ProjectList] = Operation(
    'listProjects',
    'GET',
    '/projects',
    (
        Param('status', 'status', 'query', Optional[List[ProjectStatus]], required=False),
        Param('category', 'category', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('borough', 'borough', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('managing_agency', 'managingAgency', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('client_agency', 'clientAgency', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('q', 'q', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('tag', 'tag', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=50)]], required=False),
        Param('sort', 'sort', 'query', Optional[ProjectSort], required=False),
        Param('id', 'id', 'query', Optional[List[UUID]], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=ProjectList,
)

_CREATE_PROJECT: Operation[Project] = Operation(
    'createProject',
    'POST',
    '/projects',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=ProjectCreate,
    response=Project,
)

_GET_PROJECT: Operation[ProjectDetail] = Operation(
    'getProject',
    'GET',
    '/projects/{id}',
    (
        Param('project_id', 'id', 'path', UUID, required=True),
        Param('if_none_match', 'If-None-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=512)]], required=False),
    ),
    body=None,
    response=ProjectDetail,
)

_UPDATE_PROJECT: Operation[Project] = Operation(
    'updateProject',
    'PATCH',
    '/projects/{id}',
    (
        Param('project_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=ProjectUpdate,
    response=Project,
)

_LIST_PROJECT_STATUS_REPORTS: Operation[StatusReportList] = Operation(
    'listProjectStatusReports',
    'GET',
    '/projects/{id}/status-reports',
    (
        Param('project_id', 'id', 'path', UUID, required=True),
        Param('since', 'since', 'query', Optional[date], required=False),
        Param('until', 'until', 'query', Optional[date], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=StatusReportList,
)

_CREATE_STATUS_REPORT: Operation[StatusReport] = Operation(
    'createStatusReport',
    'POST',
    '/projects/{id}/status-reports',
    (
        Param('project_id', 'id', 'path', UUID, required=True),
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=StatusReportCreate,
    response=StatusReport,
)

_LIST_STATUS_REPORTS: Operation[StatusReportList] = Operation(
    'listStatusReports',
    'GET',
    '/status-reports',
    (
        Param('project_id', 'projectId', 'query', Optional[UUID], required=False),
        Param('since', 'since', 'query', Optional[date], required=False),
        Param('until', 'until', 'query', Optional[date], required=False),
        Param('id', 'id', 'query', Optional[List[UUID]], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=StatusReportList,
)

_GET_STATUS_REPORT: Operation[StatusReport] = Operation(
    'getStatusReport',
    'GET',
    '/status-reports/{id}',
    (
        Param('status_report_id', 'id', 'path', UUID, required=True),
    ),
    body=None,
    response=StatusReport,
)

_LIST_PROJECT_MILESTONES: Operation[MilestoneList] = Operation(
    'listProjectMilestones',
    'GET',
    '/projects/{id}/milestones',
    (
        Param('project_id', 'id', 'path', UUID, required=True),
        Param('status', 'status', 'query', Optional[List[MilestoneStatus]], required=False),
        Param('sort', 'sort', 'query', Optional[MilestoneSort], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=MilestoneList,
)

_CREATE_MILESTONE: Operation[Milestone] = Operation(
    'createMilestone',
    'POST',
    '/projects/{id}/milestones',
    (
        Param('project_id', 'id', 'path', UUID, required=True),
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=MilestoneCreate,
    response=Milestone,
)

_GET_MILESTONE: Operation[Milestone] = Operation(
    'getMilestone',
    'GET',
    '/milestones/{id}',
    (
        Param('milestone_id', 'id', 'path', UUID, required=True),
        Param('if_none_match', 'If-None-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=512)]], required=False),
    ),
    body=None,
    response=Milestone,
)

_DELETE_MILESTONE: Operation[None] = Operation(
    'deleteMilestone',
    'DELETE',
    '/milestones/{id}',
    (
        Param('milestone_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=None,
    response=None,
)

_UPDATE_MILESTONE: Operation[Milestone] = Operation(
    'updateMilestone',
    'PATCH',
    '/milestones/{id}',
    (
        Param('milestone_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=MilestoneUpdate,
    response=Milestone,
)

_LIST_RISKS: Operation[RiskList] = Operation(
    'listRisks',
    'GET',
    '/risks',
    (
        Param('project_id', 'projectId', 'query', Optional[UUID], required=False),
        Param('status', 'status', 'query', Optional[List[RiskStatus]], required=False),
        Param('severity', 'severity', 'query', Optional[List[RiskSeverity]], required=False),
        Param('sort', 'sort', 'query', Optional[RiskSort], required=False),
        Param('id', 'id', 'query', Optional[List[UUID]], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=RiskList,
)

_CREATE_RISK: Operation[Risk] = Operation(
    'createRisk',
    'POST',
    '/risks',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=RiskCreate,
    response=Risk,
)

_GET_RISK: Operation[Risk] = Operation(
    'getRisk',
    'GET',
    '/risks/{id}',
    (
        Param('risk_id', 'id', 'path', UUID, required=True),
        Param('if_none_match', 'If-None-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=512)]], required=False),
    ),
    body=None,
    response=Risk,
)

_UPDATE_RISK: Operation[Risk] = Operation(
    'updateRisk',
    'PATCH',
    '/risks/{id}',
    (
        Param('risk_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=RiskUpdate,
    response=Risk,
)

_LIST_ISSUES: Operation[IssueList] = Operation(
    'listIssues',
    'GET',
    '/issues',
    (
        Param('project_id', 'projectId', 'query', Optional[UUID], required=False),
        Param('status', 'status', 'query', Optional[List[IssueStatus]], required=False),
        Param('priority', 'priority', 'query', Optional[List[IssuePriority]], required=False),
        Param('assignee_id', 'assigneeId', 'query', Optional[UUID], required=False),
        Param('sort', 'sort', 'query', Optional[IssueSort], required=False),
        Param('id', 'id', 'query', Optional[List[UUID]], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=IssueList,
)

_CREATE_ISSUE: Operation[Issue] = Operation(
    'createIssue',
    'POST',
    '/issues',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=IssueCreate,
    response=Issue,
)

_GET_ISSUE: Operation[Issue] = Operation(
    'getIssue',
    'GET',
    '/issues/{id}',
    (
        Param('issue_id', 'id', 'path', UUID, required=True),
        Param('if_none_match', 'If-None-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=512)]], required=False),
    ),
    body=None,
    response=Issue,
)

_UPDATE_ISSUE: Operation[Issue] = Operation(
    'updateIssue',
    'PATCH',
    '/issues/{id}',
    (
        Param('issue_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=IssueUpdate,
    response=Issue,
)

_LIST_RESOURCES: Operation[ResourceList] = Operation(
    'listResources',
    'GET',
    '/resources',
    (
        Param('role', 'role', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=100)]], required=False),
        Param('skill', 'skill', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=50)]], required=False),
        Param('active', 'active', 'query', Optional[Annotated[bool, Field(strict=True)]], required=False),
        Param('sort', 'sort', 'query', Optional[ResourceSort], required=False),
        Param('id', 'id', 'query', Optional[List[UUID]], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=ResourceList,
)

_CREATE_RESOURCE: Operation[Resource] = Operation(
    'createResource',
    'POST',
    '/resources',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=ResourceCreate,
    response=Resource,
)

_GET_RESOURCE: Operation[Resource] = Operation(
    'getResource',
    'GET',
    '/resources/{id}',
    (
        Param('resource_id', 'id', 'path', UUID, required=True),
        Param('if_none_match', 'If-None-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=512)]], required=False),
    ),
    body=None,
    response=Resource,
)

_UPDATE_RESOURCE: Operation[Resource] = Operation(
    'updateResource',
    'PATCH',
    '/resources/{id}',
    (
        Param('resource_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=ResourceUpdate,
    response=Resource,
)

_GET_RESOURCE_AVAILABILITY: Operation[ResourceAvailability] = Operation(
    'getResourceAvailability',
    'GET',
    '/resources/{id}/availability',
    (
        Param('resource_id', 'id', 'path', UUID, required=True),
        Param('from_', 'from', 'query', date, required=True),
        Param('to', 'to', 'query', date, required=True),
        Param('granularity', 'granularity', 'query', Optional[AvailabilityGranularity], required=False),
    ),
    body=None,
    response=ResourceAvailability,
)

_LIST_ALLOCATIONS: Operation[AllocationList] = Operation(
    'listAllocations',
    'GET',
    '/allocations',
    (
        Param('resource_id', 'resourceId', 'query', Optional[UUID], required=False),
        Param('project_id', 'projectId', 'query', Optional[UUID], required=False),
        Param('from_', 'from', 'query', Optional[date], required=False),
        Param('to', 'to', 'query', Optional[date], required=False),
        Param('sort', 'sort', 'query', Optional[AllocationSort], required=False),
        Param('id', 'id', 'query', Optional[List[UUID]], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=AllocationList,
)

_CREATE_ALLOCATION: Operation[Allocation] = Operation(
    'createAllocation',
    'POST',
    '/allocations',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=AllocationCreate,
    response=Allocation,
)

_LIST_ALLOCATION_CONFLICTS: Operation[AllocationConflictList] = Operation(
    'listAllocationConflicts',
    'GET',
    '/allocations/conflicts',
    (
        Param('from_', 'from', 'query', Optional[date], required=False),
        Param('to', 'to', 'query', Optional[date], required=False),
        Param('resource_id', 'resourceId', 'query', Optional[UUID], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=AllocationConflictList,
)

_GET_ALLOCATION: Operation[Allocation] = Operation(
    'getAllocation',
    'GET',
    '/allocations/{id}',
    (
        Param('allocation_id', 'id', 'path', UUID, required=True),
        Param('if_none_match', 'If-None-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=512)]], required=False),
    ),
    body=None,
    response=Allocation,
)

_DELETE_ALLOCATION: Operation[None] = Operation(
    'deleteAllocation',
    'DELETE',
    '/allocations/{id}',
    (
        Param('allocation_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=None,
    response=None,
)

_UPDATE_ALLOCATION: Operation[Allocation] = Operation(
    'updateAllocation',
    'PATCH',
    '/allocations/{id}',
    (
        Param('allocation_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=AllocationUpdate,
    response=Allocation,
)

_LIST_AGENTS: Operation[AgentList] = Operation(
    'listAgents',
    'GET',
    '/agents',
    (
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=AgentList,
)

_RUN_AGENT: Operation[AgentExecution] = Operation(
    'runAgent',
    'POST',
    '/agents/run',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=AgentRunRequest,
    response=AgentExecution,
)

_LIST_AGENT_EXECUTIONS: Operation[AgentExecutionList] = Operation(
    'listAgentExecutions',
    'GET',
    '/agents/executions',
    (
        Param('agent_id', 'agentId', 'query', Optional[AgentId], required=False),
        Param('status', 'status', 'query', Optional[List[ExecutionStatus]], required=False),
        Param('sort', 'sort', 'query', Optional[Literal["createdAt", "-createdAt"]], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=AgentExecutionList,
)

_GET_AGENT_EXECUTION: Operation[AgentExecution] = Operation(
    'getAgentExecution',
    'GET',
    '/agents/executions/{executionId}',
    (
        Param('execution_id', 'executionId', 'path', UUID, required=True),
    ),
    body=None,
    response=AgentExecution,
)

_ASK_AGENT: Operation[AskAnswer] = Operation(
    'askAgent',
    'POST',
    '/agents/ask',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=AskRequest,
    response=AskAnswer,
)

_LIST_WEBHOOKS: Operation[WebhookEndpointList] = Operation(
    'listWebhooks',
    'GET',
    '/webhooks',
    (
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=WebhookEndpointList,
)

_CREATE_WEBHOOK: Operation[WebhookEndpointWithSecret] = Operation(
    'createWebhook',
    'POST',
    '/webhooks',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=WebhookEndpointCreate,
    response=WebhookEndpointWithSecret,
)

_GET_WEBHOOK: Operation[WebhookEndpoint] = Operation(
    'getWebhook',
    'GET',
    '/webhooks/{id}',
    (
        Param('webhook_id', 'id', 'path', UUID, required=True),
        Param('if_none_match', 'If-None-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=512)]], required=False),
    ),
    body=None,
    response=WebhookEndpoint,
)

_DELETE_WEBHOOK: Operation[None] = Operation(
    'deleteWebhook',
    'DELETE',
    '/webhooks/{id}',
    (
        Param('webhook_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=None,
    response=None,
)

_UPDATE_WEBHOOK: Operation[WebhookEndpoint] = Operation(
    'updateWebhook',
    'PATCH',
    '/webhooks/{id}',
    (
        Param('webhook_id', 'id', 'path', UUID, required=True),
        Param('if_match', 'If-Match', 'header', Optional[Annotated[str, Field(strict=True, min_length=1)]], required=False),
    ),
    body=WebhookEndpointUpdate,
    response=WebhookEndpoint,
)

_ROTATE_WEBHOOK_SECRET: Operation[WebhookEndpointWithSecret] = Operation(
    'rotateWebhookSecret',
    'POST',
    '/webhooks/{id}/rotate-secret',
    (
        Param('webhook_id', 'id', 'path', UUID, required=True),
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=None,
    response=WebhookEndpointWithSecret,
)

_REVEAL_WEBHOOK_SECRET: Operation[WebhookSecret] = Operation(
    'revealWebhookSecret',
    'GET',
    '/webhooks/{id}/secret',
    (
        Param('webhook_id', 'id', 'path', UUID, required=True),
    ),
    body=None,
    response=WebhookSecret,
)

_LIST_WEBHOOK_DELIVERIES: Operation[WebhookDeliveryList] = Operation(
    'listWebhookDeliveries',
    'GET',
    '/webhooks/{id}/deliveries',
    (
        Param('webhook_id', 'id', 'path', UUID, required=True),
        Param('status', 'status', 'query', Optional[List[WebhookDeliveryStatus]], required=False),
        Param('event', 'event', 'query', Optional[List[WebhookEventType]], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=WebhookDeliveryList,
)

_TEST_WEBHOOK: Operation[WebhookDelivery] = Operation(
    'testWebhook',
    'POST',
    '/webhooks/{id}/test',
    (
        Param('webhook_id', 'id', 'path', UUID, required=True),
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=None,
    response=WebhookDelivery,
)

_RESEND_WEBHOOK_DELIVERY: Operation[WebhookDelivery] = Operation(
    'resendWebhookDelivery',
    'POST',
    '/webhooks/{id}/deliveries/{deliveryId}/resend',
    (
        Param('webhook_id', 'id', 'path', UUID, required=True),
        Param('delivery_id', 'deliveryId', 'path', UUID, required=True),
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=None,
    response=WebhookDelivery,
)

_GET_ME: Operation[Me] = Operation(
    'getMe',
    'GET',
    '/me',
    (),
    body=None,
    response=Me,
)

_GET_TENANT: Operation[Tenant] = Operation(
    'getTenant',
    'GET',
    '/tenant',
    (),
    body=None,
    response=Tenant,
)

_UPDATE_TENANT: Operation[Tenant] = Operation(
    'updateTenant',
    'PATCH',
    '/tenant',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=TenantUpdate,
    response=Tenant,
)

_LIST_API_KEYS: Operation[ApiKeyList] = Operation(
    'listApiKeys',
    'GET',
    '/api-keys',
    (
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=ApiKeyList,
)

_CREATE_API_KEY: Operation[ApiKeyWithSecret] = Operation(
    'createApiKey',
    'POST',
    '/api-keys',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=ApiKeyCreate,
    response=ApiKeyWithSecret,
)

_REVOKE_API_KEY: Operation[None] = Operation(
    'revokeApiKey',
    'DELETE',
    '/api-keys/{id}',
    (
        Param('api_key_id', 'id', 'path', UUID, required=True),
    ),
    body=None,
    response=None,
)

_ROLL_API_KEY: Operation[ApiKeyWithSecret] = Operation(
    'rollApiKey',
    'POST',
    '/api-keys/{id}/roll',
    (
        Param('api_key_id', 'id', 'path', UUID, required=True),
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=ApiKeyRoll,
    response=ApiKeyWithSecret,
)

_LIST_AUDIT_LOGS: Operation[AuditLogEntryList] = Operation(
    'listAuditLogs',
    'GET',
    '/audit-logs',
    (
        Param('action', 'action', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=100)]], required=False),
        Param('resource_type', 'resourceType', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=50)]], required=False),
        Param('resource_id', 'resourceId', 'query', Optional[UUID], required=False),
        Param('actor_id', 'actorId', 'query', Optional[UUID], required=False),
        Param('since', 'since', 'query', Optional[datetime], required=False),
        Param('until', 'until', 'query', Optional[datetime], required=False),
        Param('sort', 'sort', 'query', Optional[AuditLogSort], required=False),
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=AuditLogEntryList,
)

_GET_TENANT_SSO: Operation[TenantSso] = Operation(
    'getTenantSso',
    'GET',
    '/tenant/sso',
    (),
    body=None,
    response=TenantSso,
)

_UPDATE_TENANT_SSO: Operation[TenantSso] = Operation(
    'updateTenantSso',
    'PUT',
    '/tenant/sso',
    (),
    body=TenantSsoUpdate,
    response=TenantSso,
)

_DELETE_TENANT_SSO: Operation[None] = Operation(
    'deleteTenantSso',
    'DELETE',
    '/tenant/sso',
    (),
    body=None,
    response=None,
)

_LIST_MEMBERS: Operation[MemberList] = Operation(
    'listMembers',
    'GET',
    '/members',
    (
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=MemberList,
)

_GET_MEMBER: Operation[Member] = Operation(
    'getMember',
    'GET',
    '/members/{id}',
    (
        Param('member_id', 'id', 'path', UUID, required=True),
    ),
    body=None,
    response=Member,
)

_REMOVE_MEMBER: Operation[None] = Operation(
    'removeMember',
    'DELETE',
    '/members/{id}',
    (
        Param('member_id', 'id', 'path', UUID, required=True),
    ),
    body=None,
    response=None,
)

_UPDATE_MEMBER: Operation[Member] = Operation(
    'updateMember',
    'PATCH',
    '/members/{id}',
    (
        Param('member_id', 'id', 'path', UUID, required=True),
    ),
    body=MemberUpdate,
    response=Member,
)

_LIST_INVITATIONS: Operation[InvitationList] = Operation(
    'listInvitations',
    'GET',
    '/invitations',
    (
        Param('limit', 'limit', 'query', Optional[Annotated[int, Field(strict=True, ge=1, le=100)]], required=False),
        Param('offset', 'offset', 'query', Optional[Annotated[int, Field(strict=True, ge=0, le=2147483647)]], required=False),
    ),
    body=None,
    response=InvitationList,
)

_CREATE_INVITATION: Operation[InvitationCreated] = Operation(
    'createInvitation',
    'POST',
    '/invitations',
    (
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=InvitationCreate,
    response=InvitationCreated,
)

_REVOKE_INVITATION: Operation[None] = Operation(
    'revokeInvitation',
    'DELETE',
    '/invitations/{id}',
    (
        Param('invitation_id', 'id', 'path', UUID, required=True),
    ),
    body=None,
    response=None,
)


class ProjectsStatusReportsResourceWithRawResponse(SyncAPIResource):
    """``client.projects.status_reports.with_raw_response``: ``list``, ``create``."""

    def list(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[StatusReport]]:
        """As ``client.projects.status_reports.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_PROJECT_STATUS_REPORTS, StatusReport, (project_id,), {"since": since, "until": until, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        project_id: Union[UUID, str],
        body: Union[StatusReportCreate, StatusReportCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]: ...

    @overload
    def create(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        as_of: Union[date, str],
        status: Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]],
        phase: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        summary: Union[Optional[str], NotGiven] = NOT_GIVEN,
        budget_change_latest: Union[Optional[float], NotGiven] = NOT_GIVEN,
        budget_change_total: Union[Optional[float], NotGiven] = NOT_GIVEN,
        schedule_change_latest_days: Union[Optional[int], NotGiven] = NOT_GIVEN,
        schedule_change_total_days: Union[Optional[int], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]: ...

    def create(
        self,
        project_id: Union[UUID, str],
        body: Union[StatusReportCreate, StatusReportCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[StatusReport]:
        """As ``client.projects.status_reports.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_STATUS_REPORT, (project_id,), body, kwargs)


class ProjectsStatusReportsResource(SyncAPIResource):
    """``client.projects.status_reports``: ``list``, ``create``.

    How a project stood on a date: status, phase, forecasts, actual cost, progress and a summary. Submitting the
    newest report moves the project; the reports are its history (GET newest first).
    """

    @cached_property
    def with_raw_response(self) -> ProjectsStatusReportsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return ProjectsStatusReportsResourceWithRawResponse(self._client)

    def list(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[StatusReport]:
        """List a project's status reports

        Returns the project's status reports, **newest first**: by `asOf` descending, then `createdAt` descending,
        then `id`, in pages of `limit` (default 25, max 100). `since` and `until` restrict `asOf` to a date range
        (inclusive). This is the project's history: how its status, forecasts, cost and progress stood on each date.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}/status-reports`` (operationId ``listProjectStatusReports``, scope ``read``).

        :param project_id: The record's id (UUID).
        :param since: Only reports with `asOf` on or after this date.
        :param until: Only reports with `asOf` on or before this date.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``StatusReport`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_PROJECT_STATUS_REPORTS, StatusReport, (project_id,), {"since": since, "until": until, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        project_id: Union[UUID, str],
        body: Union[StatusReportCreate, StatusReportCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReport: ...

    @overload
    def create(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        as_of: Union[date, str],
        status: Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]],
        phase: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        summary: Union[Optional[str], NotGiven] = NOT_GIVEN,
        budget_change_latest: Union[Optional[float], NotGiven] = NOT_GIVEN,
        budget_change_total: Union[Optional[float], NotGiven] = NOT_GIVEN,
        schedule_change_latest_days: Union[Optional[int], NotGiven] = NOT_GIVEN,
        schedule_change_total_days: Union[Optional[int], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReport: ...

    def create(
        self,
        project_id: Union[UUID, str],
        body: Union[StatusReportCreate, StatusReportCreateParam, None] = None,
        **kwargs: Any,
    ) -> StatusReport:
        """Submit a status report

        Records how the project stands on `asOf`: its status, phase, forecast finish and cost, actual cost, progress
        and a summary. `asOf` and `status` are required; every other field is optional and null means "not
        reported", never 0.

        Submitting a report is how a project's current state moves. In one transaction the report is stored and,
        when its `asOf` is not older than the project's newest report, its values are applied to the project as a
        `PATCH` would apply them: `status`, and each of `forecastEndDate`, `forecastCost`, `actualCost` and
        `progress` that the report gives (a null leaves the project's value as it is). The change is in the audit log
        and emits the same events a `PATCH` does (`project.status_changed`, `budget.overrun_detected`). A report
        older than the newest one is kept as history only (`applied: false`) and changes nothing else.

        The report stores the project's baseline (`endDate`, `budget`) as it stood at `asOf` (the baseline of the
        nearest earlier report, else the project's current one), and answers `scheduleSlipDays` and `costVariance`
        against it.

        Errors: 404 `not_found` when the project does not exist in your tenant; 409 `invalid_transition` when the
        report would move the project out of COMPLETED or CANCELLED other than by a reopen (see `ProjectStatus`;
        nothing is stored); 422 `validation_failed` when `asOf` is after today in the tenant's time zone.

        Requires scope `write`.

        ``POST /projects/{id}/status-reports`` (operationId ``createStatusReport``, scope ``write``).

        :param project_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.StatusReportCreate`` or a dict of its fields
            (``StatusReportCreateParam``), or its fields as the keyword arguments below.
        :param as_of: The date the report describes; not after today in the tenant's time zone (else 422).
        :param status: Status of a project. New projects are `PLANNED` unless given another status. Any move between
            the open statuses (PLANNED, ON_TRACK, AT_RISK, OFF_TRACK, ON_HOLD) and into COMPLETED or CANCELLED is
            allowed. COMPLETED and CANCELLED are terminal except for an explicit reopen — COMPLETED → ON_TRACK,
            CANCELLED → PLANNED; any other move out of them answers 409 `invalid_transition`. Every change emits
            `project.status_changed`.
        :param phase: The project's phase as reported, free text (e.g. `Scoping/Planning`, `Design`, `Construction
            Procurement`, `Construction`, `Close-Out`): phases differ between organisations and kinds of project, so
            Meridian keeps the reporter's word instead of an enum. Null when not reported.
        :param forecast_end_date: Forecast finish date as of `asOf`, or null when not reported.
        :param forecast_cost: Estimate at completion as of `asOf`, in the tenant's currency, or null when not
            reported.
        :param actual_cost: Cost incurred up to `asOf`, or null when not reported.
        :param progress: Percent complete at `asOf`, or null when not reported.
        :param summary: The narrative of the report, or null.
        :param budget_change_latest: Change of the forecast cost since the previous report (positive = more
            expensive), as reported, or null.
        :param budget_change_total: Change of the forecast cost since the project's first report, as reported, or
            null.
        :param schedule_change_latest_days: Change of the forecast finish since the previous report, in calendar days
            (positive = later), as reported, or null.
        :param schedule_change_total_days: Change of the forecast finish since the project's first report, in calendar
            days, as reported, or null.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReport``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_STATUS_REPORT, (project_id,), body, kwargs).data


class AsyncProjectsStatusReportsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().projects.status_reports.with_raw_response``: ``list``, ``create``."""

    async def list(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[StatusReport]]:
        """As ``AsyncMeridian().projects.status_reports.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_PROJECT_STATUS_REPORTS, StatusReport, (project_id,), {"since": since, "until": until, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        project_id: Union[UUID, str],
        body: Union[StatusReportCreate, StatusReportCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]: ...

    @overload
    async def create(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        as_of: Union[date, str],
        status: Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]],
        phase: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        summary: Union[Optional[str], NotGiven] = NOT_GIVEN,
        budget_change_latest: Union[Optional[float], NotGiven] = NOT_GIVEN,
        budget_change_total: Union[Optional[float], NotGiven] = NOT_GIVEN,
        schedule_change_latest_days: Union[Optional[int], NotGiven] = NOT_GIVEN,
        schedule_change_total_days: Union[Optional[int], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]: ...

    async def create(
        self,
        project_id: Union[UUID, str],
        body: Union[StatusReportCreate, StatusReportCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[StatusReport]:
        """As ``AsyncMeridian().projects.status_reports.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_STATUS_REPORT, (project_id,), body, kwargs)


class AsyncProjectsStatusReportsResource(AsyncAPIResource):
    """``AsyncMeridian().projects.status_reports``: ``list``, ``create``.

    How a project stood on a date: status, phase, forecasts, actual cost, progress and a summary. Submitting the
    newest report moves the project; the reports are its history (GET newest first).
    """

    @cached_property
    def with_raw_response(self) -> AsyncProjectsStatusReportsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncProjectsStatusReportsResourceWithRawResponse(self._client)

    def list(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[StatusReport]:
        """List a project's status reports

        Returns the project's status reports, **newest first**: by `asOf` descending, then `createdAt` descending,
        then `id`, in pages of `limit` (default 25, max 100). `since` and `until` restrict `asOf` to a date range
        (inclusive). This is the project's history: how its status, forecasts, cost and progress stood on each date.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}/status-reports`` (operationId ``listProjectStatusReports``, scope ``read``).

        :param project_id: The record's id (UUID).
        :param since: Only reports with `asOf` on or after this date.
        :param until: Only reports with `asOf` on or before this date.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``StatusReport`` records; iterating it (``async for``) fetches every following
            page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_PROJECT_STATUS_REPORTS, StatusReport, (project_id,), {"since": since, "until": until, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        project_id: Union[UUID, str],
        body: Union[StatusReportCreate, StatusReportCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReport: ...

    @overload
    async def create(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        as_of: Union[date, str],
        status: Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]],
        phase: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        summary: Union[Optional[str], NotGiven] = NOT_GIVEN,
        budget_change_latest: Union[Optional[float], NotGiven] = NOT_GIVEN,
        budget_change_total: Union[Optional[float], NotGiven] = NOT_GIVEN,
        schedule_change_latest_days: Union[Optional[int], NotGiven] = NOT_GIVEN,
        schedule_change_total_days: Union[Optional[int], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReport: ...

    async def create(
        self,
        project_id: Union[UUID, str],
        body: Union[StatusReportCreate, StatusReportCreateParam, None] = None,
        **kwargs: Any,
    ) -> StatusReport:
        """Submit a status report

        Records how the project stands on `asOf`: its status, phase, forecast finish and cost, actual cost, progress
        and a summary. `asOf` and `status` are required; every other field is optional and null means "not
        reported", never 0.

        Submitting a report is how a project's current state moves. In one transaction the report is stored and,
        when its `asOf` is not older than the project's newest report, its values are applied to the project as a
        `PATCH` would apply them: `status`, and each of `forecastEndDate`, `forecastCost`, `actualCost` and
        `progress` that the report gives (a null leaves the project's value as it is). The change is in the audit log
        and emits the same events a `PATCH` does (`project.status_changed`, `budget.overrun_detected`). A report
        older than the newest one is kept as history only (`applied: false`) and changes nothing else.

        The report stores the project's baseline (`endDate`, `budget`) as it stood at `asOf` (the baseline of the
        nearest earlier report, else the project's current one), and answers `scheduleSlipDays` and `costVariance`
        against it.

        Errors: 404 `not_found` when the project does not exist in your tenant; 409 `invalid_transition` when the
        report would move the project out of COMPLETED or CANCELLED other than by a reopen (see `ProjectStatus`;
        nothing is stored); 422 `validation_failed` when `asOf` is after today in the tenant's time zone.

        Requires scope `write`.

        ``POST /projects/{id}/status-reports`` (operationId ``createStatusReport``, scope ``write``).

        :param project_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.StatusReportCreate`` or a dict of its fields
            (``StatusReportCreateParam``), or its fields as the keyword arguments below.
        :param as_of: The date the report describes; not after today in the tenant's time zone (else 422).
        :param status: Status of a project. New projects are `PLANNED` unless given another status. Any move between
            the open statuses (PLANNED, ON_TRACK, AT_RISK, OFF_TRACK, ON_HOLD) and into COMPLETED or CANCELLED is
            allowed. COMPLETED and CANCELLED are terminal except for an explicit reopen — COMPLETED → ON_TRACK,
            CANCELLED → PLANNED; any other move out of them answers 409 `invalid_transition`. Every change emits
            `project.status_changed`.
        :param phase: The project's phase as reported, free text (e.g. `Scoping/Planning`, `Design`, `Construction
            Procurement`, `Construction`, `Close-Out`): phases differ between organisations and kinds of project, so
            Meridian keeps the reporter's word instead of an enum. Null when not reported.
        :param forecast_end_date: Forecast finish date as of `asOf`, or null when not reported.
        :param forecast_cost: Estimate at completion as of `asOf`, in the tenant's currency, or null when not
            reported.
        :param actual_cost: Cost incurred up to `asOf`, or null when not reported.
        :param progress: Percent complete at `asOf`, or null when not reported.
        :param summary: The narrative of the report, or null.
        :param budget_change_latest: Change of the forecast cost since the previous report (positive = more
            expensive), as reported, or null.
        :param budget_change_total: Change of the forecast cost since the project's first report, as reported, or
            null.
        :param schedule_change_latest_days: Change of the forecast finish since the previous report, in calendar days
            (positive = later), as reported, or null.
        :param schedule_change_total_days: Change of the forecast finish since the project's first report, in calendar
            days, as reported, or null.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReport``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_STATUS_REPORT, (project_id,), body, kwargs)).data


class ProjectsMilestonesResourceWithRawResponse(SyncAPIResource):
    """``client.projects.milestones.with_raw_response``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``."""

    def list(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        status: Optional[Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], Sequence[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]]]] = None,
        sort: Optional[Union[MilestoneSort, Literal["createdAt", "-createdAt", "dueDate", "-dueDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Milestone]]:
        """As ``client.projects.milestones.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_PROJECT_MILESTONES, Milestone, (project_id,), {"status": status, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        project_id: Union[UUID, str],
        body: Union[MilestoneCreate, MilestoneCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]: ...

    @overload
    def create(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        name: str,
        due_date: Union[date, str],
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]: ...

    def create(
        self,
        project_id: Union[UUID, str],
        body: Union[MilestoneCreate, MilestoneCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Milestone]:
        """As ``client.projects.milestones.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_MILESTONE, (project_id,), body, kwargs)

    def retrieve(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]:
        """As ``client.projects.milestones.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_MILESTONE, (milestone_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def delete(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``client.projects.milestones.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_DELETE_MILESTONE, (milestone_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        milestone_id: Union[UUID, str],
        body: Union[MilestoneUpdate, MilestoneUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]: ...

    @overload
    def update(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        status: Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]: ...

    def update(
        self,
        milestone_id: Union[UUID, str],
        body: Union[MilestoneUpdate, MilestoneUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Milestone]:
        """As ``client.projects.milestones.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_MILESTONE, (milestone_id,), body, kwargs)


class ProjectsMilestonesResource(SyncAPIResource):
    """``client.projects.milestones``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``.

    Dated checkpoints of a project. A milestone still open when its due date passes becomes MISSED and emits
    `milestone.missed`.
    """

    @cached_property
    def with_raw_response(self) -> ProjectsMilestonesResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return ProjectsMilestonesResourceWithRawResponse(self._client)

    def list(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        status: Optional[Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], Sequence[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]]]] = None,
        sort: Optional[Union[MilestoneSort, Literal["createdAt", "-createdAt", "dueDate", "-dueDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Milestone]:
        """List a project's milestones

        Returns the milestones of the project, ordered by `sort`: `createdAt` ascending by default, `dueDate` for the
        earliest due first, `-dueDate` for the latest; ties are broken by `id` in the same direction. When `status` is
        given the list is restricted to milestones with that status.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}/milestones`` (operationId ``listProjectMilestones``, scope ``read``).

        :param project_id: The record's id (UUID).
        :param status: Only milestones whose status is one of these statuses. Repeat the parameter for more than one
            value (`status=PENDING&status=MISSED`); a comma-separated value is not split and is refused. Values of one
            filter combine with OR, filters with AND.
        :param sort: Order of the list: `createdAt` or `dueDate`, with a leading `-` for descending. Default
            `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Milestone`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_PROJECT_MILESTONES, Milestone, (project_id,), {"status": status, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        project_id: Union[UUID, str],
        body: Union[MilestoneCreate, MilestoneCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone: ...

    @overload
    def create(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        name: str,
        due_date: Union[date, str],
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone: ...

    def create(
        self,
        project_id: Union[UUID, str],
        body: Union[MilestoneCreate, MilestoneCreateParam, None] = None,
        **kwargs: Any,
    ) -> Milestone:
        """Create a milestone

        Adds a milestone to the project. `name` and `dueDate` are required; `status` defaults to `PENDING`.
        Creating it as `COMPLETED` sets `completedAt` to now.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `write`.

        ``POST /projects/{id}/milestones`` (operationId ``createMilestone``, scope ``write``).

        :param project_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.MilestoneCreate`` or a dict of its fields
            (``MilestoneCreateParam``), or its fields as the keyword arguments below.
        :param name: Name of the milestone.
        :param due_date: Date by which it must be completed.
        :param description: Free-text description.
        :param status: PENDING until done; COMPLETED when marked done (sets `completedAt`); MISSED when the due date
            passed while not COMPLETED (emits `milestone.missed` once). A MISSED milestone can still be completed.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_MILESTONE, (project_id,), body, kwargs).data

    def retrieve(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone:
        """Get a milestone

        Returns one milestone.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /milestones/{id}`` (operationId ``getMilestone``, scope ``read``).

        :param milestone_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_MILESTONE, (milestone_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    def delete(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Delete a milestone

        Deletes the milestone permanently.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``DELETE /milestones/{id}`` (operationId ``deleteMilestone``, scope ``write``).

        :param milestone_id: The record's id (UUID).
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        self._client.call(_DELETE_MILESTONE, (milestone_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        milestone_id: Union[UUID, str],
        body: Union[MilestoneUpdate, MilestoneUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone: ...

    @overload
    def update(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        status: Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone: ...

    def update(
        self,
        milestone_id: Union[UUID, str],
        body: Union[MilestoneUpdate, MilestoneUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Milestone:
        """Update a milestone

        Changes only the fields present in the body. Setting `status` to `COMPLETED` records `completedAt`; moving
        it away from `COMPLETED` clears it. Moving `dueDate` into the future does not revive a milestone already
        reported as missed unless you also set `status` back to `PENDING`.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``PATCH /milestones/{id}`` (operationId ``updateMilestone``, scope ``write``).

        :param milestone_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.MilestoneUpdate`` or a dict of its fields
            (``MilestoneUpdateParam``), or its fields as the keyword arguments below.
        :param name: Name of the milestone.
        :param description: Free-text description; null clears it.
        :param due_date: Date by which it must be completed.
        :param status: PENDING until done; COMPLETED when marked done (sets `completedAt`); MISSED when the due date
            passed while not COMPLETED (emits `milestone.missed` once). A MISSED milestone can still be completed.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_MILESTONE, (milestone_id,), body, kwargs).data


class AsyncProjectsMilestonesResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().projects.milestones.with_raw_response``: ``list``, ``create``, ``retrieve``, ``delete``,
    ``update``.
    """

    async def list(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        status: Optional[Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], Sequence[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]]]] = None,
        sort: Optional[Union[MilestoneSort, Literal["createdAt", "-createdAt", "dueDate", "-dueDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Milestone]]:
        """As ``AsyncMeridian().projects.milestones.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_PROJECT_MILESTONES, Milestone, (project_id,), {"status": status, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        project_id: Union[UUID, str],
        body: Union[MilestoneCreate, MilestoneCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]: ...

    @overload
    async def create(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        name: str,
        due_date: Union[date, str],
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]: ...

    async def create(
        self,
        project_id: Union[UUID, str],
        body: Union[MilestoneCreate, MilestoneCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Milestone]:
        """As ``AsyncMeridian().projects.milestones.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_MILESTONE, (project_id,), body, kwargs)

    async def retrieve(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]:
        """As ``AsyncMeridian().projects.milestones.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_MILESTONE, (milestone_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def delete(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``AsyncMeridian().projects.milestones.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_DELETE_MILESTONE, (milestone_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        milestone_id: Union[UUID, str],
        body: Union[MilestoneUpdate, MilestoneUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]: ...

    @overload
    async def update(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        status: Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]: ...

    async def update(
        self,
        milestone_id: Union[UUID, str],
        body: Union[MilestoneUpdate, MilestoneUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Milestone]:
        """As ``AsyncMeridian().projects.milestones.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_MILESTONE, (milestone_id,), body, kwargs)


class AsyncProjectsMilestonesResource(AsyncAPIResource):
    """``AsyncMeridian().projects.milestones``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``.

    Dated checkpoints of a project. A milestone still open when its due date passes becomes MISSED and emits
    `milestone.missed`.
    """

    @cached_property
    def with_raw_response(self) -> AsyncProjectsMilestonesResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncProjectsMilestonesResourceWithRawResponse(self._client)

    def list(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        status: Optional[Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], Sequence[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]]]] = None,
        sort: Optional[Union[MilestoneSort, Literal["createdAt", "-createdAt", "dueDate", "-dueDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Milestone]:
        """List a project's milestones

        Returns the milestones of the project, ordered by `sort`: `createdAt` ascending by default, `dueDate` for the
        earliest due first, `-dueDate` for the latest; ties are broken by `id` in the same direction. When `status` is
        given the list is restricted to milestones with that status.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}/milestones`` (operationId ``listProjectMilestones``, scope ``read``).

        :param project_id: The record's id (UUID).
        :param status: Only milestones whose status is one of these statuses. Repeat the parameter for more than one
            value (`status=PENDING&status=MISSED`); a comma-separated value is not split and is refused. Values of one
            filter combine with OR, filters with AND.
        :param sort: Order of the list: `createdAt` or `dueDate`, with a leading `-` for descending. Default
            `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Milestone`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_PROJECT_MILESTONES, Milestone, (project_id,), {"status": status, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        project_id: Union[UUID, str],
        body: Union[MilestoneCreate, MilestoneCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone: ...

    @overload
    async def create(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        name: str,
        due_date: Union[date, str],
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone: ...

    async def create(
        self,
        project_id: Union[UUID, str],
        body: Union[MilestoneCreate, MilestoneCreateParam, None] = None,
        **kwargs: Any,
    ) -> Milestone:
        """Create a milestone

        Adds a milestone to the project. `name` and `dueDate` are required; `status` defaults to `PENDING`.
        Creating it as `COMPLETED` sets `completedAt` to now.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `write`.

        ``POST /projects/{id}/milestones`` (operationId ``createMilestone``, scope ``write``).

        :param project_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.MilestoneCreate`` or a dict of its fields
            (``MilestoneCreateParam``), or its fields as the keyword arguments below.
        :param name: Name of the milestone.
        :param due_date: Date by which it must be completed.
        :param description: Free-text description.
        :param status: PENDING until done; COMPLETED when marked done (sets `completedAt`); MISSED when the due date
            passed while not COMPLETED (emits `milestone.missed` once). A MISSED milestone can still be completed.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_MILESTONE, (project_id,), body, kwargs)).data

    async def retrieve(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone:
        """Get a milestone

        Returns one milestone.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /milestones/{id}`` (operationId ``getMilestone``, scope ``read``).

        :param milestone_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_MILESTONE, (milestone_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    async def delete(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Delete a milestone

        Deletes the milestone permanently.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``DELETE /milestones/{id}`` (operationId ``deleteMilestone``, scope ``write``).

        :param milestone_id: The record's id (UUID).
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        await self._client.call(_DELETE_MILESTONE, (milestone_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        milestone_id: Union[UUID, str],
        body: Union[MilestoneUpdate, MilestoneUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone: ...

    @overload
    async def update(
        self,
        milestone_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        status: Union[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone: ...

    async def update(
        self,
        milestone_id: Union[UUID, str],
        body: Union[MilestoneUpdate, MilestoneUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Milestone:
        """Update a milestone

        Changes only the fields present in the body. Setting `status` to `COMPLETED` records `completedAt`; moving
        it away from `COMPLETED` clears it. Moving `dueDate` into the future does not revive a milestone already
        reported as missed unless you also set `status` back to `PENDING`.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``PATCH /milestones/{id}`` (operationId ``updateMilestone``, scope ``write``).

        :param milestone_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.MilestoneUpdate`` or a dict of its fields
            (``MilestoneUpdateParam``), or its fields as the keyword arguments below.
        :param name: Name of the milestone.
        :param description: Free-text description; null clears it.
        :param due_date: Date by which it must be completed.
        :param status: PENDING until done; COMPLETED when marked done (sets `completedAt`); MISSED when the due date
            passed while not COMPLETED (emits `milestone.missed` once). A MISSED milestone can still be completed.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_MILESTONE, (milestone_id,), body, kwargs)).data


class ProjectsResourceWithRawResponse(SyncAPIResource):
    """``client.projects.with_raw_response``: ``list``, ``create``, ``retrieve``, ``update``, ``status_reports``,
    ``milestones``.
    """

    @cached_property
    def status_reports(self) -> ProjectsStatusReportsResourceWithRawResponse:
        """``client.projects.status_reports``: ``list``, ``create``."""
        return ProjectsStatusReportsResourceWithRawResponse(self._client)

    @cached_property
    def milestones(self) -> ProjectsMilestonesResourceWithRawResponse:
        """``client.projects.milestones``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``."""
        return ProjectsMilestonesResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        status: Optional[Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], Sequence[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]]]] = None,
        category: Optional[str] = None,
        borough: Optional[str] = None,
        managing_agency: Optional[str] = None,
        client_agency: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
        sort: Optional[Union[ProjectSort, Literal["createdAt", "-createdAt", "name", "-name", "endDate", "-endDate", "forecastEndDate", "-forecastEndDate", "budget", "-budget"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Project]]:
        """As ``client.projects.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_PROJECTS, Project, (), {"status": status, "category": category, "borough": borough, "managing_agency": managing_agency, "client_agency": client_agency, "q": q, "tag": tag, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[ProjectCreate, ProjectCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]: ...

    @overload
    def create(
        self,
        *,
        name: str,
        start_date: Union[date, str],
        end_date: Union[date, str],
        budget: Union[Optional[float], NotGiven] = NOT_GIVEN,
        project_manager_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], NotGiven] = NOT_GIVEN,
        code: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        tags: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        category: Union[Optional[str], NotGiven] = NOT_GIVEN,
        borough: Union[Optional[str], NotGiven] = NOT_GIVEN,
        managing_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        client_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]: ...

    def create(
        self,
        body: Union[ProjectCreate, ProjectCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Project]:
        """As ``client.projects.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_PROJECT, (), body, kwargs)

    def retrieve(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ProjectDetail]:
        """As ``client.projects.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_PROJECT, (project_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        project_id: Union[UUID, str],
        body: Union[ProjectUpdate, ProjectUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]: ...

    @overload
    def update(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        start_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        end_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        budget: Union[Optional[float], NotGiven] = NOT_GIVEN,
        project_manager_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], NotGiven] = NOT_GIVEN,
        code: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        tags: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        category: Union[Optional[str], NotGiven] = NOT_GIVEN,
        borough: Union[Optional[str], NotGiven] = NOT_GIVEN,
        managing_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        client_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]: ...

    def update(
        self,
        project_id: Union[UUID, str],
        body: Union[ProjectUpdate, ProjectUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Project]:
        """As ``client.projects.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_PROJECT, (project_id,), body, kwargs)


class ProjectsResource(SyncAPIResource):
    """``client.projects``: ``list``, ``create``, ``retrieve``, ``update``, ``status_reports``, ``milestones``.

    Projects with their schedule, budget and status; the detail view adds milestones, team and a budget summary.
    """

    @cached_property
    def status_reports(self) -> ProjectsStatusReportsResource:
        """``client.projects.status_reports``: ``list``, ``create``."""
        return ProjectsStatusReportsResource(self._client)

    @cached_property
    def milestones(self) -> ProjectsMilestonesResource:
        """``client.projects.milestones``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``."""
        return ProjectsMilestonesResource(self._client)

    @cached_property
    def with_raw_response(self) -> ProjectsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return ProjectsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        status: Optional[Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], Sequence[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]]]] = None,
        category: Optional[str] = None,
        borough: Optional[str] = None,
        managing_agency: Optional[str] = None,
        client_agency: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
        sort: Optional[Union[ProjectSort, Literal["createdAt", "-createdAt", "name", "-name", "endDate", "-endDate", "forecastEndDate", "-forecastEndDate", "budget", "-budget"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Project]:
        """List projects

        Returns the tenant's projects in pages of `limit` (default 25, max 100), ordered by `sort`: `createdAt`
        ascending by default, or `name`, `endDate`, `forecastEndDate`, `budget` or `createdAt`, each with a leading
        `-` for descending (`sort=-budget` lists the largest budgets first). Ties are broken by `id` in the same
        direction, so pages are stable. Names compare case-insensitively. Projects with no `forecastEndDate` or no
        `budget` (unknown) come last in either direction.

        `q` searches: a project matches when its `name`, `code` or `description` contains the text, ignoring case
        (`q=bridge` finds "Brooklyn Bridge Promenade" and "BRIDGE-42"). `tag` restricts to projects carrying that tag
        (ignoring case). `status` restricts to projects with one of the given statuses
        (`status=AT_RISK&status=OFF_TRACK`).

        `category`, `borough`, `managingAgency` and `clientAgency` filter on the project's descriptive fields: a
        project matches when the field equals the value or lists it as one of its comma-separated items, ignoring
        case and surrounding spaces, so `borough=Brooklyn` finds `Brooklyn` and `Brooklyn, Queens`. Filters combine
        with AND: `managingAgency=DEP&borough=Brooklyn` lists DEP's projects in Brooklyn.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /projects`` (operationId ``listProjects``, scope ``read``).

        :param status: Only projects whose status is one of these statuses. Repeat the parameter for more than one
            value (`status=AT_RISK&status=OFF_TRACK`); a comma-separated value is not split and is refused. Values of
            one filter combine with OR, filters with AND.
        :param category: Only projects whose `category` is this category or lists it (case-insensitive; see the
            operation's description). Spaces may be sent as `+` or `%20`.
        :param borough: Only projects whose `borough` is this borough or lists it (case-insensitive; see the
            operation's description). Spaces may be sent as `+` or `%20`.
        :param managing_agency: Only projects whose `managingAgency` is this managing agency or lists it
            (case-insensitive; see the operation's description). Spaces may be sent as `+` or `%20`.
        :param client_agency: Only projects whose `clientAgency` is this client agency or lists it (case-insensitive;
            see the operation's description). Spaces may be sent as `+` or `%20`.
        :param q: Only projects whose `name`, `code` or `description` contains this text, ignoring case. Three
            characters or more are matched through a trigram index; one or two scan the tenant's projects. Spaces may
            be sent as `+` or `%20`.
        :param tag: Only projects that carry this tag (one of their `tags`), ignoring case and surrounding spaces.
            Spaces may be sent as `+` or `%20`.
        :param sort: Order of the list: a field, with a leading `-` for descending (see the operation's description).
            Default `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Project`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_PROJECTS, Project, (), {"status": status, "category": category, "borough": borough, "managing_agency": managing_agency, "client_agency": client_agency, "q": q, "tag": tag, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[ProjectCreate, ProjectCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project: ...

    @overload
    def create(
        self,
        *,
        name: str,
        start_date: Union[date, str],
        end_date: Union[date, str],
        budget: Union[Optional[float], NotGiven] = NOT_GIVEN,
        project_manager_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], NotGiven] = NOT_GIVEN,
        code: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        tags: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        category: Union[Optional[str], NotGiven] = NOT_GIVEN,
        borough: Union[Optional[str], NotGiven] = NOT_GIVEN,
        managing_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        client_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project: ...

    def create(
        self,
        body: Union[ProjectCreate, ProjectCreateParam, None] = None,
        **kwargs: Any,
    ) -> Project:
        """Create a project

        Creates a project. `name`, `startDate` and `endDate` are required; `status` defaults to `PLANNED`;
        `actualCost` and `progress` stay null (unknown) until given or reported in a status report. Money is in major units of the tenant's currency, which the project
        inherits as its read-only `currency`.

        Errors: 400 `validation_failed` for a malformed body; 422 `validation_failed` when `endDate` is before
        `startDate` or `projectManagerId` names no resource of the tenant; 409 `conflict` when `code` is already used
        by another project of the tenant.

        Requires scope `write`.

        ``POST /projects`` (operationId ``createProject``, scope ``write``).

        :param body: the request body as a ``meridian.models.ProjectCreate`` or a dict of its fields
            (``ProjectCreateParam``), or its fields as the keyword arguments below.
        :param name: Name of the project.
        :param start_date: Planned start date.
        :param end_date: Baseline finish date; must be on or after `startDate` (else 422).
        :param budget: Baseline budget.
        :param project_manager_id: A resource of the tenant who manages the project.
        :param description: Free-text description.
        :param status: Status of a project. New projects are `PLANNED` unless given another status. Any move between
            the open statuses (PLANNED, ON_TRACK, AT_RISK, OFF_TRACK, ON_HOLD) and into COMPLETED or CANCELLED is
            allowed. COMPLETED and CANCELLED are terminal except for an explicit reopen — COMPLETED → ON_TRACK,
            CANCELLED → PLANNED; any other move out of them answers 409 `invalid_transition`. Every change emits
            `project.status_changed`.
        :param code: Your external reference; unique within the tenant (else 409 `conflict`).
        :param forecast_end_date: Forecast finish date.
        :param forecast_cost: Estimate at completion.
        :param actual_cost: Cost incurred to date; omit it (or send null) while no cost is known.
        :param progress: Percent complete; omit it (or send null) while no progress is known.
        :param tags: Free labels, at most 20.
        :param category: What kind of project it is; a list is written comma-separated (`Bridges, Streets and
            Roadways`).
        :param borough: Where the project is; a list is written comma-separated (`Manhattan, Bronx`).
        :param managing_agency: The organisation that manages the project.
        :param client_agency: The organisation(s) the project is delivered for; a list is written comma-separated.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Project``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_PROJECT, (), body, kwargs).data

    def retrieve(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ProjectDetail:
        """Get a project with milestones, team and budget summary

        Returns the full project: every project field plus its `milestones` (by `dueDate`), its `team` (derived from
        the project's allocations) and a `budgetSummary` (remaining budget, percent spent, cost and schedule
        variance).

        Errors: 404 `not_found` when no project with this id exists in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}`` (operationId ``getProject``, scope ``read``).

        :param project_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ProjectDetail``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_PROJECT, (project_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    @overload
    def update(
        self,
        project_id: Union[UUID, str],
        body: Union[ProjectUpdate, ProjectUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project: ...

    @overload
    def update(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        start_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        end_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        budget: Union[Optional[float], NotGiven] = NOT_GIVEN,
        project_manager_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], NotGiven] = NOT_GIVEN,
        code: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        tags: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        category: Union[Optional[str], NotGiven] = NOT_GIVEN,
        borough: Union[Optional[str], NotGiven] = NOT_GIVEN,
        managing_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        client_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project: ...

    def update(
        self,
        project_id: Union[UUID, str],
        body: Union[ProjectUpdate, ProjectUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Project:
        """Update a project

        Changes only the fields present in the body; absent fields keep their values and `null` clears a nullable
        field. An empty body changes nothing. A change of `status` emits `project.status_changed`; a change that takes
        `actualCost` or `forecastCost` above `budget` emits `budget.overrun_detected`.

        Errors: 404 `not_found`; 409 `invalid_transition` for a status change out of COMPLETED or CANCELLED other
        than a reopen; 409 `conflict` for a duplicate `code`; 412 `precondition_failed` when `If-Match` does not
        match; 422 `validation_failed` when the resulting `endDate` is before `startDate`.

        Requires scope `write`.

        ``PATCH /projects/{id}`` (operationId ``updateProject``, scope ``write``).

        :param project_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.ProjectUpdate`` or a dict of its fields
            (``ProjectUpdateParam``), or its fields as the keyword arguments below.
        :param name: Name of the project.
        :param start_date: Planned start date.
        :param end_date: Baseline finish date.
        :param budget: Baseline budget; null removes it.
        :param project_manager_id: A resource of the tenant who manages the project; null removes it.
        :param description: Free-text description; null clears it.
        :param status: Status of a project. New projects are `PLANNED` unless given another status. Any move between
            the open statuses (PLANNED, ON_TRACK, AT_RISK, OFF_TRACK, ON_HOLD) and into COMPLETED or CANCELLED is
            allowed. COMPLETED and CANCELLED are terminal except for an explicit reopen — COMPLETED → ON_TRACK,
            CANCELLED → PLANNED; any other move out of them answers 409 `invalid_transition`. Every change emits
            `project.status_changed`.
        :param code: Your external reference; unique within the tenant; null clears it.
        :param forecast_end_date: Forecast finish date; null clears it.
        :param forecast_cost: Estimate at completion; null clears it.
        :param actual_cost: Cost incurred to date; null makes it unknown again.
        :param progress: Percent complete; null makes it unknown again.
        :param tags: Replaces the whole list of labels.
        :param category: What kind of project it is; a list is written comma-separated; null clears it.
        :param borough: Where the project is; a list is written comma-separated; null clears it.
        :param managing_agency: The organisation that manages the project; null clears it.
        :param client_agency: The organisation(s) the project is delivered for; a list is written comma-separated;
            null clears it.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Project``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_PROJECT, (project_id,), body, kwargs).data


class AsyncProjectsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().projects.with_raw_response``: ``list``, ``create``, ``retrieve``, ``update``,
    ``status_reports``, ``milestones``.
    """

    @cached_property
    def status_reports(self) -> AsyncProjectsStatusReportsResourceWithRawResponse:
        """``AsyncMeridian().projects.status_reports``: ``list``, ``create``."""
        return AsyncProjectsStatusReportsResourceWithRawResponse(self._client)

    @cached_property
    def milestones(self) -> AsyncProjectsMilestonesResourceWithRawResponse:
        """``AsyncMeridian().projects.milestones``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``."""
        return AsyncProjectsMilestonesResourceWithRawResponse(self._client)

    async def list(
        self,
        *,
        status: Optional[Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], Sequence[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]]]] = None,
        category: Optional[str] = None,
        borough: Optional[str] = None,
        managing_agency: Optional[str] = None,
        client_agency: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
        sort: Optional[Union[ProjectSort, Literal["createdAt", "-createdAt", "name", "-name", "endDate", "-endDate", "forecastEndDate", "-forecastEndDate", "budget", "-budget"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Project]]:
        """As ``AsyncMeridian().projects.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_PROJECTS, Project, (), {"status": status, "category": category, "borough": borough, "managing_agency": managing_agency, "client_agency": client_agency, "q": q, "tag": tag, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[ProjectCreate, ProjectCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]: ...

    @overload
    async def create(
        self,
        *,
        name: str,
        start_date: Union[date, str],
        end_date: Union[date, str],
        budget: Union[Optional[float], NotGiven] = NOT_GIVEN,
        project_manager_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], NotGiven] = NOT_GIVEN,
        code: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        tags: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        category: Union[Optional[str], NotGiven] = NOT_GIVEN,
        borough: Union[Optional[str], NotGiven] = NOT_GIVEN,
        managing_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        client_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]: ...

    async def create(
        self,
        body: Union[ProjectCreate, ProjectCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Project]:
        """As ``AsyncMeridian().projects.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_PROJECT, (), body, kwargs)

    async def retrieve(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ProjectDetail]:
        """As ``AsyncMeridian().projects.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_PROJECT, (project_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        project_id: Union[UUID, str],
        body: Union[ProjectUpdate, ProjectUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]: ...

    @overload
    async def update(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        start_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        end_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        budget: Union[Optional[float], NotGiven] = NOT_GIVEN,
        project_manager_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], NotGiven] = NOT_GIVEN,
        code: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        tags: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        category: Union[Optional[str], NotGiven] = NOT_GIVEN,
        borough: Union[Optional[str], NotGiven] = NOT_GIVEN,
        managing_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        client_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]: ...

    async def update(
        self,
        project_id: Union[UUID, str],
        body: Union[ProjectUpdate, ProjectUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Project]:
        """As ``AsyncMeridian().projects.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_PROJECT, (project_id,), body, kwargs)


class AsyncProjectsResource(AsyncAPIResource):
    """``AsyncMeridian().projects``: ``list``, ``create``, ``retrieve``, ``update``, ``status_reports``,
    ``milestones``.

    Projects with their schedule, budget and status; the detail view adds milestones, team and a budget summary.
    """

    @cached_property
    def status_reports(self) -> AsyncProjectsStatusReportsResource:
        """``AsyncMeridian().projects.status_reports``: ``list``, ``create``."""
        return AsyncProjectsStatusReportsResource(self._client)

    @cached_property
    def milestones(self) -> AsyncProjectsMilestonesResource:
        """``AsyncMeridian().projects.milestones``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``."""
        return AsyncProjectsMilestonesResource(self._client)

    @cached_property
    def with_raw_response(self) -> AsyncProjectsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncProjectsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        status: Optional[Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], Sequence[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]]]] = None,
        category: Optional[str] = None,
        borough: Optional[str] = None,
        managing_agency: Optional[str] = None,
        client_agency: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
        sort: Optional[Union[ProjectSort, Literal["createdAt", "-createdAt", "name", "-name", "endDate", "-endDate", "forecastEndDate", "-forecastEndDate", "budget", "-budget"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Project]:
        """List projects

        Returns the tenant's projects in pages of `limit` (default 25, max 100), ordered by `sort`: `createdAt`
        ascending by default, or `name`, `endDate`, `forecastEndDate`, `budget` or `createdAt`, each with a leading
        `-` for descending (`sort=-budget` lists the largest budgets first). Ties are broken by `id` in the same
        direction, so pages are stable. Names compare case-insensitively. Projects with no `forecastEndDate` or no
        `budget` (unknown) come last in either direction.

        `q` searches: a project matches when its `name`, `code` or `description` contains the text, ignoring case
        (`q=bridge` finds "Brooklyn Bridge Promenade" and "BRIDGE-42"). `tag` restricts to projects carrying that tag
        (ignoring case). `status` restricts to projects with one of the given statuses
        (`status=AT_RISK&status=OFF_TRACK`).

        `category`, `borough`, `managingAgency` and `clientAgency` filter on the project's descriptive fields: a
        project matches when the field equals the value or lists it as one of its comma-separated items, ignoring
        case and surrounding spaces, so `borough=Brooklyn` finds `Brooklyn` and `Brooklyn, Queens`. Filters combine
        with AND: `managingAgency=DEP&borough=Brooklyn` lists DEP's projects in Brooklyn.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /projects`` (operationId ``listProjects``, scope ``read``).

        :param status: Only projects whose status is one of these statuses. Repeat the parameter for more than one
            value (`status=AT_RISK&status=OFF_TRACK`); a comma-separated value is not split and is refused. Values of
            one filter combine with OR, filters with AND.
        :param category: Only projects whose `category` is this category or lists it (case-insensitive; see the
            operation's description). Spaces may be sent as `+` or `%20`.
        :param borough: Only projects whose `borough` is this borough or lists it (case-insensitive; see the
            operation's description). Spaces may be sent as `+` or `%20`.
        :param managing_agency: Only projects whose `managingAgency` is this managing agency or lists it
            (case-insensitive; see the operation's description). Spaces may be sent as `+` or `%20`.
        :param client_agency: Only projects whose `clientAgency` is this client agency or lists it (case-insensitive;
            see the operation's description). Spaces may be sent as `+` or `%20`.
        :param q: Only projects whose `name`, `code` or `description` contains this text, ignoring case. Three
            characters or more are matched through a trigram index; one or two scan the tenant's projects. Spaces may
            be sent as `+` or `%20`.
        :param tag: Only projects that carry this tag (one of their `tags`), ignoring case and surrounding spaces.
            Spaces may be sent as `+` or `%20`.
        :param sort: Order of the list: a field, with a leading `-` for descending (see the operation's description).
            Default `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Project`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_PROJECTS, Project, (), {"status": status, "category": category, "borough": borough, "managing_agency": managing_agency, "client_agency": client_agency, "q": q, "tag": tag, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[ProjectCreate, ProjectCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project: ...

    @overload
    async def create(
        self,
        *,
        name: str,
        start_date: Union[date, str],
        end_date: Union[date, str],
        budget: Union[Optional[float], NotGiven] = NOT_GIVEN,
        project_manager_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], NotGiven] = NOT_GIVEN,
        code: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        tags: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        category: Union[Optional[str], NotGiven] = NOT_GIVEN,
        borough: Union[Optional[str], NotGiven] = NOT_GIVEN,
        managing_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        client_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project: ...

    async def create(
        self,
        body: Union[ProjectCreate, ProjectCreateParam, None] = None,
        **kwargs: Any,
    ) -> Project:
        """Create a project

        Creates a project. `name`, `startDate` and `endDate` are required; `status` defaults to `PLANNED`;
        `actualCost` and `progress` stay null (unknown) until given or reported in a status report. Money is in major units of the tenant's currency, which the project
        inherits as its read-only `currency`.

        Errors: 400 `validation_failed` for a malformed body; 422 `validation_failed` when `endDate` is before
        `startDate` or `projectManagerId` names no resource of the tenant; 409 `conflict` when `code` is already used
        by another project of the tenant.

        Requires scope `write`.

        ``POST /projects`` (operationId ``createProject``, scope ``write``).

        :param body: the request body as a ``meridian.models.ProjectCreate`` or a dict of its fields
            (``ProjectCreateParam``), or its fields as the keyword arguments below.
        :param name: Name of the project.
        :param start_date: Planned start date.
        :param end_date: Baseline finish date; must be on or after `startDate` (else 422).
        :param budget: Baseline budget.
        :param project_manager_id: A resource of the tenant who manages the project.
        :param description: Free-text description.
        :param status: Status of a project. New projects are `PLANNED` unless given another status. Any move between
            the open statuses (PLANNED, ON_TRACK, AT_RISK, OFF_TRACK, ON_HOLD) and into COMPLETED or CANCELLED is
            allowed. COMPLETED and CANCELLED are terminal except for an explicit reopen — COMPLETED → ON_TRACK,
            CANCELLED → PLANNED; any other move out of them answers 409 `invalid_transition`. Every change emits
            `project.status_changed`.
        :param code: Your external reference; unique within the tenant (else 409 `conflict`).
        :param forecast_end_date: Forecast finish date.
        :param forecast_cost: Estimate at completion.
        :param actual_cost: Cost incurred to date; omit it (or send null) while no cost is known.
        :param progress: Percent complete; omit it (or send null) while no progress is known.
        :param tags: Free labels, at most 20.
        :param category: What kind of project it is; a list is written comma-separated (`Bridges, Streets and
            Roadways`).
        :param borough: Where the project is; a list is written comma-separated (`Manhattan, Bronx`).
        :param managing_agency: The organisation that manages the project.
        :param client_agency: The organisation(s) the project is delivered for; a list is written comma-separated.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Project``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_PROJECT, (), body, kwargs)).data

    async def retrieve(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ProjectDetail:
        """Get a project with milestones, team and budget summary

        Returns the full project: every project field plus its `milestones` (by `dueDate`), its `team` (derived from
        the project's allocations) and a `budgetSummary` (remaining budget, percent spent, cost and schedule
        variance).

        Errors: 404 `not_found` when no project with this id exists in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}`` (operationId ``getProject``, scope ``read``).

        :param project_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ProjectDetail``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_PROJECT, (project_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    @overload
    async def update(
        self,
        project_id: Union[UUID, str],
        body: Union[ProjectUpdate, ProjectUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project: ...

    @overload
    async def update(
        self,
        project_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        start_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        end_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        budget: Union[Optional[float], NotGiven] = NOT_GIVEN,
        project_manager_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]], NotGiven] = NOT_GIVEN,
        code: Union[Optional[str], NotGiven] = NOT_GIVEN,
        forecast_end_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        forecast_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        actual_cost: Union[Optional[float], NotGiven] = NOT_GIVEN,
        progress: Union[Optional[int], NotGiven] = NOT_GIVEN,
        tags: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        category: Union[Optional[str], NotGiven] = NOT_GIVEN,
        borough: Union[Optional[str], NotGiven] = NOT_GIVEN,
        managing_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        client_agency: Union[Optional[str], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project: ...

    async def update(
        self,
        project_id: Union[UUID, str],
        body: Union[ProjectUpdate, ProjectUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Project:
        """Update a project

        Changes only the fields present in the body; absent fields keep their values and `null` clears a nullable
        field. An empty body changes nothing. A change of `status` emits `project.status_changed`; a change that takes
        `actualCost` or `forecastCost` above `budget` emits `budget.overrun_detected`.

        Errors: 404 `not_found`; 409 `invalid_transition` for a status change out of COMPLETED or CANCELLED other
        than a reopen; 409 `conflict` for a duplicate `code`; 412 `precondition_failed` when `If-Match` does not
        match; 422 `validation_failed` when the resulting `endDate` is before `startDate`.

        Requires scope `write`.

        ``PATCH /projects/{id}`` (operationId ``updateProject``, scope ``write``).

        :param project_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.ProjectUpdate`` or a dict of its fields
            (``ProjectUpdateParam``), or its fields as the keyword arguments below.
        :param name: Name of the project.
        :param start_date: Planned start date.
        :param end_date: Baseline finish date.
        :param budget: Baseline budget; null removes it.
        :param project_manager_id: A resource of the tenant who manages the project; null removes it.
        :param description: Free-text description; null clears it.
        :param status: Status of a project. New projects are `PLANNED` unless given another status. Any move between
            the open statuses (PLANNED, ON_TRACK, AT_RISK, OFF_TRACK, ON_HOLD) and into COMPLETED or CANCELLED is
            allowed. COMPLETED and CANCELLED are terminal except for an explicit reopen — COMPLETED → ON_TRACK,
            CANCELLED → PLANNED; any other move out of them answers 409 `invalid_transition`. Every change emits
            `project.status_changed`.
        :param code: Your external reference; unique within the tenant; null clears it.
        :param forecast_end_date: Forecast finish date; null clears it.
        :param forecast_cost: Estimate at completion; null clears it.
        :param actual_cost: Cost incurred to date; null makes it unknown again.
        :param progress: Percent complete; null makes it unknown again.
        :param tags: Replaces the whole list of labels.
        :param category: What kind of project it is; a list is written comma-separated; null clears it.
        :param borough: Where the project is; a list is written comma-separated; null clears it.
        :param managing_agency: The organisation that manages the project; null clears it.
        :param client_agency: The organisation(s) the project is delivered for; a list is written comma-separated;
            null clears it.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Project``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_PROJECT, (project_id,), body, kwargs)).data


class StatusReportsResourceWithRawResponse(SyncAPIResource):
    """``client.status_reports.with_raw_response``: ``list``, ``retrieve``."""

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[StatusReport]]:
        """As ``client.status_reports.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_STATUS_REPORTS, StatusReport, (), {"project_id": project_id, "since": since, "until": until, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def retrieve(
        self,
        status_report_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]:
        """As ``client.status_reports.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_STATUS_REPORT, (status_report_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class StatusReportsResource(SyncAPIResource):
    """``client.status_reports``: ``list``, ``retrieve``.

    How a project stood on a date: status, phase, forecasts, actual cost, progress and a summary. Submitting the
    newest report moves the project; the reports are its history (GET newest first).
    """

    @cached_property
    def with_raw_response(self) -> StatusReportsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return StatusReportsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[StatusReport]:
        """List status reports across the portfolio

        Returns the tenant's status reports across all projects, **newest first** (by `asOf` descending, then
        `createdAt` descending, then `id`), in pages of `limit` (default 25, max 100). Filters: `projectId`, and
        `since`/`until` on `asOf` (inclusive); they combine with AND.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /status-reports`` (operationId ``listStatusReports``, scope ``read``).

        :param project_id: Only reports of this project.
        :param since: Only reports with `asOf` on or after this date.
        :param until: Only reports with `asOf` on or before this date.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``StatusReport`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_STATUS_REPORTS, StatusReport, (), {"project_id": project_id, "since": since, "until": until, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def retrieve(
        self,
        status_report_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReport:
        """Get a status report

        Returns one status report (reports are never changed once stored).

        Errors: 404 `not_found` when no report with this id exists in your tenant.

        Requires scope `read`.

        ``GET /status-reports/{id}`` (operationId ``getStatusReport``, scope ``read``).

        :param status_report_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReport``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_STATUS_REPORT, (status_report_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data


class AsyncStatusReportsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().status_reports.with_raw_response``: ``list``, ``retrieve``."""

    async def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[StatusReport]]:
        """As ``AsyncMeridian().status_reports.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_STATUS_REPORTS, StatusReport, (), {"project_id": project_id, "since": since, "until": until, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def retrieve(
        self,
        status_report_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]:
        """As ``AsyncMeridian().status_reports.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_STATUS_REPORT, (status_report_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncStatusReportsResource(AsyncAPIResource):
    """``AsyncMeridian().status_reports``: ``list``, ``retrieve``.

    How a project stood on a date: status, phase, forecasts, actual cost, progress and a summary. Submitting the
    newest report moves the project; the reports are its history (GET newest first).
    """

    @cached_property
    def with_raw_response(self) -> AsyncStatusReportsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncStatusReportsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[StatusReport]:
        """List status reports across the portfolio

        Returns the tenant's status reports across all projects, **newest first** (by `asOf` descending, then
        `createdAt` descending, then `id`), in pages of `limit` (default 25, max 100). Filters: `projectId`, and
        `since`/`until` on `asOf` (inclusive); they combine with AND.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /status-reports`` (operationId ``listStatusReports``, scope ``read``).

        :param project_id: Only reports of this project.
        :param since: Only reports with `asOf` on or after this date.
        :param until: Only reports with `asOf` on or before this date.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``StatusReport`` records; iterating it (``async for``) fetches every following
            page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_STATUS_REPORTS, StatusReport, (), {"project_id": project_id, "since": since, "until": until, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def retrieve(
        self,
        status_report_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReport:
        """Get a status report

        Returns one status report (reports are never changed once stored).

        Errors: 404 `not_found` when no report with this id exists in your tenant.

        Requires scope `read`.

        ``GET /status-reports/{id}`` (operationId ``getStatusReport``, scope ``read``).

        :param status_report_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReport``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_STATUS_REPORT, (status_report_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data


class RisksResourceWithRawResponse(SyncAPIResource):
    """``client.risks.with_raw_response``: ``list``, ``create``, ``retrieve``, ``update``."""

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], Sequence[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]]]] = None,
        severity: Optional[Union[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], Sequence[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]] = None,
        sort: Optional[Union[RiskSort, Literal["createdAt", "-createdAt", "score", "-score"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Risk]]:
        """As ``client.risks.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_RISKS, Risk, (), {"project_id": project_id, "status": status, "severity": severity, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[RiskCreate, RiskCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]: ...

    @overload
    def create(
        self,
        *,
        title: str,
        project_id: Union[UUID, str],
        likelihood: int,
        impact: int,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        severity: Union[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        owner_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        mitigation: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]: ...

    def create(
        self,
        body: Union[RiskCreate, RiskCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Risk]:
        """As ``client.risks.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_RISK, (), body, kwargs)

    def retrieve(
        self,
        risk_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]:
        """As ``client.risks.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_RISK, (risk_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        risk_id: Union[UUID, str],
        body: Union[RiskUpdate, RiskUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]: ...

    @overload
    def update(
        self,
        risk_id: Union[UUID, str],
        /,
        *,
        title: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        likelihood: Union[int, NotGiven] = NOT_GIVEN,
        impact: Union[int, NotGiven] = NOT_GIVEN,
        severity: Union[Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]], NotGiven] = NOT_GIVEN,
        status: Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        owner_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        mitigation: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]: ...

    def update(
        self,
        risk_id: Union[UUID, str],
        body: Union[RiskUpdate, RiskUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Risk]:
        """As ``client.risks.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_RISK, (risk_id,), body, kwargs)


class RisksResource(SyncAPIResource):
    """``client.risks``: ``list``, ``create``, ``retrieve``, ``update``.

    Project risks scored by likelihood × impact, with a severity derived from the score unless set explicitly.
    """

    @cached_property
    def with_raw_response(self) -> RisksResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return RisksResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], Sequence[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]]]] = None,
        severity: Optional[Union[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], Sequence[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]] = None,
        sort: Optional[Union[RiskSort, Literal["createdAt", "-createdAt", "score", "-score"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Risk]:
        """List risks

        Returns the tenant's risks, ordered by `sort`: `createdAt` ascending by default, `-score` for the highest
        likelihood × impact first, `score` for the lowest; ties are broken by `id` in the same direction. When
        `projectId`, `status` or `severity` is given, the list is restricted to risks with that value, or one of the
        given values for `status` and `severity` (`status=OPEN&status=MITIGATING`); filters combine with AND.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /risks`` (operationId ``listRisks``, scope ``read``).

        :param project_id: Only risks of this project.
        :param status: Only risks whose status is one of these statuses. Repeat the parameter for more than one value
            (`status=OPEN&status=MITIGATING`); a comma-separated value is not split and is refused. Values of one
            filter combine with OR, filters with AND.
        :param severity: Only risks whose severity is one of these severities. Repeat the parameter for more than one
            value (`severity=HIGH&severity=CRITICAL`); a comma-separated value is not split and is refused. Values of
            one filter combine with OR, filters with AND.
        :param sort: Order of the list: `createdAt` or `score`, with a leading `-` for descending. Default
            `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Risk`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_RISKS, Risk, (), {"project_id": project_id, "status": status, "severity": severity, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[RiskCreate, RiskCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk: ...

    @overload
    def create(
        self,
        *,
        title: str,
        project_id: Union[UUID, str],
        likelihood: int,
        impact: int,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        severity: Union[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        owner_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        mitigation: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk: ...

    def create(
        self,
        body: Union[RiskCreate, RiskCreateParam, None] = None,
        **kwargs: Any,
    ) -> Risk:
        """Create a risk

        Creates a risk on a project. `title`, `projectId`, `likelihood` (1–5) and `impact` (1–5) are required. `score`
        is likelihood × impact; `severity` is derived from the score unless you send one (then `severitySource` is
        `MANUAL`). `status` defaults to `OPEN`. Emits `risk.created`.

        Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `ownerId` no resource.

        Requires scope `write`.

        ``POST /risks`` (operationId ``createRisk``, scope ``write``).

        :param body: the request body as a ``meridian.models.RiskCreate`` or a dict of its fields
            (``RiskCreateParam``), or its fields as the keyword arguments below.
        :param title: Short statement of the risk.
        :param project_id: A project of your tenant (else 422).
        :param likelihood: 1 (rare) to 5 (almost certain).
        :param impact: 1 (negligible) to 5 (severe).
        :param description: Free-text description.
        :param status: OPEN (identified), MITIGATING (actions under way), ACCEPTED (tolerated without action), CLOSED
            (no longer a risk). Any move between them is allowed.
        :param severity: Severity of a risk. Derived from `score` = likelihood × impact: LOW 1–4, MEDIUM 5–9, HIGH
            10–16, CRITICAL 20–25 — unless set by the client, in which case `severitySource` is MANUAL.
        :param owner_id: A resource of your tenant who owns the risk.
        :param mitigation: Planned mitigation.
        :param due_date: Date by which the mitigation is due.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_RISK, (), body, kwargs).data

    def retrieve(
        self,
        risk_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk:
        """Get a risk

        Returns one risk.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /risks/{id}`` (operationId ``getRisk``, scope ``read``).

        :param risk_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_RISK, (risk_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    @overload
    def update(
        self,
        risk_id: Union[UUID, str],
        body: Union[RiskUpdate, RiskUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk: ...

    @overload
    def update(
        self,
        risk_id: Union[UUID, str],
        /,
        *,
        title: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        likelihood: Union[int, NotGiven] = NOT_GIVEN,
        impact: Union[int, NotGiven] = NOT_GIVEN,
        severity: Union[Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]], NotGiven] = NOT_GIVEN,
        status: Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        owner_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        mitigation: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk: ...

    def update(
        self,
        risk_id: Union[UUID, str],
        body: Union[RiskUpdate, RiskUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Risk:
        """Update a risk

        Changes only the fields present in the body. Changing `likelihood` or `impact` recomputes `score` and, while
        `severitySource` is `DERIVED`, `severity`. Sending `severity` sets it manually (`MANUAL`); sending
        `severity: null` returns it to the derived value. A rise in severity emits `risk.severity_escalated`.
        The project of a risk cannot be changed.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when `ownerId` names no resource of your tenant.

        Requires scope `write`.

        ``PATCH /risks/{id}`` (operationId ``updateRisk``, scope ``write``).

        :param risk_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.RiskUpdate`` or a dict of its fields
            (``RiskUpdateParam``), or its fields as the keyword arguments below.
        :param title: Short statement of the risk.
        :param description: Free-text description; null clears it.
        :param likelihood: 1 (rare) to 5 (almost certain).
        :param impact: 1 (negligible) to 5 (severe).
        :param severity: A severity to set manually, or null to return to the severity derived from the score.
        :param status: OPEN (identified), MITIGATING (actions under way), ACCEPTED (tolerated without action), CLOSED
            (no longer a risk). Any move between them is allowed.
        :param owner_id: A resource of your tenant who owns the risk; null clears it.
        :param mitigation: Mitigation; null clears it.
        :param due_date: Date by which the mitigation is due; null clears it.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_RISK, (risk_id,), body, kwargs).data


class AsyncRisksResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().risks.with_raw_response``: ``list``, ``create``, ``retrieve``, ``update``."""

    async def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], Sequence[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]]]] = None,
        severity: Optional[Union[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], Sequence[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]] = None,
        sort: Optional[Union[RiskSort, Literal["createdAt", "-createdAt", "score", "-score"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Risk]]:
        """As ``AsyncMeridian().risks.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_RISKS, Risk, (), {"project_id": project_id, "status": status, "severity": severity, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[RiskCreate, RiskCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]: ...

    @overload
    async def create(
        self,
        *,
        title: str,
        project_id: Union[UUID, str],
        likelihood: int,
        impact: int,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        severity: Union[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        owner_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        mitigation: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]: ...

    async def create(
        self,
        body: Union[RiskCreate, RiskCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Risk]:
        """As ``AsyncMeridian().risks.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_RISK, (), body, kwargs)

    async def retrieve(
        self,
        risk_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]:
        """As ``AsyncMeridian().risks.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_RISK, (risk_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        risk_id: Union[UUID, str],
        body: Union[RiskUpdate, RiskUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]: ...

    @overload
    async def update(
        self,
        risk_id: Union[UUID, str],
        /,
        *,
        title: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        likelihood: Union[int, NotGiven] = NOT_GIVEN,
        impact: Union[int, NotGiven] = NOT_GIVEN,
        severity: Union[Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]], NotGiven] = NOT_GIVEN,
        status: Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        owner_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        mitigation: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]: ...

    async def update(
        self,
        risk_id: Union[UUID, str],
        body: Union[RiskUpdate, RiskUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Risk]:
        """As ``AsyncMeridian().risks.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_RISK, (risk_id,), body, kwargs)


class AsyncRisksResource(AsyncAPIResource):
    """``AsyncMeridian().risks``: ``list``, ``create``, ``retrieve``, ``update``.

    Project risks scored by likelihood × impact, with a severity derived from the score unless set explicitly.
    """

    @cached_property
    def with_raw_response(self) -> AsyncRisksResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncRisksResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], Sequence[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]]]] = None,
        severity: Optional[Union[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], Sequence[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]] = None,
        sort: Optional[Union[RiskSort, Literal["createdAt", "-createdAt", "score", "-score"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Risk]:
        """List risks

        Returns the tenant's risks, ordered by `sort`: `createdAt` ascending by default, `-score` for the highest
        likelihood × impact first, `score` for the lowest; ties are broken by `id` in the same direction. When
        `projectId`, `status` or `severity` is given, the list is restricted to risks with that value, or one of the
        given values for `status` and `severity` (`status=OPEN&status=MITIGATING`); filters combine with AND.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /risks`` (operationId ``listRisks``, scope ``read``).

        :param project_id: Only risks of this project.
        :param status: Only risks whose status is one of these statuses. Repeat the parameter for more than one value
            (`status=OPEN&status=MITIGATING`); a comma-separated value is not split and is refused. Values of one
            filter combine with OR, filters with AND.
        :param severity: Only risks whose severity is one of these severities. Repeat the parameter for more than one
            value (`severity=HIGH&severity=CRITICAL`); a comma-separated value is not split and is refused. Values of
            one filter combine with OR, filters with AND.
        :param sort: Order of the list: `createdAt` or `score`, with a leading `-` for descending. Default
            `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Risk`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_RISKS, Risk, (), {"project_id": project_id, "status": status, "severity": severity, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[RiskCreate, RiskCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk: ...

    @overload
    async def create(
        self,
        *,
        title: str,
        project_id: Union[UUID, str],
        likelihood: int,
        impact: int,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        severity: Union[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        owner_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        mitigation: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk: ...

    async def create(
        self,
        body: Union[RiskCreate, RiskCreateParam, None] = None,
        **kwargs: Any,
    ) -> Risk:
        """Create a risk

        Creates a risk on a project. `title`, `projectId`, `likelihood` (1–5) and `impact` (1–5) are required. `score`
        is likelihood × impact; `severity` is derived from the score unless you send one (then `severitySource` is
        `MANUAL`). `status` defaults to `OPEN`. Emits `risk.created`.

        Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `ownerId` no resource.

        Requires scope `write`.

        ``POST /risks`` (operationId ``createRisk``, scope ``write``).

        :param body: the request body as a ``meridian.models.RiskCreate`` or a dict of its fields
            (``RiskCreateParam``), or its fields as the keyword arguments below.
        :param title: Short statement of the risk.
        :param project_id: A project of your tenant (else 422).
        :param likelihood: 1 (rare) to 5 (almost certain).
        :param impact: 1 (negligible) to 5 (severe).
        :param description: Free-text description.
        :param status: OPEN (identified), MITIGATING (actions under way), ACCEPTED (tolerated without action), CLOSED
            (no longer a risk). Any move between them is allowed.
        :param severity: Severity of a risk. Derived from `score` = likelihood × impact: LOW 1–4, MEDIUM 5–9, HIGH
            10–16, CRITICAL 20–25 — unless set by the client, in which case `severitySource` is MANUAL.
        :param owner_id: A resource of your tenant who owns the risk.
        :param mitigation: Planned mitigation.
        :param due_date: Date by which the mitigation is due.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_RISK, (), body, kwargs)).data

    async def retrieve(
        self,
        risk_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk:
        """Get a risk

        Returns one risk.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /risks/{id}`` (operationId ``getRisk``, scope ``read``).

        :param risk_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_RISK, (risk_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    @overload
    async def update(
        self,
        risk_id: Union[UUID, str],
        body: Union[RiskUpdate, RiskUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk: ...

    @overload
    async def update(
        self,
        risk_id: Union[UUID, str],
        /,
        *,
        title: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        likelihood: Union[int, NotGiven] = NOT_GIVEN,
        impact: Union[int, NotGiven] = NOT_GIVEN,
        severity: Union[Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]], NotGiven] = NOT_GIVEN,
        status: Union[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        owner_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        mitigation: Union[Optional[str], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk: ...

    async def update(
        self,
        risk_id: Union[UUID, str],
        body: Union[RiskUpdate, RiskUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Risk:
        """Update a risk

        Changes only the fields present in the body. Changing `likelihood` or `impact` recomputes `score` and, while
        `severitySource` is `DERIVED`, `severity`. Sending `severity` sets it manually (`MANUAL`); sending
        `severity: null` returns it to the derived value. A rise in severity emits `risk.severity_escalated`.
        The project of a risk cannot be changed.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when `ownerId` names no resource of your tenant.

        Requires scope `write`.

        ``PATCH /risks/{id}`` (operationId ``updateRisk``, scope ``write``).

        :param risk_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.RiskUpdate`` or a dict of its fields
            (``RiskUpdateParam``), or its fields as the keyword arguments below.
        :param title: Short statement of the risk.
        :param description: Free-text description; null clears it.
        :param likelihood: 1 (rare) to 5 (almost certain).
        :param impact: 1 (negligible) to 5 (severe).
        :param severity: A severity to set manually, or null to return to the severity derived from the score.
        :param status: OPEN (identified), MITIGATING (actions under way), ACCEPTED (tolerated without action), CLOSED
            (no longer a risk). Any move between them is allowed.
        :param owner_id: A resource of your tenant who owns the risk; null clears it.
        :param mitigation: Mitigation; null clears it.
        :param due_date: Date by which the mitigation is due; null clears it.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_RISK, (risk_id,), body, kwargs)).data


class IssuesResourceWithRawResponse(SyncAPIResource):
    """``client.issues.with_raw_response``: ``list``, ``create``, ``retrieve``, ``update``."""

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], Sequence[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]]]] = None,
        priority: Optional[Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], Sequence[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]] = None,
        assignee_id: Optional[Union[UUID, str]] = None,
        sort: Optional[Union[IssueSort, Literal["createdAt", "-createdAt", "priority", "-priority"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Issue]]:
        """As ``client.issues.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_ISSUES, Issue, (), {"project_id": project_id, "status": status, "priority": priority, "assignee_id": assignee_id, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[IssueCreate, IssueCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]: ...

    @overload
    def create(
        self,
        *,
        project_id: Union[UUID, str],
        title: str,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        priority: Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        assignee_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]: ...

    def create(
        self,
        body: Union[IssueCreate, IssueCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Issue]:
        """As ``client.issues.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_ISSUE, (), body, kwargs)

    def retrieve(
        self,
        issue_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]:
        """As ``client.issues.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_ISSUE, (issue_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        issue_id: Union[UUID, str],
        body: Union[IssueUpdate, IssueUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]: ...

    @overload
    def update(
        self,
        issue_id: Union[UUID, str],
        /,
        *,
        title: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        priority: Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        assignee_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]: ...

    def update(
        self,
        issue_id: Union[UUID, str],
        body: Union[IssueUpdate, IssueUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Issue]:
        """As ``client.issues.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_ISSUE, (issue_id,), body, kwargs)


class IssuesResource(SyncAPIResource):
    """``client.issues``: ``list``, ``create``, ``retrieve``, ``update``.

    Problems that have occurred on a project, with priority, assignee and resolution tracking.
    """

    @cached_property
    def with_raw_response(self) -> IssuesResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return IssuesResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], Sequence[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]]]] = None,
        priority: Optional[Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], Sequence[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]] = None,
        assignee_id: Optional[Union[UUID, str]] = None,
        sort: Optional[Union[IssueSort, Literal["createdAt", "-createdAt", "priority", "-priority"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Issue]:
        """List issues

        Returns the tenant's issues, ordered by `sort`: `createdAt` ascending by default; `-priority` lists CRITICAL
        first, then HIGH, MEDIUM and LOW (priority order, not alphabetical), `priority` the reverse. Ties are broken by
        `id` in the same direction. Each filter given restricts the list to issues with that value.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /issues`` (operationId ``listIssues``, scope ``read``).

        :param project_id: Only issues of this project.
        :param status: Only issues whose status is one of these statuses. Repeat the parameter for more than one value
            (`status=OPEN&status=IN_PROGRESS`); a comma-separated value is not split and is refused. Values of one
            filter combine with OR, filters with AND.
        :param priority: Only issues whose priority is one of these priorities. Repeat the parameter for more than one
            value (`priority=HIGH&priority=CRITICAL`); a comma-separated value is not split and is refused. Values of
            one filter combine with OR, filters with AND.
        :param assignee_id: Only issues assigned to this resource.
        :param sort: Order of the list: `createdAt` or `priority` (LOW < MEDIUM < HIGH < CRITICAL), with a leading `-`
            for descending. Default `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Issue`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_ISSUES, Issue, (), {"project_id": project_id, "status": status, "priority": priority, "assignee_id": assignee_id, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[IssueCreate, IssueCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue: ...

    @overload
    def create(
        self,
        *,
        project_id: Union[UUID, str],
        title: str,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        priority: Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        assignee_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue: ...

    def create(
        self,
        body: Union[IssueCreate, IssueCreateParam, None] = None,
        **kwargs: Any,
    ) -> Issue:
        """Create an issue

        Creates an issue on a project. `projectId` and `title` are required; `status` defaults to `OPEN` and
        `priority` to `MEDIUM`.

        Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `assigneeId` no resource.

        Requires scope `write`.

        ``POST /issues`` (operationId ``createIssue``, scope ``write``).

        :param body: the request body as a ``meridian.models.IssueCreate`` or a dict of its fields
            (``IssueCreateParam``), or its fields as the keyword arguments below.
        :param project_id: A project of your tenant (else 422).
        :param title: Short statement of the issue.
        :param description: Free-text description.
        :param status: OPEN, IN_PROGRESS, RESOLVED (sets `resolvedAt`), CLOSED. Any move between them is allowed.
        :param priority: Priority of an issue.
        :param assignee_id: A resource of your tenant working on it.
        :param due_date: Date by which it should be resolved.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_ISSUE, (), body, kwargs).data

    def retrieve(
        self,
        issue_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue:
        """Get an issue

        Returns one issue.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /issues/{id}`` (operationId ``getIssue``, scope ``read``).

        :param issue_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_ISSUE, (issue_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    @overload
    def update(
        self,
        issue_id: Union[UUID, str],
        body: Union[IssueUpdate, IssueUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue: ...

    @overload
    def update(
        self,
        issue_id: Union[UUID, str],
        /,
        *,
        title: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        priority: Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        assignee_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue: ...

    def update(
        self,
        issue_id: Union[UUID, str],
        body: Union[IssueUpdate, IssueUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Issue:
        """Update an issue

        Changes only the fields present in the body. Moving `status` to `RESOLVED` or `CLOSED` records `resolvedAt`
        (if not already set); moving it back to `OPEN` or `IN_PROGRESS` clears it. The project of an issue cannot be
        changed.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when `assigneeId` names no resource of your tenant.

        Requires scope `write`.

        ``PATCH /issues/{id}`` (operationId ``updateIssue``, scope ``write``).

        :param issue_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.IssueUpdate`` or a dict of its fields
            (``IssueUpdateParam``), or its fields as the keyword arguments below.
        :param title: Short statement of the issue.
        :param description: Free-text description; null clears it.
        :param status: OPEN, IN_PROGRESS, RESOLVED (sets `resolvedAt`), CLOSED. Any move between them is allowed.
        :param priority: Priority of an issue.
        :param assignee_id: A resource of your tenant working on it; null unassigns.
        :param due_date: Date by which it should be resolved; null clears it.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_ISSUE, (issue_id,), body, kwargs).data


class AsyncIssuesResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().issues.with_raw_response``: ``list``, ``create``, ``retrieve``, ``update``."""

    async def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], Sequence[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]]]] = None,
        priority: Optional[Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], Sequence[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]] = None,
        assignee_id: Optional[Union[UUID, str]] = None,
        sort: Optional[Union[IssueSort, Literal["createdAt", "-createdAt", "priority", "-priority"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Issue]]:
        """As ``AsyncMeridian().issues.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_ISSUES, Issue, (), {"project_id": project_id, "status": status, "priority": priority, "assignee_id": assignee_id, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[IssueCreate, IssueCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]: ...

    @overload
    async def create(
        self,
        *,
        project_id: Union[UUID, str],
        title: str,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        priority: Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        assignee_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]: ...

    async def create(
        self,
        body: Union[IssueCreate, IssueCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Issue]:
        """As ``AsyncMeridian().issues.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_ISSUE, (), body, kwargs)

    async def retrieve(
        self,
        issue_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]:
        """As ``AsyncMeridian().issues.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_ISSUE, (issue_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        issue_id: Union[UUID, str],
        body: Union[IssueUpdate, IssueUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]: ...

    @overload
    async def update(
        self,
        issue_id: Union[UUID, str],
        /,
        *,
        title: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        priority: Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        assignee_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]: ...

    async def update(
        self,
        issue_id: Union[UUID, str],
        body: Union[IssueUpdate, IssueUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Issue]:
        """As ``AsyncMeridian().issues.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_ISSUE, (issue_id,), body, kwargs)


class AsyncIssuesResource(AsyncAPIResource):
    """``AsyncMeridian().issues``: ``list``, ``create``, ``retrieve``, ``update``.

    Problems that have occurred on a project, with priority, assignee and resolution tracking.
    """

    @cached_property
    def with_raw_response(self) -> AsyncIssuesResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncIssuesResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], Sequence[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]]]] = None,
        priority: Optional[Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], Sequence[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]]]] = None,
        assignee_id: Optional[Union[UUID, str]] = None,
        sort: Optional[Union[IssueSort, Literal["createdAt", "-createdAt", "priority", "-priority"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Issue]:
        """List issues

        Returns the tenant's issues, ordered by `sort`: `createdAt` ascending by default; `-priority` lists CRITICAL
        first, then HIGH, MEDIUM and LOW (priority order, not alphabetical), `priority` the reverse. Ties are broken by
        `id` in the same direction. Each filter given restricts the list to issues with that value.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /issues`` (operationId ``listIssues``, scope ``read``).

        :param project_id: Only issues of this project.
        :param status: Only issues whose status is one of these statuses. Repeat the parameter for more than one value
            (`status=OPEN&status=IN_PROGRESS`); a comma-separated value is not split and is refused. Values of one
            filter combine with OR, filters with AND.
        :param priority: Only issues whose priority is one of these priorities. Repeat the parameter for more than one
            value (`priority=HIGH&priority=CRITICAL`); a comma-separated value is not split and is refused. Values of
            one filter combine with OR, filters with AND.
        :param assignee_id: Only issues assigned to this resource.
        :param sort: Order of the list: `createdAt` or `priority` (LOW < MEDIUM < HIGH < CRITICAL), with a leading `-`
            for descending. Default `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Issue`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_ISSUES, Issue, (), {"project_id": project_id, "status": status, "priority": priority, "assignee_id": assignee_id, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[IssueCreate, IssueCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue: ...

    @overload
    async def create(
        self,
        *,
        project_id: Union[UUID, str],
        title: str,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        priority: Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        assignee_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue: ...

    async def create(
        self,
        body: Union[IssueCreate, IssueCreateParam, None] = None,
        **kwargs: Any,
    ) -> Issue:
        """Create an issue

        Creates an issue on a project. `projectId` and `title` are required; `status` defaults to `OPEN` and
        `priority` to `MEDIUM`.

        Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `assigneeId` no resource.

        Requires scope `write`.

        ``POST /issues`` (operationId ``createIssue``, scope ``write``).

        :param body: the request body as a ``meridian.models.IssueCreate`` or a dict of its fields
            (``IssueCreateParam``), or its fields as the keyword arguments below.
        :param project_id: A project of your tenant (else 422).
        :param title: Short statement of the issue.
        :param description: Free-text description.
        :param status: OPEN, IN_PROGRESS, RESOLVED (sets `resolvedAt`), CLOSED. Any move between them is allowed.
        :param priority: Priority of an issue.
        :param assignee_id: A resource of your tenant working on it.
        :param due_date: Date by which it should be resolved.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_ISSUE, (), body, kwargs)).data

    async def retrieve(
        self,
        issue_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue:
        """Get an issue

        Returns one issue.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /issues/{id}`` (operationId ``getIssue``, scope ``read``).

        :param issue_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_ISSUE, (issue_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    @overload
    async def update(
        self,
        issue_id: Union[UUID, str],
        body: Union[IssueUpdate, IssueUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue: ...

    @overload
    async def update(
        self,
        issue_id: Union[UUID, str],
        /,
        *,
        title: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        status: Union[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]], NotGiven] = NOT_GIVEN,
        priority: Union[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]], NotGiven] = NOT_GIVEN,
        assignee_id: Union[Optional[Union[UUID, str]], NotGiven] = NOT_GIVEN,
        due_date: Union[Optional[Union[date, str]], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue: ...

    async def update(
        self,
        issue_id: Union[UUID, str],
        body: Union[IssueUpdate, IssueUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Issue:
        """Update an issue

        Changes only the fields present in the body. Moving `status` to `RESOLVED` or `CLOSED` records `resolvedAt`
        (if not already set); moving it back to `OPEN` or `IN_PROGRESS` clears it. The project of an issue cannot be
        changed.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when `assigneeId` names no resource of your tenant.

        Requires scope `write`.

        ``PATCH /issues/{id}`` (operationId ``updateIssue``, scope ``write``).

        :param issue_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.IssueUpdate`` or a dict of its fields
            (``IssueUpdateParam``), or its fields as the keyword arguments below.
        :param title: Short statement of the issue.
        :param description: Free-text description; null clears it.
        :param status: OPEN, IN_PROGRESS, RESOLVED (sets `resolvedAt`), CLOSED. Any move between them is allowed.
        :param priority: Priority of an issue.
        :param assignee_id: A resource of your tenant working on it; null unassigns.
        :param due_date: Date by which it should be resolved; null clears it.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_ISSUE, (issue_id,), body, kwargs)).data


class ResourcesAvailabilityResourceWithRawResponse(SyncAPIResource):
    """``client.resources.availability.with_raw_response``: ``retrieve``."""

    def retrieve(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        from_: Union[date, str],
        to: Union[date, str],
        granularity: Optional[Union[AvailabilityGranularity, Literal["week", "day"]]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ResourceAvailability]:
        """As ``client.resources.availability.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_RESOURCE_AVAILABILITY, (resource_id,), None, {"from_": from_, "to": to, "granularity": granularity, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class ResourcesAvailabilityResource(SyncAPIResource):
    """``client.resources.availability``: ``retrieve``.

    People who can be allocated to projects, with their weekly capacity, cost rate and availability.
    """

    @cached_property
    def with_raw_response(self) -> ResourcesAvailabilityResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return ResourcesAvailabilityResourceWithRawResponse(self._client)

    def retrieve(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        from_: Union[date, str],
        to: Union[date, str],
        granularity: Optional[Union[AvailabilityGranularity, Literal["week", "day"]]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ResourceAvailability:
        """Get a resource's availability

        Returns the resource's capacity, allocated and available hours between `from` and `to` (inclusive, at most
        366 days), per ISO week (Monday to Sunday; the first and last periods are clipped to the range) or per day.

        The weekly capacity `capacityHoursPerWeek` is spread evenly over Monday to Friday (a working day has
        capacity / 5 hours; weekends have none). Allocated hours on a working day are the sum over the resource's
        allocations covering that day of `allocationPercent` / 100 × the day's capacity. `availableHours` is capacity
        minus allocated and is negative when the resource is over-allocated. `utilisationPercent` is allocated /
        capacity × 100 (0 when capacity is 0). Hours and percentages are rounded to 2 decimals in the response only;
        `totals` are computed over the whole range, not summed from rounded periods. Inactive resources are reported
        like active ones.

        Errors: 400 `validation_failed` when `from` or `to` is missing or malformed; 422 `validation_failed` when
        `to` is before `from` or the range exceeds 366 days; 404 `not_found`.

        Requires scope `read`.

        ``GET /resources/{id}/availability`` (operationId ``getResourceAvailability``, scope ``read``).

        :param resource_id: The record's id (UUID).
        :param from_: First day of the range (inclusive).
        :param to: Last day of the range (inclusive); the range from `from` to `to` holds at most 366 days.
        :param granularity: Size of the periods returned; `week` when omitted.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ResourceAvailability``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_RESOURCE_AVAILABILITY, (resource_id,), None, {"from_": from_, "to": to, "granularity": granularity, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data


class AsyncResourcesAvailabilityResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().resources.availability.with_raw_response``: ``retrieve``."""

    async def retrieve(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        from_: Union[date, str],
        to: Union[date, str],
        granularity: Optional[Union[AvailabilityGranularity, Literal["week", "day"]]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ResourceAvailability]:
        """As ``AsyncMeridian().resources.availability.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_RESOURCE_AVAILABILITY, (resource_id,), None, {"from_": from_, "to": to, "granularity": granularity, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncResourcesAvailabilityResource(AsyncAPIResource):
    """``AsyncMeridian().resources.availability``: ``retrieve``.

    People who can be allocated to projects, with their weekly capacity, cost rate and availability.
    """

    @cached_property
    def with_raw_response(self) -> AsyncResourcesAvailabilityResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncResourcesAvailabilityResourceWithRawResponse(self._client)

    async def retrieve(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        from_: Union[date, str],
        to: Union[date, str],
        granularity: Optional[Union[AvailabilityGranularity, Literal["week", "day"]]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ResourceAvailability:
        """Get a resource's availability

        Returns the resource's capacity, allocated and available hours between `from` and `to` (inclusive, at most
        366 days), per ISO week (Monday to Sunday; the first and last periods are clipped to the range) or per day.

        The weekly capacity `capacityHoursPerWeek` is spread evenly over Monday to Friday (a working day has
        capacity / 5 hours; weekends have none). Allocated hours on a working day are the sum over the resource's
        allocations covering that day of `allocationPercent` / 100 × the day's capacity. `availableHours` is capacity
        minus allocated and is negative when the resource is over-allocated. `utilisationPercent` is allocated /
        capacity × 100 (0 when capacity is 0). Hours and percentages are rounded to 2 decimals in the response only;
        `totals` are computed over the whole range, not summed from rounded periods. Inactive resources are reported
        like active ones.

        Errors: 400 `validation_failed` when `from` or `to` is missing or malformed; 422 `validation_failed` when
        `to` is before `from` or the range exceeds 366 days; 404 `not_found`.

        Requires scope `read`.

        ``GET /resources/{id}/availability`` (operationId ``getResourceAvailability``, scope ``read``).

        :param resource_id: The record's id (UUID).
        :param from_: First day of the range (inclusive).
        :param to: Last day of the range (inclusive); the range from `from` to `to` holds at most 366 days.
        :param granularity: Size of the periods returned; `week` when omitted.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ResourceAvailability``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_RESOURCE_AVAILABILITY, (resource_id,), None, {"from_": from_, "to": to, "granularity": granularity, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data


class ResourcesResourceWithRawResponse(SyncAPIResource):
    """``client.resources.with_raw_response``: ``list``, ``create``, ``retrieve``, ``update``, ``availability``."""

    @cached_property
    def availability(self) -> ResourcesAvailabilityResourceWithRawResponse:
        """``client.resources.availability``: ``retrieve``."""
        return ResourcesAvailabilityResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        role: Optional[str] = None,
        skill: Optional[str] = None,
        active: Optional[bool] = None,
        sort: Optional[Union[ResourceSort, Literal["createdAt", "-createdAt", "name", "-name"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Resource]]:
        """As ``client.resources.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_RESOURCES, Resource, (), {"role": role, "skill": skill, "active": active, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[ResourceCreate, ResourceCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]: ...

    @overload
    def create(
        self,
        *,
        name: str,
        email: Union[Optional[str], NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        skills: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        capacity_hours_per_week: Union[float, NotGiven] = NOT_GIVEN,
        cost_rate_per_hour: Union[Optional[float], NotGiven] = NOT_GIVEN,
        active: Union[bool, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]: ...

    def create(
        self,
        body: Union[ResourceCreate, ResourceCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Resource]:
        """As ``client.resources.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_RESOURCE, (), body, kwargs)

    def retrieve(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]:
        """As ``client.resources.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_RESOURCE, (resource_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        resource_id: Union[UUID, str],
        body: Union[ResourceUpdate, ResourceUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]: ...

    @overload
    def update(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        email: Union[Optional[str], NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        skills: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        capacity_hours_per_week: Union[float, NotGiven] = NOT_GIVEN,
        cost_rate_per_hour: Union[Optional[float], NotGiven] = NOT_GIVEN,
        active: Union[bool, NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]: ...

    def update(
        self,
        resource_id: Union[UUID, str],
        body: Union[ResourceUpdate, ResourceUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Resource]:
        """As ``client.resources.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_RESOURCE, (resource_id,), body, kwargs)


class ResourcesResource(SyncAPIResource):
    """``client.resources``: ``list``, ``create``, ``retrieve``, ``update``, ``availability``.

    People who can be allocated to projects, with their weekly capacity, cost rate and availability.
    """

    @cached_property
    def availability(self) -> ResourcesAvailabilityResource:
        """``client.resources.availability``: ``retrieve``."""
        return ResourcesAvailabilityResource(self._client)

    @cached_property
    def with_raw_response(self) -> ResourcesResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return ResourcesResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        role: Optional[str] = None,
        skill: Optional[str] = None,
        active: Optional[bool] = None,
        sort: Optional[Union[ResourceSort, Literal["createdAt", "-createdAt", "name", "-name"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Resource]:
        """List resources

        Returns the tenant's resources (people), ordered by `sort`: `createdAt` ascending by default, `name` for
        alphabetical order (ignoring case), `-name` for the reverse; ties are broken by `id` in the same direction.
        Each filter given restricts the list: `role` by exact match, `skill` to resources whose `skills` contain that exact value,
        `active` by flag.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /resources`` (operationId ``listResources``, scope ``read``).

        :param role: Only resources with exactly this role. URL-encode it; a `+` is read as a space (form encoding).
        :param skill: Only resources having exactly this skill (case-sensitive). URL-encode it; a `+` is read as a
            space (form encoding).
        :param active: Only active (`true`) or inactive (`false`) resources.
        :param sort: Order of the list: `createdAt` or `name`, with a leading `-` for descending. Default `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Resource`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_RESOURCES, Resource, (), {"role": role, "skill": skill, "active": active, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[ResourceCreate, ResourceCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource: ...

    @overload
    def create(
        self,
        *,
        name: str,
        email: Union[Optional[str], NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        skills: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        capacity_hours_per_week: Union[float, NotGiven] = NOT_GIVEN,
        cost_rate_per_hour: Union[Optional[float], NotGiven] = NOT_GIVEN,
        active: Union[bool, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource: ...

    def create(
        self,
        body: Union[ResourceCreate, ResourceCreateParam, None] = None,
        **kwargs: Any,
    ) -> Resource:
        """Create a resource

        Creates a resource (a person who can be allocated to projects). Only `name` is required;
        `capacityHoursPerWeek` defaults to 40, `skills` to an empty list and `active` to true.

        Requires scope `write`.

        ``POST /resources`` (operationId ``createResource``, scope ``write``).

        :param body: the request body as a ``meridian.models.ResourceCreate`` or a dict of its fields
            (``ResourceCreateParam``), or its fields as the keyword arguments below.
        :param name: Full name.
        :param email: Email address.
        :param role: Job role.
        :param skills: Skills.
        :param capacity_hours_per_week: Hours the person can work per week.
        :param cost_rate_per_hour: Cost of one hour of work in major units of the tenant's currency.
        :param active: Whether the person is active.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_RESOURCE, (), body, kwargs).data

    def retrieve(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource:
        """Get a resource

        Returns one resource.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /resources/{id}`` (operationId ``getResource``, scope ``read``).

        :param resource_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_RESOURCE, (resource_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    @overload
    def update(
        self,
        resource_id: Union[UUID, str],
        body: Union[ResourceUpdate, ResourceUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource: ...

    @overload
    def update(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        email: Union[Optional[str], NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        skills: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        capacity_hours_per_week: Union[float, NotGiven] = NOT_GIVEN,
        cost_rate_per_hour: Union[Optional[float], NotGiven] = NOT_GIVEN,
        active: Union[bool, NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource: ...

    def update(
        self,
        resource_id: Union[UUID, str],
        body: Union[ResourceUpdate, ResourceUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Resource:
        """Update a resource

        Changes only the fields present in the body; `null` clears a nullable field. Deactivating a resource
        (`active: false`) keeps its allocations.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``PATCH /resources/{id}`` (operationId ``updateResource``, scope ``write``).

        :param resource_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.ResourceUpdate`` or a dict of its fields
            (``ResourceUpdateParam``), or its fields as the keyword arguments below.
        :param name: Full name.
        :param email: Email address; null clears it.
        :param role: Job role; null clears it.
        :param skills: Replaces the whole list of skills.
        :param capacity_hours_per_week: Hours the person can work per week.
        :param cost_rate_per_hour: Cost of one hour of work; null clears it.
        :param active: Whether the person is active.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_RESOURCE, (resource_id,), body, kwargs).data


class AsyncResourcesResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().resources.with_raw_response``: ``list``, ``create``, ``retrieve``, ``update``,
    ``availability``.
    """

    @cached_property
    def availability(self) -> AsyncResourcesAvailabilityResourceWithRawResponse:
        """``AsyncMeridian().resources.availability``: ``retrieve``."""
        return AsyncResourcesAvailabilityResourceWithRawResponse(self._client)

    async def list(
        self,
        *,
        role: Optional[str] = None,
        skill: Optional[str] = None,
        active: Optional[bool] = None,
        sort: Optional[Union[ResourceSort, Literal["createdAt", "-createdAt", "name", "-name"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Resource]]:
        """As ``AsyncMeridian().resources.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_RESOURCES, Resource, (), {"role": role, "skill": skill, "active": active, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[ResourceCreate, ResourceCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]: ...

    @overload
    async def create(
        self,
        *,
        name: str,
        email: Union[Optional[str], NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        skills: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        capacity_hours_per_week: Union[float, NotGiven] = NOT_GIVEN,
        cost_rate_per_hour: Union[Optional[float], NotGiven] = NOT_GIVEN,
        active: Union[bool, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]: ...

    async def create(
        self,
        body: Union[ResourceCreate, ResourceCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Resource]:
        """As ``AsyncMeridian().resources.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_RESOURCE, (), body, kwargs)

    async def retrieve(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]:
        """As ``AsyncMeridian().resources.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_RESOURCE, (resource_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        resource_id: Union[UUID, str],
        body: Union[ResourceUpdate, ResourceUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]: ...

    @overload
    async def update(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        email: Union[Optional[str], NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        skills: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        capacity_hours_per_week: Union[float, NotGiven] = NOT_GIVEN,
        cost_rate_per_hour: Union[Optional[float], NotGiven] = NOT_GIVEN,
        active: Union[bool, NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]: ...

    async def update(
        self,
        resource_id: Union[UUID, str],
        body: Union[ResourceUpdate, ResourceUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Resource]:
        """As ``AsyncMeridian().resources.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_RESOURCE, (resource_id,), body, kwargs)


class AsyncResourcesResource(AsyncAPIResource):
    """``AsyncMeridian().resources``: ``list``, ``create``, ``retrieve``, ``update``, ``availability``.

    People who can be allocated to projects, with their weekly capacity, cost rate and availability.
    """

    @cached_property
    def availability(self) -> AsyncResourcesAvailabilityResource:
        """``AsyncMeridian().resources.availability``: ``retrieve``."""
        return AsyncResourcesAvailabilityResource(self._client)

    @cached_property
    def with_raw_response(self) -> AsyncResourcesResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncResourcesResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        role: Optional[str] = None,
        skill: Optional[str] = None,
        active: Optional[bool] = None,
        sort: Optional[Union[ResourceSort, Literal["createdAt", "-createdAt", "name", "-name"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Resource]:
        """List resources

        Returns the tenant's resources (people), ordered by `sort`: `createdAt` ascending by default, `name` for
        alphabetical order (ignoring case), `-name` for the reverse; ties are broken by `id` in the same direction.
        Each filter given restricts the list: `role` by exact match, `skill` to resources whose `skills` contain that exact value,
        `active` by flag.

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /resources`` (operationId ``listResources``, scope ``read``).

        :param role: Only resources with exactly this role. URL-encode it; a `+` is read as a space (form encoding).
        :param skill: Only resources having exactly this skill (case-sensitive). URL-encode it; a `+` is read as a
            space (form encoding).
        :param active: Only active (`true`) or inactive (`false`) resources.
        :param sort: Order of the list: `createdAt` or `name`, with a leading `-` for descending. Default `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Resource`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_RESOURCES, Resource, (), {"role": role, "skill": skill, "active": active, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[ResourceCreate, ResourceCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource: ...

    @overload
    async def create(
        self,
        *,
        name: str,
        email: Union[Optional[str], NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        skills: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        capacity_hours_per_week: Union[float, NotGiven] = NOT_GIVEN,
        cost_rate_per_hour: Union[Optional[float], NotGiven] = NOT_GIVEN,
        active: Union[bool, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource: ...

    async def create(
        self,
        body: Union[ResourceCreate, ResourceCreateParam, None] = None,
        **kwargs: Any,
    ) -> Resource:
        """Create a resource

        Creates a resource (a person who can be allocated to projects). Only `name` is required;
        `capacityHoursPerWeek` defaults to 40, `skills` to an empty list and `active` to true.

        Requires scope `write`.

        ``POST /resources`` (operationId ``createResource``, scope ``write``).

        :param body: the request body as a ``meridian.models.ResourceCreate`` or a dict of its fields
            (``ResourceCreateParam``), or its fields as the keyword arguments below.
        :param name: Full name.
        :param email: Email address.
        :param role: Job role.
        :param skills: Skills.
        :param capacity_hours_per_week: Hours the person can work per week.
        :param cost_rate_per_hour: Cost of one hour of work in major units of the tenant's currency.
        :param active: Whether the person is active.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_RESOURCE, (), body, kwargs)).data

    async def retrieve(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource:
        """Get a resource

        Returns one resource.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /resources/{id}`` (operationId ``getResource``, scope ``read``).

        :param resource_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_RESOURCE, (resource_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    @overload
    async def update(
        self,
        resource_id: Union[UUID, str],
        body: Union[ResourceUpdate, ResourceUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource: ...

    @overload
    async def update(
        self,
        resource_id: Union[UUID, str],
        /,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        email: Union[Optional[str], NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        skills: Union[Sequence[str], NotGiven] = NOT_GIVEN,
        capacity_hours_per_week: Union[float, NotGiven] = NOT_GIVEN,
        cost_rate_per_hour: Union[Optional[float], NotGiven] = NOT_GIVEN,
        active: Union[bool, NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource: ...

    async def update(
        self,
        resource_id: Union[UUID, str],
        body: Union[ResourceUpdate, ResourceUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Resource:
        """Update a resource

        Changes only the fields present in the body; `null` clears a nullable field. Deactivating a resource
        (`active: false`) keeps its allocations.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``PATCH /resources/{id}`` (operationId ``updateResource``, scope ``write``).

        :param resource_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.ResourceUpdate`` or a dict of its fields
            (``ResourceUpdateParam``), or its fields as the keyword arguments below.
        :param name: Full name.
        :param email: Email address; null clears it.
        :param role: Job role; null clears it.
        :param skills: Replaces the whole list of skills.
        :param capacity_hours_per_week: Hours the person can work per week.
        :param cost_rate_per_hour: Cost of one hour of work; null clears it.
        :param active: Whether the person is active.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_RESOURCE, (resource_id,), body, kwargs)).data


class AllocationsConflictsResourceWithRawResponse(SyncAPIResource):
    """``client.allocations.conflicts.with_raw_response``: ``list``."""

    def list(
        self,
        *,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        resource_id: Optional[Union[UUID, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[AllocationConflict]]:
        """As ``client.allocations.conflicts.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_ALLOCATION_CONFLICTS, AllocationConflict, (), {"from_": from_, "to": to, "resource_id": resource_id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AllocationsConflictsResource(SyncAPIResource):
    """``client.allocations.conflicts``: ``list``.

    Assignments of a resource to a project for a date range at a percentage of the resource's capacity, and the
    over-allocation conflicts they create.
    """

    @cached_property
    def with_raw_response(self) -> AllocationsConflictsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AllocationsConflictsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        resource_id: Optional[Union[UUID, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[AllocationConflict]:
        """List over-allocation conflicts

        Returns every maximal period in which one resource's overlapping allocations sum to more than 100 %, with
        the allocations involved. A new period starts whenever the set of overlapping allocations changes, so two
        adjacent conflicts of a resource always differ in their allocations (and may differ in `totalPercent`); a
        resource booked at exactly 100 % has no conflict. Dates are inclusive: an allocation ending on the 10th and
        one starting on the 11th never overlap.
        `from` and `to` restrict to periods overlapping that range (periods are clipped to it; a `to` before `from`
        matches nothing); `resourceId` to one resource. Ordered by `resourceId`, then `startDate`; within a conflict
        the allocations are ordered by their `startDate`, then id. The cost of this report grows with the number of
        allocations, not with the length of the periods.

        Requires scope `read`.

        ``GET /allocations/conflicts`` (operationId ``listAllocationConflicts``, scope ``read``).

        :param from_: Only conflicts on or after this date.
        :param to: Only conflicts on or before this date.
        :param resource_id: Only conflicts of this resource.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``AllocationConflict`` records; iterating it (``for``) fetches every following
            page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_ALLOCATION_CONFLICTS, AllocationConflict, (), {"from_": from_, "to": to, "resource_id": resource_id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncAllocationsConflictsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().allocations.conflicts.with_raw_response``: ``list``."""

    async def list(
        self,
        *,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        resource_id: Optional[Union[UUID, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[AllocationConflict]]:
        """As ``AsyncMeridian().allocations.conflicts.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_ALLOCATION_CONFLICTS, AllocationConflict, (), {"from_": from_, "to": to, "resource_id": resource_id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncAllocationsConflictsResource(AsyncAPIResource):
    """``AsyncMeridian().allocations.conflicts``: ``list``.

    Assignments of a resource to a project for a date range at a percentage of the resource's capacity, and the
    over-allocation conflicts they create.
    """

    @cached_property
    def with_raw_response(self) -> AsyncAllocationsConflictsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncAllocationsConflictsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        resource_id: Optional[Union[UUID, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[AllocationConflict]:
        """List over-allocation conflicts

        Returns every maximal period in which one resource's overlapping allocations sum to more than 100 %, with
        the allocations involved. A new period starts whenever the set of overlapping allocations changes, so two
        adjacent conflicts of a resource always differ in their allocations (and may differ in `totalPercent`); a
        resource booked at exactly 100 % has no conflict. Dates are inclusive: an allocation ending on the 10th and
        one starting on the 11th never overlap.
        `from` and `to` restrict to periods overlapping that range (periods are clipped to it; a `to` before `from`
        matches nothing); `resourceId` to one resource. Ordered by `resourceId`, then `startDate`; within a conflict
        the allocations are ordered by their `startDate`, then id. The cost of this report grows with the number of
        allocations, not with the length of the periods.

        Requires scope `read`.

        ``GET /allocations/conflicts`` (operationId ``listAllocationConflicts``, scope ``read``).

        :param from_: Only conflicts on or after this date.
        :param to: Only conflicts on or before this date.
        :param resource_id: Only conflicts of this resource.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``AllocationConflict`` records; iterating it (``async for``) fetches every
            following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_ALLOCATION_CONFLICTS, AllocationConflict, (), {"from_": from_, "to": to, "resource_id": resource_id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AllocationsResourceWithRawResponse(SyncAPIResource):
    """``client.allocations.with_raw_response``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``,
    ``conflicts``.
    """

    @cached_property
    def conflicts(self) -> AllocationsConflictsResourceWithRawResponse:
        """``client.allocations.conflicts``: ``list``."""
        return AllocationsConflictsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        resource_id: Optional[Union[UUID, str]] = None,
        project_id: Optional[Union[UUID, str]] = None,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        sort: Optional[Union[AllocationSort, Literal["createdAt", "-createdAt", "startDate", "-startDate"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Allocation]]:
        """As ``client.allocations.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_ALLOCATIONS, Allocation, (), {"resource_id": resource_id, "project_id": project_id, "from_": from_, "to": to, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[AllocationCreate, AllocationCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]: ...

    @overload
    def create(
        self,
        *,
        resource_id: Union[UUID, str],
        project_id: Union[UUID, str],
        start_date: Union[date, str],
        end_date: Union[date, str],
        allocation_percent: float,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]: ...

    def create(
        self,
        body: Union[AllocationCreate, AllocationCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Allocation]:
        """As ``client.allocations.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_ALLOCATION, (), body, kwargs)

    def retrieve(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]:
        """As ``client.allocations.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_ALLOCATION, (allocation_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def delete(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``client.allocations.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_DELETE_ALLOCATION, (allocation_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        allocation_id: Union[UUID, str],
        body: Union[AllocationUpdate, AllocationUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]: ...

    @overload
    def update(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        start_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        end_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        allocation_percent: Union[float, NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]: ...

    def update(
        self,
        allocation_id: Union[UUID, str],
        body: Union[AllocationUpdate, AllocationUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Allocation]:
        """As ``client.allocations.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_ALLOCATION, (allocation_id,), body, kwargs)


class AllocationsResource(SyncAPIResource):
    """``client.allocations``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``, ``conflicts``.

    Assignments of a resource to a project for a date range at a percentage of the resource's capacity, and the
    over-allocation conflicts they create.
    """

    @cached_property
    def conflicts(self) -> AllocationsConflictsResource:
        """``client.allocations.conflicts``: ``list``."""
        return AllocationsConflictsResource(self._client)

    @cached_property
    def with_raw_response(self) -> AllocationsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AllocationsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        resource_id: Optional[Union[UUID, str]] = None,
        project_id: Optional[Union[UUID, str]] = None,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        sort: Optional[Union[AllocationSort, Literal["createdAt", "-createdAt", "startDate", "-startDate"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Allocation]:
        """List allocations

        Returns the tenant's allocations, ordered by `sort`: `createdAt` ascending by default, `startDate` for the
        earliest start first, `-startDate` for the latest; ties are broken by `id` in the same direction.
        `resourceId` and `projectId`
        restrict by exact match; `from` and `to` restrict to allocations whose date range overlaps
        [`from`, `to`] (either bound may be given alone).

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /allocations`` (operationId ``listAllocations``, scope ``read``).

        :param resource_id: Only allocations of this resource.
        :param project_id: Only allocations to this project.
        :param from_: Only allocations ending on or after this date.
        :param to: Only allocations starting on or before this date.
        :param sort: Order of the list: `createdAt` or `startDate`, with a leading `-` for descending. Default
            `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Allocation`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_ALLOCATIONS, Allocation, (), {"resource_id": resource_id, "project_id": project_id, "from_": from_, "to": to, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[AllocationCreate, AllocationCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation: ...

    @overload
    def create(
        self,
        *,
        resource_id: Union[UUID, str],
        project_id: Union[UUID, str],
        start_date: Union[date, str],
        end_date: Union[date, str],
        allocation_percent: float,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation: ...

    def create(
        self,
        body: Union[AllocationCreate, AllocationCreateParam, None] = None,
        **kwargs: Any,
    ) -> Allocation:
        """Create an allocation

        Allocates a resource to a project from `startDate` to `endDate` (inclusive) at `allocationPercent` (1–100) of
        the resource's weekly capacity. Over-allocation is allowed (a resource may be booked above 100 % in total);
        it shows up in `GET /allocations/conflicts`.

        Errors: 422 `validation_failed` when `endDate` is before `startDate`, or `resourceId` / `projectId` names no
        record of your tenant.

        Requires scope `write`.

        ``POST /allocations`` (operationId ``createAllocation``, scope ``write``).

        :param body: the request body as a ``meridian.models.AllocationCreate`` or a dict of its fields
            (``AllocationCreateParam``), or its fields as the keyword arguments below.
        :param resource_id: A resource of your tenant (else 422).
        :param project_id: A project of your tenant (else 422).
        :param start_date: First day of the allocation.
        :param end_date: Last day; must be on or after `startDate` (else 422).
        :param allocation_percent: Share of the resource's weekly capacity, in percent.
        :param role: Role on the project.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_ALLOCATION, (), body, kwargs).data

    def retrieve(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation:
        """Get an allocation

        Returns one allocation.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /allocations/{id}`` (operationId ``getAllocation``, scope ``read``).

        :param allocation_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_ALLOCATION, (allocation_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    def delete(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Delete an allocation

        Deletes the allocation permanently.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``DELETE /allocations/{id}`` (operationId ``deleteAllocation``, scope ``write``).

        :param allocation_id: The record's id (UUID).
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        self._client.call(_DELETE_ALLOCATION, (allocation_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        allocation_id: Union[UUID, str],
        body: Union[AllocationUpdate, AllocationUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation: ...

    @overload
    def update(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        start_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        end_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        allocation_percent: Union[float, NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation: ...

    def update(
        self,
        allocation_id: Union[UUID, str],
        body: Union[AllocationUpdate, AllocationUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Allocation:
        """Update an allocation

        Changes only the fields present in the body. The resource and project of an allocation cannot be changed:
        delete it and create another.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when the resulting `endDate` is before `startDate`.

        Requires scope `write`.

        ``PATCH /allocations/{id}`` (operationId ``updateAllocation``, scope ``write``).

        :param allocation_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.AllocationUpdate`` or a dict of its fields
            (``AllocationUpdateParam``), or its fields as the keyword arguments below.
        :param start_date: First day of the allocation.
        :param end_date: Last day; the result must be on or after `startDate` (else 422).
        :param allocation_percent: Share of the resource's weekly capacity, in percent.
        :param role: Role on the project; null clears it.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_ALLOCATION, (allocation_id,), body, kwargs).data


class AsyncAllocationsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().allocations.with_raw_response``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``,
    ``conflicts``.
    """

    @cached_property
    def conflicts(self) -> AsyncAllocationsConflictsResourceWithRawResponse:
        """``AsyncMeridian().allocations.conflicts``: ``list``."""
        return AsyncAllocationsConflictsResourceWithRawResponse(self._client)

    async def list(
        self,
        *,
        resource_id: Optional[Union[UUID, str]] = None,
        project_id: Optional[Union[UUID, str]] = None,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        sort: Optional[Union[AllocationSort, Literal["createdAt", "-createdAt", "startDate", "-startDate"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Allocation]]:
        """As ``AsyncMeridian().allocations.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_ALLOCATIONS, Allocation, (), {"resource_id": resource_id, "project_id": project_id, "from_": from_, "to": to, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[AllocationCreate, AllocationCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]: ...

    @overload
    async def create(
        self,
        *,
        resource_id: Union[UUID, str],
        project_id: Union[UUID, str],
        start_date: Union[date, str],
        end_date: Union[date, str],
        allocation_percent: float,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]: ...

    async def create(
        self,
        body: Union[AllocationCreate, AllocationCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Allocation]:
        """As ``AsyncMeridian().allocations.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_ALLOCATION, (), body, kwargs)

    async def retrieve(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]:
        """As ``AsyncMeridian().allocations.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_ALLOCATION, (allocation_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def delete(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``AsyncMeridian().allocations.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_DELETE_ALLOCATION, (allocation_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        allocation_id: Union[UUID, str],
        body: Union[AllocationUpdate, AllocationUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]: ...

    @overload
    async def update(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        start_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        end_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        allocation_percent: Union[float, NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]: ...

    async def update(
        self,
        allocation_id: Union[UUID, str],
        body: Union[AllocationUpdate, AllocationUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Allocation]:
        """As ``AsyncMeridian().allocations.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_ALLOCATION, (allocation_id,), body, kwargs)


class AsyncAllocationsResource(AsyncAPIResource):
    """``AsyncMeridian().allocations``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``, ``conflicts``.

    Assignments of a resource to a project for a date range at a percentage of the resource's capacity, and the
    over-allocation conflicts they create.
    """

    @cached_property
    def conflicts(self) -> AsyncAllocationsConflictsResource:
        """``AsyncMeridian().allocations.conflicts``: ``list``."""
        return AsyncAllocationsConflictsResource(self._client)

    @cached_property
    def with_raw_response(self) -> AsyncAllocationsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncAllocationsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        resource_id: Optional[Union[UUID, str]] = None,
        project_id: Optional[Union[UUID, str]] = None,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        sort: Optional[Union[AllocationSort, Literal["createdAt", "-createdAt", "startDate", "-startDate"]]] = None,
        id: Optional[Union[Union[UUID, str], Sequence[Union[UUID, str]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Allocation]:
        """List allocations

        Returns the tenant's allocations, ordered by `sort`: `createdAt` ascending by default, `startDate` for the
        earliest start first, `-startDate` for the latest; ties are broken by `id` in the same direction.
        `resourceId` and `projectId`
        restrict by exact match; `from` and `to` restrict to allocations whose date range overlaps
        [`from`, `to`] (either bound may be given alone).

        `id` retrieves many records in one call: repeat it for up to 100 ids (`id=…&id=…`, the page maximum). Ids that
        are unknown or belong to another tenant are simply absent from the page (never a 404); `id` combines with the
        other filters by AND, and the page keeps the list's order.

        Requires scope `read`.

        ``GET /allocations`` (operationId ``listAllocations``, scope ``read``).

        :param resource_id: Only allocations of this resource.
        :param project_id: Only allocations to this project.
        :param from_: Only allocations ending on or after this date.
        :param to: Only allocations starting on or before this date.
        :param sort: Order of the list: `createdAt` or `startDate`, with a leading `-` for descending. Default
            `createdAt`.
        :param id: Only the records with these ids, up to 100 (the page maximum): repeat the parameter (`id=…&id=…`).
            Ids that are unknown or belong to another tenant are simply absent from the page; combined with the other
            filters by AND; the list's order is kept.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Allocation`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_ALLOCATIONS, Allocation, (), {"resource_id": resource_id, "project_id": project_id, "from_": from_, "to": to, "sort": sort, "id": id, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[AllocationCreate, AllocationCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation: ...

    @overload
    async def create(
        self,
        *,
        resource_id: Union[UUID, str],
        project_id: Union[UUID, str],
        start_date: Union[date, str],
        end_date: Union[date, str],
        allocation_percent: float,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation: ...

    async def create(
        self,
        body: Union[AllocationCreate, AllocationCreateParam, None] = None,
        **kwargs: Any,
    ) -> Allocation:
        """Create an allocation

        Allocates a resource to a project from `startDate` to `endDate` (inclusive) at `allocationPercent` (1–100) of
        the resource's weekly capacity. Over-allocation is allowed (a resource may be booked above 100 % in total);
        it shows up in `GET /allocations/conflicts`.

        Errors: 422 `validation_failed` when `endDate` is before `startDate`, or `resourceId` / `projectId` names no
        record of your tenant.

        Requires scope `write`.

        ``POST /allocations`` (operationId ``createAllocation``, scope ``write``).

        :param body: the request body as a ``meridian.models.AllocationCreate`` or a dict of its fields
            (``AllocationCreateParam``), or its fields as the keyword arguments below.
        :param resource_id: A resource of your tenant (else 422).
        :param project_id: A project of your tenant (else 422).
        :param start_date: First day of the allocation.
        :param end_date: Last day; must be on or after `startDate` (else 422).
        :param allocation_percent: Share of the resource's weekly capacity, in percent.
        :param role: Role on the project.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_ALLOCATION, (), body, kwargs)).data

    async def retrieve(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation:
        """Get an allocation

        Returns one allocation.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /allocations/{id}`` (operationId ``getAllocation``, scope ``read``).

        :param allocation_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_ALLOCATION, (allocation_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    async def delete(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Delete an allocation

        Deletes the allocation permanently.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``DELETE /allocations/{id}`` (operationId ``deleteAllocation``, scope ``write``).

        :param allocation_id: The record's id (UUID).
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        await self._client.call(_DELETE_ALLOCATION, (allocation_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        allocation_id: Union[UUID, str],
        body: Union[AllocationUpdate, AllocationUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation: ...

    @overload
    async def update(
        self,
        allocation_id: Union[UUID, str],
        /,
        *,
        start_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        end_date: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        allocation_percent: Union[float, NotGiven] = NOT_GIVEN,
        role: Union[Optional[str], NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation: ...

    async def update(
        self,
        allocation_id: Union[UUID, str],
        body: Union[AllocationUpdate, AllocationUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Allocation:
        """Update an allocation

        Changes only the fields present in the body. The resource and project of an allocation cannot be changed:
        delete it and create another.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when the resulting `endDate` is before `startDate`.

        Requires scope `write`.

        ``PATCH /allocations/{id}`` (operationId ``updateAllocation``, scope ``write``).

        :param allocation_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.AllocationUpdate`` or a dict of its fields
            (``AllocationUpdateParam``), or its fields as the keyword arguments below.
        :param start_date: First day of the allocation.
        :param end_date: Last day; the result must be on or after `startDate` (else 422).
        :param allocation_percent: Share of the resource's weekly capacity, in percent.
        :param role: Role on the project; null clears it.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_ALLOCATION, (allocation_id,), body, kwargs)).data


class AgentsExecutionsResourceWithRawResponse(SyncAPIResource):
    """``client.agents.executions.with_raw_response``: ``list``, ``retrieve``."""

    def list(
        self,
        *,
        agent_id: Optional[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]] = None,
        status: Optional[Union[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]], Sequence[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]]]]] = None,
        sort: Optional[Literal["createdAt", "-createdAt"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[AgentExecution]]:
        """As ``client.agents.executions.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_AGENT_EXECUTIONS, AgentExecution, (), {"agent_id": agent_id, "status": status, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def retrieve(
        self,
        execution_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]:
        """As ``client.agents.executions.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_AGENT_EXECUTION, (execution_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AgentsExecutionsResource(SyncAPIResource):
    """``client.agents.executions``: ``list``, ``retrieve``.

    AI agents that analyse the tenant's portfolio asynchronously (run, then poll the execution), and the Ask agent
    that answers questions with citations.
    """

    @cached_property
    def with_raw_response(self) -> AgentsExecutionsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AgentsExecutionsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        agent_id: Optional[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]] = None,
        status: Optional[Union[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]], Sequence[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]]]]] = None,
        sort: Optional[Literal["createdAt", "-createdAt"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[AgentExecution]:
        """List agent executions

        Returns the tenant's agent executions, ordered by `createdAt` then `id`: ascending by default,
        newest first with `sort=-createdAt`. Each filter given restricts the list to executions with that value.

        Requires scope `read`.

        ``GET /agents/executions`` (operationId ``listAgentExecutions``, scope ``read``).

        :param agent_id: Only executions of this agent.
        :param status: Only executions whose status is one of these statuses. Repeat the parameter for more than one
            value (`status=PENDING&status=RUNNING`); a comma-separated value is not split and is refused. Values of
            one filter combine with OR, filters with AND.
        :param sort: `createdAt` (oldest first, the default) or `-createdAt` (newest first); ties are broken by `id`
            in the same direction.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``AgentExecution`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_AGENT_EXECUTIONS, AgentExecution, (), {"agent_id": agent_id, "status": status, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def retrieve(
        self,
        execution_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentExecution:
        """Get an agent execution

        Polls an execution: its `status` (PENDING, RUNNING, COMPLETED or FAILED), `attempts`, `progress` while it
        runs, `output` once COMPLETED and `error` once FAILED. Poll every second or two (both SDKs' `waitForExecution`
        / `wait_for_execution` do); a `standard` run over 10,000 projects takes about a second.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /agents/executions/{executionId}`` (operationId ``getAgentExecution``, scope ``read``).

        :param execution_id: The execution's id, as returned by `POST /agents/run`.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentExecution``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_AGENT_EXECUTION, (execution_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data


class AsyncAgentsExecutionsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().agents.executions.with_raw_response``: ``list``, ``retrieve``."""

    async def list(
        self,
        *,
        agent_id: Optional[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]] = None,
        status: Optional[Union[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]], Sequence[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]]]]] = None,
        sort: Optional[Literal["createdAt", "-createdAt"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[AgentExecution]]:
        """As ``AsyncMeridian().agents.executions.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_AGENT_EXECUTIONS, AgentExecution, (), {"agent_id": agent_id, "status": status, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def retrieve(
        self,
        execution_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]:
        """As ``AsyncMeridian().agents.executions.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_AGENT_EXECUTION, (execution_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncAgentsExecutionsResource(AsyncAPIResource):
    """``AsyncMeridian().agents.executions``: ``list``, ``retrieve``.

    AI agents that analyse the tenant's portfolio asynchronously (run, then poll the execution), and the Ask agent
    that answers questions with citations.
    """

    @cached_property
    def with_raw_response(self) -> AsyncAgentsExecutionsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncAgentsExecutionsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        agent_id: Optional[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]] = None,
        status: Optional[Union[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]], Sequence[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]]]]] = None,
        sort: Optional[Literal["createdAt", "-createdAt"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[AgentExecution]:
        """List agent executions

        Returns the tenant's agent executions, ordered by `createdAt` then `id`: ascending by default,
        newest first with `sort=-createdAt`. Each filter given restricts the list to executions with that value.

        Requires scope `read`.

        ``GET /agents/executions`` (operationId ``listAgentExecutions``, scope ``read``).

        :param agent_id: Only executions of this agent.
        :param status: Only executions whose status is one of these statuses. Repeat the parameter for more than one
            value (`status=PENDING&status=RUNNING`); a comma-separated value is not split and is refused. Values of
            one filter combine with OR, filters with AND.
        :param sort: `createdAt` (oldest first, the default) or `-createdAt` (newest first); ties are broken by `id`
            in the same direction.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``AgentExecution`` records; iterating it (``async for``) fetches every following
            page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_AGENT_EXECUTIONS, AgentExecution, (), {"agent_id": agent_id, "status": status, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def retrieve(
        self,
        execution_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentExecution:
        """Get an agent execution

        Polls an execution: its `status` (PENDING, RUNNING, COMPLETED or FAILED), `attempts`, `progress` while it
        runs, `output` once COMPLETED and `error` once FAILED. Poll every second or two (both SDKs' `waitForExecution`
        / `wait_for_execution` do); a `standard` run over 10,000 projects takes about a second.

        Errors: 404 `not_found`.

        Requires scope `read`.

        ``GET /agents/executions/{executionId}`` (operationId ``getAgentExecution``, scope ``read``).

        :param execution_id: The execution's id, as returned by `POST /agents/run`.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentExecution``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_AGENT_EXECUTION, (execution_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data


class AgentsResourceWithRawResponse(SyncAPIResource):
    """``client.agents.with_raw_response``: ``list``, ``run``, ``ask``, ``executions``."""

    @cached_property
    def executions(self) -> AgentsExecutionsResourceWithRawResponse:
        """``client.agents.executions``: ``list``, ``retrieve``."""
        return AgentsExecutionsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Agent]]:
        """As ``client.agents.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_AGENTS, Agent, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def run(
        self,
        body: Union[AgentRunRequest, AgentRunRequestParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]: ...

    @overload
    def run(
        self,
        *,
        agent_id: Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]],
        scope: Union[str, NotGiven] = NOT_GIVEN,
        depth: Union[Union[AgentDepth, Literal["quick", "standard", "deep"]], NotGiven] = NOT_GIVEN,
        as_of: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]: ...

    def run(
        self,
        body: Union[AgentRunRequest, AgentRunRequestParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[AgentExecution]:
        """As ``client.agents.run``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_RUN_AGENT, (), body, kwargs)

    @overload
    def ask(
        self,
        body: Union[AskRequest, AskRequestParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AskAnswer]: ...

    @overload
    def ask(
        self,
        *,
        question: str,
        project_id: Union[Union[UUID, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AskAnswer]: ...

    def ask(
        self,
        body: Union[AskRequest, AskRequestParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[AskAnswer]:
        """As ``client.agents.ask``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_ASK_AGENT, (), body, kwargs)


class AgentsResource(SyncAPIResource):
    """``client.agents``: ``list``, ``run``, ``ask``, ``executions``.

    AI agents that analyse the tenant's portfolio asynchronously (run, then poll the execution), and the Ask agent
    that answers questions with citations.
    """

    @cached_property
    def executions(self) -> AgentsExecutionsResource:
        """``client.agents.executions``: ``list``, ``retrieve``."""
        return AgentsExecutionsResource(self._client)

    @cached_property
    def with_raw_response(self) -> AgentsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AgentsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Agent]:
        """List agents

        Returns the catalogue of agents that `POST /agents/run` accepts: for each, what it analyses, the records it
        reads, the depths it supports and the metrics it computes (with how each is computed). The catalogue is the
        same for every tenant, in a fixed order.

        Every agent analyses the tenant's own data deterministically (the same records and the same parameters give
        the same `output`) and recommends; none changes a record, except that `schedule-health` marks an overdue
        milestone MISSED exactly as the periodic missed-milestone sweep does (so `milestone.missed` fires once per
        milestone, whichever marks it first).

        Requires scope `read`.

        ``GET /agents`` (operationId ``listAgents``, scope ``read``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Agent`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_AGENTS, Agent, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def run(
        self,
        body: Union[AgentRunRequest, AgentRunRequestParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentExecution: ...

    @overload
    def run(
        self,
        *,
        agent_id: Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]],
        scope: Union[str, NotGiven] = NOT_GIVEN,
        depth: Union[Union[AgentDepth, Literal["quick", "standard", "deep"]], NotGiven] = NOT_GIVEN,
        as_of: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentExecution: ...

    def run(
        self,
        body: Union[AgentRunRequest, AgentRunRequestParam, None] = None,
        **kwargs: Any,
    ) -> AgentExecution:
        """Run an agent

        Starts an agent run and returns at once with **202** and the new execution (status `PENDING`); poll it at
        `GET /agents/executions/{executionId}` (also given in `Location`). The execution is stored and run by a
        worker: PENDING → RUNNING (with `progress`) → COMPLETED (with `output`) or FAILED (with `error`). A run whose
        worker stops (a crash, a deploy) is retried once its lease expires, up to 3 attempts in all (`attempts`
        counts them); after the last it is FAILED, never left RUNNING. Either end emits `agent.execution_completed`.

        - `scope`: `all` (the whole portfolio, default) or `project:<uuid>` (one project of your tenant).
        - `depth`: `quick` (metrics only, no findings), `standard` (default: metrics and findings with citations) or
          `deep` (also per-project findings and trends from the status-report history).
        - `asOf`: the date the analysis judges against (overdue = due before it; status reports dated after it are
          ignored). Default: today in your tenant's time zone. It cannot be after that today. The run reads records
          as they are when it runs, so the same records and the same `agentId`, `scope`, `depth` and `asOf` give the
          same `output`: give `asOf` to make a run reproducible.

        Errors: 400 `validation_failed` for an unknown `agentId` or `depth`, a malformed `scope` or `asOf`; 422
        `validation_failed` when `scope` names no project of your tenant or `asOf` is after your tenant's today.

        Requires scope `write`.

        ``POST /agents/run`` (operationId ``runAgent``, scope ``write``).

        :param body: the request body as a ``meridian.models.AgentRunRequest`` or a dict of its fields
            (``AgentRunRequestParam``), or its fields as the keyword arguments below.
        :param agent_id: Identifier of an agent (`GET /agents` describes each): `portfolio-health` (a health score and
            RAG per project), `schedule-health` (slip, slip velocity, overdue milestones), `budget-health` (variance
            at completion, overrun, cost performance index proxy), `risk-assessment` (exposure, heat map, unmitigated
            and overdue risks), `resource-capacity` (over-allocation, utilisation) and `status-report` (a written
            status report, every sentence cited).
        :param scope: `all` for the whole portfolio, or `project:<uuid>` for one project of your tenant.
        :param depth: How thorough a run is: `quick` (metrics only, no findings), `standard` (metrics and findings
            with citations) or `deep` (also per-project findings and trends from the status-report history).
        :param as_of: The date the analysis judges against (overdue means due before it; status reports dated after it
            are left out). Default: today in the tenant's time zone; it cannot be later than that.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentExecution``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_RUN_AGENT, (), body, kwargs).data

    @overload
    def ask(
        self,
        body: Union[AskRequest, AskRequestParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AskAnswer: ...

    @overload
    def ask(
        self,
        *,
        question: str,
        project_id: Union[Union[UUID, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AskAnswer: ...

    def ask(
        self,
        body: Union[AskRequest, AskRequestParam, None] = None,
        **kwargs: Any,
    ) -> AskAnswer:
        """Ask a question about the portfolio

        Answers a natural-language question from your tenant's own records, synchronously, and cites the records
        every statement rests on. Asking changes nothing.

        **How the answer is made.** The embedded engine (the default; `engine: embedded`) reads the question with
        intent rules for the questions portfolio managers ask most, and answers everything else by full-text search
        over projects (name, code, description, category, borough, agencies, tags), risks (title, description,
        mitigation), issues, milestones, people (name, role, skills) and status-report summaries:

        | Question | What is cited |
        |---|---|
        | Which projects are at risk / off track / on hold / … (any project `status`) | the projects with that status |
        | Which projects are over budget? | projects whose `forecastCost` is above `budget`, largest overrun first |
        | Which projects are late / behind schedule? | projects whose `forecastEndDate` is after `endDate`, longest slip first |
        | The largest overruns (by amount or percentage) and the largest slips, top 5 unless a number is given | those projects |
        | How is the portfolio doing? | every project, grouped by status |
        | The largest budgets or forecast costs | those projects |
        | A project's status, budget, dates, manager, team, risks, issues, milestones or history (name the project, give its `code`, or pass `projectId`) | the project and the records asked for (its status reports for the history) |
        | Open high risks (open = `OPEN` or `MITIGATING`; high = `HIGH` or `CRITICAL`; unmitigated = `OPEN`) | those risks |
        | Open issues by priority; missed milestones (`MISSED`, or `PENDING` after the due date); upcoming milestones | those records |
        | Over-allocated people (allocations above 100 % on a day from today on, as `GET /allocations/conflicts`), everyone or the people named | the people and the allocations involved |
        | What a person named in full works on (allocations, projects managed, open risks owned, open issues assigned) | the person and those records |
        | How many … / the total budget, forecast cost or actual cost of … | every record counted or summed |

        Filters combine: a project status, "over budget", "late", and any `borough`, `category`, agency or `tags`
        value of your projects named in the question ("How many DEP projects in Queens are late?"). An agency named
        alone is the managing or the client agency; "managed by DEP" means the managing agency, "DEP as client" the
        client agency. A value nobody recorded (a `null` budget, forecast or actual cost) is never counted as 0: a sum says
        how many projects had no value.

        **With a language model.** When the deployment is configured with a model (`MERIDIAN_LLM_BASE_URL`,
        `MERIDIAN_LLM_MODEL`: OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp's server…) and your tenant has not switched
        it off (`PATCH /tenant` `settings.llmEnabled: false`), the model writes the answer (`engine: model`, `model`
        its name) over exactly the records above, sent as delimited data with their ids with the figures computed
        from them; record text is data, never instructions. It answers in sentences, each with the ids it rests on,
        and the server checks every one: each id must be a record it sent, and each number and date must appear in
        those records or figures (formats normalised: 1,234,567 / 1.2M / $1.2 million / 12 % / 2019-09-01 /
        September 1, 2019). A failing sentence is dropped (`sentencesDropped`); when fewer than half survive, or
        when the model times out, is rate limited, fails or replies out of shape, the embedded engine answers
        (`fallbackReason` says why). With nothing relevant found, the model is not asked.

        **Citations.** Every figure and date in `answer` is a field of a cited record, a figure of one cited record
        that its `excerpt` states (overrun = `forecastCost − budget`, slip = days from `endDate` to
        `forecastEndDate`), a count of cited records, or a sum over them. Each `[n]` refers to the citation with
        `index` n; a range `[a]–[b]` cites every index from a to b (long lists name the first ten records and cite
        the rest as a range). Each citation's `url` is the record's address in this API. When nothing relevant is
        found the answer says so and `citations` is empty. Only your tenant's records are ever read.

        Give `projectId` to restrict the answer to one project (its own fields and its records). The same question
        over the same records on the same day gets the same answer.

        Errors: 404 `not_found` when `projectId` names no project of your tenant; 400 `validation_failed` for an
        empty question or one over 2,000 characters.

        Requires scope `read` (asking changes nothing).

        ``POST /agents/ask`` (operationId ``askAgent``, scope ``read``).

        :param body: the request body as a ``meridian.models.AskRequest`` or a dict of its fields
            (``AskRequestParam``), or its fields as the keyword arguments below.
        :param question: The question, in natural language.
        :param project_id: Restrict the answer to this project of your tenant: its own fields and its risks, issues,
            milestones and allocations (404 `not_found` when it names no project of your tenant).
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AskAnswer``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_ASK_AGENT, (), body, kwargs).data


class AsyncAgentsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().agents.with_raw_response``: ``list``, ``run``, ``ask``, ``executions``."""

    @cached_property
    def executions(self) -> AsyncAgentsExecutionsResourceWithRawResponse:
        """``AsyncMeridian().agents.executions``: ``list``, ``retrieve``."""
        return AsyncAgentsExecutionsResourceWithRawResponse(self._client)

    async def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Agent]]:
        """As ``AsyncMeridian().agents.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_AGENTS, Agent, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def run(
        self,
        body: Union[AgentRunRequest, AgentRunRequestParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]: ...

    @overload
    async def run(
        self,
        *,
        agent_id: Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]],
        scope: Union[str, NotGiven] = NOT_GIVEN,
        depth: Union[Union[AgentDepth, Literal["quick", "standard", "deep"]], NotGiven] = NOT_GIVEN,
        as_of: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]: ...

    async def run(
        self,
        body: Union[AgentRunRequest, AgentRunRequestParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[AgentExecution]:
        """As ``AsyncMeridian().agents.run``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_RUN_AGENT, (), body, kwargs)

    @overload
    async def ask(
        self,
        body: Union[AskRequest, AskRequestParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AskAnswer]: ...

    @overload
    async def ask(
        self,
        *,
        question: str,
        project_id: Union[Union[UUID, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AskAnswer]: ...

    async def ask(
        self,
        body: Union[AskRequest, AskRequestParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[AskAnswer]:
        """As ``AsyncMeridian().agents.ask``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_ASK_AGENT, (), body, kwargs)


class AsyncAgentsResource(AsyncAPIResource):
    """``AsyncMeridian().agents``: ``list``, ``run``, ``ask``, ``executions``.

    AI agents that analyse the tenant's portfolio asynchronously (run, then poll the execution), and the Ask agent
    that answers questions with citations.
    """

    @cached_property
    def executions(self) -> AsyncAgentsExecutionsResource:
        """``AsyncMeridian().agents.executions``: ``list``, ``retrieve``."""
        return AsyncAgentsExecutionsResource(self._client)

    @cached_property
    def with_raw_response(self) -> AsyncAgentsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncAgentsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Agent]:
        """List agents

        Returns the catalogue of agents that `POST /agents/run` accepts: for each, what it analyses, the records it
        reads, the depths it supports and the metrics it computes (with how each is computed). The catalogue is the
        same for every tenant, in a fixed order.

        Every agent analyses the tenant's own data deterministically (the same records and the same parameters give
        the same `output`) and recommends; none changes a record, except that `schedule-health` marks an overdue
        milestone MISSED exactly as the periodic missed-milestone sweep does (so `milestone.missed` fires once per
        milestone, whichever marks it first).

        Requires scope `read`.

        ``GET /agents`` (operationId ``listAgents``, scope ``read``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Agent`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_AGENTS, Agent, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def run(
        self,
        body: Union[AgentRunRequest, AgentRunRequestParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentExecution: ...

    @overload
    async def run(
        self,
        *,
        agent_id: Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]],
        scope: Union[str, NotGiven] = NOT_GIVEN,
        depth: Union[Union[AgentDepth, Literal["quick", "standard", "deep"]], NotGiven] = NOT_GIVEN,
        as_of: Union[Union[date, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentExecution: ...

    async def run(
        self,
        body: Union[AgentRunRequest, AgentRunRequestParam, None] = None,
        **kwargs: Any,
    ) -> AgentExecution:
        """Run an agent

        Starts an agent run and returns at once with **202** and the new execution (status `PENDING`); poll it at
        `GET /agents/executions/{executionId}` (also given in `Location`). The execution is stored and run by a
        worker: PENDING → RUNNING (with `progress`) → COMPLETED (with `output`) or FAILED (with `error`). A run whose
        worker stops (a crash, a deploy) is retried once its lease expires, up to 3 attempts in all (`attempts`
        counts them); after the last it is FAILED, never left RUNNING. Either end emits `agent.execution_completed`.

        - `scope`: `all` (the whole portfolio, default) or `project:<uuid>` (one project of your tenant).
        - `depth`: `quick` (metrics only, no findings), `standard` (default: metrics and findings with citations) or
          `deep` (also per-project findings and trends from the status-report history).
        - `asOf`: the date the analysis judges against (overdue = due before it; status reports dated after it are
          ignored). Default: today in your tenant's time zone. It cannot be after that today. The run reads records
          as they are when it runs, so the same records and the same `agentId`, `scope`, `depth` and `asOf` give the
          same `output`: give `asOf` to make a run reproducible.

        Errors: 400 `validation_failed` for an unknown `agentId` or `depth`, a malformed `scope` or `asOf`; 422
        `validation_failed` when `scope` names no project of your tenant or `asOf` is after your tenant's today.

        Requires scope `write`.

        ``POST /agents/run`` (operationId ``runAgent``, scope ``write``).

        :param body: the request body as a ``meridian.models.AgentRunRequest`` or a dict of its fields
            (``AgentRunRequestParam``), or its fields as the keyword arguments below.
        :param agent_id: Identifier of an agent (`GET /agents` describes each): `portfolio-health` (a health score and
            RAG per project), `schedule-health` (slip, slip velocity, overdue milestones), `budget-health` (variance
            at completion, overrun, cost performance index proxy), `risk-assessment` (exposure, heat map, unmitigated
            and overdue risks), `resource-capacity` (over-allocation, utilisation) and `status-report` (a written
            status report, every sentence cited).
        :param scope: `all` for the whole portfolio, or `project:<uuid>` for one project of your tenant.
        :param depth: How thorough a run is: `quick` (metrics only, no findings), `standard` (metrics and findings
            with citations) or `deep` (also per-project findings and trends from the status-report history).
        :param as_of: The date the analysis judges against (overdue means due before it; status reports dated after it
            are left out). Default: today in the tenant's time zone; it cannot be later than that.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentExecution``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_RUN_AGENT, (), body, kwargs)).data

    @overload
    async def ask(
        self,
        body: Union[AskRequest, AskRequestParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AskAnswer: ...

    @overload
    async def ask(
        self,
        *,
        question: str,
        project_id: Union[Union[UUID, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AskAnswer: ...

    async def ask(
        self,
        body: Union[AskRequest, AskRequestParam, None] = None,
        **kwargs: Any,
    ) -> AskAnswer:
        """Ask a question about the portfolio

        Answers a natural-language question from your tenant's own records, synchronously, and cites the records
        every statement rests on. Asking changes nothing.

        **How the answer is made.** The embedded engine (the default; `engine: embedded`) reads the question with
        intent rules for the questions portfolio managers ask most, and answers everything else by full-text search
        over projects (name, code, description, category, borough, agencies, tags), risks (title, description,
        mitigation), issues, milestones, people (name, role, skills) and status-report summaries:

        | Question | What is cited |
        |---|---|
        | Which projects are at risk / off track / on hold / … (any project `status`) | the projects with that status |
        | Which projects are over budget? | projects whose `forecastCost` is above `budget`, largest overrun first |
        | Which projects are late / behind schedule? | projects whose `forecastEndDate` is after `endDate`, longest slip first |
        | The largest overruns (by amount or percentage) and the largest slips, top 5 unless a number is given | those projects |
        | How is the portfolio doing? | every project, grouped by status |
        | The largest budgets or forecast costs | those projects |
        | A project's status, budget, dates, manager, team, risks, issues, milestones or history (name the project, give its `code`, or pass `projectId`) | the project and the records asked for (its status reports for the history) |
        | Open high risks (open = `OPEN` or `MITIGATING`; high = `HIGH` or `CRITICAL`; unmitigated = `OPEN`) | those risks |
        | Open issues by priority; missed milestones (`MISSED`, or `PENDING` after the due date); upcoming milestones | those records |
        | Over-allocated people (allocations above 100 % on a day from today on, as `GET /allocations/conflicts`), everyone or the people named | the people and the allocations involved |
        | What a person named in full works on (allocations, projects managed, open risks owned, open issues assigned) | the person and those records |
        | How many … / the total budget, forecast cost or actual cost of … | every record counted or summed |

        Filters combine: a project status, "over budget", "late", and any `borough`, `category`, agency or `tags`
        value of your projects named in the question ("How many DEP projects in Queens are late?"). An agency named
        alone is the managing or the client agency; "managed by DEP" means the managing agency, "DEP as client" the
        client agency. A value nobody recorded (a `null` budget, forecast or actual cost) is never counted as 0: a sum says
        how many projects had no value.

        **With a language model.** When the deployment is configured with a model (`MERIDIAN_LLM_BASE_URL`,
        `MERIDIAN_LLM_MODEL`: OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp's server…) and your tenant has not switched
        it off (`PATCH /tenant` `settings.llmEnabled: false`), the model writes the answer (`engine: model`, `model`
        its name) over exactly the records above, sent as delimited data with their ids with the figures computed
        from them; record text is data, never instructions. It answers in sentences, each with the ids it rests on,
        and the server checks every one: each id must be a record it sent, and each number and date must appear in
        those records or figures (formats normalised: 1,234,567 / 1.2M / $1.2 million / 12 % / 2019-09-01 /
        September 1, 2019). A failing sentence is dropped (`sentencesDropped`); when fewer than half survive, or
        when the model times out, is rate limited, fails or replies out of shape, the embedded engine answers
        (`fallbackReason` says why). With nothing relevant found, the model is not asked.

        **Citations.** Every figure and date in `answer` is a field of a cited record, a figure of one cited record
        that its `excerpt` states (overrun = `forecastCost − budget`, slip = days from `endDate` to
        `forecastEndDate`), a count of cited records, or a sum over them. Each `[n]` refers to the citation with
        `index` n; a range `[a]–[b]` cites every index from a to b (long lists name the first ten records and cite
        the rest as a range). Each citation's `url` is the record's address in this API. When nothing relevant is
        found the answer says so and `citations` is empty. Only your tenant's records are ever read.

        Give `projectId` to restrict the answer to one project (its own fields and its records). The same question
        over the same records on the same day gets the same answer.

        Errors: 404 `not_found` when `projectId` names no project of your tenant; 400 `validation_failed` for an
        empty question or one over 2,000 characters.

        Requires scope `read` (asking changes nothing).

        ``POST /agents/ask`` (operationId ``askAgent``, scope ``read``).

        :param body: the request body as a ``meridian.models.AskRequest`` or a dict of its fields
            (``AskRequestParam``), or its fields as the keyword arguments below.
        :param question: The question, in natural language.
        :param project_id: Restrict the answer to this project of your tenant: its own fields and its risks, issues,
            milestones and allocations (404 `not_found` when it names no project of your tenant).
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AskAnswer``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_ASK_AGENT, (), body, kwargs)).data


class WebhooksDeliveriesResourceWithRawResponse(SyncAPIResource):
    """``client.webhooks.deliveries.with_raw_response``: ``list``, ``resend``."""

    def list(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        status: Optional[Union[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]], Sequence[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]]]]] = None,
        event: Optional[Union[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected"]], Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected"]]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[WebhookDelivery]]:
        """As ``client.webhooks.deliveries.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_WEBHOOK_DELIVERIES, WebhookDelivery, (webhook_id,), {"status": status, "event": event, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def resend(
        self,
        webhook_id: Union[UUID, str],
        delivery_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookDelivery]:
        """As ``client.webhooks.deliveries.resend``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_RESEND_WEBHOOK_DELIVERY, (webhook_id, delivery_id), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class WebhooksDeliveriesResource(SyncAPIResource):
    """``client.webhooks.deliveries``: ``list``, ``resend``.

    Endpoints that receive signed event notifications, their deliveries, secret rotation and test events; also the
    event payloads themselves.
    """

    @cached_property
    def with_raw_response(self) -> WebhooksDeliveriesResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return WebhooksDeliveriesResourceWithRawResponse(self._client)

    def list(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        status: Optional[Union[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]], Sequence[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]]]]] = None,
        event: Optional[Union[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected"]], Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected"]]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[WebhookDelivery]:
        """List an endpoint's deliveries

        Returns the deliveries to this endpoint with every attempt (time, HTTP status, duration, error, the first
        1,024 bytes of the response body) and the time of the next attempt, ordered by `createdAt` ascending then
        `id`. Deliveries are kept for 30 days.

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``GET /webhooks/{id}/deliveries`` (operationId ``listWebhookDeliveries``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param status: Only deliveries whose status is one of these statuses. Repeat the parameter for more than one
            value (`status=PENDING&status=FAILED`); a comma-separated value is not split and is refused. Values of one
            filter combine with OR, filters with AND.
        :param event: Only deliveries of these event kinds (the deliveries' `event`). Repeat the parameter for more
            than one value (`event=risk.created&event=milestone.missed`); an unknown kind is refused (400).
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``WebhookDelivery`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_WEBHOOK_DELIVERIES, WebhookDelivery, (webhook_id,), {"status": status, "event": event, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def resend(
        self,
        webhook_id: Union[UUID, str],
        delivery_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookDelivery:
        """Resend a delivery

        Sends the delivery again: it becomes `PENDING` with its next attempt due now, whatever its status (a retry
        already scheduled is brought forward). The attempt sends the same event (same `webhook-id` and body), signed
        with the endpoint's current secret (and the previous one while it is still valid) at the time it is made; if it
        fails, the delivery is retried on the usual schedule. The earlier attempts stay listed. Audited as
        `webhook.delivery_resent` on the endpoint. No request body.

        Errors: 404 `not_found` (the endpoint, or a delivery that is not the endpoint's); 409 `conflict` when the
        endpoint is disabled.

        Requires scope `admin`.

        ``POST /webhooks/{id}/deliveries/{deliveryId}/resend`` (operationId ``resendWebhookDelivery``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param delivery_id: The delivery's id (UUID).
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookDelivery``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_RESEND_WEBHOOK_DELIVERY, (webhook_id, delivery_id), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data


class AsyncWebhooksDeliveriesResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().webhooks.deliveries.with_raw_response``: ``list``, ``resend``."""

    async def list(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        status: Optional[Union[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]], Sequence[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]]]]] = None,
        event: Optional[Union[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected"]], Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected"]]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[WebhookDelivery]]:
        """As ``AsyncMeridian().webhooks.deliveries.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_WEBHOOK_DELIVERIES, WebhookDelivery, (webhook_id,), {"status": status, "event": event, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def resend(
        self,
        webhook_id: Union[UUID, str],
        delivery_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookDelivery]:
        """As ``AsyncMeridian().webhooks.deliveries.resend``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_RESEND_WEBHOOK_DELIVERY, (webhook_id, delivery_id), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncWebhooksDeliveriesResource(AsyncAPIResource):
    """``AsyncMeridian().webhooks.deliveries``: ``list``, ``resend``.

    Endpoints that receive signed event notifications, their deliveries, secret rotation and test events; also the
    event payloads themselves.
    """

    @cached_property
    def with_raw_response(self) -> AsyncWebhooksDeliveriesResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncWebhooksDeliveriesResourceWithRawResponse(self._client)

    def list(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        status: Optional[Union[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]], Sequence[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]]]]] = None,
        event: Optional[Union[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected"]], Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected"]]]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[WebhookDelivery]:
        """List an endpoint's deliveries

        Returns the deliveries to this endpoint with every attempt (time, HTTP status, duration, error, the first
        1,024 bytes of the response body) and the time of the next attempt, ordered by `createdAt` ascending then
        `id`. Deliveries are kept for 30 days.

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``GET /webhooks/{id}/deliveries`` (operationId ``listWebhookDeliveries``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param status: Only deliveries whose status is one of these statuses. Repeat the parameter for more than one
            value (`status=PENDING&status=FAILED`); a comma-separated value is not split and is refused. Values of one
            filter combine with OR, filters with AND.
        :param event: Only deliveries of these event kinds (the deliveries' `event`). Repeat the parameter for more
            than one value (`event=risk.created&event=milestone.missed`); an unknown kind is refused (400).
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``WebhookDelivery`` records; iterating it (``async for``) fetches every following
            page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_WEBHOOK_DELIVERIES, WebhookDelivery, (webhook_id,), {"status": status, "event": event, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def resend(
        self,
        webhook_id: Union[UUID, str],
        delivery_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookDelivery:
        """Resend a delivery

        Sends the delivery again: it becomes `PENDING` with its next attempt due now, whatever its status (a retry
        already scheduled is brought forward). The attempt sends the same event (same `webhook-id` and body), signed
        with the endpoint's current secret (and the previous one while it is still valid) at the time it is made; if it
        fails, the delivery is retried on the usual schedule. The earlier attempts stay listed. Audited as
        `webhook.delivery_resent` on the endpoint. No request body.

        Errors: 404 `not_found` (the endpoint, or a delivery that is not the endpoint's); 409 `conflict` when the
        endpoint is disabled.

        Requires scope `admin`.

        ``POST /webhooks/{id}/deliveries/{deliveryId}/resend`` (operationId ``resendWebhookDelivery``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param delivery_id: The delivery's id (UUID).
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookDelivery``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_RESEND_WEBHOOK_DELIVERY, (webhook_id, delivery_id), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data


class WebhooksResourceWithRawResponse(SyncAPIResource):
    """``client.webhooks.with_raw_response``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``,
    ``rotate_secret``, ``reveal_secret``, ``test``, ``deliveries``.
    """

    @cached_property
    def deliveries(self) -> WebhooksDeliveriesResourceWithRawResponse:
        """``client.webhooks.deliveries``: ``list``, ``resend``."""
        return WebhooksDeliveriesResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[WebhookEndpoint]]:
        """As ``client.webhooks.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_WEBHOOKS, WebhookEndpoint, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[WebhookEndpointCreate, WebhookEndpointCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]: ...

    @overload
    def create(
        self,
        *,
        url: str,
        events: Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]],
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]: ...

    def create(
        self,
        body: Union[WebhookEndpointCreate, WebhookEndpointCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[WebhookEndpointWithSecret]:
        """As ``client.webhooks.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_WEBHOOK, (), body, kwargs)

    def retrieve(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]:
        """As ``client.webhooks.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_WEBHOOK, (webhook_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def delete(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``client.webhooks.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_DELETE_WEBHOOK, (webhook_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        webhook_id: Union[UUID, str],
        body: Union[WebhookEndpointUpdate, WebhookEndpointUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]: ...

    @overload
    def update(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        url: Union[str, NotGiven] = NOT_GIVEN,
        events: Union[Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]: ...

    def update(
        self,
        webhook_id: Union[UUID, str],
        body: Union[WebhookEndpointUpdate, WebhookEndpointUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[WebhookEndpoint]:
        """As ``client.webhooks.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_WEBHOOK, (webhook_id,), body, kwargs)

    def rotate_secret(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]:
        """As ``client.webhooks.rotate_secret``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_ROTATE_WEBHOOK_SECRET, (webhook_id,), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def reveal_secret(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookSecret]:
        """As ``client.webhooks.reveal_secret``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_REVEAL_WEBHOOK_SECRET, (webhook_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def test(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookDelivery]:
        """As ``client.webhooks.test``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_TEST_WEBHOOK, (webhook_id,), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class WebhooksResource(SyncAPIResource):
    """``client.webhooks``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``, ``rotate_secret``,
    ``reveal_secret``, ``test``, ``deliveries``.

    Endpoints that receive signed event notifications, their deliveries, secret rotation and test events; also the
    event payloads themselves.
    """

    @cached_property
    def deliveries(self) -> WebhooksDeliveriesResource:
        """``client.webhooks.deliveries``: ``list``, ``resend``."""
        return WebhooksDeliveriesResource(self._client)

    @cached_property
    def with_raw_response(self) -> WebhooksResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return WebhooksResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[WebhookEndpoint]:
        """List webhook endpoints

        Returns the tenant's webhook endpoints, ordered by `createdAt` ascending then `id`. Secrets are never listed.

        Requires scope `admin`.

        ``GET /webhooks`` (operationId ``listWebhooks``, scope ``admin``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``WebhookEndpoint`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_WEBHOOKS, WebhookEndpoint, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[WebhookEndpointCreate, WebhookEndpointCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpointWithSecret: ...

    @overload
    def create(
        self,
        *,
        url: str,
        events: Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]],
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpointWithSecret: ...

    def create(
        self,
        body: Union[WebhookEndpointCreate, WebhookEndpointCreateParam, None] = None,
        **kwargs: Any,
    ) -> WebhookEndpointWithSecret:
        """Register a webhook endpoint

        Registers a URL to receive events. `events` lists the kinds to deliver — `project.status_changed`,
        `risk.created`, `risk.severity_escalated`, `milestone.missed`, `agent.execution_completed`,
        `budget.overrun_detected` — or `*` for all of them. The response carries the signing `secret`
        (`whsec_…`); it is shown only here and on rotation, so store it.

        The URL must be `https` and its host must resolve to public addresses only: loopback, private (RFC 1918),
        link-local (so cloud metadata at 169.254.169.254), unique-local, CGNAT, multicast and reserved addresses are
        refused, and so is every IPv6 form that carries an IPv4 address (IPv4-mapped `::ffff:a.b.c.d` judged by the
        address it carries, the whole IPv4-compatible range `::a.b.c.d`, NAT64, 6to4, Teredo), unless the deployment
        explicitly allows private targets (development). The check is repeated at every delivery, on the addresses the
        connection uses. A URL with credentials (`https://user:password@host/…`) is always refused: it would be
        stored and shown to every admin; authenticate deliveries by their signature instead.

        Errors: 400 `validation_failed` for a malformed URL or unknown event kind; 422 `validation_failed` for a
        refused address or a URL with credentials.

        Requires scope `admin`.

        ``POST /webhooks`` (operationId ``createWebhook``, scope ``admin``).

        :param body: the request body as a ``meridian.models.WebhookEndpointCreate`` or a dict of its fields
            (``WebhookEndpointCreateParam``), or its fields as the keyword arguments below.
        :param url: An https URL (http only where the deployment allows private targets) whose host resolves to public
            addresses only, without credentials (`user:password@`).
        :param events: Event kinds to deliver, or `["*"]` for all.
        :param description: Your note about the endpoint.
        :param enabled: Whether to deliver to it.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpointWithSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_WEBHOOK, (), body, kwargs).data

    def retrieve(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpoint:
        """Get a webhook endpoint

        Returns one webhook endpoint (without its secret).

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``GET /webhooks/{id}`` (operationId ``getWebhook``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpoint``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_WEBHOOK, (webhook_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    def delete(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Delete a webhook endpoint

        Deletes the endpoint; pending deliveries to it are cancelled.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `admin`.

        ``DELETE /webhooks/{id}`` (operationId ``deleteWebhook``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        self._client.call(_DELETE_WEBHOOK, (webhook_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        webhook_id: Union[UUID, str],
        body: Union[WebhookEndpointUpdate, WebhookEndpointUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpoint: ...

    @overload
    def update(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        url: Union[str, NotGiven] = NOT_GIVEN,
        events: Union[Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpoint: ...

    def update(
        self,
        webhook_id: Union[UUID, str],
        body: Union[WebhookEndpointUpdate, WebhookEndpointUpdateParam, None] = None,
        **kwargs: Any,
    ) -> WebhookEndpoint:
        """Update a webhook endpoint

        Changes only the fields present in the body. Setting `enabled: true` on an endpoint that was disabled
        (by failures or a `410 Gone`) re-enables it and clears `disabledReason`; deliveries resume with new events.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        for a refused address.

        Requires scope `admin`.

        ``PATCH /webhooks/{id}`` (operationId ``updateWebhook``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.WebhookEndpointUpdate`` or a dict of its fields
            (``WebhookEndpointUpdateParam``), or its fields as the keyword arguments below.
        :param url: An https URL (http only where the deployment allows private targets) whose host resolves to public
            addresses only, without credentials (`user:password@`).
        :param events: Replaces the list of event kinds.
        :param description: Your note; null clears it.
        :param enabled: Whether to deliver to it; true re-enables a disabled endpoint.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpoint``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_WEBHOOK, (webhook_id,), body, kwargs).data

    def rotate_secret(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpointWithSecret:
        """Rotate a webhook endpoint's secret

        Issues a new signing secret and returns it (shown only here). The previous secret stays valid for 24 hours:
        meanwhile every delivery carries two signatures in `webhook-signature`, one per secret, so you can deploy
        the new secret without dropping events.

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``POST /webhooks/{id}/rotate-secret`` (operationId ``rotateWebhookSecret``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpointWithSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_ROTATE_WEBHOOK_SECRET, (webhook_id,), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    def reveal_secret(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookSecret:
        """Reveal a webhook endpoint's signing secret

        Returns the endpoint's current signing secret, opened from its encrypted storage, so an admin can configure a
        receiver after the secret was first shown. During the 24 hours after a rotation the previous secret still
        signs (a second signature); `previousSecretExpiresAt` says when it stops (the previous secret itself is not
        returned). Every reveal is recorded in the audit log as `webhook.secret_revealed` on the endpoint.

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``GET /webhooks/{id}/secret`` (operationId ``revealWebhookSecret``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_REVEAL_WEBHOOK_SECRET, (webhook_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    def test(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookDelivery:
        """Send a test event

        Queues a signed `project.status_changed` delivery with sample data to this endpoint, whatever its `events`
        filter, and returns the delivery (status `PENDING`). Follow it in `GET /webhooks/{id}/deliveries`. No request
        body.

        Errors: 404 `not_found`; 409 `conflict` when the endpoint is disabled.

        Requires scope `admin`.

        ``POST /webhooks/{id}/test`` (operationId ``testWebhook``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookDelivery``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_TEST_WEBHOOK, (webhook_id,), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data


class AsyncWebhooksResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().webhooks.with_raw_response``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``,
    ``rotate_secret``, ``reveal_secret``, ``test``, ``deliveries``.
    """

    @cached_property
    def deliveries(self) -> AsyncWebhooksDeliveriesResourceWithRawResponse:
        """``AsyncMeridian().webhooks.deliveries``: ``list``, ``resend``."""
        return AsyncWebhooksDeliveriesResourceWithRawResponse(self._client)

    async def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[WebhookEndpoint]]:
        """As ``AsyncMeridian().webhooks.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_WEBHOOKS, WebhookEndpoint, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[WebhookEndpointCreate, WebhookEndpointCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]: ...

    @overload
    async def create(
        self,
        *,
        url: str,
        events: Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]],
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]: ...

    async def create(
        self,
        body: Union[WebhookEndpointCreate, WebhookEndpointCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[WebhookEndpointWithSecret]:
        """As ``AsyncMeridian().webhooks.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_WEBHOOK, (), body, kwargs)

    async def retrieve(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]:
        """As ``AsyncMeridian().webhooks.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_WEBHOOK, (webhook_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def delete(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``AsyncMeridian().webhooks.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_DELETE_WEBHOOK, (webhook_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        webhook_id: Union[UUID, str],
        body: Union[WebhookEndpointUpdate, WebhookEndpointUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]: ...

    @overload
    async def update(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        url: Union[str, NotGiven] = NOT_GIVEN,
        events: Union[Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]: ...

    async def update(
        self,
        webhook_id: Union[UUID, str],
        body: Union[WebhookEndpointUpdate, WebhookEndpointUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[WebhookEndpoint]:
        """As ``AsyncMeridian().webhooks.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_WEBHOOK, (webhook_id,), body, kwargs)

    async def rotate_secret(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]:
        """As ``AsyncMeridian().webhooks.rotate_secret``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_ROTATE_WEBHOOK_SECRET, (webhook_id,), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def reveal_secret(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookSecret]:
        """As ``AsyncMeridian().webhooks.reveal_secret``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_REVEAL_WEBHOOK_SECRET, (webhook_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def test(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookDelivery]:
        """As ``AsyncMeridian().webhooks.test``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_TEST_WEBHOOK, (webhook_id,), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncWebhooksResource(AsyncAPIResource):
    """``AsyncMeridian().webhooks``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``, ``rotate_secret``,
    ``reveal_secret``, ``test``, ``deliveries``.

    Endpoints that receive signed event notifications, their deliveries, secret rotation and test events; also the
    event payloads themselves.
    """

    @cached_property
    def deliveries(self) -> AsyncWebhooksDeliveriesResource:
        """``AsyncMeridian().webhooks.deliveries``: ``list``, ``resend``."""
        return AsyncWebhooksDeliveriesResource(self._client)

    @cached_property
    def with_raw_response(self) -> AsyncWebhooksResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncWebhooksResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[WebhookEndpoint]:
        """List webhook endpoints

        Returns the tenant's webhook endpoints, ordered by `createdAt` ascending then `id`. Secrets are never listed.

        Requires scope `admin`.

        ``GET /webhooks`` (operationId ``listWebhooks``, scope ``admin``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``WebhookEndpoint`` records; iterating it (``async for``) fetches every following
            page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_WEBHOOKS, WebhookEndpoint, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[WebhookEndpointCreate, WebhookEndpointCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpointWithSecret: ...

    @overload
    async def create(
        self,
        *,
        url: str,
        events: Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]],
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpointWithSecret: ...

    async def create(
        self,
        body: Union[WebhookEndpointCreate, WebhookEndpointCreateParam, None] = None,
        **kwargs: Any,
    ) -> WebhookEndpointWithSecret:
        """Register a webhook endpoint

        Registers a URL to receive events. `events` lists the kinds to deliver — `project.status_changed`,
        `risk.created`, `risk.severity_escalated`, `milestone.missed`, `agent.execution_completed`,
        `budget.overrun_detected` — or `*` for all of them. The response carries the signing `secret`
        (`whsec_…`); it is shown only here and on rotation, so store it.

        The URL must be `https` and its host must resolve to public addresses only: loopback, private (RFC 1918),
        link-local (so cloud metadata at 169.254.169.254), unique-local, CGNAT, multicast and reserved addresses are
        refused, and so is every IPv6 form that carries an IPv4 address (IPv4-mapped `::ffff:a.b.c.d` judged by the
        address it carries, the whole IPv4-compatible range `::a.b.c.d`, NAT64, 6to4, Teredo), unless the deployment
        explicitly allows private targets (development). The check is repeated at every delivery, on the addresses the
        connection uses. A URL with credentials (`https://user:password@host/…`) is always refused: it would be
        stored and shown to every admin; authenticate deliveries by their signature instead.

        Errors: 400 `validation_failed` for a malformed URL or unknown event kind; 422 `validation_failed` for a
        refused address or a URL with credentials.

        Requires scope `admin`.

        ``POST /webhooks`` (operationId ``createWebhook``, scope ``admin``).

        :param body: the request body as a ``meridian.models.WebhookEndpointCreate`` or a dict of its fields
            (``WebhookEndpointCreateParam``), or its fields as the keyword arguments below.
        :param url: An https URL (http only where the deployment allows private targets) whose host resolves to public
            addresses only, without credentials (`user:password@`).
        :param events: Event kinds to deliver, or `["*"]` for all.
        :param description: Your note about the endpoint.
        :param enabled: Whether to deliver to it.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpointWithSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_WEBHOOK, (), body, kwargs)).data

    async def retrieve(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpoint:
        """Get a webhook endpoint

        Returns one webhook endpoint (without its secret).

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``GET /webhooks/{id}`` (operationId ``getWebhook``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpoint``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_WEBHOOK, (webhook_id,), None, {"if_none_match": if_none_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    async def delete(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Delete a webhook endpoint

        Deletes the endpoint; pending deliveries to it are cancelled.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `admin`.

        ``DELETE /webhooks/{id}`` (operationId ``deleteWebhook``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        await self._client.call(_DELETE_WEBHOOK, (webhook_id,), None, {"if_match": if_match, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        webhook_id: Union[UUID, str],
        body: Union[WebhookEndpointUpdate, WebhookEndpointUpdateParam],
        /,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpoint: ...

    @overload
    async def update(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        url: Union[str, NotGiven] = NOT_GIVEN,
        events: Union[Sequence[Union[WebhookEventType, Literal["project.status_changed", "risk.created", "risk.severity_escalated", "milestone.missed", "agent.execution_completed", "budget.overrun_detected", "*"]]], NotGiven] = NOT_GIVEN,
        description: Union[Optional[str], NotGiven] = NOT_GIVEN,
        enabled: Union[bool, NotGiven] = NOT_GIVEN,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpoint: ...

    async def update(
        self,
        webhook_id: Union[UUID, str],
        body: Union[WebhookEndpointUpdate, WebhookEndpointUpdateParam, None] = None,
        **kwargs: Any,
    ) -> WebhookEndpoint:
        """Update a webhook endpoint

        Changes only the fields present in the body. Setting `enabled: true` on an endpoint that was disabled
        (by failures or a `410 Gone`) re-enables it and clears `disabledReason`; deliveries resume with new events.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        for a refused address.

        Requires scope `admin`.

        ``PATCH /webhooks/{id}`` (operationId ``updateWebhook``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.WebhookEndpointUpdate`` or a dict of its fields
            (``WebhookEndpointUpdateParam``), or its fields as the keyword arguments below.
        :param url: An https URL (http only where the deployment allows private targets) whose host resolves to public
            addresses only, without credentials (`user:password@`).
        :param events: Replaces the list of event kinds.
        :param description: Your note; null clears it.
        :param enabled: Whether to deliver to it; true re-enables a disabled endpoint.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpoint``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_WEBHOOK, (webhook_id,), body, kwargs)).data

    async def rotate_secret(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpointWithSecret:
        """Rotate a webhook endpoint's secret

        Issues a new signing secret and returns it (shown only here). The previous secret stays valid for 24 hours:
        meanwhile every delivery carries two signatures in `webhook-signature`, one per secret, so you can deploy
        the new secret without dropping events.

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``POST /webhooks/{id}/rotate-secret`` (operationId ``rotateWebhookSecret``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpointWithSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_ROTATE_WEBHOOK_SECRET, (webhook_id,), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    async def reveal_secret(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookSecret:
        """Reveal a webhook endpoint's signing secret

        Returns the endpoint's current signing secret, opened from its encrypted storage, so an admin can configure a
        receiver after the secret was first shown. During the 24 hours after a rotation the previous secret still
        signs (a second signature); `previousSecretExpiresAt` says when it stops (the previous secret itself is not
        returned). Every reveal is recorded in the audit log as `webhook.secret_revealed` on the endpoint.

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``GET /webhooks/{id}/secret`` (operationId ``revealWebhookSecret``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_REVEAL_WEBHOOK_SECRET, (webhook_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    async def test(
        self,
        webhook_id: Union[UUID, str],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookDelivery:
        """Send a test event

        Queues a signed `project.status_changed` delivery with sample data to this endpoint, whatever its `events`
        filter, and returns the delivery (status `PENDING`). Follow it in `GET /webhooks/{id}/deliveries`. No request
        body.

        Errors: 404 `not_found`; 409 `conflict` when the endpoint is disabled.

        Requires scope `admin`.

        ``POST /webhooks/{id}/test`` (operationId ``testWebhook``, scope ``admin``).

        :param webhook_id: The record's id (UUID).
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookDelivery``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_TEST_WEBHOOK, (webhook_id,), None, {"idempotency_key": idempotency_key, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data


class MeResourceWithRawResponse(SyncAPIResource):
    """``client.me.with_raw_response``: ``retrieve``."""

    def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Me]:
        """As ``client.me.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_ME, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class MeResource(SyncAPIResource):
    """``client.me``: ``retrieve``.

    The caller's user, API key and tenant.
    """

    @cached_property
    def with_raw_response(self) -> MeResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return MeResourceWithRawResponse(self._client)

    def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Me:
        """Get the current user and key

        Returns the user who owns the API key in use, the key itself (never its secret) and the tenant. Useful to
        check a key and its scopes.

        Requires scope `read`.

        ``GET /me`` (operationId ``getMe``, scope ``read``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Me``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_ME, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data


class AsyncMeResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().me.with_raw_response``: ``retrieve``."""

    async def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Me]:
        """As ``AsyncMeridian().me.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_ME, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncMeResource(AsyncAPIResource):
    """``AsyncMeridian().me``: ``retrieve``.

    The caller's user, API key and tenant.
    """

    @cached_property
    def with_raw_response(self) -> AsyncMeResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncMeResourceWithRawResponse(self._client)

    async def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Me:
        """Get the current user and key

        Returns the user who owns the API key in use, the key itself (never its secret) and the tenant. Useful to
        check a key and its scopes.

        Requires scope `read`.

        ``GET /me`` (operationId ``getMe``, scope ``read``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Me``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_ME, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data


class TenantSsoResourceWithRawResponse(SyncAPIResource):
    """``client.tenant.sso.with_raw_response``: ``retrieve``, ``update``, ``delete``."""

    def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[TenantSso]:
        """As ``client.tenant.sso.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_TENANT_SSO, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        body: Union[TenantSsoUpdate, TenantSsoUpdateParam],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[TenantSso]: ...

    @overload
    def update(
        self,
        *,
        issuer_url: str,
        client_id: str,
        allowed_domains: Sequence[str],
        default_role: Union[SsoRole, Literal["admin", "member", "viewer"]],
        client_secret: Union[str, NotGiven] = NOT_GIVEN,
        password_sign_in: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[TenantSso]: ...

    def update(
        self,
        body: Union[TenantSsoUpdate, TenantSsoUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[TenantSso]:
        """As ``client.tenant.sso.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_TENANT_SSO, (), body, kwargs)

    def delete(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``client.tenant.sso.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_DELETE_TENANT_SSO, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class TenantSsoResource(SyncAPIResource):
    """``client.tenant.sso``: ``retrieve``, ``update``, ``delete``.

    The caller's user, API key and tenant.
    """

    @cached_property
    def with_raw_response(self) -> TenantSsoResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return TenantSsoResourceWithRawResponse(self._client)

    def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> TenantSso:
        """Get the tenant's single sign-on configuration

        Returns the tenant's OpenID Connect single sign-on configuration, without the client secret (write-only:
        `clientSecretSet` only says one is stored).

        Errors: 404 `not_found` when single sign-on is not configured.

        Requires scope `admin`.

        ``GET /tenant/sso`` (operationId ``getTenantSso``, scope ``admin``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``TenantSso``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_TENANT_SSO, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    @overload
    def update(
        self,
        body: Union[TenantSsoUpdate, TenantSsoUpdateParam],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> TenantSso: ...

    @overload
    def update(
        self,
        *,
        issuer_url: str,
        client_id: str,
        allowed_domains: Sequence[str],
        default_role: Union[SsoRole, Literal["admin", "member", "viewer"]],
        client_secret: Union[str, NotGiven] = NOT_GIVEN,
        password_sign_in: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> TenantSso: ...

    def update(
        self,
        body: Union[TenantSsoUpdate, TenantSsoUpdateParam, None] = None,
        **kwargs: Any,
    ) -> TenantSso:
        """Configure single sign-on

        Sets the tenant's OpenID Connect provider (Enterprise plan). Register Meridian at the provider as a
        confidential client with the `redirectUri` of the answer, then members sign in at `signInUrl`: authorization
        code flow with PKCE, scopes `openid email profile`. A person is matched by their **verified** email, whose
        domain must be one of `allowedDomains`; on first sign-in an account is created with `defaultRole` (never
        `owner`). `passwordSignIn: false` refuses password sign-in for every member of the tenant, so single
        sign-on is the only way in (an owner locked out by a broken provider turns it back on with an API key, or on
        the server with `npm run cli -- users reset`).

        The client secret is write-only: it is stored encrypted at rest (AES-256-GCM under `MERIDIAN_SECRET_KEY`)
        and never returned by any operation. Send it the first time; later, omit it to keep the stored one. The
        issuer's discovery document is not fetched here: a wrong issuer shows at the first sign-in.
        Recorded in the audit log as `tenant.sso_updated` (without the secret).

        Errors: 403 `forbidden` when the tenant's plan is not `ENTERPRISE`; 422 `validation_failed` for an issuer
        that is not `https` (unless the deployment sets `MERIDIAN_SSO_ALLOW_HTTP=true`), or a missing
        `clientSecret` on the first configuration.

        Requires scope `admin`.

        ``PUT /tenant/sso`` (operationId ``updateTenantSso``, scope ``admin``).

        :param body: the request body as a ``meridian.models.TenantSsoUpdate`` or a dict of its fields
            (``TenantSsoUpdateParam``), or its fields as the keyword arguments below.
        :param issuer_url: The provider's issuer, `https://…` (plain `http` only where the deployment allows it,
            `MERIDIAN_SSO_ALLOW_HTTP=true`).
        :param client_id: Meridian's client id at the provider.
        :param allowed_domains: Email domains whose verified addresses may sign in, e.g. `example.com` (compared
            case-insensitively).
        :param default_role: The role of an account created by its first single sign-on (never `owner`).
        :param client_secret: The client secret; stored encrypted, never returned. Required the first time; omit it to
            keep the stored one.
        :param password_sign_in: Whether members may still sign in with a password (default true).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``TenantSso``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_TENANT_SSO, (), body, kwargs).data

    def delete(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Turn single sign-on off

        Removes the tenant's single sign-on configuration and its stored secret; password sign-in works again for
        every member. Accounts created by single sign-on stay, without a password until one is set (an owner sends
        them a reset link). Deleting when nothing is configured succeeds and changes nothing. Recorded in the audit
        log as `tenant.sso_deleted`.

        Requires scope `admin`.

        ``DELETE /tenant/sso`` (operationId ``deleteTenantSso``, scope ``admin``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        self._client.call(_DELETE_TENANT_SSO, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncTenantSsoResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().tenant.sso.with_raw_response``: ``retrieve``, ``update``, ``delete``."""

    async def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[TenantSso]:
        """As ``AsyncMeridian().tenant.sso.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_TENANT_SSO, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        body: Union[TenantSsoUpdate, TenantSsoUpdateParam],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[TenantSso]: ...

    @overload
    async def update(
        self,
        *,
        issuer_url: str,
        client_id: str,
        allowed_domains: Sequence[str],
        default_role: Union[SsoRole, Literal["admin", "member", "viewer"]],
        client_secret: Union[str, NotGiven] = NOT_GIVEN,
        password_sign_in: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[TenantSso]: ...

    async def update(
        self,
        body: Union[TenantSsoUpdate, TenantSsoUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[TenantSso]:
        """As ``AsyncMeridian().tenant.sso.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_TENANT_SSO, (), body, kwargs)

    async def delete(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``AsyncMeridian().tenant.sso.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_DELETE_TENANT_SSO, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncTenantSsoResource(AsyncAPIResource):
    """``AsyncMeridian().tenant.sso``: ``retrieve``, ``update``, ``delete``.

    The caller's user, API key and tenant.
    """

    @cached_property
    def with_raw_response(self) -> AsyncTenantSsoResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncTenantSsoResourceWithRawResponse(self._client)

    async def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> TenantSso:
        """Get the tenant's single sign-on configuration

        Returns the tenant's OpenID Connect single sign-on configuration, without the client secret (write-only:
        `clientSecretSet` only says one is stored).

        Errors: 404 `not_found` when single sign-on is not configured.

        Requires scope `admin`.

        ``GET /tenant/sso`` (operationId ``getTenantSso``, scope ``admin``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``TenantSso``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_TENANT_SSO, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    @overload
    async def update(
        self,
        body: Union[TenantSsoUpdate, TenantSsoUpdateParam],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> TenantSso: ...

    @overload
    async def update(
        self,
        *,
        issuer_url: str,
        client_id: str,
        allowed_domains: Sequence[str],
        default_role: Union[SsoRole, Literal["admin", "member", "viewer"]],
        client_secret: Union[str, NotGiven] = NOT_GIVEN,
        password_sign_in: Union[bool, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> TenantSso: ...

    async def update(
        self,
        body: Union[TenantSsoUpdate, TenantSsoUpdateParam, None] = None,
        **kwargs: Any,
    ) -> TenantSso:
        """Configure single sign-on

        Sets the tenant's OpenID Connect provider (Enterprise plan). Register Meridian at the provider as a
        confidential client with the `redirectUri` of the answer, then members sign in at `signInUrl`: authorization
        code flow with PKCE, scopes `openid email profile`. A person is matched by their **verified** email, whose
        domain must be one of `allowedDomains`; on first sign-in an account is created with `defaultRole` (never
        `owner`). `passwordSignIn: false` refuses password sign-in for every member of the tenant, so single
        sign-on is the only way in (an owner locked out by a broken provider turns it back on with an API key, or on
        the server with `npm run cli -- users reset`).

        The client secret is write-only: it is stored encrypted at rest (AES-256-GCM under `MERIDIAN_SECRET_KEY`)
        and never returned by any operation. Send it the first time; later, omit it to keep the stored one. The
        issuer's discovery document is not fetched here: a wrong issuer shows at the first sign-in.
        Recorded in the audit log as `tenant.sso_updated` (without the secret).

        Errors: 403 `forbidden` when the tenant's plan is not `ENTERPRISE`; 422 `validation_failed` for an issuer
        that is not `https` (unless the deployment sets `MERIDIAN_SSO_ALLOW_HTTP=true`), or a missing
        `clientSecret` on the first configuration.

        Requires scope `admin`.

        ``PUT /tenant/sso`` (operationId ``updateTenantSso``, scope ``admin``).

        :param body: the request body as a ``meridian.models.TenantSsoUpdate`` or a dict of its fields
            (``TenantSsoUpdateParam``), or its fields as the keyword arguments below.
        :param issuer_url: The provider's issuer, `https://…` (plain `http` only where the deployment allows it,
            `MERIDIAN_SSO_ALLOW_HTTP=true`).
        :param client_id: Meridian's client id at the provider.
        :param allowed_domains: Email domains whose verified addresses may sign in, e.g. `example.com` (compared
            case-insensitively).
        :param default_role: The role of an account created by its first single sign-on (never `owner`).
        :param client_secret: The client secret; stored encrypted, never returned. Required the first time; omit it to
            keep the stored one.
        :param password_sign_in: Whether members may still sign in with a password (default true).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``TenantSso``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_TENANT_SSO, (), body, kwargs)).data

    async def delete(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Turn single sign-on off

        Removes the tenant's single sign-on configuration and its stored secret; password sign-in works again for
        every member. Accounts created by single sign-on stay, without a password until one is set (an owner sends
        them a reset link). Deleting when nothing is configured succeeds and changes nothing. Recorded in the audit
        log as `tenant.sso_deleted`.

        Requires scope `admin`.

        ``DELETE /tenant/sso`` (operationId ``deleteTenantSso``, scope ``admin``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        await self._client.call(_DELETE_TENANT_SSO, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class TenantResourceWithRawResponse(SyncAPIResource):
    """``client.tenant.with_raw_response``: ``retrieve``, ``update``, ``sso``."""

    @cached_property
    def sso(self) -> TenantSsoResourceWithRawResponse:
        """``client.tenant.sso``: ``retrieve``, ``update``, ``delete``."""
        return TenantSsoResourceWithRawResponse(self._client)

    def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]:
        """As ``client.tenant.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_TENANT, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        body: Union[TenantUpdate, TenantUpdateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]: ...

    @overload
    def update(
        self,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        currency: Union[str, NotGiven] = NOT_GIVEN,
        timezone: Union[str, NotGiven] = NOT_GIVEN,
        settings: Union[Union[TenantUpdateSettings, TenantUpdateSettingsParam], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]: ...

    def update(
        self,
        body: Union[TenantUpdate, TenantUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Tenant]:
        """As ``client.tenant.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_TENANT, (), body, kwargs)


class TenantResource(SyncAPIResource):
    """``client.tenant``: ``retrieve``, ``update``, ``sso``.

    The caller's user, API key and tenant.
    """

    @cached_property
    def sso(self) -> TenantSsoResource:
        """``client.tenant.sso``: ``retrieve``, ``update``, ``delete``."""
        return TenantSsoResource(self._client)

    @cached_property
    def with_raw_response(self) -> TenantResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return TenantResourceWithRawResponse(self._client)

    def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant:
        """Get the tenant

        Returns the caller's tenant: plan, currency of all money fields, timezone used to decide when a due date has
        passed, and rate limit with its use in the current window (`rateLimit.used`, `remaining`, `resetAt`: the state
        this request left, read without counting another request).

        Requires scope `read`.

        ``GET /tenant`` (operationId ``getTenant``, scope ``read``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Tenant``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_TENANT, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    @overload
    def update(
        self,
        body: Union[TenantUpdate, TenantUpdateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant: ...

    @overload
    def update(
        self,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        currency: Union[str, NotGiven] = NOT_GIVEN,
        timezone: Union[str, NotGiven] = NOT_GIVEN,
        settings: Union[Union[TenantUpdateSettings, TenantUpdateSettingsParam], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant: ...

    def update(
        self,
        body: Union[TenantUpdate, TenantUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Tenant:
        """Change the tenant's name, currency, time zone or settings

        Changes the tenant's `name`, `currency`, `timezone` and `settings`: only what the body names changes, and
        only the settings present in `settings`. Every change is recorded in the audit log as one `tenant.updated` row
        with each changed field's value before and after.

        `currency`: Meridian stores amounts without conversion, so a new currency relabels every existing amount
        (budgets, costs, webhook payloads from then on) without converting it. `timezone`: an IANA zone the server
        knows (`Intl.supportedValuesOf('timeZone')`, or `UTC`); due dates pass by it from then on.

        `llmEnabled`: `false` keeps every record of this tenant away from the language model the deployment may be
        configured with (`MERIDIAN_LLM_BASE_URL`), so Ask answers and agent runs are written by the embedded engine
        only; `true` (the default) lets the model write them, each sentence checked against the records (see
        `POST /agents/ask`). The change applies to the next question or run and is recorded in the audit log
        (`tenant.updated`).

        `requireTwoFactor`: `true` makes a second factor (TOTP) mandatory for console sign-in: users without one enrol
        at their next sign-in. Only a user with the role `owner` may change it.

        Errors: 400 `validation_failed` for an unknown field or setting, an empty body, a blank name or a value of the
        wrong type; 422 `validation_failed` for a currency code or time zone the server does not know; 403 `forbidden`
        when a user below `owner` changes `requireTwoFactor`.

        Requires scope `admin`.

        ``PATCH /tenant`` (operationId ``updateTenant``, scope ``admin``).

        :param body: the request body as a ``meridian.models.TenantUpdate`` or a dict of its fields
            (``TenantUpdateParam``), or its fields as the keyword arguments below.
        :param name: The tenant's name (leading and trailing spaces are removed).
        :param currency: ISO 4217 code of every money field, e.g. `EUR` (a code this server's ICU data knows, else
            422). Meridian stores amounts without conversion: a change relabels every existing amount (budgets,
            forecast and actual costs, webhook payloads sent from then on) in the new currency, it does not convert
            them. Use it to correct the currency, not to convert a portfolio.
        :param timezone: IANA time zone, e.g. `Europe/Paris`: one of the zones this server's ICU data knows
            (`Intl.supportedValuesOf('timeZone')`, plus `UTC`), else 422. Decides from then on when a due date has
            passed.
        :param settings: Settings to change; an empty object changes nothing.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Tenant``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_TENANT, (), body, kwargs).data


class AsyncTenantResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().tenant.with_raw_response``: ``retrieve``, ``update``, ``sso``."""

    @cached_property
    def sso(self) -> AsyncTenantSsoResourceWithRawResponse:
        """``AsyncMeridian().tenant.sso``: ``retrieve``, ``update``, ``delete``."""
        return AsyncTenantSsoResourceWithRawResponse(self._client)

    async def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]:
        """As ``AsyncMeridian().tenant.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_TENANT, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        body: Union[TenantUpdate, TenantUpdateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]: ...

    @overload
    async def update(
        self,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        currency: Union[str, NotGiven] = NOT_GIVEN,
        timezone: Union[str, NotGiven] = NOT_GIVEN,
        settings: Union[Union[TenantUpdateSettings, TenantUpdateSettingsParam], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]: ...

    async def update(
        self,
        body: Union[TenantUpdate, TenantUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Tenant]:
        """As ``AsyncMeridian().tenant.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_TENANT, (), body, kwargs)


class AsyncTenantResource(AsyncAPIResource):
    """``AsyncMeridian().tenant``: ``retrieve``, ``update``, ``sso``.

    The caller's user, API key and tenant.
    """

    @cached_property
    def sso(self) -> AsyncTenantSsoResource:
        """``AsyncMeridian().tenant.sso``: ``retrieve``, ``update``, ``delete``."""
        return AsyncTenantSsoResource(self._client)

    @cached_property
    def with_raw_response(self) -> AsyncTenantResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncTenantResourceWithRawResponse(self._client)

    async def retrieve(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant:
        """Get the tenant

        Returns the caller's tenant: plan, currency of all money fields, timezone used to decide when a due date has
        passed, and rate limit with its use in the current window (`rateLimit.used`, `remaining`, `resetAt`: the state
        this request left, read without counting another request).

        Requires scope `read`.

        ``GET /tenant`` (operationId ``getTenant``, scope ``read``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Tenant``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_TENANT, (), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    @overload
    async def update(
        self,
        body: Union[TenantUpdate, TenantUpdateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant: ...

    @overload
    async def update(
        self,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        currency: Union[str, NotGiven] = NOT_GIVEN,
        timezone: Union[str, NotGiven] = NOT_GIVEN,
        settings: Union[Union[TenantUpdateSettings, TenantUpdateSettingsParam], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant: ...

    async def update(
        self,
        body: Union[TenantUpdate, TenantUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Tenant:
        """Change the tenant's name, currency, time zone or settings

        Changes the tenant's `name`, `currency`, `timezone` and `settings`: only what the body names changes, and
        only the settings present in `settings`. Every change is recorded in the audit log as one `tenant.updated` row
        with each changed field's value before and after.

        `currency`: Meridian stores amounts without conversion, so a new currency relabels every existing amount
        (budgets, costs, webhook payloads from then on) without converting it. `timezone`: an IANA zone the server
        knows (`Intl.supportedValuesOf('timeZone')`, or `UTC`); due dates pass by it from then on.

        `llmEnabled`: `false` keeps every record of this tenant away from the language model the deployment may be
        configured with (`MERIDIAN_LLM_BASE_URL`), so Ask answers and agent runs are written by the embedded engine
        only; `true` (the default) lets the model write them, each sentence checked against the records (see
        `POST /agents/ask`). The change applies to the next question or run and is recorded in the audit log
        (`tenant.updated`).

        `requireTwoFactor`: `true` makes a second factor (TOTP) mandatory for console sign-in: users without one enrol
        at their next sign-in. Only a user with the role `owner` may change it.

        Errors: 400 `validation_failed` for an unknown field or setting, an empty body, a blank name or a value of the
        wrong type; 422 `validation_failed` for a currency code or time zone the server does not know; 403 `forbidden`
        when a user below `owner` changes `requireTwoFactor`.

        Requires scope `admin`.

        ``PATCH /tenant`` (operationId ``updateTenant``, scope ``admin``).

        :param body: the request body as a ``meridian.models.TenantUpdate`` or a dict of its fields
            (``TenantUpdateParam``), or its fields as the keyword arguments below.
        :param name: The tenant's name (leading and trailing spaces are removed).
        :param currency: ISO 4217 code of every money field, e.g. `EUR` (a code this server's ICU data knows, else
            422). Meridian stores amounts without conversion: a change relabels every existing amount (budgets,
            forecast and actual costs, webhook payloads sent from then on) in the new currency, it does not convert
            them. Use it to correct the currency, not to convert a portfolio.
        :param timezone: IANA time zone, e.g. `Europe/Paris`: one of the zones this server's ICU data knows
            (`Intl.supportedValuesOf('timeZone')`, plus `UTC`), else 422. Decides from then on when a due date has
            passed.
        :param settings: Settings to change; an empty object changes nothing.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Tenant``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_TENANT, (), body, kwargs)).data


class ApiKeysResourceWithRawResponse(SyncAPIResource):
    """``client.api_keys.with_raw_response``: ``list``, ``create``, ``delete``, ``roll``."""

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[ApiKey]]:
        """As ``client.api_keys.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_API_KEYS, ApiKey, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[ApiKeyCreate, ApiKeyCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]: ...

    @overload
    def create(
        self,
        *,
        name: str,
        scopes: Sequence[Union[ApiKeyScope, Literal["read", "write", "admin"]]],
        expires_at: Union[Union[datetime, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]: ...

    def create(
        self,
        body: Union[ApiKeyCreate, ApiKeyCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[ApiKeyWithSecret]:
        """As ``client.api_keys.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_API_KEY, (), body, kwargs)

    def delete(
        self,
        api_key_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``client.api_keys.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_REVOKE_API_KEY, (api_key_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def roll(
        self,
        api_key_id: Union[UUID, str],
        body: Union[ApiKeyRoll, ApiKeyRollParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]: ...

    @overload
    def roll(
        self,
        api_key_id: Union[UUID, str],
        /,
        *,
        grace_period: Literal["now", "1h", "24h", "7d"],
        expires_at: Union[Union[datetime, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]: ...

    def roll(
        self,
        api_key_id: Union[UUID, str],
        body: Union[ApiKeyRoll, ApiKeyRollParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[ApiKeyWithSecret]:
        """As ``client.api_keys.roll``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_ROLL_API_KEY, (api_key_id,), body, kwargs)


class ApiKeysResource(SyncAPIResource):
    """``client.api_keys``: ``list``, ``create``, ``delete``, ``roll``.

    Issue, list and revoke the tenant's API keys.
    """

    @cached_property
    def with_raw_response(self) -> ApiKeysResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return ApiKeysResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[ApiKey]:
        """List API keys

        Returns the tenant's API keys, including revoked and expired ones, ordered by `createdAt` ascending then
        `id`. Only the display `prefix` of each key is shown, never the key. A caller without the `admin` scope (a
        `member`'s key or console token) sees only the keys of their own user; with `admin`, every key of the tenant.

        Requires scope `write`.

        ``GET /api-keys`` (operationId ``listApiKeys``, scope ``write``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``ApiKey`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_API_KEYS, ApiKey, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[ApiKeyCreate, ApiKeyCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret: ...

    @overload
    def create(
        self,
        *,
        name: str,
        scopes: Sequence[Union[ApiKeyScope, Literal["read", "write", "admin"]]],
        expires_at: Union[Union[datetime, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret: ...

    def create(
        self,
        body: Union[ApiKeyCreate, ApiKeyCreateParam, None] = None,
        **kwargs: Any,
    ) -> ApiKeyWithSecret:
        """Create an API key

        Issues a new key for the calling user with the given `scopes` and optional `expiresAt`. The full `key`
        (`mk_live_…`) is in this response **only**: Meridian stores just a hash of it. A key cannot be given scopes
        its creator's key does not have, nor outlive it: when the creating key expires, `expiresAt` is required and
        may not be later. A key can never carry more than its user's role allows: a `member` creates keys up to
        `read,write`.

        Errors: 403 `forbidden` for a scope beyond the caller's role or the creating key; 422 `validation_failed` when `expiresAt` is in
        the past, or missing or later than the creating key's expiry.

        Requires scope `write`.

        ``POST /api-keys`` (operationId ``createApiKey``, scope ``write``).

        :param body: the request body as a ``meridian.models.ApiKeyCreate`` or a dict of its fields
            (``ApiKeyCreateParam``), or its fields as the keyword arguments below.
        :param name: A name to recognise the key by.
        :param scopes: Scopes to grant.
        :param expires_at: When the key stops working; omit for a key that never expires.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ApiKeyWithSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_API_KEY, (), body, kwargs).data

    def delete(
        self,
        api_key_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Revoke an API key

        Revokes the key permanently: from the next request on it answers 401 (on a deployment of several servers,
        a server that authenticated the key in the last 5 seconds may still accept it for up to 5 seconds: servers keep
        an authenticated key that long before reading it again). The key stays listed with `revokedAt` set.
        Revoking an already revoked key succeeds and changes nothing. A key cannot revoke itself, so a tenant cannot
        lock itself out by accident: to rotate, create a new admin key, switch to it, and revoke the old one with it.

        A caller without the `admin` scope (a `member`'s key or console token) revokes only their own keys: another
        user's key answers 404, as an unknown one does.

        Errors: 404 `not_found`; 409 `conflict` when the key to revoke is the one authenticating the request.

        Requires scope `write`.

        ``DELETE /api-keys/{id}`` (operationId ``revokeApiKey``, scope ``write``).

        :param api_key_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        self._client.call(_REVOKE_API_KEY, (api_key_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def roll(
        self,
        api_key_id: Union[UUID, str],
        body: Union[ApiKeyRoll, ApiKeyRollParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret: ...

    @overload
    def roll(
        self,
        api_key_id: Union[UUID, str],
        /,
        *,
        grace_period: Literal["now", "1h", "24h", "7d"],
        expires_at: Union[Union[datetime, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret: ...

    def roll(
        self,
        api_key_id: Union[UUID, str],
        body: Union[ApiKeyRoll, ApiKeyRollParam, None] = None,
        **kwargs: Any,
    ) -> ApiKeyWithSecret:
        """Roll an API key

        Issues a successor of the key: a new key with the same `name`, `scopes` and owner, and the `expiresAt` given
        (omit it for a successor that never expires). The old key keeps working for the chosen `gracePeriod`
        (`now`, `1h`, `24h` or `7d`): its `expiresAt` becomes the end of the grace period, or stays when that is
        sooner. Deploy the successor meanwhile; the old key then stops by itself. The full `key` of the successor is
        in this response **only**. Audited as `api_key.rolled` on the old key (its new `expiresAt` and the successor's
        id) and `api_key.created` on the successor.

        The successor is bound like a created key: no scope the calling key lacks, no later expiry than the calling
        key's, no scope beyond its owner's role. A caller without the `admin` scope (a `member`'s key or console
        token) rolls only their own keys: another user's key answers 404, as an unknown one does.

        Errors: 404 `not_found`; 409 `conflict` when the key is revoked or expired, or is the key making the request
        and `gracePeriod` is `now` (a key cannot end itself at once); 403 `forbidden` for a scope the
        calling key lacks; 422 `validation_failed` when `expiresAt` is in the past, or missing or later than the calling
        key's expiry.

        Requires scope `write`.

        ``POST /api-keys/{id}/roll`` (operationId ``rollApiKey``, scope ``write``).

        :param api_key_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.ApiKeyRoll`` or a dict of its fields
            (``ApiKeyRollParam``), or its fields as the keyword arguments below.
        :param grace_period: How long the old key keeps working after the successor is issued: `now` (refused from the
            next request on), one hour, 24 hours or 7 days. An earlier `expiresAt` of the old key stays.
        :param expires_at: When the successor stops working; omit for a successor that never expires.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ApiKeyWithSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_ROLL_API_KEY, (api_key_id,), body, kwargs).data


class AsyncApiKeysResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().api_keys.with_raw_response``: ``list``, ``create``, ``delete``, ``roll``."""

    async def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[ApiKey]]:
        """As ``AsyncMeridian().api_keys.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_API_KEYS, ApiKey, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[ApiKeyCreate, ApiKeyCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]: ...

    @overload
    async def create(
        self,
        *,
        name: str,
        scopes: Sequence[Union[ApiKeyScope, Literal["read", "write", "admin"]]],
        expires_at: Union[Union[datetime, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]: ...

    async def create(
        self,
        body: Union[ApiKeyCreate, ApiKeyCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[ApiKeyWithSecret]:
        """As ``AsyncMeridian().api_keys.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_API_KEY, (), body, kwargs)

    async def delete(
        self,
        api_key_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``AsyncMeridian().api_keys.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_REVOKE_API_KEY, (api_key_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def roll(
        self,
        api_key_id: Union[UUID, str],
        body: Union[ApiKeyRoll, ApiKeyRollParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]: ...

    @overload
    async def roll(
        self,
        api_key_id: Union[UUID, str],
        /,
        *,
        grace_period: Literal["now", "1h", "24h", "7d"],
        expires_at: Union[Union[datetime, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]: ...

    async def roll(
        self,
        api_key_id: Union[UUID, str],
        body: Union[ApiKeyRoll, ApiKeyRollParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[ApiKeyWithSecret]:
        """As ``AsyncMeridian().api_keys.roll``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_ROLL_API_KEY, (api_key_id,), body, kwargs)


class AsyncApiKeysResource(AsyncAPIResource):
    """``AsyncMeridian().api_keys``: ``list``, ``create``, ``delete``, ``roll``.

    Issue, list and revoke the tenant's API keys.
    """

    @cached_property
    def with_raw_response(self) -> AsyncApiKeysResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncApiKeysResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[ApiKey]:
        """List API keys

        Returns the tenant's API keys, including revoked and expired ones, ordered by `createdAt` ascending then
        `id`. Only the display `prefix` of each key is shown, never the key. A caller without the `admin` scope (a
        `member`'s key or console token) sees only the keys of their own user; with `admin`, every key of the tenant.

        Requires scope `write`.

        ``GET /api-keys`` (operationId ``listApiKeys``, scope ``write``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``ApiKey`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_API_KEYS, ApiKey, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[ApiKeyCreate, ApiKeyCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret: ...

    @overload
    async def create(
        self,
        *,
        name: str,
        scopes: Sequence[Union[ApiKeyScope, Literal["read", "write", "admin"]]],
        expires_at: Union[Union[datetime, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret: ...

    async def create(
        self,
        body: Union[ApiKeyCreate, ApiKeyCreateParam, None] = None,
        **kwargs: Any,
    ) -> ApiKeyWithSecret:
        """Create an API key

        Issues a new key for the calling user with the given `scopes` and optional `expiresAt`. The full `key`
        (`mk_live_…`) is in this response **only**: Meridian stores just a hash of it. A key cannot be given scopes
        its creator's key does not have, nor outlive it: when the creating key expires, `expiresAt` is required and
        may not be later. A key can never carry more than its user's role allows: a `member` creates keys up to
        `read,write`.

        Errors: 403 `forbidden` for a scope beyond the caller's role or the creating key; 422 `validation_failed` when `expiresAt` is in
        the past, or missing or later than the creating key's expiry.

        Requires scope `write`.

        ``POST /api-keys`` (operationId ``createApiKey``, scope ``write``).

        :param body: the request body as a ``meridian.models.ApiKeyCreate`` or a dict of its fields
            (``ApiKeyCreateParam``), or its fields as the keyword arguments below.
        :param name: A name to recognise the key by.
        :param scopes: Scopes to grant.
        :param expires_at: When the key stops working; omit for a key that never expires.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ApiKeyWithSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_API_KEY, (), body, kwargs)).data

    async def delete(
        self,
        api_key_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Revoke an API key

        Revokes the key permanently: from the next request on it answers 401 (on a deployment of several servers,
        a server that authenticated the key in the last 5 seconds may still accept it for up to 5 seconds: servers keep
        an authenticated key that long before reading it again). The key stays listed with `revokedAt` set.
        Revoking an already revoked key succeeds and changes nothing. A key cannot revoke itself, so a tenant cannot
        lock itself out by accident: to rotate, create a new admin key, switch to it, and revoke the old one with it.

        A caller without the `admin` scope (a `member`'s key or console token) revokes only their own keys: another
        user's key answers 404, as an unknown one does.

        Errors: 404 `not_found`; 409 `conflict` when the key to revoke is the one authenticating the request.

        Requires scope `write`.

        ``DELETE /api-keys/{id}`` (operationId ``revokeApiKey``, scope ``write``).

        :param api_key_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        await self._client.call(_REVOKE_API_KEY, (api_key_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def roll(
        self,
        api_key_id: Union[UUID, str],
        body: Union[ApiKeyRoll, ApiKeyRollParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret: ...

    @overload
    async def roll(
        self,
        api_key_id: Union[UUID, str],
        /,
        *,
        grace_period: Literal["now", "1h", "24h", "7d"],
        expires_at: Union[Union[datetime, str], NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret: ...

    async def roll(
        self,
        api_key_id: Union[UUID, str],
        body: Union[ApiKeyRoll, ApiKeyRollParam, None] = None,
        **kwargs: Any,
    ) -> ApiKeyWithSecret:
        """Roll an API key

        Issues a successor of the key: a new key with the same `name`, `scopes` and owner, and the `expiresAt` given
        (omit it for a successor that never expires). The old key keeps working for the chosen `gracePeriod`
        (`now`, `1h`, `24h` or `7d`): its `expiresAt` becomes the end of the grace period, or stays when that is
        sooner. Deploy the successor meanwhile; the old key then stops by itself. The full `key` of the successor is
        in this response **only**. Audited as `api_key.rolled` on the old key (its new `expiresAt` and the successor's
        id) and `api_key.created` on the successor.

        The successor is bound like a created key: no scope the calling key lacks, no later expiry than the calling
        key's, no scope beyond its owner's role. A caller without the `admin` scope (a `member`'s key or console
        token) rolls only their own keys: another user's key answers 404, as an unknown one does.

        Errors: 404 `not_found`; 409 `conflict` when the key is revoked or expired, or is the key making the request
        and `gracePeriod` is `now` (a key cannot end itself at once); 403 `forbidden` for a scope the
        calling key lacks; 422 `validation_failed` when `expiresAt` is in the past, or missing or later than the calling
        key's expiry.

        Requires scope `write`.

        ``POST /api-keys/{id}/roll`` (operationId ``rollApiKey``, scope ``write``).

        :param api_key_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.ApiKeyRoll`` or a dict of its fields
            (``ApiKeyRollParam``), or its fields as the keyword arguments below.
        :param grace_period: How long the old key keeps working after the successor is issued: `now` (refused from the
            next request on), one hour, 24 hours or 7 days. An earlier `expiresAt` of the old key stays.
        :param expires_at: When the successor stops working; omit for a successor that never expires.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ApiKeyWithSecret``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_ROLL_API_KEY, (api_key_id,), body, kwargs)).data


class AuditLogsResourceWithRawResponse(SyncAPIResource):
    """``client.audit_logs.with_raw_response``: ``list``."""

    def list(
        self,
        *,
        action: Optional[str] = None,
        resource_type: Optional[str] = None,
        resource_id: Optional[Union[UUID, str]] = None,
        actor_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[datetime, str]] = None,
        until: Optional[Union[datetime, str]] = None,
        sort: Optional[Union[AuditLogSort, Literal["occurredAt", "-occurredAt"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[AuditLogEntry]]:
        """As ``client.audit_logs.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_AUDIT_LOGS, AuditLogEntry, (), {"action": action, "resource_type": resource_type, "resource_id": resource_id, "actor_id": actor_id, "since": since, "until": until, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AuditLogsResource(SyncAPIResource):
    """``client.audit_logs``: ``list``.

    The append-only record of every change made through the API.
    """

    @cached_property
    def with_raw_response(self) -> AuditLogsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AuditLogsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        action: Optional[str] = None,
        resource_type: Optional[str] = None,
        resource_id: Optional[Union[UUID, str]] = None,
        actor_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[datetime, str]] = None,
        until: Optional[Union[datetime, str]] = None,
        sort: Optional[Union[AuditLogSort, Literal["occurredAt", "-occurredAt"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[AuditLogEntry]:
        """List audit log entries

        Returns the append-only record of changes made in the tenant (creates, updates, deletes of every record,
        webhook endpoints and API keys), ordered by `sort`: `occurredAt` ascending (oldest first) by default, or
        `-occurredAt` for the newest first; ties are broken by `id` in the same direction. Each filter given restricts
        the list; `since` is inclusive and `until` exclusive.

        Requires scope `admin`.

        ``GET /audit-logs`` (operationId ``listAuditLogs``, scope ``admin``).

        :param action: Only entries with this action, e.g. `project.updated`.
        :param resource_type: Only entries about this kind of record, e.g. `project`.
        :param resource_id: Only entries about this record.
        :param actor_id: Only entries made by this user or this API key.
        :param since: Only entries that occurred at or after this instant. Colons may be sent unencoded.
        :param until: Only entries that occurred before this instant. Colons may be sent unencoded.
        :param sort: Order of the list: `occurredAt` (oldest first) or `-occurredAt` (newest first). Default
            `occurredAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``AuditLogEntry`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_AUDIT_LOGS, AuditLogEntry, (), {"action": action, "resource_type": resource_type, "resource_id": resource_id, "actor_id": actor_id, "since": since, "until": until, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncAuditLogsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().audit_logs.with_raw_response``: ``list``."""

    async def list(
        self,
        *,
        action: Optional[str] = None,
        resource_type: Optional[str] = None,
        resource_id: Optional[Union[UUID, str]] = None,
        actor_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[datetime, str]] = None,
        until: Optional[Union[datetime, str]] = None,
        sort: Optional[Union[AuditLogSort, Literal["occurredAt", "-occurredAt"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[AuditLogEntry]]:
        """As ``AsyncMeridian().audit_logs.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_AUDIT_LOGS, AuditLogEntry, (), {"action": action, "resource_type": resource_type, "resource_id": resource_id, "actor_id": actor_id, "since": since, "until": until, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncAuditLogsResource(AsyncAPIResource):
    """``AsyncMeridian().audit_logs``: ``list``.

    The append-only record of every change made through the API.
    """

    @cached_property
    def with_raw_response(self) -> AsyncAuditLogsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncAuditLogsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        action: Optional[str] = None,
        resource_type: Optional[str] = None,
        resource_id: Optional[Union[UUID, str]] = None,
        actor_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[datetime, str]] = None,
        until: Optional[Union[datetime, str]] = None,
        sort: Optional[Union[AuditLogSort, Literal["occurredAt", "-occurredAt"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[AuditLogEntry]:
        """List audit log entries

        Returns the append-only record of changes made in the tenant (creates, updates, deletes of every record,
        webhook endpoints and API keys), ordered by `sort`: `occurredAt` ascending (oldest first) by default, or
        `-occurredAt` for the newest first; ties are broken by `id` in the same direction. Each filter given restricts
        the list; `since` is inclusive and `until` exclusive.

        Requires scope `admin`.

        ``GET /audit-logs`` (operationId ``listAuditLogs``, scope ``admin``).

        :param action: Only entries with this action, e.g. `project.updated`.
        :param resource_type: Only entries about this kind of record, e.g. `project`.
        :param resource_id: Only entries about this record.
        :param actor_id: Only entries made by this user or this API key.
        :param since: Only entries that occurred at or after this instant. Colons may be sent unencoded.
        :param until: Only entries that occurred before this instant. Colons may be sent unencoded.
        :param sort: Order of the list: `occurredAt` (oldest first) or `-occurredAt` (newest first). Default
            `occurredAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``AuditLogEntry`` records; iterating it (``async for``) fetches every following
            page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_AUDIT_LOGS, AuditLogEntry, (), {"action": action, "resource_type": resource_type, "resource_id": resource_id, "actor_id": actor_id, "since": since, "until": until, "sort": sort, "limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class MembersResourceWithRawResponse(SyncAPIResource):
    """``client.members.with_raw_response``: ``list``, ``retrieve``, ``delete``, ``update``."""

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Member]]:
        """As ``client.members.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_MEMBERS, Member, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def retrieve(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Member]:
        """As ``client.members.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_GET_MEMBER, (member_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def delete(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``client.members.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_REMOVE_MEMBER, (member_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        member_id: Union[UUID, str],
        body: Union[MemberUpdate, MemberUpdateParam],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Member]: ...

    @overload
    def update(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        role: Union[UserRole, Literal["owner", "admin", "member", "viewer"]],
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Member]: ...

    def update(
        self,
        member_id: Union[UUID, str],
        body: Union[MemberUpdate, MemberUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Member]:
        """As ``client.members.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_UPDATE_MEMBER, (member_id,), body, kwargs)


class MembersResource(SyncAPIResource):
    """``client.members``: ``list``, ``retrieve``, ``delete``, ``update``.

    The people of the tenant and their roles (owner, admin, member, viewer); removing one revokes their keys.
    """

    @cached_property
    def with_raw_response(self) -> MembersResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return MembersResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Member]:
        """List members

        Returns the people who belong to the tenant with their roles, ordered by `createdAt` ascending then `id`.
        Removed members are not listed.

        Requires scope `admin`.

        ``GET /members`` (operationId ``listMembers``, scope ``admin``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Member`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_MEMBERS, Member, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    def retrieve(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Member:
        """Get a member

        Returns one member of the tenant.

        Errors: 404 `not_found` for an unknown or removed member.

        Requires scope `admin`.

        ``GET /members/{id}`` (operationId ``getMember``, scope ``admin``).

        :param member_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Member``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_GET_MEMBER, (member_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries}).data

    def delete(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Remove a member

        Removes the person from the tenant. In one transaction their API keys are revoked, their console sessions
        end and their account loses its sign-in (email and password), and the removal is recorded in the audit log
        as `member.removed`. Their keys are refused from the next request on (by other servers of a deployment
        within 5 seconds, as for a revoked key). Their past changes stay in the audit log under their name. To let
        them back, invite them again.

        Who may remove whom: an `owner` anyone, an `admin` members below owner.

        Errors: 403 `forbidden` when the caller's role does not allow it; 404 `not_found`; 409 `conflict` for the
        tenant's last owner, or for the member whose key makes the request.

        Requires scope `admin`.

        ``DELETE /members/{id}`` (operationId ``removeMember``, scope ``admin``).

        :param member_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        self._client.call(_REMOVE_MEMBER, (member_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def update(
        self,
        member_id: Union[UUID, str],
        body: Union[MemberUpdate, MemberUpdateParam],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Member: ...

    @overload
    def update(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        role: Union[UserRole, Literal["owner", "admin", "member", "viewer"]],
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Member: ...

    def update(
        self,
        member_id: Union[UUID, str],
        body: Union[MemberUpdate, MemberUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Member:
        """Change a member's role

        Changes a member's role. The change applies from the member's next request: their API keys are narrowed to
        the new role at once (a key never carries more than its user's role allows), and their console sessions
        end. Recorded in the audit log as `member.role_changed`.

        Who may change what: an `owner` changes any role, owners' included; an `admin` manages members below owner
        (gives or takes `admin`, `member` and `viewer`), never an owner's role nor the `owner` role.

        Errors: 403 `forbidden` when the caller's role does not allow the change; 404 `not_found`; 409 `conflict`
        when the change would leave the tenant without an owner (the last owner cannot be demoted: make someone else
        owner first).

        Requires scope `admin`.

        ``PATCH /members/{id}`` (operationId ``updateMember``, scope ``admin``).

        :param member_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.MemberUpdate`` or a dict of its fields
            (``MemberUpdateParam``), or its fields as the keyword arguments below.
        :param role: A user's role in their tenant, which decides the most their credentials may do (every operation's
            `x-required-scope` still decides): `owner` and `admin` → scopes `read`, `write`, `admin` (an owner also
            manages members' roles and the tenant's security settings such as `requireTwoFactor`); `member` → `read`,
            `write`; `viewer` → `read`. A key never carries more than its user's role allows: scopes beyond it are
            ignored.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Member``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_UPDATE_MEMBER, (member_id,), body, kwargs).data


class AsyncMembersResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().members.with_raw_response``: ``list``, ``retrieve``, ``delete``, ``update``."""

    async def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Member]]:
        """As ``AsyncMeridian().members.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_MEMBERS, Member, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def retrieve(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Member]:
        """As ``AsyncMeridian().members.retrieve``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_GET_MEMBER, (member_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def delete(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``AsyncMeridian().members.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_REMOVE_MEMBER, (member_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        member_id: Union[UUID, str],
        body: Union[MemberUpdate, MemberUpdateParam],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Member]: ...

    @overload
    async def update(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        role: Union[UserRole, Literal["owner", "admin", "member", "viewer"]],
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Member]: ...

    async def update(
        self,
        member_id: Union[UUID, str],
        body: Union[MemberUpdate, MemberUpdateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[Member]:
        """As ``AsyncMeridian().members.update``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_UPDATE_MEMBER, (member_id,), body, kwargs)


class AsyncMembersResource(AsyncAPIResource):
    """``AsyncMeridian().members``: ``list``, ``retrieve``, ``delete``, ``update``.

    The people of the tenant and their roles (owner, admin, member, viewer); removing one revokes their keys.
    """

    @cached_property
    def with_raw_response(self) -> AsyncMembersResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncMembersResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Member]:
        """List members

        Returns the people who belong to the tenant with their roles, ordered by `createdAt` ascending then `id`.
        Removed members are not listed.

        Requires scope `admin`.

        ``GET /members`` (operationId ``listMembers``, scope ``admin``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Member`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_MEMBERS, Member, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    async def retrieve(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Member:
        """Get a member

        Returns one member of the tenant.

        Errors: 404 `not_found` for an unknown or removed member.

        Requires scope `admin`.

        ``GET /members/{id}`` (operationId ``getMember``, scope ``admin``).

        :param member_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Member``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_GET_MEMBER, (member_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})).data

    async def delete(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Remove a member

        Removes the person from the tenant. In one transaction their API keys are revoked, their console sessions
        end and their account loses its sign-in (email and password), and the removal is recorded in the audit log
        as `member.removed`. Their keys are refused from the next request on (by other servers of a deployment
        within 5 seconds, as for a revoked key). Their past changes stay in the audit log under their name. To let
        them back, invite them again.

        Who may remove whom: an `owner` anyone, an `admin` members below owner.

        Errors: 403 `forbidden` when the caller's role does not allow it; 404 `not_found`; 409 `conflict` for the
        tenant's last owner, or for the member whose key makes the request.

        Requires scope `admin`.

        ``DELETE /members/{id}`` (operationId ``removeMember``, scope ``admin``).

        :param member_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        await self._client.call(_REMOVE_MEMBER, (member_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def update(
        self,
        member_id: Union[UUID, str],
        body: Union[MemberUpdate, MemberUpdateParam],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Member: ...

    @overload
    async def update(
        self,
        member_id: Union[UUID, str],
        /,
        *,
        role: Union[UserRole, Literal["owner", "admin", "member", "viewer"]],
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Member: ...

    async def update(
        self,
        member_id: Union[UUID, str],
        body: Union[MemberUpdate, MemberUpdateParam, None] = None,
        **kwargs: Any,
    ) -> Member:
        """Change a member's role

        Changes a member's role. The change applies from the member's next request: their API keys are narrowed to
        the new role at once (a key never carries more than its user's role allows), and their console sessions
        end. Recorded in the audit log as `member.role_changed`.

        Who may change what: an `owner` changes any role, owners' included; an `admin` manages members below owner
        (gives or takes `admin`, `member` and `viewer`), never an owner's role nor the `owner` role.

        Errors: 403 `forbidden` when the caller's role does not allow the change; 404 `not_found`; 409 `conflict`
        when the change would leave the tenant without an owner (the last owner cannot be demoted: make someone else
        owner first).

        Requires scope `admin`.

        ``PATCH /members/{id}`` (operationId ``updateMember``, scope ``admin``).

        :param member_id: The record's id (UUID).
        :param body: the request body as a ``meridian.models.MemberUpdate`` or a dict of its fields
            (``MemberUpdateParam``), or its fields as the keyword arguments below.
        :param role: A user's role in their tenant, which decides the most their credentials may do (every operation's
            `x-required-scope` still decides): `owner` and `admin` → scopes `read`, `write`, `admin` (an owner also
            manages members' roles and the tenant's security settings such as `requireTwoFactor`); `member` → `read`,
            `write`; `viewer` → `read`. A key never carries more than its user's role allows: scopes beyond it are
            ignored.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Member``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_UPDATE_MEMBER, (member_id,), body, kwargs)).data


class InvitationsResourceWithRawResponse(SyncAPIResource):
    """``client.invitations.with_raw_response``: ``list``, ``create``, ``delete``."""

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[SyncPage[Invitation]]:
        """As ``client.invitations.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.page_response(_LIST_INVITATIONS, Invitation, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[InvitationCreate, InvitationCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[InvitationCreated]: ...

    @overload
    def create(
        self,
        *,
        email: str,
        role: Union[UserRole, Literal["owner", "admin", "member", "viewer"]],
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[InvitationCreated]: ...

    def create(
        self,
        body: Union[InvitationCreate, InvitationCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[InvitationCreated]:
        """As ``client.invitations.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_CREATE_INVITATION, (), body, kwargs)

    def delete(
        self,
        invitation_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``client.invitations.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return self._client.call(_REVOKE_INVITATION, (invitation_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class InvitationsResource(SyncAPIResource):
    """``client.invitations``: ``list``, ``create``, ``delete``.

    One-time links, optionally mailed, with which a person joins the tenant with a role.
    """

    @cached_property
    def with_raw_response(self) -> InvitationsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return InvitationsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> SyncPage[Invitation]:
        """List pending invitations

        Returns the invitations that can still be accepted (neither accepted, revoked nor expired), ordered by
        `createdAt` ascending then `id`. The links themselves are never shown again.

        Requires scope `admin`.

        ``GET /invitations`` (operationId ``listInvitations``, scope ``admin``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Invitation`` records; iterating it (``for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_INVITATIONS, Invitation, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    def create(
        self,
        body: Union[InvitationCreate, InvitationCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> InvitationCreated: ...

    @overload
    def create(
        self,
        *,
        email: str,
        role: Union[UserRole, Literal["owner", "admin", "member", "viewer"]],
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> InvitationCreated: ...

    def create(
        self,
        body: Union[InvitationCreate, InvitationCreateParam, None] = None,
        **kwargs: Any,
    ) -> InvitationCreated:
        """Invite someone

        Invites a person by email to join the tenant with a role. The answer holds the one-time `url`, valid for
        7 days and shown only now (Meridian keeps a hash of its token). When the deployment has SMTP configured
        (`MERIDIAN_SMTP_URL`) the link is also mailed to `email`, and `emailSent` says whether that worked.
        Opening the link in the console and choosing a name and password (`POST /auth/invitations/accept`) creates
        the account and signs it in. Recorded in the audit log as `member.invited` (never with the link).

        An `owner` may invite with any role; an `admin` with `admin`, `member` or `viewer`.

        Errors: 403 `forbidden` for a role the caller may not give; 409 `conflict` when an account with this
        email already exists, or a pending invitation for it does (revoke that one first).

        Requires scope `admin`.

        ``POST /invitations`` (operationId ``createInvitation``, scope ``admin``).

        :param body: the request body as a ``meridian.models.InvitationCreate`` or a dict of its fields
            (``InvitationCreateParam``), or its fields as the keyword arguments below.
        :param email: The invitee's email; compared case-insensitively with existing accounts.
        :param role: A user's role in their tenant, which decides the most their credentials may do (every operation's
            `x-required-scope` still decides): `owner` and `admin` → scopes `read`, `write`, `admin` (an owner also
            manages members' roles and the tenant's security settings such as `requireTwoFactor`); `member` → `read`,
            `write`; `viewer` → `read`. A key never carries more than its user's role allows: scopes beyond it are
            ignored.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``InvitationCreated``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.call(_CREATE_INVITATION, (), body, kwargs).data

    def delete(
        self,
        invitation_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Revoke an invitation

        Revokes a pending invitation: its link stops working at once. Recorded in the audit log as
        `invitation.revoked`. Revoking an invitation that is already revoked or expired succeeds and changes nothing.

        Errors: 404 `not_found`; 409 `conflict` when it was already accepted (remove the member instead).

        Requires scope `admin`.

        ``DELETE /invitations/{id}`` (operationId ``revokeInvitation``, scope ``admin``).

        :param invitation_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        self._client.call(_REVOKE_INVITATION, (invitation_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncInvitationsResourceWithRawResponse(AsyncAPIResource):
    """``AsyncMeridian().invitations.with_raw_response``: ``list``, ``create``, ``delete``."""

    async def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AsyncPage[Invitation]]:
        """As ``AsyncMeridian().invitations.list``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.page_response(_LIST_INVITATIONS, Invitation, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[InvitationCreate, InvitationCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[InvitationCreated]: ...

    @overload
    async def create(
        self,
        *,
        email: str,
        role: Union[UserRole, Literal["owner", "admin", "member", "viewer"]],
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[InvitationCreated]: ...

    async def create(
        self,
        body: Union[InvitationCreate, InvitationCreateParam, None] = None,
        **kwargs: Any,
    ) -> APIResponse[InvitationCreated]:
        """As ``AsyncMeridian().invitations.create``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_CREATE_INVITATION, (), body, kwargs)

    async def delete(
        self,
        invitation_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """As ``AsyncMeridian().invitations.delete``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) around its data (``.data`` or ``.parse()``)."""
        return await self._client.call(_REVOKE_INVITATION, (invitation_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class AsyncInvitationsResource(AsyncAPIResource):
    """``AsyncMeridian().invitations``: ``list``, ``create``, ``delete``.

    One-time links, optionally mailed, with which a person joins the tenant with a role.
    """

    @cached_property
    def with_raw_response(self) -> AsyncInvitationsResourceWithRawResponse:
        """These methods, each returning the ``APIResponse`` (status, headers, request id) around the data."""
        return AsyncInvitationsResourceWithRawResponse(self._client)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AsyncPaginator[Invitation]:
        """List pending invitations

        Returns the invitations that can still be accepted (neither accepted, revoked nor expired), ordered by
        `createdAt` ascending then `id`. The links themselves are never shown again.

        Requires scope `admin`.

        ``GET /invitations`` (operationId ``listInvitations``, scope ``admin``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the first page of ``Invitation`` records; iterating it (``async for``) fetches every following page.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self._client.page(_LIST_INVITATIONS, Invitation, (), {"limit": limit, "offset": offset, "extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})

    @overload
    async def create(
        self,
        body: Union[InvitationCreate, InvitationCreateParam],
        /,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> InvitationCreated: ...

    @overload
    async def create(
        self,
        *,
        email: str,
        role: Union[UserRole, Literal["owner", "admin", "member", "viewer"]],
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> InvitationCreated: ...

    async def create(
        self,
        body: Union[InvitationCreate, InvitationCreateParam, None] = None,
        **kwargs: Any,
    ) -> InvitationCreated:
        """Invite someone

        Invites a person by email to join the tenant with a role. The answer holds the one-time `url`, valid for
        7 days and shown only now (Meridian keeps a hash of its token). When the deployment has SMTP configured
        (`MERIDIAN_SMTP_URL`) the link is also mailed to `email`, and `emailSent` says whether that worked.
        Opening the link in the console and choosing a name and password (`POST /auth/invitations/accept`) creates
        the account and signs it in. Recorded in the audit log as `member.invited` (never with the link).

        An `owner` may invite with any role; an `admin` with `admin`, `member` or `viewer`.

        Errors: 403 `forbidden` for a role the caller may not give; 409 `conflict` when an account with this
        email already exists, or a pending invitation for it does (revoke that one first).

        Requires scope `admin`.

        ``POST /invitations`` (operationId ``createInvitation``, scope ``admin``).

        :param body: the request body as a ``meridian.models.InvitationCreate`` or a dict of its fields
            (``InvitationCreateParam``), or its fields as the keyword arguments below.
        :param email: The invitee's email; compared case-insensitively with existing accounts.
        :param role: A user's role in their tenant, which decides the most their credentials may do (every operation's
            `x-required-scope` still decides): `owner` and `admin` → scopes `read`, `write`, `admin` (an owner also
            manages members' roles and the tenant's security settings such as `requireTwoFactor`); `member` → `read`,
            `write`; `viewer` → `read`. A key never carries more than its user's role allows: scopes beyond it are
            ignored.
        :param idempotency_key: A unique string (e.g. a UUID) that makes retrying this POST safe: for 24 hours a
            request with the same key and body returns the first response without repeating the effect, marked by the
            response header `Idempotent-Replayed: true`. The same key with a different body answers 422
            `idempotency_key_reused`; a retry while the first is in flight answers 409 `conflict`. Keys are per
            tenant. Only successful responses are stored: after an error (including a request rejected by validation)
            the same key may be used again. Responses that carry a one-time secret (`POST /api-keys`, `POST
            /webhooks`, `rotate-secret`) are never stored: a retry with the key answers 409 `conflict` naming the
            record the first request created. A retry while the first request's outcome is unknown (its process
            stopped) also answers 409 until the key expires.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``InvitationCreated``.
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self._client.call(_CREATE_INVITATION, (), body, kwargs)).data

    async def delete(
        self,
        invitation_id: Union[UUID, str],
        /,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> None:
        """Revoke an invitation

        Revokes a pending invitation: its link stops working at once. Recorded in the audit log as
        `invitation.revoked`. Revoking an invitation that is already revoked or expired succeeds and changes nothing.

        Errors: 404 `not_found`; 409 `conflict` when it was already accepted (remove the member instead).

        Requires scope `admin`.

        ``DELETE /invitations/{id}`` (operationId ``revokeInvitation``, scope ``admin``).

        :param invitation_id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        await self._client.call(_REVOKE_INVITATION, (invitation_id,), None, {"extra_headers": extra_headers, "timeout": timeout, "max_retries": max_retries})


class SyncResourcesClient(SyncAPIClient):
    """The resource tree's roots, one attribute per top-level resource of the API (base of ``Meridian``)."""

    @cached_property
    def projects(self) -> ProjectsResource:
        """``client.projects``: ``list``, ``create``, ``retrieve``, ``update``, ``status_reports``, ``milestones``."""
        return ProjectsResource(self)

    @cached_property
    def status_reports(self) -> StatusReportsResource:
        """``client.status_reports``: ``list``, ``retrieve``."""
        return StatusReportsResource(self)

    @cached_property
    def risks(self) -> RisksResource:
        """``client.risks``: ``list``, ``create``, ``retrieve``, ``update``."""
        return RisksResource(self)

    @cached_property
    def issues(self) -> IssuesResource:
        """``client.issues``: ``list``, ``create``, ``retrieve``, ``update``."""
        return IssuesResource(self)

    @cached_property
    def resources(self) -> ResourcesResource:
        """``client.resources``: ``list``, ``create``, ``retrieve``, ``update``, ``availability``."""
        return ResourcesResource(self)

    @cached_property
    def allocations(self) -> AllocationsResource:
        """``client.allocations``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``, ``conflicts``."""
        return AllocationsResource(self)

    @cached_property
    def agents(self) -> AgentsResource:
        """``client.agents``: ``list``, ``run``, ``ask``, ``executions``."""
        return AgentsResource(self)

    @cached_property
    def webhooks(self) -> WebhooksResource:
        """``client.webhooks``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``, ``rotate_secret``, ``reveal_secret``, ``test``, ``deliveries``."""
        return WebhooksResource(self)

    @cached_property
    def me(self) -> MeResource:
        """``client.me``: ``retrieve``."""
        return MeResource(self)

    @cached_property
    def tenant(self) -> TenantResource:
        """``client.tenant``: ``retrieve``, ``update``, ``sso``."""
        return TenantResource(self)

    @cached_property
    def api_keys(self) -> ApiKeysResource:
        """``client.api_keys``: ``list``, ``create``, ``delete``, ``roll``."""
        return ApiKeysResource(self)

    @cached_property
    def audit_logs(self) -> AuditLogsResource:
        """``client.audit_logs``: ``list``."""
        return AuditLogsResource(self)

    @cached_property
    def members(self) -> MembersResource:
        """``client.members``: ``list``, ``retrieve``, ``delete``, ``update``."""
        return MembersResource(self)

    @cached_property
    def invitations(self) -> InvitationsResource:
        """``client.invitations``: ``list``, ``create``, ``delete``."""
        return InvitationsResource(self)


class AsyncResourcesClient(AsyncAPIClient):
    """The resource tree's roots, one attribute per top-level resource of the API (base of ``AsyncMeridian``)."""

    @cached_property
    def projects(self) -> AsyncProjectsResource:
        """``client.projects``: ``list``, ``create``, ``retrieve``, ``update``, ``status_reports``, ``milestones``."""
        return AsyncProjectsResource(self)

    @cached_property
    def status_reports(self) -> AsyncStatusReportsResource:
        """``client.status_reports``: ``list``, ``retrieve``."""
        return AsyncStatusReportsResource(self)

    @cached_property
    def risks(self) -> AsyncRisksResource:
        """``client.risks``: ``list``, ``create``, ``retrieve``, ``update``."""
        return AsyncRisksResource(self)

    @cached_property
    def issues(self) -> AsyncIssuesResource:
        """``client.issues``: ``list``, ``create``, ``retrieve``, ``update``."""
        return AsyncIssuesResource(self)

    @cached_property
    def resources(self) -> AsyncResourcesResource:
        """``client.resources``: ``list``, ``create``, ``retrieve``, ``update``, ``availability``."""
        return AsyncResourcesResource(self)

    @cached_property
    def allocations(self) -> AsyncAllocationsResource:
        """``client.allocations``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``, ``conflicts``."""
        return AsyncAllocationsResource(self)

    @cached_property
    def agents(self) -> AsyncAgentsResource:
        """``client.agents``: ``list``, ``run``, ``ask``, ``executions``."""
        return AsyncAgentsResource(self)

    @cached_property
    def webhooks(self) -> AsyncWebhooksResource:
        """``client.webhooks``: ``list``, ``create``, ``retrieve``, ``delete``, ``update``, ``rotate_secret``, ``reveal_secret``, ``test``, ``deliveries``."""
        return AsyncWebhooksResource(self)

    @cached_property
    def me(self) -> AsyncMeResource:
        """``client.me``: ``retrieve``."""
        return AsyncMeResource(self)

    @cached_property
    def tenant(self) -> AsyncTenantResource:
        """``client.tenant``: ``retrieve``, ``update``, ``sso``."""
        return AsyncTenantResource(self)

    @cached_property
    def api_keys(self) -> AsyncApiKeysResource:
        """``client.api_keys``: ``list``, ``create``, ``delete``, ``roll``."""
        return AsyncApiKeysResource(self)

    @cached_property
    def audit_logs(self) -> AsyncAuditLogsResource:
        """``client.audit_logs``: ``list``."""
        return AsyncAuditLogsResource(self)

    @cached_property
    def members(self) -> AsyncMembersResource:
        """``client.members``: ``list``, ``retrieve``, ``delete``, ``update``."""
        return AsyncMembersResource(self)

    @cached_property
    def invitations(self) -> AsyncInvitationsResource:
        """``client.invitations``: ``list``, ``create``, ``delete``."""
        return AsyncInvitationsResource(self)


RESOURCE_METHODS = {
    'listProjects': 'projects.list',
    'createProject': 'projects.create',
    'getProject': 'projects.retrieve',
    'updateProject': 'projects.update',
    'listProjectStatusReports': 'projects.status_reports.list',
    'createStatusReport': 'projects.status_reports.create',
    'listStatusReports': 'status_reports.list',
    'getStatusReport': 'status_reports.retrieve',
    'listProjectMilestones': 'projects.milestones.list',
    'createMilestone': 'projects.milestones.create',
    'getMilestone': 'projects.milestones.retrieve',
    'deleteMilestone': 'projects.milestones.delete',
    'updateMilestone': 'projects.milestones.update',
    'listRisks': 'risks.list',
    'createRisk': 'risks.create',
    'getRisk': 'risks.retrieve',
    'updateRisk': 'risks.update',
    'listIssues': 'issues.list',
    'createIssue': 'issues.create',
    'getIssue': 'issues.retrieve',
    'updateIssue': 'issues.update',
    'listResources': 'resources.list',
    'createResource': 'resources.create',
    'getResource': 'resources.retrieve',
    'updateResource': 'resources.update',
    'getResourceAvailability': 'resources.availability.retrieve',
    'listAllocations': 'allocations.list',
    'createAllocation': 'allocations.create',
    'listAllocationConflicts': 'allocations.conflicts.list',
    'getAllocation': 'allocations.retrieve',
    'deleteAllocation': 'allocations.delete',
    'updateAllocation': 'allocations.update',
    'listAgents': 'agents.list',
    'runAgent': 'agents.run',
    'listAgentExecutions': 'agents.executions.list',
    'getAgentExecution': 'agents.executions.retrieve',
    'askAgent': 'agents.ask',
    'listWebhooks': 'webhooks.list',
    'createWebhook': 'webhooks.create',
    'getWebhook': 'webhooks.retrieve',
    'deleteWebhook': 'webhooks.delete',
    'updateWebhook': 'webhooks.update',
    'rotateWebhookSecret': 'webhooks.rotate_secret',
    'revealWebhookSecret': 'webhooks.reveal_secret',
    'listWebhookDeliveries': 'webhooks.deliveries.list',
    'testWebhook': 'webhooks.test',
    'resendWebhookDelivery': 'webhooks.deliveries.resend',
    'getMe': 'me.retrieve',
    'getTenant': 'tenant.retrieve',
    'updateTenant': 'tenant.update',
    'listApiKeys': 'api_keys.list',
    'createApiKey': 'api_keys.create',
    'revokeApiKey': 'api_keys.delete',
    'rollApiKey': 'api_keys.roll',
    'listAuditLogs': 'audit_logs.list',
    'getTenantSso': 'tenant.sso.retrieve',
    'updateTenantSso': 'tenant.sso.update',
    'deleteTenantSso': 'tenant.sso.delete',
    'listMembers': 'members.list',
    'getMember': 'members.retrieve',
    'removeMember': 'members.delete',
    'updateMember': 'members.update',
    'listInvitations': 'invitations.list',
    'createInvitation': 'invitations.create',
    'revokeInvitation': 'invitations.delete',
}
"""Where each operation of the spec sits in the tree, by operationId (``listProjects`` → ``projects.list``)."""
