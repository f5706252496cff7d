/**
 * Milestones of a project (docs/design.md: `name`, `dueDate`, `status` PENDING | COMPLETED | MISSED, `completedAt`).
 */
import { v7 as uuidv7 } from 'uuid';
import { addDays, utcDate } from '../dates.js';
import type { Page, PageRequest } from '../repositories/lists.js';
import {
  listMilestones,
  type MilestoneFields,
  type MilestoneRecord,
  markMissedAnnounced,
  milestones,
  missedAnnounced,
  pendingMilestoneIdsDueBefore,
  pendingMilestonesDueBefore,
} from '../repositories/milestones.js';
import { projects } from '../repositories/projects.js';
import type { Executor } from '../repositories/sql.js';
import { withAdvisoryLock } from '../repositories/transactions.js';
import type { ListFilter, Schema } from '../schemas.js';
import { type Actor, type ServiceDeps, systemActor } from './context.js';
import { AppError, notFound } from './errors.js';
import {
  createRecord,
  deleteRecord,
  getRecord,
  inWrite,
  patched,
  updateRecord,
  type VersionedKind,
} from './versioned.js';
import type { EventOutbox } from './webhooks/outbox.js';

type MilestoneStatus = Schema<'MilestoneStatus'>;

/** Body of POST /projects/{id}/milestones (spec `MilestoneCreate`). */
export type MilestoneCreateInput = Schema<'MilestoneCreate'>;

/** Body of PATCH /milestones/{id} (spec `MilestoneUpdate`). */
export type MilestoneUpdateInput = Schema<'MilestoneUpdate'>;

