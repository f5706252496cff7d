/**
 * Milestones of a project (DESIGN.md: `name`, `dueDate`, `status` PENDING | COMPLETED | MISSED, `completedAt`).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Executor, Page, PageRequest } from '../repositories/common.js';
import { inTransaction, withAdvisoryLock } from '../repositories/common.js';
import {
  deleteMilestone,
  findMilestone,
  insertMilestone,
  listMilestones,
  type MilestoneFields,
  type MilestoneRecord,
  type MilestoneStatus,
  markMissedAnnounced,
  missedAnnounced,
  pendingMilestonesDueBefore,
  updateMilestone,
} from '../repositories/milestones.js';
import { projectExists } from '../repositories/projects.js';
import { diff, recordAudit } from './audit.js';
import { checkIfMatch } from './concurrency.js';
import { type Actor, type ServiceDeps, systemActor } from './context.js';
import { AppError, notFound } from './errors.js';
import { emitEvent } from './events.js';
import { todayIn } from './team.js';
import { commitChanges } from './versioned.js';

/** Body of POST /projects/{id}/milestones (spec `MilestoneCreate`). */
export interface MilestoneCreateInput {
  name: string;
  dueDate: string;
  description?: string | null;
  status?: MilestoneStatus;
}

/** Body of PATCH /milestones/{id} (spec `MilestoneUpdate`). */
export type MilestoneUpdateInput = Partial<MilestoneCreateInput>;

function fieldsOf(m: MilestoneRecord): MilestoneFields {
  const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...fields } = m;
  return fields;
}

/** `completedAt` follows `status`: set (to now) on entering COMPLETED, kept while COMPLETED, cleared on leaving. */
function completedAtFor(
  status: MilestoneStatus,
  previous: MilestoneRecord | null,
  now: string,
): string | null {
  if (status !== 'COMPLETED') return null;
  return previous?.status === 'COMPLETED' ? previous.completedAt : now;
}

/** Emits `milestone.missed` for a milestone now MISSED, unless it was announced before (once per milestone). */
async function announceMissed(trx: Executor, tenantId: string, id: string, now: string): Promise<void> {
  if (await missedAnnounced(trx, tenantId, id)) return;
  const missed = (await findMilestone(trx, tenantId, id)) as MilestoneRecord;
  await emitEvent(
    trx,
    tenantId,
    'milestone.missed',
    { milestoneId: missed.id, projectId: missed.projectId, dueDate: missed.dueDate, milestone: missed },
    now,
  );
  await markMissedAnnounced(trx, tenantId, id, now);
}

/** Milestone use cases. */
export class MilestoneService {
  constructor(private readonly deps: ServiceDeps) {}

