import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection.js';
import { EVENT_TABLES } from '../src/db/event-partitions.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createPostgresDatabase, dialects, useTestApp } from './helper.js';
import { botKey, events, HOUR, ingest, MINUTE } from './telemetry-helper.js';

/**
 * PostgreSQL keeps raw events in day partitions (db/event-partitions.ts). The clock is set in 2030, days
 * the migration made no partition for, so each test decides which partitions exist.
 */
const NOW = Date.parse('2030-03-10T12:00:00.000Z');
const DAY = 24 * HOUR;

describe.skipIf(!dialects.includes('postgres'))('raw event partitions on PostgreSQL', () => {
  let now = NOW;
  const t = useTestApp('postgres', { app: { now: () => now } });

  const partitionsOf = async (table: string) => {
    const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass`.execute(t.app.db);
    return rows.map((row) => row.name).sort();
  };
  const rowsIn = async (table: string) => {
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(
      t.app.db,
    );
    return Number(rows[0]!.n);
  };
  const days2030 = (names: string[]) => names.filter((name) => /_p2030/.test(name));

  it("creates today's partition and three days ahead for every event table, once", async () => {
    now = NOW;
    expect(await t.app.services.telemetryStore.housekeeping.maintainPartitions()).toBe(
      EVENT_TABLES.length * 4,
    );
    expect(await t.app.services.telemetryStore.housekeeping.maintainPartitions()).toBe(0);
    for (const table of EVENT_TABLES) {
      expect(days2030(await partitionsOf(table))).toEqual([
        `${table}_p20300310`,
        `${table}_p20300311`,
        `${table}_p20300312`,
        `${table}_p20300313`,
      ]);
      expect(await partitionsOf(table)).toContain(`${table}_default`);
    }
    const key = await botKey(t);
    await ingest(t.app, key, [events.llmCall(NOW - MINUTE), events.heartbeat(NOW - MINUTE)]);
    expect(await rowsIn('llm_calls_p20300310')).toBe(1);
    expect(await rowsIn('heartbeats_p20300310')).toBe(1);
    expect(await rowsIn('llm_calls_default')).toBe(0);
  });

  it('lets two instances create the partitions at the same moment without an error', async () => {
    now = NOW;
    const other = await t.secondInstance();
    const created = await Promise.all([
      t.app.services.telemetryStore.housekeeping.maintainPartitions(),
      other.services.telemetryStore.housekeeping.maintainPartitions(),
      t.app.services.telemetryStore.housekeeping.maintainPartitions(),
    ]);
    expect(created.reduce((a, b) => a + b, 0)).toBe(EVENT_TABLES.length * 4);
  });

  it('moves the events a day received before its partition existed into it, and still knows retries', async () => {
    now = NOW;
    const key = await botKey(t);
    const batch = [events.llmCall(NOW - HOUR, { id: 'early-1' }), events.llmCall(NOW - 2 * HOUR)];
    expect(await ingest(t.app, key, batch)).toMatchObject({ accepted: 2 });
    expect(await rowsIn('llm_calls_default')).toBe(2);

    await t.app.services.telemetryStore.housekeeping.maintainPartitions();
    expect(await rowsIn('llm_calls_default')).toBe(0);
    expect(await rowsIn('llm_calls_p20300310')).toBe(2);
    expect(await ingest(t.app, key, [batch[0]])).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(await rowsIn('llm_calls')).toBe(2);
  });

  it('drops whole days past RETENTION_DAYS, keeps the day that straddles the cut, and deletes late events', async () => {
    now = NOW;
    await t.app.services.telemetryStore.housekeeping.maintainPartitions();
    const key = await botKey(t);
    await ingest(t.app, key, [
      events.llmCall(NOW - HOUR), // 03-10: a partition of its own
      events.llmCall(NOW - 40 * DAY), // late: no partition, held by the default
      events.error(NOW - HOUR),
    ]);
    now = Date.parse('2030-03-12T00:40:00.000Z');
    await ingest(t.app, key, [events.llmCall(Date.parse('2030-03-12T00:30:00.000Z'))]);

    // 30 days later, the cut is 2030-03-12T01:00: days 03-10 and 03-11 have ended before it, 03-12 has not.
    now = Date.parse('2030-04-11T01:00:00.000Z');
    // Every day partition before 03-12 goes, the migration's (of the real today) included.
    let past = 0;
    for (const table of EVENT_TABLES) {
      past += (await partitionsOf(table)).filter(
        (name) => /_p\d{8}$/.test(name) && name.slice(-8) < '20300312',
      ).length;
    }
    expect(past).toBeGreaterThanOrEqual(2 * EVENT_TABLES.length);
    const pruned = await t.app.services.telemetryStore.retention.prune();
    expect(pruned).toEqual({ events: 3, contents: 0, rollups: 0, minute_rollups: 4, partitions: past });
    expect(days2030(await partitionsOf('llm_calls'))).toEqual(['llm_calls_p20300312', 'llm_calls_p20300313']);
    // 00:30 is older than the cut, but its day is not wholly past: it goes with the day.
    expect(await rowsIn('llm_calls')).toBe(1);
    expect(await rowsIn('llm_calls_default')).toBe(0);
    // The rollups still count every event.
    const admin = await t.loginAdmin();
    const usage = await t.app.inject({
      method: 'GET',
      url: '/api/metrics/llm-usage?days=90',
      headers: admin.auth,
    });
    expect(usage.json<{ totals: { requests: number } }>().totals.requests).toBe(3);
  });
});

describe.skipIf(!dialects.includes('postgres'))('the migration to partitions on PostgreSQL', () => {
  it('moves every stored event into its day partition and keeps ids and duplicates working', async () => {
    const database = await createPostgresDatabase({ empty: true });
    const handle = openDatabase({ databaseUrl: database.url });
    try {
      await migrateToLatest(handle, '20261124210000-audit-resource-name');
      const row = (ts: string, clientId: string | null) => ({
        client_id: clientId,
        ts,
        provider: 'openai',
        model: 'gpt-4o',
        input_tokens: 1,
        output_tokens: 1,
        cost_usd: 0,
        cost_computed: 0,
        latency_ms: 10,
        cached: 0,
        success: 1,
      });
      await handle.db
        .insertInto('llm_calls')
        .values([
          row('2026-10-01T10:00:00.000Z', 'a'),
          row('2026-10-01T23:59:59.999Z', 'b'),
          row('2026-10-02T00:00:00.000Z', null),
          row('2026-10-05T08:00:00.000Z', 'c'),
        ])
        .execute();
      await handle.db
        .insertInto('heartbeats')
        .values({
          client_id: null,
          ts: '2026-10-03T00:00:00.000Z',
          telegram_status: 'connected',
          started_at: '2026-10-03T00:00:00.000Z',
          active_locks: '[]',
        })
        .execute();

      await migrateToLatest(handle);
      const count = async (table: string) => {
        const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(
          handle.db,
        );
        return Number(rows[0]!.n);
      };
      expect(await count('llm_calls')).toBe(4);
      expect(await count('llm_calls_p20261001')).toBe(2);
      expect(await count('llm_calls_p20261002')).toBe(1);
      expect(await count('llm_calls_p20261005')).toBe(1);
      expect(await count('llm_calls_default')).toBe(0);
      expect(await count('heartbeats_p20261003')).toBe(1);
      // Ids go on from where they were, and (client id, ts) is unique across the partitions.
      const added = await handle.db
        .insertInto('llm_calls')
        .values([row('2026-10-01T10:00:00.000Z', 'a'), row('2026-10-05T09:00:00.000Z', 'd')])
        .onConflict((oc) => oc.columns(['client_id', 'ts']).doNothing())
        .returning(['id', 'client_id'])
        .execute();
      expect(added.map((r) => r.client_id)).toEqual(['d']);
      expect(Number(added[0]!.id)).toBeGreaterThan(4);
    } finally {
      await handle.db.destroy();
      await database.drop();
    }
  });
});
