"""The API's operations, typed from the spec, for ``Meridian`` and ``AsyncMeridian``.

Generated from spec/openapi.yaml by sdk-python/scripts/generate_operations.py. Do not edit: change the spec and
run `npm run generate`.
"""

# ruff: noqa: E501
from __future__ import annotations

from datetime import date, datetime
from functools import cached_property
from typing import List, Literal, Mapping, Optional, Sequence, Union
from uuid import UUID

from pydantic import Field
from typing_extensions import Annotated

from meridian._base_client import (
    APIResponse,
    AsyncAPIClient,
    AsyncAPIResource,
    Operation,
    Param,
    SyncAPIClient,
    SyncAPIResource,
    Timeout,
)
from meridian._generated.models.agent_execution import AgentExecution
from meridian._generated.models.agent_execution_list import AgentExecutionList
from meridian._generated.models.agent_id import AgentId
from meridian._generated.models.agent_list import AgentList
from meridian._generated.models.agent_run_request import AgentRunRequest
from meridian._generated.models.allocation import Allocation
from meridian._generated.models.allocation_conflict_list import AllocationConflictList
from meridian._generated.models.allocation_create import AllocationCreate
from meridian._generated.models.allocation_list import AllocationList
from meridian._generated.models.allocation_sort import AllocationSort
from meridian._generated.models.allocation_update import AllocationUpdate
from meridian._generated.models.api_key_create import ApiKeyCreate
from meridian._generated.models.api_key_list import ApiKeyList
from meridian._generated.models.api_key_with_secret import ApiKeyWithSecret
from meridian._generated.models.ask_answer import AskAnswer
from meridian._generated.models.ask_request import AskRequest
from meridian._generated.models.audit_log_entry_list import AuditLogEntryList
from meridian._generated.models.audit_log_sort import AuditLogSort
from meridian._generated.models.availability_granularity import AvailabilityGranularity
from meridian._generated.models.execution_status import ExecutionStatus
from meridian._generated.models.issue import Issue
from meridian._generated.models.issue_create import IssueCreate
from meridian._generated.models.issue_list import IssueList
from meridian._generated.models.issue_priority import IssuePriority
from meridian._generated.models.issue_sort import IssueSort
from meridian._generated.models.issue_status import IssueStatus
from meridian._generated.models.issue_update import IssueUpdate
from meridian._generated.models.me import Me
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
from meridian._generated.models.status_report import StatusReport
from meridian._generated.models.status_report_create import StatusReportCreate
from meridian._generated.models.status_report_list import StatusReportList
from meridian._generated.models.tenant import Tenant
from meridian._generated.models.tenant_update import TenantUpdate
from meridian._generated.models.webhook_delivery import WebhookDelivery
from meridian._generated.models.webhook_delivery_list import WebhookDeliveryList
from meridian._generated.models.webhook_delivery_status import WebhookDeliveryStatus
from meridian._generated.models.webhook_endpoint import WebhookEndpoint
from meridian._generated.models.webhook_endpoint_create import WebhookEndpointCreate
from meridian._generated.models.webhook_endpoint_list import WebhookEndpointList
from meridian._generated.models.webhook_endpoint_update import WebhookEndpointUpdate
from meridian._generated.models.webhook_endpoint_with_secret import WebhookEndpointWithSecret

# One descriptor per operation: what the client validates, where each argument goes, which models.

_LIST_PROJECTS: Operation[ProjectList] = Operation(
    'listProjects',
    'GET',
    '/projects',
    (
        Param('status', 'status', 'query', Optional[ProjectStatus], required=False),
        Param('category', 'category', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('borough', 'borough', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('managing_agency', 'managingAgency', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('client_agency', 'clientAgency', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('q', 'q', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=200)]], required=False),
        Param('tag', 'tag', 'query', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=50)]], required=False),
        Param('sort', 'sort', 'query', Optional[ProjectSort], required=False),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
    ),
    body=None,
    response=StatusReport,
)

_LIST_PROJECT_MILESTONES: Operation[MilestoneList] = Operation(
    'listProjectMilestones',
    'GET',
    '/projects/{id}/milestones',
    (
        Param('id', 'id', 'path', UUID, required=True),
        Param('status', 'status', 'query', Optional[MilestoneStatus], required=False),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('status', 'status', 'query', Optional[RiskStatus], required=False),
        Param('severity', 'severity', 'query', Optional[RiskSeverity], required=False),
        Param('sort', 'sort', 'query', Optional[RiskSort], required=False),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('status', 'status', 'query', Optional[IssueStatus], required=False),
        Param('priority', 'priority', 'query', Optional[IssuePriority], required=False),
        Param('assignee_id', 'assigneeId', 'query', Optional[UUID], required=False),
        Param('sort', 'sort', 'query', Optional[IssueSort], required=False),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('status', 'status', 'query', Optional[ExecutionStatus], required=False),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
        Param('idempotency_key', 'Idempotency-Key', 'header', Optional[Annotated[str, Field(strict=True, min_length=1, max_length=255)]], required=False),
    ),
    body=None,
    response=WebhookEndpointWithSecret,
)

