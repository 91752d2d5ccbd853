import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeCounts, watchChanges } from './fuzz/change-log.js';
import { createTestApp, dialects, type TestApp } from './helper.js';

/** The fuzz's check that a refused write changed nothing rests on these notes (fuzz/change-log.ts). */
describe.each(dialects)('the fuzz change log on %s', (dialect) => {
  let t: TestApp;
  let db: Kysely<unknown>;
  const audit = (action: string) => ({
    created_at: new Date().toISOString(),
    action,
    resource_type: 'config',
  });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    db = t.app.db as unknown as Kysely<unknown>;
    await watchChanges(db, dialect);
  });
  afterAll(() => t?.close());

  it('notes rows inserted, updated to other values and deleted, by table', async () => {
    const before = await changeCounts(db);
    await t.app.db.insertInto('audit_logs').values(audit('config.updated')).execute();
    await t.app.db.updateTable('users').set({ username: 'renamed' }).where('id', '=', t.adminId).execute();
    await t.app.db.deleteFrom('audit_logs').where('action', '=', 'config.updated').execute();
    expect(await changeCounts(db)).toEqual({
      ...before,
      audit_logs: (before.audit_logs ?? 0) + 2,
      users: (before.users ?? 0) + 1,
    });
  });

  it('leaves out what a refused request may write, same-value updates and rolled-back writes', async () => {
    const before = await changeCounts(db);
    await t.app.db.insertInto('audit_logs').values(audit('auth.login_failed')).execute();
    const now = new Date().toISOString();
    await t.app.db.updateTable('users').set({ last_login: now }).where('id', '=', t.adminId).execute();
    await t.app.db.updateTable('api_keys').set({ last_used_at: now }).execute();
    await t.app.db.deleteFrom('sessions').execute();
    const admin = await t.app.db
      .selectFrom('users')
      .select('username')
      .where('id', '=', t.adminId)
      .executeTakeFirstOrThrow();
    await t.app.db.updateTable('users').set(admin).where('id', '=', t.adminId).execute();
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await trx.insertInto('audit_logs').values(audit('config.updated')).execute();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await changeCounts(db)).toEqual(before);
  });
});
