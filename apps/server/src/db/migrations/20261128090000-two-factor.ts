import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * Account security (docs/operators/security.md): two-factor sign-in (TOTP, RFC 6238) with one-time recovery
 * codes and the short-lived challenge of a sign-in's second step; roles that require it; a temporary password
 * an admin sets, which the user must change first; and when each session was last used, for the list of
 * signed-in sessions.
 */
export const twoFactor = () => ({
  async up(db: Db) {
    await db.schema
      .alterTable('users')
      .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The secrets are AES-GCM ciphertexts (two-factor.crypto.ts), never the base32 secret itself.
    await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
    await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
    await db.schema.alterTable('users').addColumn('totp_enabled_at', 'text').execute();
    // The RFC 6238 time step of the last code accepted: a code of that step or an earlier one is refused.
    await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
    await db.schema
      .alterTable('roles')
      .addColumn('require_two_factor', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('sessions').addColumn('last_used_at', 'text').execute();

    await db.schema
      .createTable('two_factor_challenges')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createIndex('two_factor_challenges_expiry_idx')
      .on('two_factor_challenges')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('recovery_codes')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
      .execute();
  },
  async down(db: Db) {
    await db.schema.dropTable('recovery_codes').execute();
    await db.schema.dropTable('two_factor_challenges').execute();
    await db.schema.alterTable('sessions').dropColumn('last_used_at').execute();
    await db.schema.alterTable('roles').dropColumn('require_two_factor').execute();
    for (const column of [
      'totp_last_step',
      'totp_enabled_at',
      'totp_pending_secret',
      'totp_secret',
      'must_change_password',
    ]) {
      await db.schema.alterTable('users').dropColumn(column).execute();
    }
  },
});
