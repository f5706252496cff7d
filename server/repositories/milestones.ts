/**
 * Milestones table. Maps rows to the API's `Milestone` shape.
 */
import type { Executor, Page, PageRequest } from './common.js';
import { paginate, toColumnValues, updateVersionedRow } from './common.js';

export type MilestoneStatus = 'PENDING' | 'COMPLETED' | 'MISSED';

/** A milestone as stored and as the API shows it. */
export interface MilestoneRecord {
  id: string;
  projectId: string;
  name: string;
  description: string | null;
  dueDate: string;
  status: MilestoneStatus;
  completedAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The writable columns of a milestone (camelCase). */
export type MilestoneFields = Omit<MilestoneRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

const COLUMNS: Record<keyof MilestoneFields, string> = {
  projectId: 'project_id',
  name: 'name',
  description: 'description',
  dueDate: 'due_date',
  status: 'status',
  completedAt: 'completed_at',
};

type Row = Record<string, unknown>;

function toRecord(row: Row): MilestoneRecord {
  return {
    id: row.id as string,
    projectId: row.project_id as string,
    name: row.name as string,
    description: (row.description as string | null) ?? null,
    dueDate: row.due_date as string,
    status: row.status as MilestoneStatus,
    completedAt: (row.completed_at as string | null) ?? null,
    version: Number(row.version),
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

function toColumns(fields: Partial<MilestoneFields>): Record<string, unknown> {
  return toColumnValues(COLUMNS, fields);
}

/** Inserts a milestone; returns it as stored. */
export async function insertMilestone(
  db: Executor,
  tenantId: string,
  id: string,
  fields: MilestoneFields,
  now: string,
): Promise<MilestoneRecord> {
  await db('milestones').insert({
    id,
    tenant_id: tenantId,
    ...toColumns(fields),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const created = await findMilestone(db, tenantId, id);
  if (!created) throw new Error(`milestone ${id} vanished after insert`);
  return created;
}

/** One milestone of the tenant, or null. */
export async function findMilestone(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<MilestoneRecord | null> {
  const row = (await db('milestones').where({ tenant_id: tenantId, id }).first()) as Row | undefined;
  return row ? toRecord(row) : null;
}

/** A page of one project's milestones, ordered by createdAt then id; optionally one status only. */
export async function listMilestones(
  db: Executor,
  tenantId: string,
  projectId: string,
  filter: { status?: MilestoneStatus | undefined },
  page: PageRequest,
): Promise<Page<MilestoneRecord>> {
  const query = db('milestones').where({ tenant_id: tenantId, project_id: projectId }).select('*');
  if (filter.status) query.andWhere('status', filter.status);
  return paginate<Row, MilestoneRecord>(query, page, toRecord);
}

/** Every milestone of a project ordered by due date then id (the project detail view). */
export async function milestonesByDueDate(
  db: Executor,
  tenantId: string,
  projectId: string,
): Promise<MilestoneRecord[]> {
  const rows = (await db('milestones')
    .where({ tenant_id: tenantId, project_id: projectId })
    .orderBy([{ column: 'due_date' }, { column: 'id' }])) as Row[];
  return rows.map(toRecord);
}

/** Writes the fields and bumps `version` if the stored version is still `expectedVersion`. */
export async function updateMilestone(
  db: Executor,
  tenantId: string,
  id: string,
  expectedVersion: number,
  fields: Partial<MilestoneFields>,
  now: string,
): Promise<boolean> {
  return updateVersionedRow(db, 'milestones', tenantId, id, expectedVersion, toColumns(fields), now);
}

/** Deletes a milestone if the stored version is still `expectedVersion`. */
export async function deleteMilestone(
  db: Executor,
  tenantId: string,
  id: string,
  expectedVersion: number,
): Promise<boolean> {
  return (await db('milestones').where({ tenant_id: tenantId, id, version: expectedVersion }).delete()) === 1;
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
    .select('m.*', 't.timezone as tenant_timezone')) as Row[];
  return rows.map((row) => ({
    tenantId: row.tenant_id as string,
    timezone: row.tenant_timezone as string,
    milestone: toRecord(row),
  }));
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
