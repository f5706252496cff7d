/**
 * Console sessions and console access tokens (docs/accounts.md, "Sessions"): only the SHA-256 hash of a session id
 * or a token is stored. A token is bound to its session: it authenticates only while the session does.
 */
import type { Executor } from './sql.js';
import { findTenant, type TenantRecord, toUser, type UserRecord } from './tenants.js';

/** Where a session stands: signed in, awaiting the second factor, or awaiting an enrolment the tenant requires. */
export type SessionStage = 'active' | 'two_factor' | 'enrol_two_factor';

/** A session without its id's secret. */
export interface SessionRecord {
  id: string;
  tenantId: string;
  userId: string;
  stage: SessionStage;
  createdAt: string;
  lastSeenAt: string;
  idleExpiresAt: string;
  absoluteExpiresAt: string;
  userAgent: string | null;
  address: string | null;
  revokedAt: string | null;
}

function toSession(row: Record<string, unknown>): SessionRecord {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    userId: row.user_id as string,
    stage: row.stage as SessionStage,
    createdAt: row.created_at as string,
    lastSeenAt: row.last_seen_at as string,
    idleExpiresAt: row.idle_expires_at as string,
    absoluteExpiresAt: row.absolute_expires_at as string,
    userAgent: (row.user_agent as string | null) ?? null,
    address: (row.address as string | null) ?? null,
    revokedAt: (row.revoked_at as string | null) ?? null,
  };
}

/** Inserts a session given the SHA-256 hex hash of its id. */
export async function insertSession(db: Executor, session: SessionRecord, idHash: string): Promise<void> {
  await db('sessions').insert({
    id: session.id,
    id_hash: idHash,
    tenant_id: session.tenantId,
    user_id: session.userId,
    stage: session.stage,
    created_at: session.createdAt,
    last_seen_at: session.lastSeenAt,
    idle_expires_at: session.idleExpiresAt,
    absolute_expires_at: session.absoluteExpiresAt,
    user_agent: session.userAgent,
    address: session.address,
    revoked_at: session.revokedAt,
  });
}

/** The session with this id hash, with its stored hash (for the constant-time comparison), or null. */
export async function findSessionByHash(
  db: Executor,
  idHash: string,
): Promise<{ session: SessionRecord; idHash: string } | null> {
  const row = await db('sessions').where({ id_hash: idHash }).first();
  return row ? { session: toSession(row), idHash: row.id_hash as string } : null;
}

/** Records a session's use: its last-seen time, idle expiry and stage. */
export async function touchSession(
  db: Executor,
  id: string,
  change: { lastSeenAt: string; idleExpiresAt: string; stage?: SessionStage },
): Promise<void> {
  await db('sessions')
    .where({ id })
    .update({
      last_seen_at: change.lastSeenAt,
      idle_expires_at: change.idleExpiresAt,
      ...(change.stage ? { stage: change.stage } : {}),
    });
}

/** Ends one session of a user (when not ended yet); true when this call ended it. */
export async function revokeSession(db: Executor, userId: string, id: string, at: string): Promise<boolean> {
  const count = await db('sessions')
    .where({ id, user_id: userId })
    .whereNull('revoked_at')
    .update({ revoked_at: at });
  return Number(count) === 1;
}

/** Ends every session of a user, but `exceptId` when given; returns how many it ended. */
export async function revokeUserSessions(
  db: Executor,
  userId: string,
  at: string,
  exceptId: string | null = null,
): Promise<number> {
  const query = db('sessions').where({ user_id: userId }).whereNull('revoked_at');
  if (exceptId) query.whereNot({ id: exceptId });
  return Number(await query.update({ revoked_at: at }));
}

/** A user's sessions that are neither ended nor expired at `now`, newest first. */
export async function listLiveSessions(db: Executor, userId: string, now: string): Promise<SessionRecord[]> {
  const rows = await db('sessions')
    .where({ user_id: userId, stage: 'active' })
    .whereNull('revoked_at')
    .where('idle_expires_at', '>', now)
    .where('absolute_expires_at', '>', now)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return rows.map(toSession);
}

