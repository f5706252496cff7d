/**
 * Transactions, read snapshots and advisory locks on either database (docs/design.md, "Shape of the system": every
 * SQLite/Postgres difference lives in repositories).
 */
import type { Knex } from 'knex';
import { type Executor, isPostgres } from './sql.js';

/**
 * Runs `work` in one database transaction: everything it writes (the change, its audit row, its outbox event)
 * commits together or not at all.
 */
export async function inTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(work);
}

/**
 * Runs a sequence of reads on one consistent view of the database: on Postgres a read-only REPEATABLE READ
 * transaction (one snapshot for every statement); on SQLite, whose single pooled connection serialises every
 * statement of the process, the reads run as they are (a transaction would hold that connection against writers).
 */
export async function inReadSnapshot<T>(db: Knex, work: (db: Executor) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work(db);
  return db.transaction((trx) => work(trx), { isolationLevel: 'repeatable read', readOnly: true });
}

/**
 * Runs `work` only if no other process of the deployment holds the lock `name`: on Postgres a transaction-scoped
 * advisory lock (docs/webhooks.md, "Events and webhooks": periodic sweeps take one so one instance runs each sweep);
 * on SQLite, one process, it just runs. Returns `{ ran: false }` when another process holds it.
 */
export async function withAdvisoryLock<T>(
  db: Knex,
  name: string,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  if (!isPostgres(db)) return { ran: true, value: await work() };
  return db.transaction(async (trx) => {
    const result = (await trx.raw('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked', [name])) as {
      rows: { locked: boolean }[];
    };
    if (!result.rows[0]?.locked) return { ran: false } as const;
    return { ran: true, value: await work() } as const;
  });
}
