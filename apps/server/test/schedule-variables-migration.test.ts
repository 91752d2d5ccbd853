import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { SCHEDULE_SOURCE_VARIABLES } from '../src/modules/messaging/variables/variables.seed.js';
import { createPostgresDatabase, dialects } from './helper.js';

/** The catalogue of an installation seeded before the schedules gets their variables once, on upgrade. */
describe.each(dialects)('the schedule-variables migration on %s', (dialect) => {
  const open = async (): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> => {
    if (dialect === 'sqlite') return { handle: openDatabase({}), drop: async () => {} };
    const database = await createPostgresDatabase({ empty: true });
    return { handle: openDatabase({ databaseUrl: database.url }), drop: database.drop };
  };
  const row = (name: string, description: string) => ({
    variable_name: name,
    data_type: 'string',
    description,
    category: 'Mine',
    example_value: 'x',
    available_helpers: '[]',
    created_at: '2026-11-20T00:00:00.000Z',
    updated_at: '2026-11-20T00:00:00.000Z',
  });

  it('adds the data sources’ variables to a seeded catalogue, keeping one the operator made', async () => {
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle, '20261125130000-schedules');
      await handle.db
        .insertInto('messaging_variables')
        .values([row('token_name', 'Name of the token'), row('providers', 'My own providers')])
        .execute();
      await migrateToLatest(handle, '20261125140000-schedule-variables');
      const rows = await handle.db.selectFrom('messaging_variables').selectAll().execute();
      const names = rows.map((r) => r.variable_name).sort();
      expect(names).toEqual(
        [...new Set(['token_name', ...SCHEDULE_SOURCE_VARIABLES.map((v) => v.variable_name)])].sort(),
      );
      expect(rows.find((r) => r.variable_name === 'providers')?.description).toBe('My own providers');
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });

  it('leaves an empty catalogue to the seed', async () => {
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle);
      expect(await handle.db.selectFrom('messaging_variables').selectAll().execute()).toEqual([]);
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });
});
