/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts.
 * Do not make direct changes to the file: edit the spec and run `npm run generate`.
 */

/** Every operation of the API: HTTP method, path template (relative to /v1), tag and required scope. */
export const operationTable = {
  listProjects: { method: 'GET', path: '/projects', tag: 'Projects', scope: 'read' },
  createProject: { method: 'POST', path: '/projects', tag: 'Projects', scope: 'write' },
  getProject: { method: 'GET', path: '/projects/{id}', tag: 'Projects', scope: 'read' },
  updateProject: { method: 'PATCH', path: '/projects/{id}', tag: 'Projects', scope: 'write' },
  listProjectMilestones: { method: 'GET', path: '/projects/{id}/milestones', tag: 'Milestones', scope: 'read' },
  createMilestone: { method: 'POST', path: '/projects/{id}/milestones', tag: 'Milestones', scope: 'write' },
  getMilestone: { method: 'GET', path: '/milestones/{id}', tag: 'Milestones', scope: 'read' },
  deleteMilestone: { method: 'DELETE', path: '/milestones/{id}', tag: 'Milestones', scope: 'write' },
  updateMilestone: { method: 'PATCH', path: '/milestones/{id}', tag: 'Milestones', scope: 'write' },
  listRisks: { method: 'GET', path: '/risks', tag: 'Risks', scope: 'read' },
  createRisk: { method: 'POST', path: '/risks', tag: 'Risks', scope: 'write' },
  getRisk: { method: 'GET', path: '/risks/{id}', tag: 'Risks', scope: 'read' },
  updateRisk: { method: 'PATCH', path: '/risks/{id}', tag: 'Risks', scope: 'write' },
  listIssues: { method: 'GET', path: '/issues', tag: 'Issues', scope: 'read' },
  createIssue: { method: 'POST', path: '/issues', tag: 'Issues', scope: 'write' },
  getIssue: { method: 'GET', path: '/issues/{id}', tag: 'Issues', scope: 'read' },
  updateIssue: { method: 'PATCH', path: '/issues/{id}', tag: 'Issues', scope: 'write' },
  listResources: { method: 'GET', path: '/resources', tag: 'Resources', scope: 'read' },
  createResource: { method: 'POST', path: '/resources', tag: 'Resources', scope: 'write' },
  getResource: { method: 'GET', path: '/resources/{id}', tag: 'Resources', scope: 'read' },
  updateResource: { method: 'PATCH', path: '/resources/{id}', tag: 'Resources', scope: 'write' },
  getResourceAvailability: { method: 'GET', path: '/resources/{id}/availability', tag: 'Resources', scope: 'read' },
  listAllocations: { method: 'GET', path: '/allocations', tag: 'Allocations', scope: 'read' },
  createAllocation: { method: 'POST', path: '/allocations', tag: 'Allocations', scope: 'write' },
  listAllocationConflicts: { method: 'GET', path: '/allocations/conflicts', tag: 'Allocations', scope: 'read' },
  getAllocation: { method: 'GET', path: '/allocations/{id}', tag: 'Allocations', scope: 'read' },
  deleteAllocation: { method: 'DELETE', path: '/allocations/{id}', tag: 'Allocations', scope: 'write' },
  updateAllocation: { method: 'PATCH', path: '/allocations/{id}', tag: 'Allocations', scope: 'write' },
  listAgents: { method: 'GET', path: '/agents', tag: 'Agents', scope: 'read' },
  runAgent: { method: 'POST', path: '/agents/run', tag: 'Agents', scope: 'write' },
  listAgentExecutions: { method: 'GET', path: '/agents/executions', tag: 'Agents', scope: 'read' },
  getAgentExecution: { method: 'GET', path: '/agents/executions/{executionId}', tag: 'Agents', scope: 'read' },
  askAgent: { method: 'POST', path: '/agents/ask', tag: 'Agents', scope: 'read' },
  listWebhooks: { method: 'GET', path: '/webhooks', tag: 'Webhooks', scope: 'admin' },
  createWebhook: { method: 'POST', path: '/webhooks', tag: 'Webhooks', scope: 'admin' },
  getWebhook: { method: 'GET', path: '/webhooks/{id}', tag: 'Webhooks', scope: 'admin' },
  deleteWebhook: { method: 'DELETE', path: '/webhooks/{id}', tag: 'Webhooks', scope: 'admin' },
  updateWebhook: { method: 'PATCH', path: '/webhooks/{id}', tag: 'Webhooks', scope: 'admin' },
  rotateWebhookSecret: { method: 'POST', path: '/webhooks/{id}/rotate-secret', tag: 'Webhooks', scope: 'admin' },
  listWebhookDeliveries: { method: 'GET', path: '/webhooks/{id}/deliveries', tag: 'Webhooks', scope: 'admin' },
  testWebhook: { method: 'POST', path: '/webhooks/{id}/test', tag: 'Webhooks', scope: 'admin' },
  getMe: { method: 'GET', path: '/me', tag: 'Identity', scope: 'read' },
  getTenant: { method: 'GET', path: '/tenant', tag: 'Identity', scope: 'read' },
  listApiKeys: { method: 'GET', path: '/api-keys', tag: 'API Keys', scope: 'admin' },
  createApiKey: { method: 'POST', path: '/api-keys', tag: 'API Keys', scope: 'admin' },
  revokeApiKey: { method: 'DELETE', path: '/api-keys/{id}', tag: 'API Keys', scope: 'admin' },
  listAuditLogs: { method: 'GET', path: '/audit-logs', tag: 'Audit Logs', scope: 'admin' },
} as const;

/** An operationId of the API. */
export type OperationId = keyof typeof operationTable;
