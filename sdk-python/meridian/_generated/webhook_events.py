"""The webhook events of the spec's ``webhooks`` section, typed.

Generated from spec/openapi.yaml by sdk-python/scripts/generate_operations.py. Do not edit: change the spec and
run `npm run generate`.
"""

from __future__ import annotations

from typing import Dict, Literal, Type, Union

from pydantic import BaseModel

from meridian._generated.models.agent_execution_completed_event import AgentExecutionCompletedEvent
from meridian._generated.models.budget_overrun_detected_event import BudgetOverrunDetectedEvent
from meridian._generated.models.milestone_missed_event import MilestoneMissedEvent
from meridian._generated.models.project_status_changed_event import ProjectStatusChangedEvent
from meridian._generated.models.risk_created_event import RiskCreatedEvent
from meridian._generated.models.risk_severity_escalated_event import RiskSeverityEscalatedEvent

__all__ = ["WEBHOOK_EVENT_MODELS", "KnownWebhookEvent", "WebhookEventName"]

WebhookEventName = Literal[
    'project.status_changed',
    'risk.created',
    'risk.severity_escalated',
    'milestone.missed',
    'agent.execution_completed',
    'budget.overrun_detected',
]
"""The name of a webhook event (the payload's ``event`` field), e.g. ``"risk.created"``."""

KnownWebhookEvent = Union[
    ProjectStatusChangedEvent,
    RiskCreatedEvent,
    RiskSeverityEscalatedEvent,
    MilestoneMissedEvent,
    AgentExecutionCompletedEvent,
    BudgetOverrunDetectedEvent,
]
"""Any event payload the spec describes (narrow with ``isinstance``)."""

WEBHOOK_EVENT_MODELS: Dict[str, Type[BaseModel]] = {
    'project.status_changed': ProjectStatusChangedEvent,
    'risk.created': RiskCreatedEvent,
    'risk.severity_escalated': RiskSeverityEscalatedEvent,
    'milestone.missed': MilestoneMissedEvent,
    'agent.execution_completed': AgentExecutionCompletedEvent,
    'budget.overrun_detected': BudgetOverrunDetectedEvent,
}
"""The payload model of each event, by event name."""
