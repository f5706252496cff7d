/**
 * The one write path of every versioned record (docs/design.md: `version` ⇄ `ETag`, `If-Match` → 412; every mutation
 * appends its audit row in the same transaction): create, update and delete, each inside the caller's transaction.
 *
 * An update reads the record under a row lock (Postgres `FOR NO KEY UPDATE`; SQLite has a single writer), so
 * concurrent writers queue instead of failing (docs/design.md, "Conventions on the wire"): a PATCH without `If-Match`
 * is unconditional and always applies to the latest version, and every loser of an `If-Match` race sees the winner's
 * version and gets 412. The version condition on the UPDATE stays as a second guard.
 *
 * Each write also keeps the Ask agent's full-text index in step, in the same transaction (repositories/search.ts:
 * the record types with a document and what it says; other types have none): a rolled-back change leaves no
 * document behind, and a committed one is searchable at once.
 */
import type { FieldChange } from '../repositories/audit.js';
import { indexRecord, removeRecord } from '../repositories/search.js';
import type { Executor } from '../repositories/sql.js';
import { inTransaction } from '../repositories/transactions.js';
import type { VersionedRecord, VersionedTable } from '../repositories/versioned-table.js';
import { diff, recordAudit } from './audit.js';
import { checkIfMatch } from './concurrency.js';
import type { Actor, ServiceDeps } from './context.js';
import { AppError, notFound } from './errors.js';

/** A versioned record type: its table, its audit `resourceType` (e.g. `webhook`) and its noun in messages. */
export interface VersionedKind<R extends VersionedRecord, F extends object> {
  table: VersionedTable<R, F>;
  resourceType: string;
  /** e.g. `webhook endpoint` (default: the resource type). */
  noun?: string;
}

/** Where and by whom a write happens. */
export interface WriteContext {
  trx: Executor;
  actor: Actor;
  /** ISO instant of the write (`updatedAt`, the audit row's `occurredAt`). */
  now: string;
}

/** Runs `work` in one transaction stamped with the clock's now: the change, its audit row and its events commit together. */
export function inWrite<T>(
  deps: Pick<ServiceDeps, 'db' | 'clock'>,
  actor: Actor,
  work: (ctx: WriteContext) => Promise<T>,
): Promise<T> {
  const now = deps.clock.now().toISOString();
  return inTransaction(deps.db.knex, (trx) => work({ trx, actor, now }));
}

/** What one update changes, computed from the current record (read under the row lock). */
export interface UpdatePlan<R extends VersionedRecord, F extends object> {
  id: string;
  /** The request's `If-Match` (undefined: unconditional). */
  ifMatch?: string | undefined;
  /** The record's fields after the change. May throw (e.g. 409 `invalid_transition`). */
  apply: (current: R) => F | Promise<F>;
  /** Rules on the result that need the database (references, uniqueness); run only when something changes. */
  check?: (after: F, changes: Record<string, FieldChange>, current: R) => void | Promise<void>;
  /** Column values the record does not show, written with the change (e.g. a webhook's failure window). */
  hidden?: (before: F, after: F) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * The audit row when it is not `<type>.updated` with the field diff (a secret rotation changes no field the
   * API shows): with `changes` given, the write happens even when the field diff is empty.
   */
  audit?: { action: string; changes: Record<string, FieldChange> };
}

/** The result of {@link updateRecord}: the record before and after (the same object when nothing changed). */
export interface UpdateResult<R> {
  before: R;
  after: R;
  changed: boolean;
}

function conflict(noun: string): AppError {
  return new AppError('conflict', `The ${noun} was changed by another request; fetch it and retry.`);
}

/** One record of the caller's tenant. @throws AppError 404 when unknown in this tenant. */
export async function getRecord<R extends VersionedRecord, F extends object>(
  db: Executor,
  actor: Actor,
  kind: VersionedKind<R, F>,
  id: string,
): Promise<R> {
  const record = await kind.table.find(db, actor.tenantId, id);
  if (!record) throw notFound(kind.noun ?? kind.resourceType, id);
  return record;
}

/**
 * Inserts a record (version 1) and appends its `<type>.created` audit row with every field.
 * @param hidden column values the record does not show (e.g. a secret).
 */
