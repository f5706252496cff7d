/**
 * Milestones table: rows ⇄ the API's `Milestone`, plus the missed-milestone sweep's queries.
 */
import type { ListFilter, Schema } from '../schemas.js';
import type { Page, PageRequest } from './lists.js';
import { type SortField, sortOrder } from './lists.js';
import type { Executor } from './sql.js';
import { compareKeys } from './values.js';
import { column, VersionedTable } from './versioned-table.js';

/** A milestone as stored and as the API shows it. */
export type MilestoneRecord = Schema<'Milestone'>;

/** The writable fields of a milestone. */
export type MilestoneFields = Omit<MilestoneRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

/** The milestones table. */
export const milestones = new VersionedTable<MilestoneRecord, MilestoneFields>({
  table: 'milestones',
  fields: {
    projectId: column.text('project_id'),
    name: column.text('name'),
    description: column.optionalText('description'),
    dueDate: column.text('due_date'),
    status: column.text<Schema<'MilestoneStatus'>>('status'),
    completedAt: column.optionalText('completed_at'),
  },
});

/** What a project's milestones sort by (spec `MilestoneSort`), each served by an index. */
const MILESTONE_SORTS: Record<string, SortField> = {
  createdAt: { sql: milestones.col('created_at') },
  dueDate: { sql: milestones.col('due_date') },
};

/**
 * A page of one project's milestones, ordered by `filter.sort` (createdAt by default) then id; optionally one
 * status only.
 */
export function listMilestones(
  db: Executor,
  tenantId: string,
  projectId: string,
  filter: ListFilter<'listProjectMilestones'>,
  page: PageRequest,
): Promise<Page<MilestoneRecord>> {
  return milestones.list(
    db,
    tenantId,
    page,
    (q) => milestones.whereEquals(q, { project_id: projectId, status: filter.status }),
    sortOrder(db, filter.sort ?? 'createdAt', MILESTONE_SORTS, milestones.col('id')),
  );
}

/**
 * Milestone rows (the table's own columns) as records, by due date then id (the project detail view). Sorted here,
 * not by ORDER BY: a project has a handful of milestones, and SQLite re-plans an ordered statement with bound
 * parameters on every run (bench/results/profiles.md). Dates and ids are ASCII, so JavaScript's string order is
 * SQLite's BINARY order.
 */
export function inDueOrder(rows: Record<string, unknown>[]): MilestoneRecord[] {
  return rows.map(milestones.toRecord).sort((a, b) => compareKeys([a.dueDate, a.id], [b.dueDate, b.id]));
}

/** A PENDING milestone due before a date, with its tenant's time zone (the missed-milestone sweep). */
export interface DueMilestone {
  tenantId: string;
  timezone: string;
  milestone: MilestoneRecord;
}

/**
 * PENDING milestones of every tenant, due before `date` (`YYYY-MM-DD`) and never announced as missed, oldest due
 * first.
 */
export async function pendingMilestonesDueBefore(
  db: Executor,
  date: string,
  limit: number,
): Promise<DueMilestone[]> {
  const rows = (await db('milestones as m')
    .join('tenants as t', 't.id', 'm.tenant_id')
    .where('m.status', 'PENDING')
    .andWhere('m.due_date', '<', date)
    .whereNull('m.missed_event_at')
    .orderBy([{ column: 'm.due_date' }, { column: 'm.id' }])
    .limit(limit)
    .select('m.*', 't.timezone as tenant_timezone')) as Record<string, unknown>[];
  return rows.map((row) => ({
    tenantId: row.tenant_id as string,
    timezone: row.tenant_timezone as string,
    milestone: milestones.toRecord(row),
  }));
}

/**
 * The ids of one tenant's PENDING milestones (or one project's) due before `date`, oldest due first: the candidates
 * `schedule-health` marks MISSED through the sweep's path.
 */
export async function pendingMilestoneIdsDueBefore(
  db: Executor,
  tenantId: string,
  projectId: string | null,
  date: string,
): Promise<string[]> {
  const query = db('milestones')
    .where({ tenant_id: tenantId, status: 'PENDING' })
    .andWhere('due_date', '<', date)
    // As the sweep: a milestone announced before and reopened by hand is not picked again.
    .whereNull('missed_event_at')
    .orderBy([{ column: 'due_date' }, { column: 'id' }])
    .select('id');
  if (projectId) query.andWhere('project_id', projectId);
  return ((await query) as { id: string }[]).map((r) => r.id);
}

/** Whether `milestone.missed` was already announced for the milestone. */
export async function missedAnnounced(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const row = (await db('milestones').where({ tenant_id: tenantId, id }).first('missed_event_at')) as
    | { missed_event_at: string | null }
    | undefined;
  return row?.missed_event_at != null;
}

/** Records that `milestone.missed` was announced (once per milestone). */
export async function markMissedAnnounced(
  db: Executor,
  tenantId: string,
  id: string,
  at: string,
): Promise<void> {
  await db('milestones').where({ tenant_id: tenantId, id }).update({ missed_event_at: at });
}
