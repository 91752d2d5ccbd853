import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * Refresh-token retirement (docs/api.md, "Signing in"): a refresh token handed out during the reuse grace
 * period is retired, not rotated, once a sibling of it is used, so presenting it afterwards is told apart
 * from the lost-answer case and ends the session.
 */
export const refreshTokenRetirement = () => ({
  async up(db: Db) {
    await db.schema.alterTable('refresh_tokens').addColumn('retired_at', 'text').execute();
  },
  async down(db: Db) {
    await db.schema.alterTable('refresh_tokens').dropColumn('retired_at').execute();
  },
});