const MILESTONE: VersionedKind<MilestoneRecord, MilestoneFields> = {
  table: milestones,
  resourceType: 'milestone',
};

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
async function announceMissed(
  events: EventOutbox,
  trx: Executor,
  tenantId: string,
  id: string,
  now: string,
): Promise<void> {
  if (await missedAnnounced(trx, tenantId, id)) return;
  const missed = (await milestones.find(trx, tenantId, id)) as MilestoneRecord;
  await events.emit(
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
    return inWrite(this.deps, actor, async (w) => {
      if (!(await projects.exists(w.trx, actor.tenantId, projectId))) throw notFound('project', projectId);
      const status = input.status ?? 'PENDING';
      const fields: MilestoneFields = {
        projectId,
        name: input.name,
        description: input.description ?? null,
        dueDate: input.dueDate,
        status,
        completedAt: completedAtFor(status, null, w.now),
      };
      return createRecord(w, MILESTONE, uuidv7(), fields);
    });
  }

  /** @throws AppError 404. */
  async get(actor: Actor, id: string): Promise<MilestoneRecord> {
    return getRecord(this.deps.db.knex, actor, MILESTONE, id);
  }

  /** A page of a project's milestones. @throws AppError 404 when the project is not the tenant's. */
  async list(
    actor: Actor,
    projectId: string,
    filter: ListFilter<'listProjectMilestones'>,
    page: PageRequest,
  ): Promise<Page<MilestoneRecord>> {
    if (!(await projects.exists(this.deps.db.knex, actor.tenantId, projectId))) {
      throw notFound('project', projectId);
    }
    return listMilestones(this.deps.db.knex, actor.tenantId, projectId, filter, page);
  }

  /** Partial update. @throws AppError 404; 412 If-Match mismatch; 409 concurrent write. */
  async update(
    actor: Actor,
    id: string,
    input: MilestoneUpdateInput,
    ifMatch?: string,
  ): Promise<MilestoneRecord> {
    return inWrite(this.deps, actor, async (w) => {
      const { before, after, changed } = await updateRecord(w, MILESTONE, {
        id,
        ifMatch,
        apply: (current) => {
          const next = patched(milestones.fieldsOf(current), input);
          next.completedAt = completedAtFor(next.status, current, w.now);
          return next;
        },
      });
      // Marked MISSED by hand: announced like the sweep's, once per milestone.
      if (changed && after.status === 'MISSED' && before.status !== 'MISSED') {
        await announceMissed(this.deps.events, w.trx, actor.tenantId, id, w.now);
      }
      return after;
    });
  }

  /** Deletes a milestone. @throws AppError 404; 412 If-Match mismatch; 409 concurrent write. */
  async delete(actor: Actor, id: string, ifMatch?: string): Promise<void> {
    await inWrite(this.deps, actor, (w) => deleteRecord(w, MILESTONE, id, ifMatch));
  }

  /**
   * The missed-milestone sweep (spec, webhooks `milestone.missed`): every PENDING milestone whose due date has
   * passed in its tenant's time zone becomes MISSED, with its audit row and one `milestone.missed` event, in one
   * transaction per milestone. Run periodically (server/jobs/sweeps.ts) with the injected clock. On Postgres one
   * process runs each sweep (an advisory lock; the others skip it), and the versioned update would still let only
   * one of them mark a milestone. A milestone announced before (then reopened by hand) is not picked again.
   * @returns the number of milestones marked MISSED.
   */
  async sweepMissed(batchSize = 500): Promise<number> {
    const now = this.deps.clock.now();
    // Every tenant's today is at most one day after UTC's: candidates are due before UTC tomorrow, then each is
    // checked against its own tenant's today.
    const utcTomorrow = addDays(utcDate(now), 1);
    const sweep = await withAdvisoryLock(this.deps.db.knex, 'meridian:sweep:missed-milestones', () =>
      this.#sweep(now, utcTomorrow, batchSize),
    );
    return sweep.ran ? sweep.value : 0;
  }

  async #sweep(now: Date, utcTomorrow: string, batchSize: number): Promise<number> {
    let marked = 0;
    for (const { tenantId, timezone, milestone } of await pendingMilestonesDueBefore(
      this.deps.db.knex,
      utcTomorrow,
      batchSize,
    )) {
      if (milestone.dueDate >= this.deps.calendar.today(timezone, now)) continue;
      if (await this.#markMissed(tenantId, timezone, milestone.id, now)) marked++;
    }
    return marked;
  }

  /**
   * Marks the overdue PENDING milestones of one tenant (or of one of its projects) MISSED, through the sweep's own
   * path (same rule, audit row and one `milestone.missed` per milestone): what `schedule-health` does before it
   * reads the milestones (docs/agents.md, Agents), so a milestone is announced once whichever marks it first.
   * @returns the number of milestones marked.
   */
  async markOverdueMissed(tenantId: string, timezone: string, projectId: string | null): Promise<number> {
    const now = this.deps.clock.now();
    let marked = 0;
    const ids = await pendingMilestoneIdsDueBefore(
      this.deps.db.knex,
      tenantId,
      projectId,
      this.deps.calendar.today(timezone, now),
    );
    for (const [i, id] of ids.entries()) {
      if (await this.#markMissed(tenantId, timezone, id, now)) marked++;
      // On SQLite every await resolves at once (the driver is synchronous): yield to the event loop now and then
      // so timers (the job's heartbeat) run and the driver's finalised statements are released.
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    return marked;
  }

  /** Marks one milestone MISSED if it is still PENDING and overdue in its tenant's time zone; true when it did. */
  async #markMissed(tenantId: string, timezone: string, id: string, now: Date): Promise<boolean> {
    // Re-read under the row lock: a milestone completed, moved or already marked by another process since the
    // candidates were listed is left as it is.
    const { changed } = await inWrite(this.deps, systemActor(tenantId), async (w) => {
      const result = await updateRecord(w, MILESTONE, {
        id,
        apply: (current) => {
          const fields = milestones.fieldsOf(current);
          const overdue =
            current.status === 'PENDING' && current.dueDate < this.deps.calendar.today(timezone, now);
          return overdue ? { ...fields, status: 'MISSED' as const } : fields;
        },
      }).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'not_found') return { changed: false };
        throw err;
      });
      if (result.changed) await announceMissed(this.deps.events, w.trx, tenantId, id, w.now);
      return result;
    });
    return changed;
  }
}