  /** @throws AppError 404 when the project is not the tenant's. */
  async create(actor: Actor, projectId: string, input: MilestoneCreateInput): Promise<MilestoneRecord> {
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      if (!(await projectExists(trx, actor.tenantId, projectId))) throw notFound('project', projectId);
      const status = input.status ?? 'PENDING';
      const fields: MilestoneFields = {
        projectId,
        name: input.name,
        description: input.description ?? null,
        dueDate: input.dueDate,
        status,
        completedAt: completedAtFor(status, null, now),
      };
      const milestone = await insertMilestone(trx, actor.tenantId, uuidv7(), fields, now);
      await recordAudit(trx, actor, now, 'milestone.created', 'milestone', milestone.id, diff({}, fields));
      return milestone;
    });
  }

  /** @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<MilestoneRecord> {
    const milestone = await findMilestone(this.deps.db.knex, actor.tenantId, id);
    if (!milestone) throw notFound('milestone', id);
    return milestone;
  }

  /** A page of a project's milestones. @throws AppError 404 when the project is not the tenant's. */
  async list(
    actor: Actor,
    projectId: string,
    filter: { status?: MilestoneStatus | undefined },
    page: PageRequest,
  ): Promise<Page<MilestoneRecord>> {
    if (!(await projectExists(this.deps.db.knex, actor.tenantId, projectId)))
      throw notFound('project', projectId);
    return listMilestones(this.deps.db.knex, actor.tenantId, projectId, filter, page);
  }

  /** Partial update. @throws AppError 404; 412 If-Match mismatch; 409 concurrent write. */
  async update(
    actor: Actor,
    id: string,
    input: MilestoneUpdateInput,
    ifMatch?: string,
  ): Promise<MilestoneRecord> {
    const now = this.deps.clock.now().toISOString();
    return inTransaction(this.deps.db.knex, async (trx) => {
      const current = await findMilestone(trx, actor.tenantId, id);
      if (!current) throw notFound('milestone', id);
      checkIfMatch(ifMatch, current.version);
      const before = fieldsOf(current);
      const after: MilestoneFields = { ...before };
      if (input.name !== undefined) after.name = input.name;
      if (input.description !== undefined) after.description = input.description;
      if (input.dueDate !== undefined) after.dueDate = input.dueDate;
      if (input.status !== undefined) after.status = input.status;
      after.completedAt = completedAtFor(after.status, current, now);
      const changed = await commitChanges(trx, actor, now, {
        resourceType: 'milestone',
        id,
        before,
        after,
        write: (fields) => updateMilestone(trx, actor.tenantId, id, current.version, fields, now),
      });
      if (!changed) return current;
      // Marked MISSED by hand: announced like the sweep's, once per milestone.
      if (after.status === 'MISSED' && before.status !== 'MISSED') {
        await announceMissed(trx, actor.tenantId, id, now);
      }
      return (await findMilestone(trx, actor.tenantId, id)) as MilestoneRecord;
    });
  }

  /** Deletes a milestone. @throws AppError 404; 412 If-Match mismatch; 409 concurrent write. */
  async delete(actor: Actor, id: string, ifMatch?: string): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    await inTransaction(this.deps.db.knex, async (trx) => {
      const current = await findMilestone(trx, actor.tenantId, id);
      if (!current) throw notFound('milestone', id);
      checkIfMatch(ifMatch, current.version);
      if (!(await deleteMilestone(trx, actor.tenantId, id, current.version))) {
        throw new AppError('conflict', 'The milestone was changed by another request; fetch it and retry.');
      }
      await recordAudit(trx, actor, now, 'milestone.deleted', 'milestone', id, diff(fieldsOf(current), {}));
    });
  }

  /**
   * The missed-milestone sweep (spec, webhooks `milestone.missed`): every PENDING milestone whose due date has
   * passed in its tenant's time zone becomes MISSED, with its audit row and one `milestone.missed` event, in one
   * transaction per milestone. Run periodically (server/workers/sweeps.ts) with the injected clock. On Postgres one
   * process runs each sweep (an advisory lock; the others skip it), and the versioned update would still let only
   * one of them mark a milestone. A milestone announced before (then reopened by hand) is not picked again.
   * @returns the number of milestones marked MISSED.
   */
  async sweepMissed(batchSize = 500): Promise<number> {
    const now = this.deps.clock.now();
    // Every tenant's today is at most one day after UTC's: candidates are due before UTC tomorrow, then each is
    // checked against its own tenant's today.
    const utcTomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    const sweep = await withAdvisoryLock(this.deps.db.knex, 'meridian:sweep:missed-milestones', () =>
      this.#sweep(now, utcTomorrow, batchSize),
    );
    return sweep.ran ? sweep.value : 0;
  }

  async #sweep(now: Date, utcTomorrow: string, batchSize: number): Promise<number> {
    const nowIso = now.toISOString();
    let marked = 0;
    for (const { tenantId, timezone, milestone } of await pendingMilestonesDueBefore(
      this.deps.db.knex,
      utcTomorrow,
      batchSize,
    )) {
      if (milestone.dueDate >= todayIn(timezone, now)) continue;
      const changed = await inTransaction(this.deps.db.knex, async (trx) => {
        const before = fieldsOf(milestone);
        const wrote = await commitChanges(trx, systemActor(tenantId), nowIso, {
          resourceType: 'milestone',
          id: milestone.id,
          before,
          after: { ...before, status: 'MISSED' as const },
          write: (fields) => updateMilestone(trx, tenantId, milestone.id, milestone.version, fields, nowIso),
        }).catch((err: unknown) => {
          // Another process marked it first: nothing to announce twice.
          if (err instanceof AppError && err.code === 'conflict') return false;
          throw err;
        });
        if (!wrote) return false;
        await announceMissed(trx, tenantId, milestone.id, nowIso);
        return true;
      });
      if (changed) marked++;
    }
    return marked;
  }
}
