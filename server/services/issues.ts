/**
 * Issues (docs/design.md: status OPEN | IN_PROGRESS | RESOLVED | CLOSED, priority LOW … CRITICAL, `resolvedAt` set when
 * an issue becomes RESOLVED or CLOSED and cleared on reopen).
 */
import { v7 as uuidv7 } from 'uuid';
import {
  type IssueFields,
  type IssueFilter,
  type IssueRecord,
  issues,
  listIssues,
} from '../repositories/issues.js';
import type { Page, PageRequest } from '../repositories/lists.js';
import type { Schema } from '../schemas.js';
import type { Actor, ServiceDeps } from './context.js';
import { assertReference } from './references.js';
import { createRecord, getRecord, inWrite, patched, updateRecord, type VersionedKind } from './versioned.js';

type IssueStatus = Schema<'IssueStatus'>;

/** Body of POST /issues (spec `IssueCreate`). */
export type IssueCreateInput = Schema<'IssueCreate'>;

/** Body of PATCH /issues/{id} (spec `IssueUpdate`; the project cannot change). */
export type IssueUpdateInput = Schema<'IssueUpdate'>;

const ISSUE: VersionedKind<IssueRecord, IssueFields> = { table: issues, resourceType: 'issue' };

const DONE: ReadonlySet<IssueStatus> = new Set(['RESOLVED', 'CLOSED']);

/** `resolvedAt`: set when the issue becomes RESOLVED or CLOSED (kept between them), cleared on reopen. */
export function resolvedAtFor(status: IssueStatus, previous: IssueRecord | null, now: string): string | null {
  if (!DONE.has(status)) return null;
  return previous && DONE.has(previous.status) ? previous.resolvedAt : now;
}

/** Issue use cases. */
export class IssueService {
  constructor(private readonly deps: ServiceDeps) {}

  /** @throws AppError 422 when `projectId` names no project of the tenant or `assigneeId` no resource. */
  async create(actor: Actor, input: IssueCreateInput): Promise<IssueRecord> {
    return inWrite(this.deps, actor, async (w) => {
      const status = input.status ?? 'OPEN';
      const fields: IssueFields = {
        projectId: input.projectId,
        title: input.title,
        description: input.description ?? null,
        status,
        priority: input.priority ?? 'MEDIUM',
        assigneeId: input.assigneeId ?? null,
        dueDate: input.dueDate ?? null,
        resolvedAt: resolvedAtFor(status, null, w.now),
      };
      await assertReference(w.trx, actor.tenantId, 'project', 'projectId', fields.projectId);
      await assertReference(w.trx, actor.tenantId, 'resource', 'assigneeId', fields.assigneeId);
      return createRecord(w, ISSUE, uuidv7(), fields);
    });
  }

  /** @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<IssueRecord> {
    return getRecord(this.deps.db.knex, actor, ISSUE, id);
  }

  /** A page of the tenant's issues; each given filter restricts the list. */
  async list(actor: Actor, filter: IssueFilter, page: PageRequest): Promise<Page<IssueRecord>> {
    return listIssues(this.deps.db.knex, actor.tenantId, filter, page);
  }

  /** Partial update. @throws AppError 404; 412 If-Match mismatch; 409 concurrent write; 422 unknown assignee. */
  async update(actor: Actor, id: string, input: IssueUpdateInput, ifMatch?: string): Promise<IssueRecord> {
    return inWrite(this.deps, actor, async (w) => {
      const { after } = await updateRecord(w, ISSUE, {
        id,
        ifMatch,
        apply: (current) => {
          const next = patched(issues.fieldsOf(current), input);
          next.resolvedAt = resolvedAtFor(next.status, current, w.now);
          return next;
        },
        check: async (next, changes) => {
          if (changes.assigneeId) {
            await assertReference(w.trx, actor.tenantId, 'resource', 'assigneeId', next.assigneeId);
          }
        },
      });
      return after;
    });
  }
}
