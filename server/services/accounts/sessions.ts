/**
 * Console sessions and console access tokens (docs/accounts.md, "Sessions" and "Console access tokens"). A
 * session is a database row found by the SHA-256 of its id (the browser holds the id in a `__Host-` cookie); it
 * ends when signed out, revoked, idle past `idleMs` or older than `absoluteMs`. A session in the `two_factor` or
 * `enrol_two_factor` stage lives at most {@link PENDING_MS} and opens only the second step of sign-in.
 * A console access token (`mt_…`, 10 minutes) authenticates `/v1` like a key while its session lives.
 */
import { timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { type AccountRecord, findAccount } from '../../repositories/accounts.js';
import {
  findSessionByHash,
  insertConsoleToken,
  insertSession,
  listLiveSessions,
  purgeEnded,
  revokeSession,
  revokeUserSessions,
  type SessionRecord,
  type SessionStage,
  touchSession,
} from '../../repositories/sessions.js';
import { purgeExpiredCounters } from '../../repositories/sign-in-throttle.js';
import { recordAudit } from '../audit.js';
import type { ServiceDeps } from '../context.js';
import { notFound } from '../errors.js';
import { generateConsoleToken, hashSecret, randomToken } from './secrets.js';

/** How long a console access token lives (docs/accounts.md, "Console access tokens"): 10 minutes. */
export const CONSOLE_TOKEN_TTL_MS = 10 * 60_000;
/** How long a session awaiting its second factor (or a required enrolment) lives: 10 minutes. */
export const PENDING_MS = 10 * 60_000;
/** Ended sessions and tokens are deleted this long after they ended (a day: the audit log keeps their history). */
export const PURGE_AFTER_MS = 24 * 3_600_000;
/** `lastSeenAt` (and the idle expiry) is written at most once a minute per session. */
const TOUCH_INTERVAL_MS = 60_000;

/** Request facts a session records. */
export interface ClientInfo {
  userAgent: string | null;
  address: string | null;
}

/** Session lifetimes (config `sessionIdleMs`, `sessionAbsoluteMs`). */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}

/** A session as `GET /auth/sessions` shows it. */
export interface SessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  address: string | null;
  current: boolean;
}

/** Starts, finds, lists and ends console sessions; issues console access tokens. */
export class SessionService {
  readonly #deps: ServiceDeps;
  readonly #lifetimes: SessionLifetimes;

  constructor(deps: ServiceDeps, lifetimes: SessionLifetimes) {
    this.#deps = deps;
    this.#lifetimes = lifetimes;
  }

  /** The configured lifetimes. */
  get lifetimes(): SessionLifetimes {
    return this.#lifetimes;
  }

