import type { AuthSession } from '@lumi/contract';
import type { Kysely, Transaction } from 'kysely';
import { lockForTransaction } from '../../db/locks.js';
import type { Database, Executor } from '../../db/database.js';
import { isoAfter, isoTime, type Clock } from '../../lib/time.js';
import { randomToken, sha256 } from '../../lib/tokens.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import * as repo from './sessions.repository.js';

export type RefreshOutcome =
  | { kind: 'rotated'; userId: number; sessionId: string; refreshToken: string }
  | { kind: 'reused'; userId: number; sessionId: string }
  | { kind: 'invalid' };

/**
 * How long after its rotation a refresh token may be presented again: the answer that carried its successor
 * can be lost (a page reloaded while its refresh was in flight), and two tabs can refresh at the same moment.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

/**
 * Server-side sessions behind the opaque refresh token (OWASP ASVS V7): the token is stored only as a
 * SHA-256 hash, rotates on every use, and presenting a rotated token again revokes the whole session, unless
 * it comes within REFRESH_REUSE_GRACE_MS of its rotation and none of the tokens the session was given since
 * has been used: then it gets another successor, as Okta's grace period and Auth0's
 * reuse interval allow. Using any successor retires its unused siblings, and presenting a retired token is
 * reuse too, so a session never splits into two chains that both live on.
 */
export class SessionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly sessionMs: number,
  ) {}

  async create(
    db: Executor,
    userId: number,
    client: { ip: string | null; userAgent: string | null },
  ): Promise<{ sessionId: string; refreshToken: string }> {
    const at = this.now();
    const now = isoTime(at);
    const sessionId = randomToken();
    const refreshToken = randomToken();
    await repo.insertSession(db, {
      id: sessionId,
      user_id: userId,
      created_at: now,
      expires_at: isoAfter(this.sessionMs, at),
      ip_address: client.ip,
      user_agent: client.userAgent?.slice(0, 500) ?? null,
    });
    await repo.insertRefreshToken(db, sha256(refreshToken), sessionId, now);
    return { sessionId, refreshToken };
  }

  async rotate(trx: Transaction<Database>, refreshToken: string): Promise<RefreshOutcome> {
    const hash = sha256(refreshToken);
    const found = await repo.findRefreshToken(trx, hash);
    if (!found) return { kind: 'invalid' };
    // One rotation of a session at a time, on every instance: racing uses of two siblings must not both win.
    await lockForTransaction(trx, [`session:${found.session_id}`]);
    const now = isoTime(this.now());
    const token = await repo.findRefreshToken(trx, hash);
    if (!token || token.revoked_at !== null || token.expires_at <= now) return { kind: 'invalid' };
    if (token.retired_at === null && token.rotated_at === null) {
      await repo.markRotated(trx, hash, now);
      // Successors handed out in a grace period are retired once one of them is used: the chains converge.
      await repo.retireOthers(trx, token.session_id, hash, now);
      return this.successor(trx, token, now);
    }
    // Rotated before and presented again: the lost-answer case while none of its successors was used yet.
    if (
      token.retired_at === null &&
      token.rotated_at !== null &&
      Date.parse(now) - Date.parse(token.rotated_at) < REFRESH_REUSE_GRACE_MS &&
      !(await repo.successorUsed(trx, token.session_id, hash, token.rotated_at))
    ) {
      return this.successor(trx, token, now);
    }
    await repo.revokeSession(trx, token.session_id, 'refresh_token_reuse', now);
    return { kind: 'reused', userId: token.user_id, sessionId: token.session_id };
  }

  private async successor(
    db: Executor,
    token: { session_id: string; user_id: number },
    now: string,
  ): Promise<RefreshOutcome> {
    const next = randomToken();
    await repo.insertRefreshToken(db, sha256(next), token.session_id, now);
    await repo.markUsed(db, token.session_id, now);
    return { kind: 'rotated', userId: token.user_id, sessionId: token.session_id, refreshToken: next };
  }

  /** The session of a refresh token, whether or not the token was rotated (for sign-out). */
  async sessionOfRefreshToken(db: Executor, refreshToken: string) {
    return repo.findRefreshToken(db, sha256(refreshToken));
  }

  isActive(sessionId: string) {
    return repo.findActiveSession(this.db, sessionId, isoTime(this.now()));
  }

  revoke(db: Executor, sessionId: string, reason: string) {
    return repo.revokeSession(db, sessionId, reason, isoTime(this.now()));
  }

  /** How many sessions it ended. */
  revokeAllForUser(db: Executor, userId: number, reason: string, exceptSessionId?: string) {
    return repo.revokeUserSessions(db, userId, reason, isoTime(this.now()), exceptSessionId);
  }

  /** Ends one of the user's own sessions; false when it is not theirs or has ended already. */
  revokeOfUser(db: Executor, userId: number, sessionId: string, reason: string) {
    return repo.revokeUserSession(db, userId, sessionId, reason, isoTime(this.now()));
  }

  /** The user's signed-in sessions; `currentSessionId` is marked as this device. */
  async list(userId: number, currentSessionId: string | null): Promise<AuthSession[]> {
    const rows = await repo.listActiveSessions(this.db, userId, isoTime(this.now()));
    return rows.map((row) => ({
      ...row,
      last_used_at: row.last_used_at ?? row.created_at,
      ...describeUserAgent(row.user_agent),
      current: row.id === currentSessionId,
    }));
  }

  pruneEnded() {
    return repo.deleteEndedSessions(this.db, isoAfter(-24 * 3600 * 1000, this.now()));
  }
}
