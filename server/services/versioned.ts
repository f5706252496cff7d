/**
 * The write half of every PATCH: diff the record before and after, write only the changed fields under optimistic
 * concurrency (`version`), and append the audit row, all in the caller's transaction.
 */
import type { Executor } from '../repositories/common.js';
import { diff, recordAudit } from './audit.js';
import type { Actor } from './context.js';
import { AppError } from './errors.js';

/** What {@link commitChanges} needs to know about one update. */
export interface ChangeSet<F extends object> {
  /** e.g. `milestone`; the audit action is `<resourceType>.updated`. */
  resourceType: string;
  id: string;
  before: F;
  after: F;
  /** Writes the changed fields if the stored version is still the one read; false when another write won. */
  write: (changed: Partial<F>) => Promise<boolean>;
}

/**
 * Commits an update. Returns false (and writes nothing) when `after` equals `before`.
 * @throws AppError 409 `conflict` when the record changed since it was read.
 */
export async function commitChanges<F extends object>(
  trx: Executor,
  actor: Actor,
  now: string,
  change: ChangeSet<F>,
): Promise<boolean> {
  const changes = diff(change.before as Record<string, unknown>, change.after as Record<string, unknown>);
  const keys = Object.keys(changes) as (keyof F)[];
  if (keys.length === 0) return false;
  const changed: Partial<F> = {};
  for (const key of keys) changed[key] = change.after[key];
  if (!(await change.write(changed))) {
    throw new AppError(
      'conflict',
      `The ${change.resourceType} was changed by another request; fetch it and retry.`,
    );
  }
  await recordAudit(
    trx,
    actor,
    now,
    `${change.resourceType}.updated`,
    change.resourceType,
    change.id,
    changes,
  );
  return true;
}