/** A console access token without its secret. */
export interface ConsoleTokenRecord {
  id: string;
  sessionId: string;
  tenantId: string;
  userId: string;
  prefix: string;
  createdAt: string;
  expiresAt: string;
}

/** Inserts a console access token given the SHA-256 hex hash of its value. */
export async function insertConsoleToken(
  db: Executor,
  token: ConsoleTokenRecord,
  tokenHash: string,
): Promise<void> {
  await db('console_tokens').insert({
    id: token.id,
    token_hash: tokenHash,
    prefix: token.prefix,
    session_id: token.sessionId,
    tenant_id: token.tenantId,
    user_id: token.userId,
    created_at: token.createdAt,
    expires_at: token.expiresAt,
  });
}

/** A console token with its session, user and tenant: what authenticating it needs. */
export interface ConsoleTokenPrincipalRow {
  token: ConsoleTokenRecord;
  tokenHash: string;
  session: SessionRecord;
  user: UserRecord;
  tenant: TenantRecord;
}

/**
 * The console token with this hash joined to its session and (active) user, and its tenant; null when any is
 * missing or the user is deactivated.
 */
export async function findConsoleTokenPrincipal(
  db: Executor,
  tokenHash: string,
): Promise<ConsoleTokenPrincipalRow | null> {
  const row = (await db('console_tokens as c')
    .join('sessions as s', 's.id', 'c.session_id')
    .join('users as u', function joinUser() {
      this.on('u.id', '=', 'c.user_id').andOn('u.tenant_id', '=', 'c.tenant_id');
    })
    .where('c.token_hash', tokenHash)
    .whereNull('u.deactivated_at')
    .first(
      'c.*',
      's.stage as s_stage',
      's.created_at as s_created_at',
      's.last_seen_at as s_last_seen_at',
      's.idle_expires_at as s_idle_expires_at',
      's.absolute_expires_at as s_absolute_expires_at',
      's.user_agent as s_user_agent',
      's.address as s_address',
      's.revoked_at as s_revoked_at',
      'u.name as u_name',
      'u.email as u_email',
      'u.role as u_role',
      'u.created_at as u_created_at',
    )) as Record<string, unknown> | undefined;
  if (!row) return null;
  const tenant = await findTenant(db, row.tenant_id as string);
  if (!tenant) return null;
  const token: ConsoleTokenRecord = {
    id: row.id as string,
    sessionId: row.session_id as string,
    tenantId: row.tenant_id as string,
    userId: row.user_id as string,
    prefix: row.prefix as string,
    createdAt: row.created_at as string,
    expiresAt: row.expires_at as string,
  };
  return {
    token,
    tokenHash: row.token_hash as string,
    session: toSession({
      id: row.session_id,
      tenant_id: row.tenant_id,
      user_id: row.user_id,
      stage: row.s_stage,
      created_at: row.s_created_at,
      last_seen_at: row.s_last_seen_at,
      idle_expires_at: row.s_idle_expires_at,
      absolute_expires_at: row.s_absolute_expires_at,
      user_agent: row.s_user_agent,
      address: row.s_address,
      revoked_at: row.s_revoked_at,
    }),
    user: toUser({ ...row, u_id: row.user_id, u_tenant_id: row.tenant_id }, 'u_'),
    tenant,
  };
}

/**
 * Deletes what ended before `before`: console tokens expired by then or of sessions ended by then, then those
 * sessions (revoked, idle past their expiry, or past their absolute end). Returns how many of each.
 */
export async function purgeEnded(
  db: Executor,
  before: string,
): Promise<{ sessions: number; tokens: number }> {
  const ended = db('sessions')
    .select('id')
    .where('revoked_at', '<', before)
    .orWhere('idle_expires_at', '<', before)
    .orWhere('absolute_expires_at', '<', before);
  const tokens = await db('console_tokens')
    .where('expires_at', '<', before)
    .orWhereIn('session_id', ended.clone())
    .delete();
  const sessions = await db('sessions').whereIn('id', ended).delete();
  return { sessions: Number(sessions), tokens: Number(tokens) };
}
