# flake8: noqa

# import apis into api package
from meridian_client.api.api_keys_api import APIKeysApi
from meridian_client.api.agents_api import AgentsApi
from meridian_client.api.allocations_api import AllocationsApi
from meridian_client.api.audit_logs_api import AuditLogsApi
from meridian_client.api.identity_api import IdentityApi
from meridian_client.api.issues_api import IssuesApi
from meridian_client.api.milestones_api import MilestonesApi
from meridian_client.api.projects_api import ProjectsApi
from meridian_client.api.resources_api import ResourcesApi
from meridian_client.api.risks_api import RisksApi
from meridian_client.api.webhooks_api import WebhooksApi

