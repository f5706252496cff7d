/**
 * Risks table: rows ⇄ the API's `Risk`.
 */
import type { ListFilter, Schema } from '../schemas.js';
import type { Page, PageRequest } from './lists.js';
import { ListShape, type SortField, singleValue, sortOrder } from './lists.js';
import type { Executor } from './sql.js';
import type { FieldsOf } from './versioned-table.js';
import { column, VersionedTable } from './versioned-table.js';

/** A risk as stored and as the API shows it. */
export type RiskRecord = Schema<'Risk'>;

/** The writable fields of a risk (the score too: the service derives it, the client cannot set it). */
export type RiskFields = FieldsOf<RiskRecord>;

/** The risks table. */
export const risks = new VersionedTable<RiskRecord, RiskFields>({
  table: 'risks',
  fields: {
    projectId: column.text('project_id'),
    title: column.text('title'),
    description: column.optionalText('description'),
    likelihood: column.number('likelihood'),
    impact: column.number('impact'),
    score: column.number('score'),
    severity: column.text<Schema<'RiskSeverity'>>('severity'),
    severitySource: column.text<Schema<'SeveritySource'>>('severity_source'),
    status: column.text<Schema<'RiskStatus'>>('status'),
    ownerId: column.optionalText('owner_id'),
    mitigation: column.optionalText('mitigation'),
    dueDate: column.optionalText('due_date'),
  },
});

/**
 * Filters of GET /risks (seed rule 1: each given filter restricts to records with that value) and its `sort` (spec
 * `RiskSort`; default `createdAt`).
 */
export type RiskFilter = ListFilter<'listRisks'>;

/** What GET /risks sorts by (spec `RiskSort`), each served by an index. */
const RISK_SORTS: Record<string, SortField> = {
  createdAt: { sql: risks.col('created_at') },
  score: { sql: risks.col('score') },
};

/** A page of the tenant's risks, ordered by `filter.sort` (createdAt by default) then id. */
export function listRisks(
  db: Executor,
  tenantId: string,
  filter: RiskFilter,
  page: PageRequest,
): Promise<Page<RiskRecord>> {
  // The SQL is built once per shape (which filters, how many values, the sort; ./lists.ts `ListShape`).
  const sort = filter.sort ?? 'createdAt';
  const shape = new ListShape('risks', tenantId);
  shape.part(sort);
  const equals = shape.addEquals({
    project_id: filter.projectId,
    status: filter.status,
    severity: filter.severity,
    id: filter.id,
  });
  return risks.listShaped(
    db,
    page,
    shape,
    (q, v) => risks.whereEquals(q, equals(v)),
    sortOrder(db, sort, RISK_SORTS, risks.col('id')),
    countedFilter(filter),
  );
}

/**
 * One `severity` or one `status` alone: the total is kept in list_counts (migration 20261125000100; docs/design.md,
 * "List totals"); several values are counted.
 */
function countedFilter(filter: RiskFilter): { field: string; value: string } | undefined {
  if (filter.projectId !== undefined || filter.id !== undefined) return undefined;
  const severity = singleValue(filter.severity);
  const status = singleValue(filter.status);
  if (severity !== undefined && filter.status === undefined) return { field: 'severity', value: severity };
  if (status !== undefined && filter.severity === undefined) return { field: 'status', value: status };
  return undefined;
}
