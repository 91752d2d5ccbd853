import type { Executor } from '../../db/database.js';

export async function insertSession(
  db: Executor,
  session: {
    id: string;
    user_id: number;
    created_at: string;
    expires_at: string;
    ip_address: string | null;
    user_agent: string | null;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...session, revoked_at: null, revoked_reason: null, last_used_at: session.created_at })
    .execute();
}

export async function markUsed(db: Executor, sessionId: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', sessionId).execute();
}

/** The user's sessions that have not ended, newest sign-in first. */
export function listActiveSessions(db: Executor, userId: number, now: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'ip_address', 'user_agent'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Ends one of the user's sessions; false when it is not theirs or has ended already. */
export async function revokeUserSession(
  db: Executor,
  userId: number,
  sessionId: string,
  reason: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertRefreshToken(
  db: Executor,
  tokenHash: string,
  sessionId: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: tokenHash,
      session_id: sessionId,
      created_at: now,
      rotated_at: null,
      retired_at: null,
    })
    .execute();
}

export function findRefreshToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select([
      'refresh_tokens.token_hash',
      'refresh_tokens.rotated_at',
      'refresh_tokens.retired_at',
      'sessions.id as session_id',
      'sessions.user_id',
      'sessions.expires_at',
      'sessions.revoked_at',
    ])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks the token used (the caller holds the session's lock). */
export async function markRotated(db: Executor, tokenHash: string, now: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ rotated_at: now })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** Retires the session's other unused refresh tokens (successors handed out during a grace period). */
export async function retireOthers(db: Executor, sessionId: string, tokenHash: string, now: string) {
  await db
    .updateTable('refresh_tokens')
    .set({ retired_at: now })
    .where('session_id', '=', sessionId)
    .where('token_hash', '!=', tokenHash)
    .where('rotated_at', 'is', null)
    .where('retired_at', 'is', null)
    .execute();
}

/**
 * Whether a refresh token the session was given at or after `since` (a successor of the token rotated then,
 * other than `tokenHash` itself) has been used. Asked by who came after, not by comparing rotation times:
 * two rotations in the same millisecond have the same time.
 */
export async function successorUsed(
  db: Executor,
  sessionId: string,
  tokenHash: string,
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('token_hash')
    .where('session_id', '=', sessionId)
    .where('token_hash', '!=', tokenHash)
    .where('created_at', '>=', since)
    .where('rotated_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

export function findActiveSession(db: Executor, sessionId: string, now: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at'])
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function revokeSession(
  db: Executor,
  sessionId: string,
  reason: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeUserSessions(
  db: Executor,
  userId: number,
  reason: string,
  now: string,
  exceptSessionId?: string,
): Promise<number> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Housekeeping: sessions that ended more than a day ago are no longer needed for reuse detection. */
export async function deleteEndedSessions(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', before).execute();
}