_LIST_WEBHOOK_DELIVERIES: Operation[WebhookDeliveryList] = Operation(
    'listWebhookDeliveries',
    'GET',
    '/webhooks/{id}/deliveries',
    (
        Param('id', 'id', 'path', UUID, required=True),
        Param('status', 'status', 'query', Optional[WebhookDeliveryStatus], required=False),
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
        Param('id', 'id', 'path', UUID, required=True),
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
        Param('id', 'id', 'path', UUID, required=True),
    ),
    body=None,
    response=None,
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


class ProjectsResource(SyncAPIResource):
    """Projects: Projects with their schedule, budget and status; the detail view adds milestones, team and a budget
    summary.

    ``Meridian().projects``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_projects(
        self,
        *,
        status: Optional[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]] = None,
        category: Optional[str] = None,
        borough: Optional[str] = None,
        managing_agency: Optional[str] = None,
        client_agency: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
        sort: Optional[Union[ProjectSort, Literal["createdAt", "-createdAt", "name", "-name", "endDate", "-endDate", "forecastEndDate", "-forecastEndDate", "budget", "-budget"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ProjectList:
        """List projects

        Returns the tenant's projects in pages of `limit` (default 25, max 100), ordered by `sort`: `createdAt`
        ascending by default, or `name`, `endDate`, `forecastEndDate`, `budget` or `createdAt`, each with a leading
        `-` for descending (`sort=-budget` lists the largest budgets first). Ties are broken by `id` in the same
        direction, so pages are stable. Names compare case-insensitively. Projects with no `forecastEndDate` or no
        `budget` (unknown) come last in either direction.

        `q` searches: a project matches when its `name`, `code` or `description` contains the text, ignoring case
        (`q=bridge` finds "Brooklyn Bridge Promenade" and "BRIDGE-42"). `tag` restricts to projects carrying that tag
        (ignoring case). When `status` is given the list is restricted to projects with that status.

        `category`, `borough`, `managingAgency` and `clientAgency` filter on the project's descriptive fields: a
        project matches when the field equals the value or lists it as one of its comma-separated items, ignoring
        case and surrounding spaces, so `borough=Brooklyn` finds `Brooklyn` and `Brooklyn, Queens`. Filters combine
        with AND: `managingAgency=DEP&borough=Brooklyn` lists DEP's projects in Brooklyn.

        Requires scope `read`.

        ``GET /projects`` (operationId ``listProjects``).

        :param status: Only projects with this status.
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
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ProjectList`` (``meridian.models.ProjectList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_projects_with_response(status=status, category=category, borough=borough, managing_agency=managing_agency, client_agency=client_agency, q=q, tag=tag, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_projects_with_response(
        self,
        *,
        status: Optional[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]] = None,
        category: Optional[str] = None,
        borough: Optional[str] = None,
        managing_agency: Optional[str] = None,
        client_agency: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
        sort: Optional[Union[ProjectSort, Literal["createdAt", "-createdAt", "name", "-name", "endDate", "-endDate", "forecastEndDate", "-forecastEndDate", "budget", "-budget"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ProjectList]:
        """List projects, returning the whole answer: as ``list_projects``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ProjectList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_PROJECTS, {'status': status, 'category': category, 'borough': borough, 'managing_agency': managing_agency, 'client_agency': client_agency, 'q': q, 'tag': tag, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_project(
        self,
        body: ProjectCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project:
        """Create a project

        Creates a project. `name`, `startDate` and `endDate` are required; `status` defaults to `PLANNED`;
        `actualCost` and `progress` stay null (unknown) until given or reported in a status report. Money is in major units of the tenant's currency, which the project
        inherits as its read-only `currency`.

        Errors: 400 `validation_failed` for a malformed body; 422 `validation_failed` when `endDate` is before
        `startDate` or `projectManagerId` names no resource of the tenant; 409 `conflict` when `code` is already used
        by another project of the tenant.

        Requires scope `write`.

        ``POST /projects`` (operationId ``createProject``).

        :param body: the request body, a ``meridian.models.ProjectCreate``.
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
        :returns: the parsed ``Project`` (``meridian.models.Project``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_project_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_project_with_response(
        self,
        body: ProjectCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]:
        """Create a project, returning the whole answer: as ``create_project``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Project``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_PROJECT, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_project(
        self,
        id: Union[UUID, str],
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

        ``GET /projects/{id}`` (operationId ``getProject``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ProjectDetail`` (``meridian.models.ProjectDetail``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_project_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_project_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ProjectDetail]:
        """Get a project with milestones, team and budget summary, returning the whole answer: as ``get_project``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ProjectDetail``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_PROJECT, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def update_project(
        self,
        id: Union[UUID, str],
        body: ProjectUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project:
        """Update a project

        Changes only the fields present in the body; absent fields keep their values and `null` clears a nullable
        field. An empty body changes nothing. A change of `status` emits `project.status_changed`; a change that takes
        `actualCost` or `forecastCost` above `budget` emits `budget.overrun_detected`.

        Errors: 404 `not_found`; 409 `invalid_transition` for a status change out of COMPLETED or CANCELLED other
        than a reopen; 409 `conflict` for a duplicate `code`; 412 `precondition_failed` when `If-Match` does not
        match; 422 `validation_failed` when the resulting `endDate` is before `startDate`.

        Requires scope `write`.

        ``PATCH /projects/{id}`` (operationId ``updateProject``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.ProjectUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Project`` (``meridian.models.Project``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.update_project_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def update_project_with_response(
        self,
        id: Union[UUID, str],
        body: ProjectUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]:
        """Update a project, returning the whole answer: as ``update_project``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Project``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_UPDATE_PROJECT, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class StatusReportsResource(SyncAPIResource):
    """Status Reports: How a project stood on a date: status, phase, forecasts, actual cost, progress and a summary.
    Submitting the newest report moves the project; the reports are its history (GET newest first).

    ``Meridian().status_reports``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_project_status_reports(
        self,
        id: Union[UUID, str],
        *,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReportList:
        """List a project's status reports

        Returns the project's status reports, **newest first**: by `asOf` descending, then `createdAt` descending,
        then `id`, in pages of `limit` (default 25, max 100). `since` and `until` restrict `asOf` to a date range
        (inclusive). This is the project's history: how its status, forecasts, cost and progress stood on each date.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}/status-reports`` (operationId ``listProjectStatusReports``).

        :param id: The record's id (UUID).
        :param since: Only reports with `asOf` on or after this date.
        :param until: Only reports with `asOf` on or before this date.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReportList`` (``meridian.models.StatusReportList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_project_status_reports_with_response(id, since=since, until=until, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_project_status_reports_with_response(
        self,
        id: Union[UUID, str],
        *,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReportList]:
        """List a project's status reports, returning the whole answer: as ``list_project_status_reports``, but the result is an
        ``APIResponse`` whose ``data`` is the ``StatusReportList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_PROJECT_STATUS_REPORTS, {'id': id, 'since': since, 'until': until, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_status_report(
        self,
        id: Union[UUID, str],
        body: StatusReportCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
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

        ``POST /projects/{id}/status-reports`` (operationId ``createStatusReport``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.StatusReportCreate``.
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
        :returns: the parsed ``StatusReport`` (``meridian.models.StatusReport``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_status_report_with_response(id, body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_status_report_with_response(
        self,
        id: Union[UUID, str],
        body: StatusReportCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]:
        """Submit a status report, returning the whole answer: as ``create_status_report``, but the result is an
        ``APIResponse`` whose ``data`` is the ``StatusReport``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_STATUS_REPORT, {'id': id, 'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def list_status_reports(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReportList:
        """List status reports across the portfolio

        Returns the tenant's status reports across all projects, **newest first** (by `asOf` descending, then
        `createdAt` descending, then `id`), in pages of `limit` (default 25, max 100). Filters: `projectId`, and
        `since`/`until` on `asOf` (inclusive); they combine with AND.

        Requires scope `read`.

        ``GET /status-reports`` (operationId ``listStatusReports``).

        :param project_id: Only reports of this project.
        :param since: Only reports with `asOf` on or after this date.
        :param until: Only reports with `asOf` on or before this date.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReportList`` (``meridian.models.StatusReportList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_status_reports_with_response(project_id=project_id, since=since, until=until, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_status_reports_with_response(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReportList]:
        """List status reports across the portfolio, returning the whole answer: as ``list_status_reports``, but the result is an
        ``APIResponse`` whose ``data`` is the ``StatusReportList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_STATUS_REPORTS, {'project_id': project_id, 'since': since, 'until': until, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_status_report(
        self,
        id: Union[UUID, str],
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReport:
        """Get a status report

        Returns one status report (reports are never changed once stored).

        Errors: 404 `not_found` when no report with this id exists in your tenant.

        Requires scope `read`.

        ``GET /status-reports/{id}`` (operationId ``getStatusReport``).

        :param id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReport`` (``meridian.models.StatusReport``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_status_report_with_response(id, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_status_report_with_response(
        self,
        id: Union[UUID, str],
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]:
        """Get a status report, returning the whole answer: as ``get_status_report``, but the result is an
        ``APIResponse`` whose ``data`` is the ``StatusReport``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_STATUS_REPORT, {'id': id}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class MilestonesResource(SyncAPIResource):
    """Milestones: Dated checkpoints of a project. A milestone still open when its due date passes becomes MISSED and
    emits `milestone.missed`.

    ``Meridian().milestones``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_project_milestones(
        self,
        id: Union[UUID, str],
        *,
        status: Optional[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]] = None,
        sort: Optional[Union[MilestoneSort, Literal["createdAt", "-createdAt", "dueDate", "-dueDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> MilestoneList:
        """List a project's milestones

        Returns the milestones of the project, ordered by `sort`: `createdAt` ascending by default, `dueDate` for the
        earliest due first, `-dueDate` for the latest; ties are broken by `id` in the same direction. When `status` is
        given the list is restricted to milestones with that status.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}/milestones`` (operationId ``listProjectMilestones``).

        :param id: The record's id (UUID).
        :param status: Only milestones with this status.
        :param sort: Order of the list: `createdAt` or `dueDate`, with a leading `-` for descending. Default
            `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``MilestoneList`` (``meridian.models.MilestoneList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_project_milestones_with_response(id, status=status, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_project_milestones_with_response(
        self,
        id: Union[UUID, str],
        *,
        status: Optional[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]] = None,
        sort: Optional[Union[MilestoneSort, Literal["createdAt", "-createdAt", "dueDate", "-dueDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[MilestoneList]:
        """List a project's milestones, returning the whole answer: as ``list_project_milestones``, but the result is an
        ``APIResponse`` whose ``data`` is the ``MilestoneList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_PROJECT_MILESTONES, {'id': id, 'status': status, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_milestone(
        self,
        id: Union[UUID, str],
        body: MilestoneCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone:
        """Create a milestone

        Adds a milestone to the project. `name` and `dueDate` are required; `status` defaults to `PENDING`.
        Creating it as `COMPLETED` sets `completedAt` to now.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `write`.

        ``POST /projects/{id}/milestones`` (operationId ``createMilestone``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.MilestoneCreate``.
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
        :returns: the parsed ``Milestone`` (``meridian.models.Milestone``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_milestone_with_response(id, body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_milestone_with_response(
        self,
        id: Union[UUID, str],
        body: MilestoneCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]:
        """Create a milestone, returning the whole answer: as ``create_milestone``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Milestone``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_MILESTONE, {'id': id, 'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_milestone(
        self,
        id: Union[UUID, str],
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

        ``GET /milestones/{id}`` (operationId ``getMilestone``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone`` (``meridian.models.Milestone``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_milestone_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_milestone_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]:
        """Get a milestone, returning the whole answer: as ``get_milestone``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Milestone``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_MILESTONE, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def delete_milestone(
        self,
        id: Union[UUID, str],
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

        ``DELETE /milestones/{id}`` (operationId ``deleteMilestone``).

        :param id: The record's id (UUID).
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
        self.delete_milestone_with_response(id, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def delete_milestone_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """Delete a milestone, returning the whole answer: as ``delete_milestone``, but the result is an
        ``APIResponse`` whose ``data`` is None, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_DELETE_MILESTONE, {'id': id, 'if_match': if_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def update_milestone(
        self,
        id: Union[UUID, str],
        body: MilestoneUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone:
        """Update a milestone

        Changes only the fields present in the body. Setting `status` to `COMPLETED` records `completedAt`; moving
        it away from `COMPLETED` clears it. Moving `dueDate` into the future does not revive a milestone already
        reported as missed unless you also set `status` back to `PENDING`.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``PATCH /milestones/{id}`` (operationId ``updateMilestone``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.MilestoneUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone`` (``meridian.models.Milestone``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.update_milestone_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def update_milestone_with_response(
        self,
        id: Union[UUID, str],
        body: MilestoneUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]:
        """Update a milestone, returning the whole answer: as ``update_milestone``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Milestone``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_UPDATE_MILESTONE, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class RisksResource(SyncAPIResource):
    """Risks: Project risks scored by likelihood × impact, with a severity derived from the score unless set
    explicitly.

    ``Meridian().risks``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_risks(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]] = None,
        severity: Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]] = None,
        sort: Optional[Union[RiskSort, Literal["createdAt", "-createdAt", "score", "-score"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> RiskList:
        """List risks

        Returns the tenant's risks, ordered by `sort`: `createdAt` ascending by default, `-score` for the highest
        likelihood × impact first, `score` for the lowest; ties are broken by `id` in the same direction. When
        `projectId`, `status` or `severity` is given, the list is restricted to risks with that value (filters combine
        with AND).

        Requires scope `read`.

        ``GET /risks`` (operationId ``listRisks``).

        :param project_id: Only risks of this project.
        :param status: Only risks with this status.
        :param severity: Only risks with this severity (derived or manual).
        :param sort: Order of the list: `createdAt` or `score`, with a leading `-` for descending. Default
            `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``RiskList`` (``meridian.models.RiskList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_risks_with_response(project_id=project_id, status=status, severity=severity, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_risks_with_response(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]] = None,
        severity: Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]] = None,
        sort: Optional[Union[RiskSort, Literal["createdAt", "-createdAt", "score", "-score"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[RiskList]:
        """List risks, returning the whole answer: as ``list_risks``, but the result is an
        ``APIResponse`` whose ``data`` is the ``RiskList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_RISKS, {'project_id': project_id, 'status': status, 'severity': severity, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_risk(
        self,
        body: RiskCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk:
        """Create a risk

        Creates a risk on a project. `title`, `projectId`, `likelihood` (1–5) and `impact` (1–5) are required. `score`
        is likelihood × impact; `severity` is derived from the score unless you send one (then `severitySource` is
        `MANUAL`). `status` defaults to `OPEN`. Emits `risk.created`.

        Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `ownerId` no resource.

        Requires scope `write`.

        ``POST /risks`` (operationId ``createRisk``).

        :param body: the request body, a ``meridian.models.RiskCreate``.
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
        :returns: the parsed ``Risk`` (``meridian.models.Risk``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_risk_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_risk_with_response(
        self,
        body: RiskCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]:
        """Create a risk, returning the whole answer: as ``create_risk``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Risk``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_RISK, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_risk(
        self,
        id: Union[UUID, str],
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

        ``GET /risks/{id}`` (operationId ``getRisk``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk`` (``meridian.models.Risk``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_risk_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_risk_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]:
        """Get a risk, returning the whole answer: as ``get_risk``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Risk``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_RISK, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def update_risk(
        self,
        id: Union[UUID, str],
        body: RiskUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk:
        """Update a risk

        Changes only the fields present in the body. Changing `likelihood` or `impact` recomputes `score` and, while
        `severitySource` is `DERIVED`, `severity`. Sending `severity` sets it manually (`MANUAL`); sending
        `severity: null` returns it to the derived value. A rise in severity emits `risk.severity_escalated`.
        The project of a risk cannot be changed.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when `ownerId` names no resource of your tenant.

        Requires scope `write`.

        ``PATCH /risks/{id}`` (operationId ``updateRisk``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.RiskUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk`` (``meridian.models.Risk``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.update_risk_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def update_risk_with_response(
        self,
        id: Union[UUID, str],
        body: RiskUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]:
        """Update a risk, returning the whole answer: as ``update_risk``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Risk``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_UPDATE_RISK, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class IssuesResource(SyncAPIResource):
    """Issues: Problems that have occurred on a project, with priority, assignee and resolution tracking.

    ``Meridian().issues``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_issues(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]] = None,
        priority: Optional[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]] = None,
        assignee_id: Optional[Union[UUID, str]] = None,
        sort: Optional[Union[IssueSort, Literal["createdAt", "-createdAt", "priority", "-priority"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> IssueList:
        """List issues

        Returns the tenant's issues, ordered by `sort`: `createdAt` ascending by default; `-priority` lists CRITICAL
        first, then HIGH, MEDIUM and LOW (priority order, not alphabetical), `priority` the reverse. Ties are broken by
        `id` in the same direction. Each filter given restricts the list to issues with that value.

        Requires scope `read`.

        ``GET /issues`` (operationId ``listIssues``).

        :param project_id: Only issues of this project.
        :param status: Only issues with this status.
        :param priority: Only issues with this priority.
        :param assignee_id: Only issues assigned to this resource.
        :param sort: Order of the list: `createdAt` or `priority` (LOW < MEDIUM < HIGH < CRITICAL), with a leading `-`
            for descending. Default `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``IssueList`` (``meridian.models.IssueList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_issues_with_response(project_id=project_id, status=status, priority=priority, assignee_id=assignee_id, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_issues_with_response(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]] = None,
        priority: Optional[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]] = None,
        assignee_id: Optional[Union[UUID, str]] = None,
        sort: Optional[Union[IssueSort, Literal["createdAt", "-createdAt", "priority", "-priority"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[IssueList]:
        """List issues, returning the whole answer: as ``list_issues``, but the result is an
        ``APIResponse`` whose ``data`` is the ``IssueList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_ISSUES, {'project_id': project_id, 'status': status, 'priority': priority, 'assignee_id': assignee_id, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_issue(
        self,
        body: IssueCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue:
        """Create an issue

        Creates an issue on a project. `projectId` and `title` are required; `status` defaults to `OPEN` and
        `priority` to `MEDIUM`.

        Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `assigneeId` no resource.

        Requires scope `write`.

        ``POST /issues`` (operationId ``createIssue``).

        :param body: the request body, a ``meridian.models.IssueCreate``.
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
        :returns: the parsed ``Issue`` (``meridian.models.Issue``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_issue_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_issue_with_response(
        self,
        body: IssueCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]:
        """Create an issue, returning the whole answer: as ``create_issue``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Issue``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_ISSUE, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_issue(
        self,
        id: Union[UUID, str],
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

        ``GET /issues/{id}`` (operationId ``getIssue``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue`` (``meridian.models.Issue``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_issue_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_issue_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]:
        """Get an issue, returning the whole answer: as ``get_issue``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Issue``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_ISSUE, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def update_issue(
        self,
        id: Union[UUID, str],
        body: IssueUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue:
        """Update an issue

        Changes only the fields present in the body. Moving `status` to `RESOLVED` or `CLOSED` records `resolvedAt`
        (if not already set); moving it back to `OPEN` or `IN_PROGRESS` clears it. The project of an issue cannot be
        changed.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when `assigneeId` names no resource of your tenant.

        Requires scope `write`.

        ``PATCH /issues/{id}`` (operationId ``updateIssue``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.IssueUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue`` (``meridian.models.Issue``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.update_issue_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def update_issue_with_response(
        self,
        id: Union[UUID, str],
        body: IssueUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]:
        """Update an issue, returning the whole answer: as ``update_issue``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Issue``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_UPDATE_ISSUE, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class ResourcesResource(SyncAPIResource):
    """Resources: People who can be allocated to projects, with their weekly capacity, cost rate and availability.

    ``Meridian().resources``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_resources(
        self,
        *,
        role: Optional[str] = None,
        skill: Optional[str] = None,
        active: Optional[bool] = None,
        sort: Optional[Union[ResourceSort, Literal["createdAt", "-createdAt", "name", "-name"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ResourceList:
        """List resources

        Returns the tenant's resources (people), ordered by `sort`: `createdAt` ascending by default, `name` for
        alphabetical order (ignoring case), `-name` for the reverse; ties are broken by `id` in the same direction.
        Each filter given restricts the list: `role` by exact match, `skill` to resources whose `skills` contain that exact value,
        `active` by flag.

        Requires scope `read`.

        ``GET /resources`` (operationId ``listResources``).

        :param role: Only resources with exactly this role. URL-encode it; a `+` is read as a space (form encoding).
        :param skill: Only resources having exactly this skill (case-sensitive). URL-encode it; a `+` is read as a
            space (form encoding).
        :param active: Only active (`true`) or inactive (`false`) resources.
        :param sort: Order of the list: `createdAt` or `name`, with a leading `-` for descending. Default `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ResourceList`` (``meridian.models.ResourceList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_resources_with_response(role=role, skill=skill, active=active, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_resources_with_response(
        self,
        *,
        role: Optional[str] = None,
        skill: Optional[str] = None,
        active: Optional[bool] = None,
        sort: Optional[Union[ResourceSort, Literal["createdAt", "-createdAt", "name", "-name"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ResourceList]:
        """List resources, returning the whole answer: as ``list_resources``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ResourceList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_RESOURCES, {'role': role, 'skill': skill, 'active': active, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_resource(
        self,
        body: ResourceCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource:
        """Create a resource

        Creates a resource (a person who can be allocated to projects). Only `name` is required;
        `capacityHoursPerWeek` defaults to 40, `skills` to an empty list and `active` to true.

        Requires scope `write`.

        ``POST /resources`` (operationId ``createResource``).

        :param body: the request body, a ``meridian.models.ResourceCreate``.
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
        :returns: the parsed ``Resource`` (``meridian.models.Resource``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_resource_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_resource_with_response(
        self,
        body: ResourceCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]:
        """Create a resource, returning the whole answer: as ``create_resource``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Resource``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_RESOURCE, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_resource(
        self,
        id: Union[UUID, str],
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

        ``GET /resources/{id}`` (operationId ``getResource``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource`` (``meridian.models.Resource``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_resource_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_resource_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]:
        """Get a resource, returning the whole answer: as ``get_resource``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Resource``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_RESOURCE, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def update_resource(
        self,
        id: Union[UUID, str],
        body: ResourceUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource:
        """Update a resource

        Changes only the fields present in the body; `null` clears a nullable field. Deactivating a resource
        (`active: false`) keeps its allocations.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``PATCH /resources/{id}`` (operationId ``updateResource``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.ResourceUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource`` (``meridian.models.Resource``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.update_resource_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def update_resource_with_response(
        self,
        id: Union[UUID, str],
        body: ResourceUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]:
        """Update a resource, returning the whole answer: as ``update_resource``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Resource``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_UPDATE_RESOURCE, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_resource_availability(
        self,
        id: Union[UUID, str],
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

        ``GET /resources/{id}/availability`` (operationId ``getResourceAvailability``).

        :param id: The record's id (UUID).
        :param from_: First day of the range (inclusive).
        :param to: Last day of the range (inclusive); the range from `from` to `to` holds at most 366 days.
        :param granularity: Size of the periods returned; `week` when omitted.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ResourceAvailability`` (``meridian.models.ResourceAvailability``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_resource_availability_with_response(id, from_=from_, to=to, granularity=granularity, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_resource_availability_with_response(
        self,
        id: Union[UUID, str],
        *,
        from_: Union[date, str],
        to: Union[date, str],
        granularity: Optional[Union[AvailabilityGranularity, Literal["week", "day"]]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ResourceAvailability]:
        """Get a resource's availability, returning the whole answer: as ``get_resource_availability``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ResourceAvailability``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_RESOURCE_AVAILABILITY, {'id': id, 'from_': from_, 'to': to, 'granularity': granularity}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AllocationsResource(SyncAPIResource):
    """Allocations: Assignments of a resource to a project for a date range at a percentage of the resource's
    capacity, and the over-allocation conflicts they create.

    ``Meridian().allocations``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_allocations(
        self,
        *,
        resource_id: Optional[Union[UUID, str]] = None,
        project_id: Optional[Union[UUID, str]] = None,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        sort: Optional[Union[AllocationSort, Literal["createdAt", "-createdAt", "startDate", "-startDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AllocationList:
        """List allocations

        Returns the tenant's allocations, ordered by `sort`: `createdAt` ascending by default, `startDate` for the
        earliest start first, `-startDate` for the latest; ties are broken by `id` in the same direction.
        `resourceId` and `projectId`
        restrict by exact match; `from` and `to` restrict to allocations whose date range overlaps
        [`from`, `to`] (either bound may be given alone).

        Requires scope `read`.

        ``GET /allocations`` (operationId ``listAllocations``).

        :param resource_id: Only allocations of this resource.
        :param project_id: Only allocations to this project.
        :param from_: Only allocations ending on or after this date.
        :param to: Only allocations starting on or before this date.
        :param sort: Order of the list: `createdAt` or `startDate`, with a leading `-` for descending. Default
            `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AllocationList`` (``meridian.models.AllocationList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_allocations_with_response(resource_id=resource_id, project_id=project_id, from_=from_, to=to, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_allocations_with_response(
        self,
        *,
        resource_id: Optional[Union[UUID, str]] = None,
        project_id: Optional[Union[UUID, str]] = None,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        sort: Optional[Union[AllocationSort, Literal["createdAt", "-createdAt", "startDate", "-startDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AllocationList]:
        """List allocations, returning the whole answer: as ``list_allocations``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AllocationList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_ALLOCATIONS, {'resource_id': resource_id, 'project_id': project_id, 'from_': from_, 'to': to, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_allocation(
        self,
        body: AllocationCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation:
        """Create an allocation

        Allocates a resource to a project from `startDate` to `endDate` (inclusive) at `allocationPercent` (1–100) of
        the resource's weekly capacity. Over-allocation is allowed (a resource may be booked above 100 % in total);
        it shows up in `GET /allocations/conflicts`.

        Errors: 422 `validation_failed` when `endDate` is before `startDate`, or `resourceId` / `projectId` names no
        record of your tenant.

        Requires scope `write`.

        ``POST /allocations`` (operationId ``createAllocation``).

        :param body: the request body, a ``meridian.models.AllocationCreate``.
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
        :returns: the parsed ``Allocation`` (``meridian.models.Allocation``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_allocation_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_allocation_with_response(
        self,
        body: AllocationCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]:
        """Create an allocation, returning the whole answer: as ``create_allocation``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Allocation``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_ALLOCATION, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def list_allocation_conflicts(
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
    ) -> AllocationConflictList:
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

        ``GET /allocations/conflicts`` (operationId ``listAllocationConflicts``).

        :param from_: Only conflicts on or after this date.
        :param to: Only conflicts on or before this date.
        :param resource_id: Only conflicts of this resource.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AllocationConflictList`` (``meridian.models.AllocationConflictList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_allocation_conflicts_with_response(from_=from_, to=to, resource_id=resource_id, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_allocation_conflicts_with_response(
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
    ) -> APIResponse[AllocationConflictList]:
        """List over-allocation conflicts, returning the whole answer: as ``list_allocation_conflicts``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AllocationConflictList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_ALLOCATION_CONFLICTS, {'from_': from_, 'to': to, 'resource_id': resource_id, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_allocation(
        self,
        id: Union[UUID, str],
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

        ``GET /allocations/{id}`` (operationId ``getAllocation``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation`` (``meridian.models.Allocation``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_allocation_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_allocation_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]:
        """Get an allocation, returning the whole answer: as ``get_allocation``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Allocation``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_ALLOCATION, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def delete_allocation(
        self,
        id: Union[UUID, str],
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

        ``DELETE /allocations/{id}`` (operationId ``deleteAllocation``).

        :param id: The record's id (UUID).
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
        self.delete_allocation_with_response(id, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def delete_allocation_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """Delete an allocation, returning the whole answer: as ``delete_allocation``, but the result is an
        ``APIResponse`` whose ``data`` is None, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_DELETE_ALLOCATION, {'id': id, 'if_match': if_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def update_allocation(
        self,
        id: Union[UUID, str],
        body: AllocationUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation:
        """Update an allocation

        Changes only the fields present in the body. The resource and project of an allocation cannot be changed:
        delete it and create another.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when the resulting `endDate` is before `startDate`.

        Requires scope `write`.

        ``PATCH /allocations/{id}`` (operationId ``updateAllocation``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.AllocationUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation`` (``meridian.models.Allocation``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.update_allocation_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def update_allocation_with_response(
        self,
        id: Union[UUID, str],
        body: AllocationUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]:
        """Update an allocation, returning the whole answer: as ``update_allocation``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Allocation``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_UPDATE_ALLOCATION, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AgentsResource(SyncAPIResource):
    """Agents: AI agents that analyse the tenant's portfolio asynchronously (run, then poll the execution), and the
    Ask agent that answers questions with citations.

    ``Meridian().agents``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_agents(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentList:
        """List agents

        Returns the catalogue of agents that `POST /agents/run` accepts: for each, what it analyses, the records it
        reads, the depths it supports and the metrics it computes (with how each is computed). The catalogue is the
        same for every tenant, in a fixed order.

        Every agent analyses the tenant's own data deterministically (the same records and the same parameters give
        the same `output`) and recommends; none changes a record, except that `schedule-health` marks an overdue
        milestone MISSED exactly as the periodic missed-milestone sweep does (so `milestone.missed` fires once per
        milestone, whichever marks it first).

        Requires scope `read`.

        ``GET /agents`` (operationId ``listAgents``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentList`` (``meridian.models.AgentList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_agents_with_response(limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_agents_with_response(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentList]:
        """List agents, returning the whole answer: as ``list_agents``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AgentList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_AGENTS, {'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def run_agent(
        self,
        body: AgentRunRequest,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
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

        ``POST /agents/run`` (operationId ``runAgent``).

        :param body: the request body, a ``meridian.models.AgentRunRequest``.
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
        :returns: the parsed ``AgentExecution`` (``meridian.models.AgentExecution``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.run_agent_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def run_agent_with_response(
        self,
        body: AgentRunRequest,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]:
        """Run an agent, returning the whole answer: as ``run_agent``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AgentExecution``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_RUN_AGENT, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def list_agent_executions(
        self,
        *,
        agent_id: Optional[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]] = None,
        status: Optional[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]]] = None,
        sort: Optional[Literal["createdAt", "-createdAt"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentExecutionList:
        """List agent executions

        Returns the tenant's agent executions, ordered by `createdAt` then `id`: ascending by default,
        newest first with `sort=-createdAt`. Each filter given restricts the list to executions with that value.

        Requires scope `read`.

        ``GET /agents/executions`` (operationId ``listAgentExecutions``).

        :param agent_id: Only executions of this agent.
        :param status: Only executions with this status.
        :param sort: `createdAt` (oldest first, the default) or `-createdAt` (newest first); ties are broken by `id`
            in the same direction.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentExecutionList`` (``meridian.models.AgentExecutionList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_agent_executions_with_response(agent_id=agent_id, status=status, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_agent_executions_with_response(
        self,
        *,
        agent_id: Optional[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]] = None,
        status: Optional[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]]] = None,
        sort: Optional[Literal["createdAt", "-createdAt"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecutionList]:
        """List agent executions, returning the whole answer: as ``list_agent_executions``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AgentExecutionList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_AGENT_EXECUTIONS, {'agent_id': agent_id, 'status': status, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_agent_execution(
        self,
        execution_id: Union[UUID, str],
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

        ``GET /agents/executions/{executionId}`` (operationId ``getAgentExecution``).

        :param execution_id: The execution's id, as returned by `POST /agents/run`.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentExecution`` (``meridian.models.AgentExecution``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_agent_execution_with_response(execution_id, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_agent_execution_with_response(
        self,
        execution_id: Union[UUID, str],
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]:
        """Get an agent execution, returning the whole answer: as ``get_agent_execution``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AgentExecution``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_AGENT_EXECUTION, {'execution_id': execution_id}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def ask_agent(
        self,
        body: AskRequest,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
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

        ``POST /agents/ask`` (operationId ``askAgent``).

        :param body: the request body, a ``meridian.models.AskRequest``.
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
        :returns: the parsed ``AskAnswer`` (``meridian.models.AskAnswer``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.ask_agent_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def ask_agent_with_response(
        self,
        body: AskRequest,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AskAnswer]:
        """Ask a question about the portfolio, returning the whole answer: as ``ask_agent``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AskAnswer``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_ASK_AGENT, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class WebhooksResource(SyncAPIResource):
    """Webhooks: Endpoints that receive signed event notifications, their deliveries, secret rotation and test
    events; also the event payloads themselves.

    ``Meridian().webhooks``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_webhooks(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpointList:
        """List webhook endpoints

        Returns the tenant's webhook endpoints, ordered by `createdAt` ascending then `id`. Secrets are never listed.

        Requires scope `admin`.

        ``GET /webhooks`` (operationId ``listWebhooks``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpointList`` (``meridian.models.WebhookEndpointList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_webhooks_with_response(limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_webhooks_with_response(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointList]:
        """List webhook endpoints, returning the whole answer: as ``list_webhooks``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpointList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_WEBHOOKS, {'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_webhook(
        self,
        body: WebhookEndpointCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
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

        ``POST /webhooks`` (operationId ``createWebhook``).

        :param body: the request body, a ``meridian.models.WebhookEndpointCreate``.
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
        :returns: the parsed ``WebhookEndpointWithSecret`` (``meridian.models.WebhookEndpointWithSecret``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_webhook_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_webhook_with_response(
        self,
        body: WebhookEndpointCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]:
        """Register a webhook endpoint, returning the whole answer: as ``create_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpointWithSecret``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_WEBHOOK, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_webhook(
        self,
        id: Union[UUID, str],
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

        ``GET /webhooks/{id}`` (operationId ``getWebhook``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpoint`` (``meridian.models.WebhookEndpoint``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_webhook_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_webhook_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]:
        """Get a webhook endpoint, returning the whole answer: as ``get_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpoint``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_WEBHOOK, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def delete_webhook(
        self,
        id: Union[UUID, str],
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

        ``DELETE /webhooks/{id}`` (operationId ``deleteWebhook``).

        :param id: The record's id (UUID).
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
        self.delete_webhook_with_response(id, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def delete_webhook_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """Delete a webhook endpoint, returning the whole answer: as ``delete_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is None, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_DELETE_WEBHOOK, {'id': id, 'if_match': if_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def update_webhook(
        self,
        id: Union[UUID, str],
        body: WebhookEndpointUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpoint:
        """Update a webhook endpoint

        Changes only the fields present in the body. Setting `enabled: true` on an endpoint that was disabled
        (by failures or a `410 Gone`) re-enables it and clears `disabledReason`; deliveries resume with new events.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        for a refused address.

        Requires scope `admin`.

        ``PATCH /webhooks/{id}`` (operationId ``updateWebhook``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.WebhookEndpointUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpoint`` (``meridian.models.WebhookEndpoint``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.update_webhook_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def update_webhook_with_response(
        self,
        id: Union[UUID, str],
        body: WebhookEndpointUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]:
        """Update a webhook endpoint, returning the whole answer: as ``update_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpoint``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_UPDATE_WEBHOOK, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def rotate_webhook_secret(
        self,
        id: Union[UUID, str],
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

        ``POST /webhooks/{id}/rotate-secret`` (operationId ``rotateWebhookSecret``).

        :param id: The record's id (UUID).
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
        :returns: the parsed ``WebhookEndpointWithSecret`` (``meridian.models.WebhookEndpointWithSecret``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.rotate_webhook_secret_with_response(id, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def rotate_webhook_secret_with_response(
        self,
        id: Union[UUID, str],
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]:
        """Rotate a webhook endpoint's secret, returning the whole answer: as ``rotate_webhook_secret``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpointWithSecret``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_ROTATE_WEBHOOK_SECRET, {'id': id, 'idempotency_key': idempotency_key}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def list_webhook_deliveries(
        self,
        id: Union[UUID, str],
        *,
        status: Optional[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookDeliveryList:
        """List an endpoint's deliveries

        Returns the deliveries to this endpoint with every attempt (time, HTTP status, duration, error) and the time
        of the next attempt, ordered by `createdAt` ascending then `id`. Deliveries are kept for 30 days.

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``GET /webhooks/{id}/deliveries`` (operationId ``listWebhookDeliveries``).

        :param id: The record's id (UUID).
        :param status: Only deliveries with this status.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookDeliveryList`` (``meridian.models.WebhookDeliveryList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_webhook_deliveries_with_response(id, status=status, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_webhook_deliveries_with_response(
        self,
        id: Union[UUID, str],
        *,
        status: Optional[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookDeliveryList]:
        """List an endpoint's deliveries, returning the whole answer: as ``list_webhook_deliveries``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookDeliveryList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_WEBHOOK_DELIVERIES, {'id': id, 'status': status, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def test_webhook(
        self,
        id: Union[UUID, str],
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

        ``POST /webhooks/{id}/test`` (operationId ``testWebhook``).

        :param id: The record's id (UUID).
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
        :returns: the parsed ``WebhookDelivery`` (``meridian.models.WebhookDelivery``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.test_webhook_with_response(id, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def test_webhook_with_response(
        self,
        id: Union[UUID, str],
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookDelivery]:
        """Send a test event, returning the whole answer: as ``test_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookDelivery``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_TEST_WEBHOOK, {'id': id, 'idempotency_key': idempotency_key}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class IdentityResource(SyncAPIResource):
    """Identity: The caller's user, API key and tenant.

    ``Meridian().identity``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def get_me(
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

        ``GET /me`` (operationId ``getMe``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Me`` (``meridian.models.Me``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_me_with_response(extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_me_with_response(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Me]:
        """Get the current user and key, returning the whole answer: as ``get_me``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Me``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_ME, {}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def get_tenant(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant:
        """Get the tenant

        Returns the caller's tenant: plan, currency of all money fields, timezone used to decide when a due date has
        passed, and rate limit.

        Requires scope `read`.

        ``GET /tenant`` (operationId ``getTenant``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Tenant`` (``meridian.models.Tenant``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.get_tenant_with_response(extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def get_tenant_with_response(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]:
        """Get the tenant, returning the whole answer: as ``get_tenant``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Tenant``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_GET_TENANT, {}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def update_tenant(
        self,
        body: TenantUpdate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant:
        """Change the tenant's settings

        Changes the tenant's `settings`: only the settings present in the body change. Today there is one,
        `llmEnabled`: `false` keeps every record of this tenant away from the language model the deployment may be
        configured with (`MERIDIAN_LLM_BASE_URL`), so Ask answers and agent runs are written by the embedded engine
        only; `true` (the default) lets the model write them, each sentence checked against the records (see
        `POST /agents/ask`). The change applies to the next question or run and is recorded in the audit log
        (`tenant.updated`).

        Errors: 400 `validation_failed` for an unknown setting or a value of the wrong type.

        Requires scope `admin`.

        ``PATCH /tenant`` (operationId ``updateTenant``).

        :param body: the request body, a ``meridian.models.TenantUpdate``.
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
        :returns: the parsed ``Tenant`` (``meridian.models.Tenant``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.update_tenant_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def update_tenant_with_response(
        self,
        body: TenantUpdate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]:
        """Change the tenant's settings, returning the whole answer: as ``update_tenant``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Tenant``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_UPDATE_TENANT, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class ApiKeysResource(SyncAPIResource):
    """API Keys: Issue, list and revoke the tenant's API keys.

    ``Meridian().api_keys``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_api_keys(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyList:
        """List API keys

        Returns the tenant's API keys, including revoked and expired ones, ordered by `createdAt` ascending then
        `id`. Only the display `prefix` of each key is shown, never the key.

        Requires scope `admin`.

        ``GET /api-keys`` (operationId ``listApiKeys``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ApiKeyList`` (``meridian.models.ApiKeyList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_api_keys_with_response(limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_api_keys_with_response(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyList]:
        """List API keys, returning the whole answer: as ``list_api_keys``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ApiKeyList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_API_KEYS, {'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def create_api_key(
        self,
        body: ApiKeyCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret:
        """Create an API key

        Issues a new key for the calling user with the given `scopes` and optional `expiresAt`. The full `key`
        (`mk_live_…`) is in this response **only**: Meridian stores just a hash of it. A key cannot be given scopes
        its creator's key does not have, nor outlive it: when the creating key expires, `expiresAt` is required and
        may not be later.

        Errors: 403 `forbidden` for a scope the creating key lacks; 422 `validation_failed` when `expiresAt` is in
        the past, or missing or later than the creating key's expiry.

        Requires scope `admin`.

        ``POST /api-keys`` (operationId ``createApiKey``).

        :param body: the request body, a ``meridian.models.ApiKeyCreate``.
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
        :returns: the parsed ``ApiKeyWithSecret`` (``meridian.models.ApiKeyWithSecret``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.create_api_key_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def create_api_key_with_response(
        self,
        body: ApiKeyCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]:
        """Create an API key, returning the whole answer: as ``create_api_key``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ApiKeyWithSecret``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_CREATE_API_KEY, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def revoke_api_key(
        self,
        id: Union[UUID, str],
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

        Errors: 404 `not_found`; 409 `conflict` when the key to revoke is the one authenticating the request.

        Requires scope `admin`.

        ``DELETE /api-keys/{id}`` (operationId ``revokeApiKey``).

        :param id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        self.revoke_api_key_with_response(id, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    def revoke_api_key_with_response(
        self,
        id: Union[UUID, str],
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """Revoke an API key, returning the whole answer: as ``revoke_api_key``, but the result is an
        ``APIResponse`` whose ``data`` is None, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_REVOKE_API_KEY, {'id': id}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AuditLogsResource(SyncAPIResource):
    """Audit Logs: The append-only record of every change made through the API.

    ``Meridian().audit_logs``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    def list_audit_logs(
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
    ) -> AuditLogEntryList:
        """List audit log entries

        Returns the append-only record of changes made in the tenant (creates, updates, deletes of every record,
        webhook endpoints and API keys), ordered by `sort`: `occurredAt` ascending (oldest first) by default, or
        `-occurredAt` for the newest first; ties are broken by `id` in the same direction. Each filter given restricts
        the list; `since` is inclusive and `until` exclusive.

        Requires scope `admin`.

        ``GET /audit-logs`` (operationId ``listAuditLogs``).

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
        :returns: the parsed ``AuditLogEntryList`` (``meridian.models.AuditLogEntryList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return self.list_audit_logs_with_response(action=action, resource_type=resource_type, resource_id=resource_id, actor_id=actor_id, since=since, until=until, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries).data

    def list_audit_logs_with_response(
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
    ) -> APIResponse[AuditLogEntryList]:
        """List audit log entries, returning the whole answer: as ``list_audit_logs``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AuditLogEntryList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return self._client.request(_LIST_AUDIT_LOGS, {'action': action, 'resource_type': resource_type, 'resource_id': resource_id, 'actor_id': actor_id, 'since': since, 'until': until, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncProjectsResource(AsyncAPIResource):
    """Projects: Projects with their schedule, budget and status; the detail view adds milestones, team and a budget
    summary.

    ``AsyncMeridian().projects``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_projects(
        self,
        *,
        status: Optional[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]] = None,
        category: Optional[str] = None,
        borough: Optional[str] = None,
        managing_agency: Optional[str] = None,
        client_agency: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
        sort: Optional[Union[ProjectSort, Literal["createdAt", "-createdAt", "name", "-name", "endDate", "-endDate", "forecastEndDate", "-forecastEndDate", "budget", "-budget"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ProjectList:
        """List projects

        Returns the tenant's projects in pages of `limit` (default 25, max 100), ordered by `sort`: `createdAt`
        ascending by default, or `name`, `endDate`, `forecastEndDate`, `budget` or `createdAt`, each with a leading
        `-` for descending (`sort=-budget` lists the largest budgets first). Ties are broken by `id` in the same
        direction, so pages are stable. Names compare case-insensitively. Projects with no `forecastEndDate` or no
        `budget` (unknown) come last in either direction.

        `q` searches: a project matches when its `name`, `code` or `description` contains the text, ignoring case
        (`q=bridge` finds "Brooklyn Bridge Promenade" and "BRIDGE-42"). `tag` restricts to projects carrying that tag
        (ignoring case). When `status` is given the list is restricted to projects with that status.

        `category`, `borough`, `managingAgency` and `clientAgency` filter on the project's descriptive fields: a
        project matches when the field equals the value or lists it as one of its comma-separated items, ignoring
        case and surrounding spaces, so `borough=Brooklyn` finds `Brooklyn` and `Brooklyn, Queens`. Filters combine
        with AND: `managingAgency=DEP&borough=Brooklyn` lists DEP's projects in Brooklyn.

        Requires scope `read`.

        ``GET /projects`` (operationId ``listProjects``).

        :param status: Only projects with this status.
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
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ProjectList`` (``meridian.models.ProjectList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_projects_with_response(status=status, category=category, borough=borough, managing_agency=managing_agency, client_agency=client_agency, q=q, tag=tag, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_projects_with_response(
        self,
        *,
        status: Optional[Union[ProjectStatus, Literal["PLANNED", "ON_TRACK", "AT_RISK", "OFF_TRACK", "ON_HOLD", "COMPLETED", "CANCELLED"]]] = None,
        category: Optional[str] = None,
        borough: Optional[str] = None,
        managing_agency: Optional[str] = None,
        client_agency: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
        sort: Optional[Union[ProjectSort, Literal["createdAt", "-createdAt", "name", "-name", "endDate", "-endDate", "forecastEndDate", "-forecastEndDate", "budget", "-budget"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ProjectList]:
        """List projects, returning the whole answer: as ``list_projects``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ProjectList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_PROJECTS, {'status': status, 'category': category, 'borough': borough, 'managing_agency': managing_agency, 'client_agency': client_agency, 'q': q, 'tag': tag, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_project(
        self,
        body: ProjectCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project:
        """Create a project

        Creates a project. `name`, `startDate` and `endDate` are required; `status` defaults to `PLANNED`;
        `actualCost` and `progress` stay null (unknown) until given or reported in a status report. Money is in major units of the tenant's currency, which the project
        inherits as its read-only `currency`.

        Errors: 400 `validation_failed` for a malformed body; 422 `validation_failed` when `endDate` is before
        `startDate` or `projectManagerId` names no resource of the tenant; 409 `conflict` when `code` is already used
        by another project of the tenant.

        Requires scope `write`.

        ``POST /projects`` (operationId ``createProject``).

        :param body: the request body, a ``meridian.models.ProjectCreate``.
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
        :returns: the parsed ``Project`` (``meridian.models.Project``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_project_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_project_with_response(
        self,
        body: ProjectCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]:
        """Create a project, returning the whole answer: as ``create_project``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Project``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_PROJECT, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_project(
        self,
        id: Union[UUID, str],
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

        ``GET /projects/{id}`` (operationId ``getProject``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ProjectDetail`` (``meridian.models.ProjectDetail``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_project_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_project_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ProjectDetail]:
        """Get a project with milestones, team and budget summary, returning the whole answer: as ``get_project``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ProjectDetail``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_PROJECT, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def update_project(
        self,
        id: Union[UUID, str],
        body: ProjectUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Project:
        """Update a project

        Changes only the fields present in the body; absent fields keep their values and `null` clears a nullable
        field. An empty body changes nothing. A change of `status` emits `project.status_changed`; a change that takes
        `actualCost` or `forecastCost` above `budget` emits `budget.overrun_detected`.

        Errors: 404 `not_found`; 409 `invalid_transition` for a status change out of COMPLETED or CANCELLED other
        than a reopen; 409 `conflict` for a duplicate `code`; 412 `precondition_failed` when `If-Match` does not
        match; 422 `validation_failed` when the resulting `endDate` is before `startDate`.

        Requires scope `write`.

        ``PATCH /projects/{id}`` (operationId ``updateProject``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.ProjectUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Project`` (``meridian.models.Project``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.update_project_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def update_project_with_response(
        self,
        id: Union[UUID, str],
        body: ProjectUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Project]:
        """Update a project, returning the whole answer: as ``update_project``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Project``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_UPDATE_PROJECT, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncStatusReportsResource(AsyncAPIResource):
    """Status Reports: How a project stood on a date: status, phase, forecasts, actual cost, progress and a summary.
    Submitting the newest report moves the project; the reports are its history (GET newest first).

    ``AsyncMeridian().status_reports``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_project_status_reports(
        self,
        id: Union[UUID, str],
        *,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReportList:
        """List a project's status reports

        Returns the project's status reports, **newest first**: by `asOf` descending, then `createdAt` descending,
        then `id`, in pages of `limit` (default 25, max 100). `since` and `until` restrict `asOf` to a date range
        (inclusive). This is the project's history: how its status, forecasts, cost and progress stood on each date.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}/status-reports`` (operationId ``listProjectStatusReports``).

        :param id: The record's id (UUID).
        :param since: Only reports with `asOf` on or after this date.
        :param until: Only reports with `asOf` on or before this date.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReportList`` (``meridian.models.StatusReportList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_project_status_reports_with_response(id, since=since, until=until, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_project_status_reports_with_response(
        self,
        id: Union[UUID, str],
        *,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReportList]:
        """List a project's status reports, returning the whole answer: as ``list_project_status_reports``, but the result is an
        ``APIResponse`` whose ``data`` is the ``StatusReportList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_PROJECT_STATUS_REPORTS, {'id': id, 'since': since, 'until': until, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_status_report(
        self,
        id: Union[UUID, str],
        body: StatusReportCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
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

        ``POST /projects/{id}/status-reports`` (operationId ``createStatusReport``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.StatusReportCreate``.
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
        :returns: the parsed ``StatusReport`` (``meridian.models.StatusReport``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_status_report_with_response(id, body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_status_report_with_response(
        self,
        id: Union[UUID, str],
        body: StatusReportCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]:
        """Submit a status report, returning the whole answer: as ``create_status_report``, but the result is an
        ``APIResponse`` whose ``data`` is the ``StatusReport``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_STATUS_REPORT, {'id': id, 'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def list_status_reports(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReportList:
        """List status reports across the portfolio

        Returns the tenant's status reports across all projects, **newest first** (by `asOf` descending, then
        `createdAt` descending, then `id`), in pages of `limit` (default 25, max 100). Filters: `projectId`, and
        `since`/`until` on `asOf` (inclusive); they combine with AND.

        Requires scope `read`.

        ``GET /status-reports`` (operationId ``listStatusReports``).

        :param project_id: Only reports of this project.
        :param since: Only reports with `asOf` on or after this date.
        :param until: Only reports with `asOf` on or before this date.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReportList`` (``meridian.models.StatusReportList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_status_reports_with_response(project_id=project_id, since=since, until=until, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_status_reports_with_response(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        since: Optional[Union[date, str]] = None,
        until: Optional[Union[date, str]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReportList]:
        """List status reports across the portfolio, returning the whole answer: as ``list_status_reports``, but the result is an
        ``APIResponse`` whose ``data`` is the ``StatusReportList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_STATUS_REPORTS, {'project_id': project_id, 'since': since, 'until': until, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_status_report(
        self,
        id: Union[UUID, str],
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> StatusReport:
        """Get a status report

        Returns one status report (reports are never changed once stored).

        Errors: 404 `not_found` when no report with this id exists in your tenant.

        Requires scope `read`.

        ``GET /status-reports/{id}`` (operationId ``getStatusReport``).

        :param id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``StatusReport`` (``meridian.models.StatusReport``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_status_report_with_response(id, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_status_report_with_response(
        self,
        id: Union[UUID, str],
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[StatusReport]:
        """Get a status report, returning the whole answer: as ``get_status_report``, but the result is an
        ``APIResponse`` whose ``data`` is the ``StatusReport``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_STATUS_REPORT, {'id': id}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncMilestonesResource(AsyncAPIResource):
    """Milestones: Dated checkpoints of a project. A milestone still open when its due date passes becomes MISSED and
    emits `milestone.missed`.

    ``AsyncMeridian().milestones``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_project_milestones(
        self,
        id: Union[UUID, str],
        *,
        status: Optional[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]] = None,
        sort: Optional[Union[MilestoneSort, Literal["createdAt", "-createdAt", "dueDate", "-dueDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> MilestoneList:
        """List a project's milestones

        Returns the milestones of the project, ordered by `sort`: `createdAt` ascending by default, `dueDate` for the
        earliest due first, `-dueDate` for the latest; ties are broken by `id` in the same direction. When `status` is
        given the list is restricted to milestones with that status.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `read`.

        ``GET /projects/{id}/milestones`` (operationId ``listProjectMilestones``).

        :param id: The record's id (UUID).
        :param status: Only milestones with this status.
        :param sort: Order of the list: `createdAt` or `dueDate`, with a leading `-` for descending. Default
            `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``MilestoneList`` (``meridian.models.MilestoneList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_project_milestones_with_response(id, status=status, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_project_milestones_with_response(
        self,
        id: Union[UUID, str],
        *,
        status: Optional[Union[MilestoneStatus, Literal["PENDING", "COMPLETED", "MISSED"]]] = None,
        sort: Optional[Union[MilestoneSort, Literal["createdAt", "-createdAt", "dueDate", "-dueDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[MilestoneList]:
        """List a project's milestones, returning the whole answer: as ``list_project_milestones``, but the result is an
        ``APIResponse`` whose ``data`` is the ``MilestoneList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_PROJECT_MILESTONES, {'id': id, 'status': status, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_milestone(
        self,
        id: Union[UUID, str],
        body: MilestoneCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone:
        """Create a milestone

        Adds a milestone to the project. `name` and `dueDate` are required; `status` defaults to `PENDING`.
        Creating it as `COMPLETED` sets `completedAt` to now.

        Errors: 404 `not_found` when the project does not exist in your tenant.

        Requires scope `write`.

        ``POST /projects/{id}/milestones`` (operationId ``createMilestone``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.MilestoneCreate``.
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
        :returns: the parsed ``Milestone`` (``meridian.models.Milestone``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_milestone_with_response(id, body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_milestone_with_response(
        self,
        id: Union[UUID, str],
        body: MilestoneCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]:
        """Create a milestone, returning the whole answer: as ``create_milestone``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Milestone``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_MILESTONE, {'id': id, 'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_milestone(
        self,
        id: Union[UUID, str],
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

        ``GET /milestones/{id}`` (operationId ``getMilestone``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone`` (``meridian.models.Milestone``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_milestone_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_milestone_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]:
        """Get a milestone, returning the whole answer: as ``get_milestone``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Milestone``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_MILESTONE, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def delete_milestone(
        self,
        id: Union[UUID, str],
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

        ``DELETE /milestones/{id}`` (operationId ``deleteMilestone``).

        :param id: The record's id (UUID).
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
        await self.delete_milestone_with_response(id, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def delete_milestone_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """Delete a milestone, returning the whole answer: as ``delete_milestone``, but the result is an
        ``APIResponse`` whose ``data`` is None, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_DELETE_MILESTONE, {'id': id, 'if_match': if_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def update_milestone(
        self,
        id: Union[UUID, str],
        body: MilestoneUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Milestone:
        """Update a milestone

        Changes only the fields present in the body. Setting `status` to `COMPLETED` records `completedAt`; moving
        it away from `COMPLETED` clears it. Moving `dueDate` into the future does not revive a milestone already
        reported as missed unless you also set `status` back to `PENDING`.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``PATCH /milestones/{id}`` (operationId ``updateMilestone``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.MilestoneUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Milestone`` (``meridian.models.Milestone``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.update_milestone_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def update_milestone_with_response(
        self,
        id: Union[UUID, str],
        body: MilestoneUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Milestone]:
        """Update a milestone, returning the whole answer: as ``update_milestone``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Milestone``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_UPDATE_MILESTONE, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncRisksResource(AsyncAPIResource):
    """Risks: Project risks scored by likelihood × impact, with a severity derived from the score unless set
    explicitly.

    ``AsyncMeridian().risks``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_risks(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]] = None,
        severity: Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]] = None,
        sort: Optional[Union[RiskSort, Literal["createdAt", "-createdAt", "score", "-score"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> RiskList:
        """List risks

        Returns the tenant's risks, ordered by `sort`: `createdAt` ascending by default, `-score` for the highest
        likelihood × impact first, `score` for the lowest; ties are broken by `id` in the same direction. When
        `projectId`, `status` or `severity` is given, the list is restricted to risks with that value (filters combine
        with AND).

        Requires scope `read`.

        ``GET /risks`` (operationId ``listRisks``).

        :param project_id: Only risks of this project.
        :param status: Only risks with this status.
        :param severity: Only risks with this severity (derived or manual).
        :param sort: Order of the list: `createdAt` or `score`, with a leading `-` for descending. Default
            `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``RiskList`` (``meridian.models.RiskList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_risks_with_response(project_id=project_id, status=status, severity=severity, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_risks_with_response(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[RiskStatus, Literal["OPEN", "MITIGATING", "ACCEPTED", "CLOSED"]]] = None,
        severity: Optional[Union[RiskSeverity, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]] = None,
        sort: Optional[Union[RiskSort, Literal["createdAt", "-createdAt", "score", "-score"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[RiskList]:
        """List risks, returning the whole answer: as ``list_risks``, but the result is an
        ``APIResponse`` whose ``data`` is the ``RiskList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_RISKS, {'project_id': project_id, 'status': status, 'severity': severity, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_risk(
        self,
        body: RiskCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk:
        """Create a risk

        Creates a risk on a project. `title`, `projectId`, `likelihood` (1–5) and `impact` (1–5) are required. `score`
        is likelihood × impact; `severity` is derived from the score unless you send one (then `severitySource` is
        `MANUAL`). `status` defaults to `OPEN`. Emits `risk.created`.

        Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `ownerId` no resource.

        Requires scope `write`.

        ``POST /risks`` (operationId ``createRisk``).

        :param body: the request body, a ``meridian.models.RiskCreate``.
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
        :returns: the parsed ``Risk`` (``meridian.models.Risk``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_risk_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_risk_with_response(
        self,
        body: RiskCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]:
        """Create a risk, returning the whole answer: as ``create_risk``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Risk``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_RISK, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_risk(
        self,
        id: Union[UUID, str],
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

        ``GET /risks/{id}`` (operationId ``getRisk``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk`` (``meridian.models.Risk``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_risk_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_risk_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]:
        """Get a risk, returning the whole answer: as ``get_risk``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Risk``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_RISK, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def update_risk(
        self,
        id: Union[UUID, str],
        body: RiskUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Risk:
        """Update a risk

        Changes only the fields present in the body. Changing `likelihood` or `impact` recomputes `score` and, while
        `severitySource` is `DERIVED`, `severity`. Sending `severity` sets it manually (`MANUAL`); sending
        `severity: null` returns it to the derived value. A rise in severity emits `risk.severity_escalated`.
        The project of a risk cannot be changed.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when `ownerId` names no resource of your tenant.

        Requires scope `write`.

        ``PATCH /risks/{id}`` (operationId ``updateRisk``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.RiskUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Risk`` (``meridian.models.Risk``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.update_risk_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def update_risk_with_response(
        self,
        id: Union[UUID, str],
        body: RiskUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Risk]:
        """Update a risk, returning the whole answer: as ``update_risk``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Risk``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_UPDATE_RISK, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncIssuesResource(AsyncAPIResource):
    """Issues: Problems that have occurred on a project, with priority, assignee and resolution tracking.

    ``AsyncMeridian().issues``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_issues(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]] = None,
        priority: Optional[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]] = None,
        assignee_id: Optional[Union[UUID, str]] = None,
        sort: Optional[Union[IssueSort, Literal["createdAt", "-createdAt", "priority", "-priority"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> IssueList:
        """List issues

        Returns the tenant's issues, ordered by `sort`: `createdAt` ascending by default; `-priority` lists CRITICAL
        first, then HIGH, MEDIUM and LOW (priority order, not alphabetical), `priority` the reverse. Ties are broken by
        `id` in the same direction. Each filter given restricts the list to issues with that value.

        Requires scope `read`.

        ``GET /issues`` (operationId ``listIssues``).

        :param project_id: Only issues of this project.
        :param status: Only issues with this status.
        :param priority: Only issues with this priority.
        :param assignee_id: Only issues assigned to this resource.
        :param sort: Order of the list: `createdAt` or `priority` (LOW < MEDIUM < HIGH < CRITICAL), with a leading `-`
            for descending. Default `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``IssueList`` (``meridian.models.IssueList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_issues_with_response(project_id=project_id, status=status, priority=priority, assignee_id=assignee_id, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_issues_with_response(
        self,
        *,
        project_id: Optional[Union[UUID, str]] = None,
        status: Optional[Union[IssueStatus, Literal["OPEN", "IN_PROGRESS", "RESOLVED", "CLOSED"]]] = None,
        priority: Optional[Union[IssuePriority, Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]]] = None,
        assignee_id: Optional[Union[UUID, str]] = None,
        sort: Optional[Union[IssueSort, Literal["createdAt", "-createdAt", "priority", "-priority"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[IssueList]:
        """List issues, returning the whole answer: as ``list_issues``, but the result is an
        ``APIResponse`` whose ``data`` is the ``IssueList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_ISSUES, {'project_id': project_id, 'status': status, 'priority': priority, 'assignee_id': assignee_id, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_issue(
        self,
        body: IssueCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue:
        """Create an issue

        Creates an issue on a project. `projectId` and `title` are required; `status` defaults to `OPEN` and
        `priority` to `MEDIUM`.

        Errors: 422 `validation_failed` when `projectId` names no project of your tenant or `assigneeId` no resource.

        Requires scope `write`.

        ``POST /issues`` (operationId ``createIssue``).

        :param body: the request body, a ``meridian.models.IssueCreate``.
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
        :returns: the parsed ``Issue`` (``meridian.models.Issue``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_issue_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_issue_with_response(
        self,
        body: IssueCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]:
        """Create an issue, returning the whole answer: as ``create_issue``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Issue``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_ISSUE, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_issue(
        self,
        id: Union[UUID, str],
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

        ``GET /issues/{id}`` (operationId ``getIssue``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue`` (``meridian.models.Issue``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_issue_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_issue_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]:
        """Get an issue, returning the whole answer: as ``get_issue``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Issue``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_ISSUE, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def update_issue(
        self,
        id: Union[UUID, str],
        body: IssueUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Issue:
        """Update an issue

        Changes only the fields present in the body. Moving `status` to `RESOLVED` or `CLOSED` records `resolvedAt`
        (if not already set); moving it back to `OPEN` or `IN_PROGRESS` clears it. The project of an issue cannot be
        changed.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when `assigneeId` names no resource of your tenant.

        Requires scope `write`.

        ``PATCH /issues/{id}`` (operationId ``updateIssue``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.IssueUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Issue`` (``meridian.models.Issue``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.update_issue_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def update_issue_with_response(
        self,
        id: Union[UUID, str],
        body: IssueUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Issue]:
        """Update an issue, returning the whole answer: as ``update_issue``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Issue``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_UPDATE_ISSUE, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncResourcesResource(AsyncAPIResource):
    """Resources: People who can be allocated to projects, with their weekly capacity, cost rate and availability.

    ``AsyncMeridian().resources``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_resources(
        self,
        *,
        role: Optional[str] = None,
        skill: Optional[str] = None,
        active: Optional[bool] = None,
        sort: Optional[Union[ResourceSort, Literal["createdAt", "-createdAt", "name", "-name"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ResourceList:
        """List resources

        Returns the tenant's resources (people), ordered by `sort`: `createdAt` ascending by default, `name` for
        alphabetical order (ignoring case), `-name` for the reverse; ties are broken by `id` in the same direction.
        Each filter given restricts the list: `role` by exact match, `skill` to resources whose `skills` contain that exact value,
        `active` by flag.

        Requires scope `read`.

        ``GET /resources`` (operationId ``listResources``).

        :param role: Only resources with exactly this role. URL-encode it; a `+` is read as a space (form encoding).
        :param skill: Only resources having exactly this skill (case-sensitive). URL-encode it; a `+` is read as a
            space (form encoding).
        :param active: Only active (`true`) or inactive (`false`) resources.
        :param sort: Order of the list: `createdAt` or `name`, with a leading `-` for descending. Default `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ResourceList`` (``meridian.models.ResourceList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_resources_with_response(role=role, skill=skill, active=active, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_resources_with_response(
        self,
        *,
        role: Optional[str] = None,
        skill: Optional[str] = None,
        active: Optional[bool] = None,
        sort: Optional[Union[ResourceSort, Literal["createdAt", "-createdAt", "name", "-name"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ResourceList]:
        """List resources, returning the whole answer: as ``list_resources``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ResourceList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_RESOURCES, {'role': role, 'skill': skill, 'active': active, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_resource(
        self,
        body: ResourceCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource:
        """Create a resource

        Creates a resource (a person who can be allocated to projects). Only `name` is required;
        `capacityHoursPerWeek` defaults to 40, `skills` to an empty list and `active` to true.

        Requires scope `write`.

        ``POST /resources`` (operationId ``createResource``).

        :param body: the request body, a ``meridian.models.ResourceCreate``.
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
        :returns: the parsed ``Resource`` (``meridian.models.Resource``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_resource_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_resource_with_response(
        self,
        body: ResourceCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]:
        """Create a resource, returning the whole answer: as ``create_resource``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Resource``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_RESOURCE, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_resource(
        self,
        id: Union[UUID, str],
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

        ``GET /resources/{id}`` (operationId ``getResource``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource`` (``meridian.models.Resource``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_resource_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_resource_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]:
        """Get a resource, returning the whole answer: as ``get_resource``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Resource``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_RESOURCE, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def update_resource(
        self,
        id: Union[UUID, str],
        body: ResourceUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Resource:
        """Update a resource

        Changes only the fields present in the body; `null` clears a nullable field. Deactivating a resource
        (`active: false`) keeps its allocations.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match.

        Requires scope `write`.

        ``PATCH /resources/{id}`` (operationId ``updateResource``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.ResourceUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Resource`` (``meridian.models.Resource``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.update_resource_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def update_resource_with_response(
        self,
        id: Union[UUID, str],
        body: ResourceUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Resource]:
        """Update a resource, returning the whole answer: as ``update_resource``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Resource``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_UPDATE_RESOURCE, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_resource_availability(
        self,
        id: Union[UUID, str],
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

        ``GET /resources/{id}/availability`` (operationId ``getResourceAvailability``).

        :param id: The record's id (UUID).
        :param from_: First day of the range (inclusive).
        :param to: Last day of the range (inclusive); the range from `from` to `to` holds at most 366 days.
        :param granularity: Size of the periods returned; `week` when omitted.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ResourceAvailability`` (``meridian.models.ResourceAvailability``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_resource_availability_with_response(id, from_=from_, to=to, granularity=granularity, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_resource_availability_with_response(
        self,
        id: Union[UUID, str],
        *,
        from_: Union[date, str],
        to: Union[date, str],
        granularity: Optional[Union[AvailabilityGranularity, Literal["week", "day"]]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ResourceAvailability]:
        """Get a resource's availability, returning the whole answer: as ``get_resource_availability``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ResourceAvailability``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_RESOURCE_AVAILABILITY, {'id': id, 'from_': from_, 'to': to, 'granularity': granularity}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncAllocationsResource(AsyncAPIResource):
    """Allocations: Assignments of a resource to a project for a date range at a percentage of the resource's
    capacity, and the over-allocation conflicts they create.

    ``AsyncMeridian().allocations``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_allocations(
        self,
        *,
        resource_id: Optional[Union[UUID, str]] = None,
        project_id: Optional[Union[UUID, str]] = None,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        sort: Optional[Union[AllocationSort, Literal["createdAt", "-createdAt", "startDate", "-startDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AllocationList:
        """List allocations

        Returns the tenant's allocations, ordered by `sort`: `createdAt` ascending by default, `startDate` for the
        earliest start first, `-startDate` for the latest; ties are broken by `id` in the same direction.
        `resourceId` and `projectId`
        restrict by exact match; `from` and `to` restrict to allocations whose date range overlaps
        [`from`, `to`] (either bound may be given alone).

        Requires scope `read`.

        ``GET /allocations`` (operationId ``listAllocations``).

        :param resource_id: Only allocations of this resource.
        :param project_id: Only allocations to this project.
        :param from_: Only allocations ending on or after this date.
        :param to: Only allocations starting on or before this date.
        :param sort: Order of the list: `createdAt` or `startDate`, with a leading `-` for descending. Default
            `createdAt`.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AllocationList`` (``meridian.models.AllocationList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_allocations_with_response(resource_id=resource_id, project_id=project_id, from_=from_, to=to, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_allocations_with_response(
        self,
        *,
        resource_id: Optional[Union[UUID, str]] = None,
        project_id: Optional[Union[UUID, str]] = None,
        from_: Optional[Union[date, str]] = None,
        to: Optional[Union[date, str]] = None,
        sort: Optional[Union[AllocationSort, Literal["createdAt", "-createdAt", "startDate", "-startDate"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AllocationList]:
        """List allocations, returning the whole answer: as ``list_allocations``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AllocationList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_ALLOCATIONS, {'resource_id': resource_id, 'project_id': project_id, 'from_': from_, 'to': to, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_allocation(
        self,
        body: AllocationCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation:
        """Create an allocation

        Allocates a resource to a project from `startDate` to `endDate` (inclusive) at `allocationPercent` (1–100) of
        the resource's weekly capacity. Over-allocation is allowed (a resource may be booked above 100 % in total);
        it shows up in `GET /allocations/conflicts`.

        Errors: 422 `validation_failed` when `endDate` is before `startDate`, or `resourceId` / `projectId` names no
        record of your tenant.

        Requires scope `write`.

        ``POST /allocations`` (operationId ``createAllocation``).

        :param body: the request body, a ``meridian.models.AllocationCreate``.
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
        :returns: the parsed ``Allocation`` (``meridian.models.Allocation``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_allocation_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_allocation_with_response(
        self,
        body: AllocationCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]:
        """Create an allocation, returning the whole answer: as ``create_allocation``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Allocation``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_ALLOCATION, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def list_allocation_conflicts(
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
    ) -> AllocationConflictList:
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

        ``GET /allocations/conflicts`` (operationId ``listAllocationConflicts``).

        :param from_: Only conflicts on or after this date.
        :param to: Only conflicts on or before this date.
        :param resource_id: Only conflicts of this resource.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AllocationConflictList`` (``meridian.models.AllocationConflictList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_allocation_conflicts_with_response(from_=from_, to=to, resource_id=resource_id, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_allocation_conflicts_with_response(
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
    ) -> APIResponse[AllocationConflictList]:
        """List over-allocation conflicts, returning the whole answer: as ``list_allocation_conflicts``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AllocationConflictList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_ALLOCATION_CONFLICTS, {'from_': from_, 'to': to, 'resource_id': resource_id, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_allocation(
        self,
        id: Union[UUID, str],
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

        ``GET /allocations/{id}`` (operationId ``getAllocation``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation`` (``meridian.models.Allocation``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_allocation_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_allocation_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]:
        """Get an allocation, returning the whole answer: as ``get_allocation``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Allocation``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_ALLOCATION, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def delete_allocation(
        self,
        id: Union[UUID, str],
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

        ``DELETE /allocations/{id}`` (operationId ``deleteAllocation``).

        :param id: The record's id (UUID).
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
        await self.delete_allocation_with_response(id, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def delete_allocation_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """Delete an allocation, returning the whole answer: as ``delete_allocation``, but the result is an
        ``APIResponse`` whose ``data`` is None, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_DELETE_ALLOCATION, {'id': id, 'if_match': if_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def update_allocation(
        self,
        id: Union[UUID, str],
        body: AllocationUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Allocation:
        """Update an allocation

        Changes only the fields present in the body. The resource and project of an allocation cannot be changed:
        delete it and create another.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        when the resulting `endDate` is before `startDate`.

        Requires scope `write`.

        ``PATCH /allocations/{id}`` (operationId ``updateAllocation``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.AllocationUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Allocation`` (``meridian.models.Allocation``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.update_allocation_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def update_allocation_with_response(
        self,
        id: Union[UUID, str],
        body: AllocationUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Allocation]:
        """Update an allocation, returning the whole answer: as ``update_allocation``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Allocation``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_UPDATE_ALLOCATION, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncAgentsResource(AsyncAPIResource):
    """Agents: AI agents that analyse the tenant's portfolio asynchronously (run, then poll the execution), and the
    Ask agent that answers questions with citations.

    ``AsyncMeridian().agents``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_agents(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentList:
        """List agents

        Returns the catalogue of agents that `POST /agents/run` accepts: for each, what it analyses, the records it
        reads, the depths it supports and the metrics it computes (with how each is computed). The catalogue is the
        same for every tenant, in a fixed order.

        Every agent analyses the tenant's own data deterministically (the same records and the same parameters give
        the same `output`) and recommends; none changes a record, except that `schedule-health` marks an overdue
        milestone MISSED exactly as the periodic missed-milestone sweep does (so `milestone.missed` fires once per
        milestone, whichever marks it first).

        Requires scope `read`.

        ``GET /agents`` (operationId ``listAgents``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentList`` (``meridian.models.AgentList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_agents_with_response(limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_agents_with_response(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentList]:
        """List agents, returning the whole answer: as ``list_agents``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AgentList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_AGENTS, {'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def run_agent(
        self,
        body: AgentRunRequest,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
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

        ``POST /agents/run`` (operationId ``runAgent``).

        :param body: the request body, a ``meridian.models.AgentRunRequest``.
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
        :returns: the parsed ``AgentExecution`` (``meridian.models.AgentExecution``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.run_agent_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def run_agent_with_response(
        self,
        body: AgentRunRequest,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]:
        """Run an agent, returning the whole answer: as ``run_agent``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AgentExecution``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_RUN_AGENT, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def list_agent_executions(
        self,
        *,
        agent_id: Optional[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]] = None,
        status: Optional[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]]] = None,
        sort: Optional[Literal["createdAt", "-createdAt"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> AgentExecutionList:
        """List agent executions

        Returns the tenant's agent executions, ordered by `createdAt` then `id`: ascending by default,
        newest first with `sort=-createdAt`. Each filter given restricts the list to executions with that value.

        Requires scope `read`.

        ``GET /agents/executions`` (operationId ``listAgentExecutions``).

        :param agent_id: Only executions of this agent.
        :param status: Only executions with this status.
        :param sort: `createdAt` (oldest first, the default) or `-createdAt` (newest first); ties are broken by `id`
            in the same direction.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentExecutionList`` (``meridian.models.AgentExecutionList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_agent_executions_with_response(agent_id=agent_id, status=status, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_agent_executions_with_response(
        self,
        *,
        agent_id: Optional[Union[AgentId, Literal["portfolio-health", "schedule-health", "budget-health", "risk-assessment", "resource-capacity", "status-report"]]] = None,
        status: Optional[Union[ExecutionStatus, Literal["PENDING", "RUNNING", "COMPLETED", "FAILED"]]] = None,
        sort: Optional[Literal["createdAt", "-createdAt"]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecutionList]:
        """List agent executions, returning the whole answer: as ``list_agent_executions``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AgentExecutionList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_AGENT_EXECUTIONS, {'agent_id': agent_id, 'status': status, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_agent_execution(
        self,
        execution_id: Union[UUID, str],
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

        ``GET /agents/executions/{executionId}`` (operationId ``getAgentExecution``).

        :param execution_id: The execution's id, as returned by `POST /agents/run`.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``AgentExecution`` (``meridian.models.AgentExecution``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_agent_execution_with_response(execution_id, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_agent_execution_with_response(
        self,
        execution_id: Union[UUID, str],
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AgentExecution]:
        """Get an agent execution, returning the whole answer: as ``get_agent_execution``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AgentExecution``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_AGENT_EXECUTION, {'execution_id': execution_id}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def ask_agent(
        self,
        body: AskRequest,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
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

        ``POST /agents/ask`` (operationId ``askAgent``).

        :param body: the request body, a ``meridian.models.AskRequest``.
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
        :returns: the parsed ``AskAnswer`` (``meridian.models.AskAnswer``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.ask_agent_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def ask_agent_with_response(
        self,
        body: AskRequest,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[AskAnswer]:
        """Ask a question about the portfolio, returning the whole answer: as ``ask_agent``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AskAnswer``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_ASK_AGENT, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncWebhooksResource(AsyncAPIResource):
    """Webhooks: Endpoints that receive signed event notifications, their deliveries, secret rotation and test
    events; also the event payloads themselves.

    ``AsyncMeridian().webhooks``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_webhooks(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpointList:
        """List webhook endpoints

        Returns the tenant's webhook endpoints, ordered by `createdAt` ascending then `id`. Secrets are never listed.

        Requires scope `admin`.

        ``GET /webhooks`` (operationId ``listWebhooks``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpointList`` (``meridian.models.WebhookEndpointList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_webhooks_with_response(limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_webhooks_with_response(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointList]:
        """List webhook endpoints, returning the whole answer: as ``list_webhooks``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpointList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_WEBHOOKS, {'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_webhook(
        self,
        body: WebhookEndpointCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
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

        ``POST /webhooks`` (operationId ``createWebhook``).

        :param body: the request body, a ``meridian.models.WebhookEndpointCreate``.
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
        :returns: the parsed ``WebhookEndpointWithSecret`` (``meridian.models.WebhookEndpointWithSecret``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_webhook_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_webhook_with_response(
        self,
        body: WebhookEndpointCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]:
        """Register a webhook endpoint, returning the whole answer: as ``create_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpointWithSecret``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_WEBHOOK, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_webhook(
        self,
        id: Union[UUID, str],
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

        ``GET /webhooks/{id}`` (operationId ``getWebhook``).

        :param id: The record's id (UUID).
        :param if_none_match: The `ETag` of the copy you hold. When the record's current entity tag matches it (weak
            comparison, RFC 9110 §13.1.2), the answer is `304 Not Modified` with no body, and you can keep using your
            copy.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpoint`` (``meridian.models.WebhookEndpoint``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_webhook_with_response(id, if_none_match=if_none_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_webhook_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_none_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]:
        """Get a webhook endpoint, returning the whole answer: as ``get_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpoint``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_WEBHOOK, {'id': id, 'if_none_match': if_none_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def delete_webhook(
        self,
        id: Union[UUID, str],
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

        ``DELETE /webhooks/{id}`` (operationId ``deleteWebhook``).

        :param id: The record's id (UUID).
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
        await self.delete_webhook_with_response(id, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def delete_webhook_with_response(
        self,
        id: Union[UUID, str],
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """Delete a webhook endpoint, returning the whole answer: as ``delete_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is None, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_DELETE_WEBHOOK, {'id': id, 'if_match': if_match}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def update_webhook(
        self,
        id: Union[UUID, str],
        body: WebhookEndpointUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookEndpoint:
        """Update a webhook endpoint

        Changes only the fields present in the body. Setting `enabled: true` on an endpoint that was disabled
        (by failures or a `410 Gone`) re-enables it and clears `disabledReason`; deliveries resume with new events.

        Errors: 404 `not_found`; 412 `precondition_failed` when `If-Match` does not match; 422 `validation_failed`
        for a refused address.

        Requires scope `admin`.

        ``PATCH /webhooks/{id}`` (operationId ``updateWebhook``).

        :param id: The record's id (UUID).
        :param body: the request body, a ``meridian.models.WebhookEndpointUpdate``.
        :param if_match: The `ETag` of the record as you last read it (or `*`). When given and the record has changed
            since, nothing is written and the answer is 412 `precondition_failed`. Omit it to write unconditionally.
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookEndpoint`` (``meridian.models.WebhookEndpoint``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.update_webhook_with_response(id, body, if_match=if_match, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def update_webhook_with_response(
        self,
        id: Union[UUID, str],
        body: WebhookEndpointUpdate,
        *,
        if_match: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpoint]:
        """Update a webhook endpoint, returning the whole answer: as ``update_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpoint``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_UPDATE_WEBHOOK, {'id': id, 'if_match': if_match}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def rotate_webhook_secret(
        self,
        id: Union[UUID, str],
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

        ``POST /webhooks/{id}/rotate-secret`` (operationId ``rotateWebhookSecret``).

        :param id: The record's id (UUID).
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
        :returns: the parsed ``WebhookEndpointWithSecret`` (``meridian.models.WebhookEndpointWithSecret``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.rotate_webhook_secret_with_response(id, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def rotate_webhook_secret_with_response(
        self,
        id: Union[UUID, str],
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookEndpointWithSecret]:
        """Rotate a webhook endpoint's secret, returning the whole answer: as ``rotate_webhook_secret``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookEndpointWithSecret``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_ROTATE_WEBHOOK_SECRET, {'id': id, 'idempotency_key': idempotency_key}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def list_webhook_deliveries(
        self,
        id: Union[UUID, str],
        *,
        status: Optional[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> WebhookDeliveryList:
        """List an endpoint's deliveries

        Returns the deliveries to this endpoint with every attempt (time, HTTP status, duration, error) and the time
        of the next attempt, ordered by `createdAt` ascending then `id`. Deliveries are kept for 30 days.

        Errors: 404 `not_found`.

        Requires scope `admin`.

        ``GET /webhooks/{id}/deliveries`` (operationId ``listWebhookDeliveries``).

        :param id: The record's id (UUID).
        :param status: Only deliveries with this status.
        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``WebhookDeliveryList`` (``meridian.models.WebhookDeliveryList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_webhook_deliveries_with_response(id, status=status, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_webhook_deliveries_with_response(
        self,
        id: Union[UUID, str],
        *,
        status: Optional[Union[WebhookDeliveryStatus, Literal["PENDING", "SUCCEEDED", "FAILED"]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookDeliveryList]:
        """List an endpoint's deliveries, returning the whole answer: as ``list_webhook_deliveries``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookDeliveryList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_WEBHOOK_DELIVERIES, {'id': id, 'status': status, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def test_webhook(
        self,
        id: Union[UUID, str],
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

        ``POST /webhooks/{id}/test`` (operationId ``testWebhook``).

        :param id: The record's id (UUID).
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
        :returns: the parsed ``WebhookDelivery`` (``meridian.models.WebhookDelivery``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.test_webhook_with_response(id, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def test_webhook_with_response(
        self,
        id: Union[UUID, str],
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[WebhookDelivery]:
        """Send a test event, returning the whole answer: as ``test_webhook``, but the result is an
        ``APIResponse`` whose ``data`` is the ``WebhookDelivery``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_TEST_WEBHOOK, {'id': id, 'idempotency_key': idempotency_key}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncIdentityResource(AsyncAPIResource):
    """Identity: The caller's user, API key and tenant.

    ``AsyncMeridian().identity``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def get_me(
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

        ``GET /me`` (operationId ``getMe``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Me`` (``meridian.models.Me``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_me_with_response(extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_me_with_response(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Me]:
        """Get the current user and key, returning the whole answer: as ``get_me``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Me``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_ME, {}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def get_tenant(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant:
        """Get the tenant

        Returns the caller's tenant: plan, currency of all money fields, timezone used to decide when a due date has
        passed, and rate limit.

        Requires scope `read`.

        ``GET /tenant`` (operationId ``getTenant``).

        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``Tenant`` (``meridian.models.Tenant``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.get_tenant_with_response(extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def get_tenant_with_response(
        self,
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]:
        """Get the tenant, returning the whole answer: as ``get_tenant``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Tenant``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_GET_TENANT, {}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def update_tenant(
        self,
        body: TenantUpdate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> Tenant:
        """Change the tenant's settings

        Changes the tenant's `settings`: only the settings present in the body change. Today there is one,
        `llmEnabled`: `false` keeps every record of this tenant away from the language model the deployment may be
        configured with (`MERIDIAN_LLM_BASE_URL`), so Ask answers and agent runs are written by the embedded engine
        only; `true` (the default) lets the model write them, each sentence checked against the records (see
        `POST /agents/ask`). The change applies to the next question or run and is recorded in the audit log
        (`tenant.updated`).

        Errors: 400 `validation_failed` for an unknown setting or a value of the wrong type.

        Requires scope `admin`.

        ``PATCH /tenant`` (operationId ``updateTenant``).

        :param body: the request body, a ``meridian.models.TenantUpdate``.
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
        :returns: the parsed ``Tenant`` (``meridian.models.Tenant``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.update_tenant_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def update_tenant_with_response(
        self,
        body: TenantUpdate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[Tenant]:
        """Change the tenant's settings, returning the whole answer: as ``update_tenant``, but the result is an
        ``APIResponse`` whose ``data`` is the ``Tenant``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_UPDATE_TENANT, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncApiKeysResource(AsyncAPIResource):
    """API Keys: Issue, list and revoke the tenant's API keys.

    ``AsyncMeridian().api_keys``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_api_keys(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyList:
        """List API keys

        Returns the tenant's API keys, including revoked and expired ones, ordered by `createdAt` ascending then
        `id`. Only the display `prefix` of each key is shown, never the key.

        Requires scope `admin`.

        ``GET /api-keys`` (operationId ``listApiKeys``).

        :param limit: Maximum number of records in the page (1–100).
        :param offset: Number of records to skip from the start of the list (at most 2,147,483,647).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: the parsed ``ApiKeyList`` (``meridian.models.ApiKeyList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_api_keys_with_response(limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_api_keys_with_response(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyList]:
        """List API keys, returning the whole answer: as ``list_api_keys``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ApiKeyList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_API_KEYS, {'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def create_api_key(
        self,
        body: ApiKeyCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> ApiKeyWithSecret:
        """Create an API key

        Issues a new key for the calling user with the given `scopes` and optional `expiresAt`. The full `key`
        (`mk_live_…`) is in this response **only**: Meridian stores just a hash of it. A key cannot be given scopes
        its creator's key does not have, nor outlive it: when the creating key expires, `expiresAt` is required and
        may not be later.

        Errors: 403 `forbidden` for a scope the creating key lacks; 422 `validation_failed` when `expiresAt` is in
        the past, or missing or later than the creating key's expiry.

        Requires scope `admin`.

        ``POST /api-keys`` (operationId ``createApiKey``).

        :param body: the request body, a ``meridian.models.ApiKeyCreate``.
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
        :returns: the parsed ``ApiKeyWithSecret`` (``meridian.models.ApiKeyWithSecret``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.create_api_key_with_response(body, idempotency_key=idempotency_key, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def create_api_key_with_response(
        self,
        body: ApiKeyCreate,
        *,
        idempotency_key: Optional[str] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[ApiKeyWithSecret]:
        """Create an API key, returning the whole answer: as ``create_api_key``, but the result is an
        ``APIResponse`` whose ``data`` is the ``ApiKeyWithSecret``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_CREATE_API_KEY, {'idempotency_key': idempotency_key}, body, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def revoke_api_key(
        self,
        id: Union[UUID, str],
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

        Errors: 404 `not_found`; 409 `conflict` when the key to revoke is the one authenticating the request.

        Requires scope `admin`.

        ``DELETE /api-keys/{id}`` (operationId ``revokeApiKey``).

        :param id: The record's id (UUID).
        :param extra_headers: headers added to this request (merged over the client's).
        :param timeout: seconds this request's attempts may take (default: the client's ``timeout``).
        :param max_retries: retries after the first attempt for this request (default: the client's).
        :returns: nothing (204 No Content).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        await self.revoke_api_key_with_response(id, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)

    async def revoke_api_key_with_response(
        self,
        id: Union[UUID, str],
        *,
        extra_headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[Timeout] = None,
        max_retries: Optional[int] = None,
    ) -> APIResponse[None]:
        """Revoke an API key, returning the whole answer: as ``revoke_api_key``, but the result is an
        ``APIResponse`` whose ``data`` is None, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_REVOKE_API_KEY, {'id': id}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class AsyncAuditLogsResource(AsyncAPIResource):
    """Audit Logs: The append-only record of every change made through the API.

    ``AsyncMeridian().audit_logs``: one method per operation of the tag, named after its operationId, and a
    ``…_with_response`` twin returning the ``APIResponse`` (status, headers, request id).
    """

    async def list_audit_logs(
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
    ) -> AuditLogEntryList:
        """List audit log entries

        Returns the append-only record of changes made in the tenant (creates, updates, deletes of every record,
        webhook endpoints and API keys), ordered by `sort`: `occurredAt` ascending (oldest first) by default, or
        `-occurredAt` for the newest first; ties are broken by `id` in the same direction. Each filter given restricts
        the list; `since` is inclusive and `until` exclusive.

        Requires scope `admin`.

        ``GET /audit-logs`` (operationId ``listAuditLogs``).

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
        :returns: the parsed ``AuditLogEntryList`` (``meridian.models.AuditLogEntryList``).
        :raises RequestValidationError: an argument breaks the spec's constraints; nothing was sent.
        :raises APIStatusError: a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError``
            …), after the retries the policy allows.
        :raises APIConnectionError: no answer (``APITimeoutError`` when the last attempt timed out).
        """
        return (await self.list_audit_logs_with_response(action=action, resource_type=resource_type, resource_id=resource_id, actor_id=actor_id, since=since, until=until, sort=sort, limit=limit, offset=offset, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)).data

    async def list_audit_logs_with_response(
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
    ) -> APIResponse[AuditLogEntryList]:
        """List audit log entries, returning the whole answer: as ``list_audit_logs``, but the result is an
        ``APIResponse`` whose ``data`` is the ``AuditLogEntryList``, with ``status_code``, ``headers`` and ``request_id``.
        """
        return await self._client.request(_LIST_AUDIT_LOGS, {'action': action, 'resource_type': resource_type, 'resource_id': resource_id, 'actor_id': actor_id, 'since': since, 'until': until, 'sort': sort, 'limit': limit, 'offset': offset}, None, extra_headers=extra_headers, timeout=timeout, max_retries=max_retries)


class SyncResourcesClient(SyncAPIClient):
    """The operations of the API, one attribute per tag of the spec (base of ``Meridian``)."""

    @cached_property
    def projects(self) -> ProjectsResource:
        """Projects: ``list_projects``, ``create_project``, ``get_project``, ``update_project``."""
        return ProjectsResource(self)

    @cached_property
    def status_reports(self) -> StatusReportsResource:
        """Status Reports: ``list_project_status_reports``, ``create_status_report``, ``list_status_reports``,
        ``get_status_report``.
        """
        return StatusReportsResource(self)

    @cached_property
    def milestones(self) -> MilestonesResource:
        """Milestones: ``list_project_milestones``, ``create_milestone``, ``get_milestone``, ``delete_milestone``,
        ``update_milestone``.
        """
        return MilestonesResource(self)

    @cached_property
    def risks(self) -> RisksResource:
        """Risks: ``list_risks``, ``create_risk``, ``get_risk``, ``update_risk``."""
        return RisksResource(self)

    @cached_property
    def issues(self) -> IssuesResource:
        """Issues: ``list_issues``, ``create_issue``, ``get_issue``, ``update_issue``."""
        return IssuesResource(self)

    @cached_property
    def resources(self) -> ResourcesResource:
        """Resources: ``list_resources``, ``create_resource``, ``get_resource``, ``update_resource``,
        ``get_resource_availability``.
        """
        return ResourcesResource(self)

    @cached_property
    def allocations(self) -> AllocationsResource:
        """Allocations: ``list_allocations``, ``create_allocation``, ``list_allocation_conflicts``, ``get_allocation``,
        ``delete_allocation``, ``update_allocation``.
        """
        return AllocationsResource(self)

    @cached_property
    def agents(self) -> AgentsResource:
        """Agents: ``list_agents``, ``run_agent``, ``list_agent_executions``, ``get_agent_execution``, ``ask_agent``."""
        return AgentsResource(self)

    @cached_property
    def webhooks(self) -> WebhooksResource:
        """Webhooks: ``list_webhooks``, ``create_webhook``, ``get_webhook``, ``delete_webhook``, ``update_webhook``,
        ``rotate_webhook_secret``, ``list_webhook_deliveries``, ``test_webhook``.
        """
        return WebhooksResource(self)

    @cached_property
    def identity(self) -> IdentityResource:
        """Identity: ``get_me``, ``get_tenant``, ``update_tenant``."""
        return IdentityResource(self)

    @cached_property
    def api_keys(self) -> ApiKeysResource:
        """API Keys: ``list_api_keys``, ``create_api_key``, ``revoke_api_key``."""
        return ApiKeysResource(self)

    @cached_property
    def audit_logs(self) -> AuditLogsResource:
        """Audit Logs: ``list_audit_logs``."""
        return AuditLogsResource(self)


class AsyncResourcesClient(AsyncAPIClient):
    """The operations of the API, one attribute per tag of the spec (base of ``AsyncMeridian``)."""

    @cached_property
    def projects(self) -> AsyncProjectsResource:
        """Projects: ``list_projects``, ``create_project``, ``get_project``, ``update_project``."""
        return AsyncProjectsResource(self)

    @cached_property
    def status_reports(self) -> AsyncStatusReportsResource:
        """Status Reports: ``list_project_status_reports``, ``create_status_report``, ``list_status_reports``,
        ``get_status_report``.
        """
        return AsyncStatusReportsResource(self)

    @cached_property
    def milestones(self) -> AsyncMilestonesResource:
        """Milestones: ``list_project_milestones``, ``create_milestone``, ``get_milestone``, ``delete_milestone``,
        ``update_milestone``.
        """
        return AsyncMilestonesResource(self)

    @cached_property
    def risks(self) -> AsyncRisksResource:
        """Risks: ``list_risks``, ``create_risk``, ``get_risk``, ``update_risk``."""
        return AsyncRisksResource(self)

    @cached_property
    def issues(self) -> AsyncIssuesResource:
        """Issues: ``list_issues``, ``create_issue``, ``get_issue``, ``update_issue``."""
        return AsyncIssuesResource(self)

    @cached_property
    def resources(self) -> AsyncResourcesResource:
        """Resources: ``list_resources``, ``create_resource``, ``get_resource``, ``update_resource``,
        ``get_resource_availability``.
        """
        return AsyncResourcesResource(self)

    @cached_property
    def allocations(self) -> AsyncAllocationsResource:
        """Allocations: ``list_allocations``, ``create_allocation``, ``list_allocation_conflicts``, ``get_allocation``,
        ``delete_allocation``, ``update_allocation``.
        """
        return AsyncAllocationsResource(self)

    @cached_property
    def agents(self) -> AsyncAgentsResource:
        """Agents: ``list_agents``, ``run_agent``, ``list_agent_executions``, ``get_agent_execution``, ``ask_agent``."""
        return AsyncAgentsResource(self)

    @cached_property
    def webhooks(self) -> AsyncWebhooksResource:
        """Webhooks: ``list_webhooks``, ``create_webhook``, ``get_webhook``, ``delete_webhook``, ``update_webhook``,
        ``rotate_webhook_secret``, ``list_webhook_deliveries``, ``test_webhook``.
        """
        return AsyncWebhooksResource(self)

    @cached_property
    def identity(self) -> AsyncIdentityResource:
        """Identity: ``get_me``, ``get_tenant``, ``update_tenant``."""
        return AsyncIdentityResource(self)

    @cached_property
    def api_keys(self) -> AsyncApiKeysResource:
        """API Keys: ``list_api_keys``, ``create_api_key``, ``revoke_api_key``."""
        return AsyncApiKeysResource(self)

    @cached_property
    def audit_logs(self) -> AsyncAuditLogsResource:
        """Audit Logs: ``list_audit_logs``."""
        return AsyncAuditLogsResource(self)
