import type { AuthSession } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { NotFoundError } from '../../lib/errors.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { SessionsService } from './sessions.service.js';

/**
 * A user's own signed-in sessions (docs/operators/security.md, "Sessions"): the list Profile shows, signing
 * one out, and signing out all but this one. A revoked session ends through both of its tokens: its refresh
 * token is refused, and so is its access token at once, because every access token names its session and the
 * signed-in principals are forgotten on every instance after the change commits (`accessChanged`).
 */
export class SessionControlService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly accessChanged: () => Promise<void>,
  ) {}

  list(userId: number, currentSessionId: string | null): Promise<AuthSession[]> {
    return this.sessions.list(userId, currentSessionId);
  }

  async revoke(actor: Actor & { id: number }, sessionId: string): Promise<void> {
    const revoked = await this.db.transaction().execute(async (trx) => {
      if (!(await this.sessions.revokeOfUser(trx, actor.id, sessionId, 'signed_out_by_user'))) return false;
      await this.audit.record(trx, actor, {
        action: 'auth.session_revoked',
        resourceType: 'session',
        resourceId: sessionId,
        resourceName: actor.username,
      });
      return true;
    });
    if (!revoked) {
      throw new NotFoundError('That session is not one of yours or has ended already; reload the list');
    }
    await this.accessChanged();
  }

  /** Signs out every session of the user but `currentSessionId`; answers how many ended. */
  async revokeOthers(actor: Actor & { id: number }, currentSessionId: string): Promise<number> {
    const revoked = await this.db.transaction().execute(async (trx) => {
      const count = await this.sessions.revokeAllForUser(
        trx,
        actor.id,
        'signed_out_by_user',
        currentSessionId,
      );
      await this.audit.record(trx, actor, {
        action: 'auth.other_sessions_revoked',
        resourceType: 'session',
        resourceName: actor.username,
        newValue: { revoked: count },
      });
      return count;
    });
    await this.accessChanged();
    return revoked;
  }
}
