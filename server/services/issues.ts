/**
 * Issues (DESIGN.md: status OPEN | IN_PROGRESS | RESOLVED | CLOSED, priority LOW … CRITICAL, `resolvedAt` set when
 * an issue becomes RESOLVED or CLOSED and cleared on reopen).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Page, PageRequest } from '../repositories/common.js';
import { inTransaction } from '../repositories/common.js';
import {
  findIssue,
  type IssueFields,
  type IssueFilter,
  type IssuePriority,
  type IssueRecord,
  type IssueStatus,
  insertIssue,
  listIssues,
  updateIssue,
} from '../repositories/issues.js';
import { diff, recordAudit } from './audit.js';
import { checkIfMatch } from './concurrency.js';
import type { Actor, ServiceDeps } from './context.js';
import { notFound } from './errors.js';
import { assertReference } from './references.js';
import { commitChanges } from './versioned.js';

/** Body of POST /issues (spec `IssueCreate`). */
export interface IssueCreateInput {
  projectId: string;
  title: string;
  description?: string | null;
  status?: IssueStatus;
  priority?: IssuePriority;
  assigneeId?: string | null;
  dueDate?: string | null;
}

/** Body of PATCH /issues/{id} (spec `IssueUpdate`; the project cannot change). */
export type IssueUpdateInput = Partial<Omit<IssueCreateInput, 'projectId'>>;

const DONE: ReadonlySet<IssueStatus> = new Set(['RESOLVED', 'CLOSED']);

/** `resolvedAt`: set when the issue becomes RESOLVED or CLOSED (kept between them), cleared on reopen. */
export function resolvedAtFor(status: IssueStatus, previous: IssueRecord | null, now: string): string | null {
  if (!DONE.has(status)) return null;
  return previous && DONE.has(previous.status) ? previous.resolvedAt : now;
}

function fieldsOf(i: IssueRecord): IssueFields {
  const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...fields } = i;
  return fields;
}

/** Issue use cases. */
export class IssueService {
  constructor(private readonly deps: ServiceDeps) {}

  /** @throws AppError 422 when `projectId` names no project of the tenant or `assigneeId` no resource. */
  async create(actor: Actor, input: IssueCreateInput): Promise<IssueRecord> {
    const now = this.deps.clock.now().toISOString();
    const status = input.status ?? 'OPEN';
    const fields: IssueFields = {
      projectId: input.projectId,
      title: input.title,
      description: input.description ?? null,
      status,
      priority: input.priority ?? 'MEDIUM',
      assigneeId: input.assigneeId ?? null,
      dueDate: input.dueDate ?? null,
      resolvedAt: resolvedAtFor(status, null, now),
    };
    return inTransaction(this.deps.db.knex, async (trx) => {
      await assertReference(trx, actor.tenantId, 'project', 'projectId', fields.projectId);
      await assertReference(trx, actor.tenantId, 'resource', 'assigneeId', fields.assigneeId);
      const issue = await insertIssue(trx, actor.tenantId, uuidv7(), fields, now);
      await recordAudit(trx, actor, now, 'issue.created', 'issue', issue.id, diff({}, fields));
      return issue;
    });
  }

  /** @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<IssueRecord> {
    const issue = await findIssue(this.deps.db.knex, actor.tenantId, id);
    if (!issue) throw notFound('issue', id);
    return issue;
  }

  /** A page of the tenant's issues; each given filter restricts the list. */
  async list(actor: Actor, filter: IssueFilter, page: PageRequest): Promise<Page<IssueRecord>> {
    return listIssues(this.deps.db.knex, actor.tenantId, filter, page);
  }

  /** Partial update. @throws AppError 404; 412 If-Match mismatch; 409 concurrent write; 422 unknown assignee. */
  async update(actor: Actor, id: string, input: IssueUpdateInput, ifMatch?: string): Promise<IssueRecord> {
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      const current = await findIssue(trx, actor.tenantId, id);
      if (!current) throw notFound('issue', id);
      checkIfMatch(ifMatch, current.version);
      const before = fieldsOf(current);
      const after: IssueFields = { ...before };
      for (const key of ['title', 'description', 'status', 'priority', 'assigneeId', 'dueDate'] as const) {
        if (input[key] !== undefined) (after as unknown as Record<string, unknown>)[key] = input[key];
      }
      after.resolvedAt = resolvedAtFor(after.status, current, now);
      if (after.assigneeId !== before.assigneeId) {
        await assertReference(trx, actor.tenantId, 'resource', 'assigneeId', after.assigneeId);
      }
      const changed = await commitChanges(trx, actor, now, {
        resourceType: 'issue',
        id,
        before,
        after,
        write: (fields) => updateIssue(trx, actor.tenantId, id, current.version, fields, now),
      });
      return changed ? ((await findIssue(trx, actor.tenantId, id)) as IssueRecord) : current;
    });
  }
}