  /**
   * Starts a session of a user in `stage` (a new random id every time: docs/accounts.md, "Sessions"). Returns the
   * session and its id, which only the cookie holds.
   */
  async start(
    user: { id: string; tenantId: string },
    stage: SessionStage,
    client: ClientInfo,
  ): Promise<{ session: SessionRecord; secret: string }> {
    const now = this.#deps.clock.now();
    const secret = randomToken();
    const pending = stage !== 'active';
    const session: SessionRecord = {
      id: uuidv7(),
      tenantId: user.tenantId,
      userId: user.id,
      stage,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      idleExpiresAt: new Date(now.getTime() + (pending ? PENDING_MS : this.#lifetimes.idleMs)).toISOString(),
      absoluteExpiresAt: new Date(
        now.getTime() + (pending ? PENDING_MS : this.#lifetimes.absoluteMs),
      ).toISOString(),
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      address: client.address?.slice(0, 64) ?? null,
      revokedAt: null,
    };
    await insertSession(this.#deps.db.knex, session, hashSecret(secret));
    return { session, secret };
  }

  /**
   * The live session whose id is `secret`, its idle expiry moved on (at most once a minute), or null when there is
   * none: unknown, ended, idle too long or too old. The lookup is by hash, then compared in constant time.
   */
  async find(secret: string): Promise<SessionRecord | null> {
    if (secret.length === 0 || secret.length > 128) return null;
    const hash = hashSecret(secret);
    const found = await findSessionByHash(this.#deps.db.knex, hash);
    if (!found || !timingSafeEqual(Buffer.from(found.idHash, 'hex'), Buffer.from(hash, 'hex'))) return null;
    const { session } = found;
    const now = this.#deps.clock.now();
    if (!isLive(session, now)) return null;
    if (session.stage === 'active' && now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_INTERVAL_MS) {
      const change = {
        lastSeenAt: now.toISOString(),
        idleExpiresAt: new Date(
          Math.min(now.getTime() + this.#lifetimes.idleMs, Date.parse(session.absoluteExpiresAt)),
        ).toISOString(),
      };
      await touchSession(this.#deps.db.knex, session.id, change);
      Object.assign(session, change);
    }
    return session;
  }

  /** The account of a session, or null when it is gone or deactivated. */
  async accountOf(session: SessionRecord): Promise<AccountRecord | null> {
    const account = await findAccount(this.#deps.db.knex, session.userId);
    return account && account.deactivatedAt === null && account.tenantId === session.tenantId
      ? account
      : null;
  }

  /** Signs a session out (audited `auth.signed_out`); its console access tokens stop working at once. */
  async signOut(session: SessionRecord, requestId: string | null): Promise<void> {
    await this.#audited(session, requestId, 'auth.signed_out', async () => {
      await this.end(session.userId, session.id);
      return { sessionId: { from: session.id, to: null } };
    });
  }

  /** Ends every session of the session's user, this one included (audited `auth.signed_out_everywhere`). */
  async signOutEverywhere(session: SessionRecord, requestId: string | null): Promise<void> {
    await this.#audited(session, requestId, 'auth.signed_out_everywhere', async () => {
      const ended = await this.endAll(session.userId);
      return { sessionsEnded: { from: null, to: ended } };
    });
  }

  /**
   * Ends another session of the same user (audited `auth.session_revoked`).
   * @throws AppError 404 `not_found` when the user has no live session with that id.
   */
  async revokeOther(session: SessionRecord, id: string, requestId: string | null): Promise<void> {
    const live = await listLiveSessions(
      this.#deps.db.knex,
      session.userId,
      this.#deps.clock.now().toISOString(),
    );
    if (!live.some((s) => s.id === id)) throw notFound('session', id);
    await this.#audited(session, requestId, 'auth.session_revoked', async () => {
      await this.end(session.userId, id);
      return { sessionId: { from: id, to: null } };
    });
  }

  async #audited(
    session: SessionRecord,
    requestId: string | null,
    action: string,
    work: () => Promise<Record<string, { from: unknown; to: unknown }>>,
  ): Promise<void> {
    const changes = await work();
    const actor = {
      tenantId: session.tenantId,
      userId: session.userId,
      apiKeyId: null,
      requestId,
      via: 'console' as const,
    };
    await recordAudit(
      this.#deps.db.knex,
      actor,
      this.#deps.clock.now().toISOString(),
      action,
      'user',
      session.userId,
      changes,
    );
  }

  /**
   * Deletes sessions and console tokens that ended more than {@link PURGE_AFTER_MS} ago, and expired sign-in
   * throttling counters (the periodic sweep, server/jobs/sweeps.ts). Returns how many sessions and tokens went.
   */
  async purgeEnded(): Promise<{ sessions: number; tokens: number }> {
    const now = this.#deps.clock.now().getTime();
    const purged = await purgeEnded(this.#deps.db.knex, new Date(now - PURGE_AFTER_MS).toISOString());
    // The throttling counters keep the wall clock's time (rate-limiter-flexible, docs/toolchain.md).
    await purgeExpiredCounters(this.#deps.db.knex, Date.now());
    return purged;
  }

  /** Ends one session of a user; true when it was live. */
  async end(userId: string, sessionId: string): Promise<boolean> {
    return revokeSession(this.#deps.db.knex, userId, sessionId, this.#deps.clock.now().toISOString());
  }

  /** Ends every session of a user but `exceptId` (when given); returns how many. */
  async endAll(userId: string, exceptId: string | null = null): Promise<number> {
    return revokeUserSessions(this.#deps.db.knex, userId, this.#deps.clock.now().toISOString(), exceptId);
  }

  /** The user's live, fully signed-in sessions, newest first; `currentId` marks the caller's own. */
  async list(userId: string, currentId: string | null): Promise<SessionView[]> {
    const now = this.#deps.clock.now().toISOString();
    const sessions = await listLiveSessions(this.#deps.db.knex, userId, now);
    return sessions.map((s) => ({
      id: s.id,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      expiresAt: s.idleExpiresAt < s.absoluteExpiresAt ? s.idleExpiresAt : s.absoluteExpiresAt,
      userAgent: s.userAgent,
      address: s.address,
      current: s.id === currentId,
    }));
  }

  /**
   * A new console access token of an active session (`POST /auth/token`): it expires after
   * {@link CONSOLE_TOKEN_TTL_MS}, or with its session if that comes first.
   */
  async issueToken(session: SessionRecord): Promise<{ token: string; expiresAt: string; expiresIn: number }> {
    const now = this.#deps.clock.now();
    const token = generateConsoleToken();
    const expiresAt = new Date(
      Math.min(now.getTime() + CONSOLE_TOKEN_TTL_MS, Date.parse(session.absoluteExpiresAt)),
    ).toISOString();
    await insertConsoleToken(
      this.#deps.db.knex,
      {
        id: uuidv7(),
        sessionId: session.id,
        tenantId: session.tenantId,
        userId: session.userId,
        prefix: token.slice(0, 12),
        createdAt: now.toISOString(),
        expiresAt,
      },
      hashSecret(token),
    );
    return { token, expiresAt, expiresIn: Math.round((Date.parse(expiresAt) - now.getTime()) / 1000) };
  }
}

/** Whether a session is neither ended nor expired at `now`. */
export function isLive(session: SessionRecord, now: Date): boolean {
  const ms = now.getTime();
  return (
    session.revokedAt === null &&
    Date.parse(session.idleExpiresAt) > ms &&
    Date.parse(session.absoluteExpiresAt) > ms
  );
}
