import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { ALERT_VARIABLES } from '../src/modules/messaging/variables/variables.seed.js';
import { createPostgresDatabase, dialects } from './helper.js';

const BEFORE_ALERTS = '20261126080000-minute-rollups';
const AT = '2026-11-20T00:00:00.000Z';

/**
 * An installation seeded before alerts: its operator and viewer roles get the alert permissions and its
 * variable catalogue the alert variables, once, on upgrade (what an operator made is kept).
 */
describe.each(dialects)('the alerts migration on %s', (dialect) => {
  const open = async (): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> => {
    if (dialect === 'sqlite') return { handle: openDatabase({}), drop: async () => {} };
    const database = await createPostgresDatabase({ empty: true });
    return { handle: openDatabase({ databaseUrl: database.url }), drop: database.drop };
  };
  const role = (name: string, permissions: string[]) => ({
    name,
    description: '',
    permissions: JSON.stringify(permissions),
    built_in: 0,
    created_at: AT,
    updated_at: AT,
  });
  const variable = (name: string, description: string) => ({
    variable_name: name,
    data_type: 'string',
    description,
    category: 'Mine',
    example_value: 'x',
    available_helpers: '[]',
    created_at: AT,
    updated_at: AT,
  });

  it('grants the alert permissions to operator and viewer and adds the alert variables, keeping what is there', async () => {
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle, BEFORE_ALERTS);
      await handle.db
        .insertInto('roles')
        .values([
          role('operator', ['metrics:read', 'alerts:read']),
          role('viewer', ['metrics:read']),
          role('auditor', ['admin:audit:read']),
        ])
        .execute();
      await handle.db
        .insertInto('messaging_variables')
        .values([variable('token_name', 'Name of the token'), variable('alert_state', 'My own state')])
        .execute();
      await migrateToLatest(handle);

      const roles = await handle.db
        .selectFrom('roles')
        .select(['name', 'permissions'])
        .orderBy('name')
        .execute();
      expect(roles.map((r) => [r.name, JSON.parse(r.permissions)])).toEqual([
        ['auditor', ['admin:audit:read']],
        // The limits migration (20261207090000) grants the operator limits:write the same way.
        ['operator', ['metrics:read', 'alerts:read', 'alerts:write', 'limits:write']],
        ['viewer', ['metrics:read', 'alerts:read']],
      ]);
      const rows = await handle.db.selectFrom('messaging_variables').selectAll().execute();
      expect(rows.map((r) => r.variable_name).sort()).toEqual(
        [...new Set(['token_name', ...ALERT_VARIABLES.map((v) => v.variable_name)])].sort(),
      );
      expect(rows.find((r) => r.variable_name === 'alert_state')?.description).toBe('My own state');
      expect(rows.find((r) => r.variable_name === 'alert_url')?.category).toBe('Alerts');
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });

  it('leaves a new installation to the seed', async () => {
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle);
      expect(await handle.db.selectFrom('roles').selectAll().execute()).toEqual([]);
      expect(await handle.db.selectFrom('messaging_variables').selectAll().execute()).toEqual([]);
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });
});
