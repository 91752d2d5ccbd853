import type { Executor } from '../../db/database.js';

export function findTwoFactor(db: Executor, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'totp_secret', 'totp_pending_secret', 'totp_enabled_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function setPendingSecret(db: Executor, userId: number, sealed: string, now: string) {
  await db
    .updateTable('users')
    .set({ totp_pending_secret: sealed, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Turns the pending secret on, unless another request did first (or started a new setup). */
export async function enable(
  db: Executor,
  userId: number,
  pending: string,
  step: number,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({
      totp_secret: pending,
      totp_pending_secret: null,
      totp_enabled_at: now,
      totp_last_step: step,
      updated_at: now,
    })
    .where('id', '=', userId)
    .where('totp_secret', 'is', null)
    .where('totp_pending_secret', '=', pending)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records `step` as the user's last accepted code, only if it is later than the last one: one statement,
 * so of two requests with the same code (or codes of the same step) exactly one gets the row.
 */
export async function useStep(db: Executor, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_secret', 'is not', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function disable(db: Executor, userId: number, now: string) {
  await db
    .updateTable('users')
    .set({
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Executor, userId: number, hashes: string[], now: string) {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now, used_at: null })))
    .execute();
}

/** Marks an unused recovery code used: one statement, so a code is used once however many try at once. */
export async function useRecoveryCode(db: Executor, userId: number, hash: string, now: string) {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertChallenge(
  db: Executor,
  challenge: { token_hash: string; user_id: number; created_at: string; expires_at: string },
) {
  await db
    .insertInto('two_factor_challenges')
    .values({ ...challenge, used_at: null })
    .execute();
}

export function findLiveChallenge(db: Executor, hash: string, now: string) {
  return db
    .selectFrom('two_factor_challenges')
    .select(['user_id'])
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Uses the challenge up: true for exactly one of any number of requests presenting it in time. */
export async function consumeChallenge(db: Executor, hash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_challenges')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every challenge of the user still waiting for its code: each is then refused as expired. */
export async function expireChallengesOf(db: Executor, userId: number, now: string) {
  await db
    .updateTable('two_factor_challenges')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function pruneChallenges(db: Executor, before: string) {
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<', before).execute();
}
