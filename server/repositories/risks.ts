/**
 * Risks table. Maps rows to the API's `Risk` shape.
 */
import type { Executor, Page, PageRequest } from './common.js';
import { paginate, toColumnValues, updateVersionedRow } from './common.js';

export type RiskStatus = 'OPEN' | 'MITIGATING' | 'ACCEPTED' | 'CLOSED';
export type RiskSeverity = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';
export type SeveritySource = 'DERIVED' | 'MANUAL';

/** A risk as stored and as the API shows it. */
export interface RiskRecord {
  id: string;
  projectId: string;
  title: string;
  description: string | null;
  likelihood: number;
  impact: number;
  score: number;
  severity: RiskSeverity;
  severitySource: SeveritySource;
  status: RiskStatus;
  ownerId: string | null;
  mitigation: string | null;
  dueDate: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The writable columns of a risk (camelCase). */
export type RiskFields = Omit<RiskRecord, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

const COLUMNS: Record<keyof RiskFields, string> = {
  projectId: 'project_id',
  title: 'title',
  description: 'description',
  likelihood: 'likelihood',
  impact: 'impact',
  score: 'score',
  severity: 'severity',
  severitySource: 'severity_source',
  status: 'status',
  ownerId: 'owner_id',
  mitigation: 'mitigation',
  dueDate: 'due_date',
};

type RiskRow = Record<string, unknown>;

function toRecord(row: RiskRow): RiskRecord {
  return {
    id: row.id as string,
    projectId: row.project_id as string,
    title: row.title as string,
    description: (row.description as string | null) ?? null,
    likelihood: Number(row.likelihood),
    impact: Number(row.impact),
    score: Number(row.score),
    severity: row.severity as RiskSeverity,
    severitySource: row.severity_source as SeveritySource,
    status: row.status as RiskStatus,
    ownerId: (row.owner_id as string | null) ?? null,
    mitigation: (row.mitigation as string | null) ?? null,
    dueDate: (row.due_date as string | null) ?? null,
    version: Number(row.version),
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
  };
}

function toColumns(fields: Partial<RiskFields>): Record<string, unknown> {
  return toColumnValues(COLUMNS, fields);
}

/** Inserts a risk; returns it as stored. */
export async function insertRisk(
  db: Executor,
  tenantId: string,
  id: string,
  fields: RiskFields,
  now: string,
): Promise<RiskRecord> {
  await db('risks').insert({
    id,
    tenant_id: tenantId,
    ...toColumns(fields),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const created = await findRisk(db, tenantId, id);
  if (!created) throw new Error(`risk ${id} vanished after insert`);
  return created;
}

/** One risk of the tenant, or null. */
export async function findRisk(db: Executor, tenantId: string, id: string): Promise<RiskRecord | null> {
  const row = (await db('risks').where({ tenant_id: tenantId, id }).first()) as RiskRow | undefined;
  return row ? toRecord(row) : null;
}

/** Filters of GET /risks (seed rule 1: each given filter restricts to records with that value). */
export interface RiskFilter {
  projectId?: string | undefined;
  status?: RiskStatus | undefined;
  severity?: RiskSeverity | undefined;
}

/** A page of the tenant's risks, ordered by createdAt then id. */
export async function listRisks(
  db: Executor,
  tenantId: string,
  filter: RiskFilter,
  page: PageRequest,
): Promise<Page<RiskRecord>> {
  const query = db('risks').where('tenant_id', tenantId).select('*');
  if (filter.projectId) query.andWhere('project_id', filter.projectId);
  if (filter.status) query.andWhere('status', filter.status);
  if (filter.severity) query.andWhere('severity', filter.severity);
  return paginate<RiskRow, RiskRecord>(query, page, toRecord);
}

/** Writes the fields and bumps `version` if the stored version is still `expectedVersion`. */
export async function updateRisk(
  db: Executor,
  tenantId: string,
  id: string,
  expectedVersion: number,
  fields: Partial<RiskFields>,
  now: string,
): Promise<boolean> {
  return updateVersionedRow(db, 'risks', tenantId, id, expectedVersion, toColumns(fields), now);
}