export async function createRecord<R extends VersionedRecord, F extends object>(
  { trx, actor, now }: WriteContext,
  kind: VersionedKind<R, F>,
  id: string,
  fields: F,
  hidden: Record<string, unknown> = {},
): Promise<R> {
  const created = await kind.table.insert(trx, actor.tenantId, id, fields, now, hidden);
  await indexRecord(trx, kind.resourceType, actor.tenantId, id);
  await recordAudit(
    trx,
    actor,
    now,
    `${kind.resourceType}.created`,
    kind.resourceType,
    id,
    diff({}, kind.table.fieldsOf(created) as Record<string, unknown>),
  );
  return created;
}

/**
 * Reads the record under a row lock, checks `If-Match`, computes the change, writes only the changed fields with
 * a version bump and appends the audit row. A change that changes nothing writes nothing (same version, no audit
 * row).
 * @throws AppError 404 unknown in the tenant; 412 `precondition_failed` on an If-Match mismatch; whatever `apply`
 *   and `check` throw; 409 `conflict` if the version moved despite the lock (a second process on SQLite).
 */
export async function updateRecord<R extends VersionedRecord, F extends object>(
  { trx, actor, now }: WriteContext,
  kind: VersionedKind<R, F>,
  plan: UpdatePlan<R, F>,
): Promise<UpdateResult<R>> {
  const noun = kind.noun ?? kind.resourceType;
  const current = await kind.table.find(trx, actor.tenantId, plan.id, { forUpdate: true });
  if (!current) throw notFound(noun, plan.id);
  checkIfMatch(plan.ifMatch, current.version);
  const before = kind.table.fieldsOf(current);
  const after = await plan.apply(current);
  const changes = diff(before as Record<string, unknown>, after as Record<string, unknown>);
  const keys = Object.keys(changes) as (keyof F)[];
  if (keys.length === 0 && !plan.audit) return { before: current, after: current, changed: false };
  await plan.check?.(after, changes, current);
  const changed: Partial<F> = {};
  for (const key of keys) changed[key] = after[key];
  const hidden = plan.hidden ? await plan.hidden(before, after) : {};
  if (!(await kind.table.update(trx, actor.tenantId, plan.id, current.version, changed, now, hidden))) {
    throw conflict(noun);
  }
  const audit = plan.audit ?? { action: `${kind.resourceType}.updated`, changes };
  await recordAudit(trx, actor, now, audit.action, kind.resourceType, plan.id, audit.changes);
  await indexRecord(trx, kind.resourceType, actor.tenantId, plan.id);
  const updated = await kind.table.find(trx, actor.tenantId, plan.id);
  if (!updated) throw notFound(noun, plan.id);
  return { before: current, after: updated, changed: true };
}

/**
 * Deletes a record (read under a row lock, `If-Match` checked) and appends its `<type>.deleted` audit row with
 * every field's last value. Returns the deleted record.
 * @throws AppError 404; 412 `precondition_failed`; 409 `conflict` if the version moved despite the lock.
 */
export async function deleteRecord<R extends VersionedRecord, F extends object>(
  { trx, actor, now }: WriteContext,
  kind: VersionedKind<R, F>,
  id: string,
  ifMatch?: string,
): Promise<R> {
  const noun = kind.noun ?? kind.resourceType;
  const current = await kind.table.find(trx, actor.tenantId, id, { forUpdate: true });
  if (!current) throw notFound(noun, id);
  checkIfMatch(ifMatch, current.version);
  if (!(await kind.table.delete(trx, actor.tenantId, id, current.version))) throw conflict(noun);
  await removeRecord(trx, kind.resourceType, id);
  await recordAudit(
    trx,
    actor,
    now,
    `${kind.resourceType}.deleted`,
    kind.resourceType,
    id,
    diff(kind.table.fieldsOf(current) as Record<string, unknown>, {}),
  );
  return current;
}

/**
 * The fields of `current` with the given ones laid over them (undefined: not given; keys that are not fields are
 * ignored): a PATCH's partial update.
 */
export function patched<F extends object>(current: F, input: { [K in keyof F]?: F[K] | undefined }): F {
  const out = { ...current };
  for (const key of Object.keys(input) as (keyof F)[]) {
    const value = input[key];
    if (value !== undefined && key in out) out[key] = value as F[keyof F];
  }
  return out;
}
