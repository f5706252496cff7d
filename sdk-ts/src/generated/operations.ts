/**
 * This file was generated from spec/openapi.yaml by scripts/generate-operations.ts (operation table).
 * Do not make direct changes to the file: edit the spec and run `npm run generate`.
 */

/** Runtime description of one operation: what the server and the client need to route, check and build it. */
export interface OperationSpec {
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';
  /** Path template relative to the base URL (which ends in `/v1`). */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** The header parameters the operation declares, spelt as in the spec (e.g. `If-Match`). */
  readonly headerParams: readonly string[];
  readonly hasBody: boolean;
  /** Takes `limit` and `offset`: usable with `client.paginate()`. */
  readonly paginated: boolean;
  /** A paginated operation's `limit`: the page size when none is asked for, and the largest allowed. */
  readonly limit: { readonly default: number; readonly maximum: number } | null;
  /** The operation's first tag (its section of the API reference). */
  readonly tag: string;
  /** The API key scope the operation requires (`x-required-scope`): `read`, `write` or `admin`. */
  readonly scope: string;
}

/** Every operation of the spec's `paths`, keyed by operationId, in the spec's order. */
export const operationTable = {
  listProjects: { method: 'GET', path: '/projects', pathParams: [], queryParams: ['status', 'category', 'borough', 'managingAgency', 'clientAgency', 'q', 'tag', 'sort', 'id', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Projects', scope: 'read' },
  createProject: { method: 'POST', path: '/projects', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Projects', scope: 'write' },
  getProject: { method: 'GET', path: '/projects/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Projects', scope: 'read' },
  updateProject: { method: 'PATCH', path: '/projects/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Projects', scope: 'write' },
  listProjectStatusReports: { method: 'GET', path: '/projects/{id}/status-reports', pathParams: ['id'], queryParams: ['since', 'until', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Status Reports', scope: 'read' },
  createStatusReport: { method: 'POST', path: '/projects/{id}/status-reports', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Status Reports', scope: 'write' },
  listStatusReports: { method: 'GET', path: '/status-reports', pathParams: [], queryParams: ['projectId', 'since', 'until', 'id', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Status Reports', scope: 'read' },
  getStatusReport: { method: 'GET', path: '/status-reports/{id}', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Status Reports', scope: 'read' },
  listProjectMilestones: { method: 'GET', path: '/projects/{id}/milestones', pathParams: ['id'], queryParams: ['status', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Milestones', scope: 'read' },
  createMilestone: { method: 'POST', path: '/projects/{id}/milestones', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Milestones', scope: 'write' },
  getMilestone: { method: 'GET', path: '/milestones/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Milestones', scope: 'read' },
  deleteMilestone: { method: 'DELETE', path: '/milestones/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: false, paginated: false, limit: null, tag: 'Milestones', scope: 'write' },
  updateMilestone: { method: 'PATCH', path: '/milestones/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Milestones', scope: 'write' },
  listRisks: { method: 'GET', path: '/risks', pathParams: [], queryParams: ['projectId', 'status', 'severity', 'sort', 'id', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Risks', scope: 'read' },
  createRisk: { method: 'POST', path: '/risks', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Risks', scope: 'write' },
  getRisk: { method: 'GET', path: '/risks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Risks', scope: 'read' },
  updateRisk: { method: 'PATCH', path: '/risks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Risks', scope: 'write' },
  listIssues: { method: 'GET', path: '/issues', pathParams: [], queryParams: ['projectId', 'status', 'priority', 'assigneeId', 'sort', 'id', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Issues', scope: 'read' },
  createIssue: { method: 'POST', path: '/issues', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Issues', scope: 'write' },
  getIssue: { method: 'GET', path: '/issues/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Issues', scope: 'read' },
  updateIssue: { method: 'PATCH', path: '/issues/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Issues', scope: 'write' },
  listResources: { method: 'GET', path: '/resources', pathParams: [], queryParams: ['role', 'skill', 'active', 'sort', 'id', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Resources', scope: 'read' },
  createResource: { method: 'POST', path: '/resources', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Resources', scope: 'write' },
  getResource: { method: 'GET', path: '/resources/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Resources', scope: 'read' },
  updateResource: { method: 'PATCH', path: '/resources/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Resources', scope: 'write' },
  getResourceAvailability: { method: 'GET', path: '/resources/{id}/availability', pathParams: ['id'], queryParams: ['from', 'to', 'granularity'], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Resources', scope: 'read' },
  listAllocations: { method: 'GET', path: '/allocations', pathParams: [], queryParams: ['resourceId', 'projectId', 'from', 'to', 'sort', 'id', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Allocations', scope: 'read' },
  createAllocation: { method: 'POST', path: '/allocations', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Allocations', scope: 'write' },
  listAllocationConflicts: { method: 'GET', path: '/allocations/conflicts', pathParams: [], queryParams: ['from', 'to', 'resourceId', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Allocations', scope: 'read' },
  getAllocation: { method: 'GET', path: '/allocations/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Allocations', scope: 'read' },
  deleteAllocation: { method: 'DELETE', path: '/allocations/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: false, paginated: false, limit: null, tag: 'Allocations', scope: 'write' },
  updateAllocation: { method: 'PATCH', path: '/allocations/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Allocations', scope: 'write' },
  listAgents: { method: 'GET', path: '/agents', pathParams: [], queryParams: ['limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Agents', scope: 'read' },
  runAgent: { method: 'POST', path: '/agents/run', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Agents', scope: 'write' },
  listAgentExecutions: { method: 'GET', path: '/agents/executions', pathParams: [], queryParams: ['agentId', 'status', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Agents', scope: 'read' },
  getAgentExecution: { method: 'GET', path: '/agents/executions/{executionId}', pathParams: ['executionId'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Agents', scope: 'read' },
  askAgent: { method: 'POST', path: '/agents/ask', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Agents', scope: 'read' },
  listWebhooks: { method: 'GET', path: '/webhooks', pathParams: [], queryParams: ['limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Webhooks', scope: 'admin' },
  createWebhook: { method: 'POST', path: '/webhooks', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  getWebhook: { method: 'GET', path: '/webhooks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-None-Match'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  deleteWebhook: { method: 'DELETE', path: '/webhooks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  updateWebhook: { method: 'PATCH', path: '/webhooks/{id}', pathParams: ['id'], queryParams: [], headerParams: ['If-Match'], hasBody: true, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  rotateWebhookSecret: { method: 'POST', path: '/webhooks/{id}/rotate-secret', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  revealWebhookSecret: { method: 'GET', path: '/webhooks/{id}/secret', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  listWebhookDeliveries: { method: 'GET', path: '/webhooks/{id}/deliveries', pathParams: ['id'], queryParams: ['status', 'event', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Webhooks', scope: 'admin' },
  testWebhook: { method: 'POST', path: '/webhooks/{id}/test', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  resendWebhookDelivery: { method: 'POST', path: '/webhooks/{id}/deliveries/{deliveryId}/resend', pathParams: ['id', 'deliveryId'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: false, paginated: false, limit: null, tag: 'Webhooks', scope: 'admin' },
  getMe: { method: 'GET', path: '/me', pathParams: [], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Identity', scope: 'read' },
  getTenant: { method: 'GET', path: '/tenant', pathParams: [], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Identity', scope: 'read' },
  updateTenant: { method: 'PATCH', path: '/tenant', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Identity', scope: 'admin' },
  listApiKeys: { method: 'GET', path: '/api-keys', pathParams: [], queryParams: ['limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'API Keys', scope: 'write' },
  createApiKey: { method: 'POST', path: '/api-keys', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'API Keys', scope: 'write' },
  revokeApiKey: { method: 'DELETE', path: '/api-keys/{id}', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'API Keys', scope: 'write' },
  rollApiKey: { method: 'POST', path: '/api-keys/{id}/roll', pathParams: ['id'], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'API Keys', scope: 'write' },
  listAuditLogs: { method: 'GET', path: '/audit-logs', pathParams: [], queryParams: ['action', 'resourceType', 'resourceId', 'actorId', 'since', 'until', 'sort', 'limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Audit Logs', scope: 'admin' },
  getTenantSso: { method: 'GET', path: '/tenant/sso', pathParams: [], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Identity', scope: 'admin' },
  updateTenantSso: { method: 'PUT', path: '/tenant/sso', pathParams: [], queryParams: [], headerParams: [], hasBody: true, paginated: false, limit: null, tag: 'Identity', scope: 'admin' },
  deleteTenantSso: { method: 'DELETE', path: '/tenant/sso', pathParams: [], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Identity', scope: 'admin' },
  listMembers: { method: 'GET', path: '/members', pathParams: [], queryParams: ['limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Members', scope: 'admin' },
  getMember: { method: 'GET', path: '/members/{id}', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Members', scope: 'admin' },
  removeMember: { method: 'DELETE', path: '/members/{id}', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Members', scope: 'admin' },
  updateMember: { method: 'PATCH', path: '/members/{id}', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: true, paginated: false, limit: null, tag: 'Members', scope: 'admin' },
  listInvitations: { method: 'GET', path: '/invitations', pathParams: [], queryParams: ['limit', 'offset'], headerParams: [], hasBody: false, paginated: true, limit: { default: 25, maximum: 100 }, tag: 'Invitations', scope: 'admin' },
  createInvitation: { method: 'POST', path: '/invitations', pathParams: [], queryParams: [], headerParams: ['Idempotency-Key'], hasBody: true, paginated: false, limit: null, tag: 'Invitations', scope: 'admin' },
  revokeInvitation: { method: 'DELETE', path: '/invitations/{id}', pathParams: ['id'], queryParams: [], headerParams: [], hasBody: false, paginated: false, limit: null, tag: 'Invitations', scope: 'admin' },
} as const satisfies Record<string, OperationSpec>;

/** An operationId of the API. */
export type OperationId = keyof typeof operationTable;

/** The operationId of a paginated (list) operation. */
export type PaginatedOperationId = {
  [K in OperationId]: (typeof operationTable)[K]['paginated'] extends true ? K : never;
}[OperationId];
