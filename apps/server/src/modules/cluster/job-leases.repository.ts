import type { Executor } from '../../db/database.js';

/**
 * Takes or renews the lease of `name` for `holder` until `expiresAt`: it succeeds when nobody holds it, the
 * holder's lease ran out, or `holder` holds it already. One statement, so two instances asking at once
 * cannot both win. Returns the lease when held, with when the job last started anywhere.
 */
export async function acquireLease(
  db: Executor,
  lease: { name: string; holder: string; now: string; expiresAt: string },
): Promise<{ last_run_at: string | null } | undefined> {
  return db
    .insertInto('job_leases')
    .values({
      name: lease.name,
      holder: lease.holder,
      acquired_at: lease.now,
      expires_at: lease.expiresAt,
    })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({
          holder: lease.holder,
          acquired_at: eb
            .case()
            .when('job_leases.holder', '=', lease.holder)
            .then(eb.ref('job_leases.acquired_at'))
            .else(lease.now)
            .end(),
          expires_at: lease.expiresAt,
        }))
        .where((eb) =>
          eb.or([
            eb('job_leases.holder', '=', lease.holder),
            eb('job_leases.holder', 'is', null),
            eb('job_leases.expires_at', '<', lease.now),
          ]),
        ),
    )
    .returning(['last_run_at'])
    .executeTakeFirst();
}

/** Notes that `holder` starts the job now, if it still holds the lease; false when it lost it. */
export async function markStarted(db: Executor, name: string, holder: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('job_leases')
    .set({ last_run_at: now, last_run_by: holder })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markFinished(
  db: Executor,
  name: string,
  outcome: { durationMs: number; error: string | null },
): Promise<void> {
  await db
    .updateTable('job_leases')
    .set({ last_duration_ms: Math.round(outcome.durationMs), last_error: outcome.error })
    .where('name', '=', name)
    .execute();
}

/** Gives up every lease `holder` has, so another instance takes the jobs over at its next check. */
export async function releaseLeases(db: Executor, holder: string): Promise<void> {
  await db
    .updateTable('job_leases')
    .set({ holder: null, expires_at: null })
    .where('holder', '=', holder)
    .execute();
}
