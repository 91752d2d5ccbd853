import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { SpendKind, SpendSum } from '../src/modules/telemetry-store/llm-dimensions.js';
import { foldDay, upsertDimensionSums } from '../src/modules/telemetry-store/llm-dimensions.repository.js';
import {
  rankAllSpenders,
  topSpenders,
  topSpendersSplit,
} from '../src/modules/telemetry-store/top-spenders.repository.js';
import { roundTo } from '../src/lib/llm-cost.js';
import { createPostgresDatabase, dialects, useTestApp } from './helper.js';

/**
 * The top chats and users fast on long ranges (docs/operators/metrics.md, "Reading a top list"): `topSpenders` reads each day's costliest ids and
 * the exact sums of those, and must answer exactly as summing every row of the range does
 * (`rankAllSpenders`, the way they were answered before), across month edges, with ties, folded days and
 * late rows for folded days, and when it has to fall back to summing every row; and the totals it reads
 * from llm_spend_daily_totals match the rows'. So must `topSpendersSplit`, which is handed the settled
 * days' ranking and reads only the live days' rows, wherever the live days begin.
 */

/** A deterministic stream of numbers in [0, 1), so a failing run can be repeated. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const DAY_MS = 24 * 3600 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** 2026-10-27 to 2026-11-05: a month edge in the middle. */
const FIRST = Date.parse('2026-10-27T00:00:00.000Z');
const DAYS = Array.from({ length: 10 }, (_, i) => dayOf(FIRST + i * DAY_MS));

/**
 * A long tail of `ids` ids per day: a cube of a uniform draw puts most spend on the first few; costs in
 * whole tenths of a cent so that some sums tie exactly; the id text holds a quote and non-ASCII letters.
 */
function spendRows(next: () => number, day: string, ids: number, rows: number): SpendSum[] {
  const byId = new Map<string, SpendSum>();
  for (let i = 0; i < rows; i += 1) {
    const key = `-100${Math.floor(ids * next() ** 3)}'é`;
    const row = byId.get(key) ?? { day, key, requests: 0, tokens: 0, cost_usd: 0 };
    row.requests += 1;
    row.tokens += 1 + Math.floor(next() * 100);
    row.cost_usd += Math.floor(next() * 10) / 1000;
    byId.set(key, row);
  }
  return [...byId.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

/**
 * As the endpoints answer: money to the millionth. Sums read in another order may differ in their last
 * bits (as two query plans' may), never in what is answered.
 */
function asAnswered(answer: Awaited<ReturnType<typeof topSpenders>>) {
  return {
    top: answer.top.map((row) => ({ ...row, cost_usd: roundTo(row.cost_usd, 6) })),
    total: { ...answer.total, cost_usd: roundTo(answer.total.cost_usd, 6) },
  };
}

/** A day's spend row of one request and one token. */
const row = (day: string, key: string, cost_usd: number): SpendSum => ({
  day,
  key,
  requests: 1,
  tokens: 1,
  cost_usd,
});

describe.each(dialects)('the top chats and users on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function store(kind: SpendKind, rows: SpendSum[]) {
    await upsertDimensionSums(t.app.db, {
      features: [],
      errors: [],
      chats: kind === 'chats' ? rows : [],
      users: kind === 'users' ? rows : [],
    });
  }

  /** Every range of the days (and a range with none of them), at several list lengths. */
  async function expectSameAnswers(kind: SpendKind) {
    let compared = 0;
    for (let from = 0; from < DAYS.length; from += 1) {
      for (let to = from; to < DAYS.length; to += 3) {
        for (const limit of [1, 3, 10, 40]) {
          const fast = await topSpenders(t.app.db, kind, DAYS[from]!, DAYS[to]!, limit);
          const all = await rankAllSpenders(t.app.db, kind, DAYS[from]!, DAYS[to]!, limit);
          expect(asAnswered(fast), `${DAYS[from]}..${DAYS[to]} limit ${limit}`).toEqual(asAnswered(all));
          compared += 1;
          // The last day live, or the last two.
          for (const live of [to, to - 1].filter((day) => day > from)) {
            const settled = (depth: number) =>
              topSpenders(t.app.db, kind, DAYS[from]!, DAYS[live - 1]!, depth);
            const days = { fromDay: DAYS[from]!, liveFrom: DAYS[live]!, toDay: DAYS[to]! };
            const split = await topSpendersSplit(t.app.db, kind, days, limit, settled);
            expect(
              asAnswered(split),
              `${DAYS[from]}..${DAYS[to]} live from ${DAYS[live]} limit ${limit}`,
            ).toEqual(asAnswered(all));
          }
        }
      }
    }
    expect(await topSpenders(t.app.db, kind, '2026-12-01', '2026-12-31', 10)).toEqual({
      top: [],
      total: { requests: 0, tokens: 0, cost_usd: 0 },
    });
    return compared;
  }

  it('ranks as summing every row does, across a month edge, folds and late rows', async () => {
    const next = random(17);
    for (const kind of ['chats', 'users'] as const) {
      for (const day of DAYS) await store(kind, spendRows(next, day, 300, 2_000));
      expect(await expectSameAnswers(kind)).toBe(88);

      // Housekeeping folds the finished days to a short top list (so the fold matters here).
      for (const day of DAYS.slice(0, -1)) {
        await t.app.db.transaction().execute((trx) => foldDay(trx, kind, day, 25));
      }
      await expectSameAnswers(kind);

      // Late rows for folded days: for a folded-away id, a kept one and a new one, then folded again.
      const late = (day: string, key: string, cost: number): SpendSum => ({
        day,
        key,
        requests: 1,
        tokens: 7,
        cost_usd: cost,
      });
      await store(kind, [late('2026-10-31', "-100299'é", 0.5), late('2026-10-31', 'late-new', 0.25)]);
      await store(kind, [late('2026-11-01', "-1000'é", 0.004)]);
      await expectSameAnswers(kind);
      await t.app.db.transaction().execute((trx) => foldDay(trx, kind, '2026-10-31', 25));
      await expectSameAnswers(kind);
    }
    // Some 700 ranked reads on each database: seconds on a quiet machine, far more on a busy one.
  }, 180_000);

  it('falls back to summing every row when no few ids spend most, and keeps exact ties', async () => {
    // Every id spends the same each day: no short read can prove a top list, and ties go by id.
    for (const day of DAYS) {
      await store(
        'users',
        Array.from({ length: 200 }, (_, i) => ({
          day,
          key: String(1000 + i),
          requests: 1,
          tokens: 1,
          cost_usd: 0.002,
        })),
      );
    }
    const answer = await topSpenders(t.app.db, 'users', DAYS[0]!, DAYS.at(-1)!, 5);
    expect(answer.top.map((row) => row.id)).toEqual(['1000', '1001', '1002', '1003', '1004']);
    expect(asAnswered(answer)).toEqual(
      asAnswered(await rankAllSpenders(t.app.db, 'users', DAYS[0]!, DAYS.at(-1)!, 5)),
    );
    expect(answer.total).toEqual({ requests: 2000, tokens: 2000, cost_usd: expect.closeTo(4, 9) });
    const settled = (depth: number) => topSpenders(t.app.db, 'users', DAYS[0]!, DAYS.at(-2)!, depth);
    const days = { fromDay: DAYS[0]!, liveFrom: DAYS.at(-1)!, toDay: DAYS.at(-1)! };
    expect(asAnswered(await topSpendersSplit(t.app.db, 'users', days, 5, settled))).toEqual(
      asAnswered(answer),
    );
  });

  it('adds the settled spend of a live spender the kept ranking is too short to hold', async () => {
    // The kept ranking of two settled days holds 8 ids (limit 1: twice 4 deep); 'late-riser' is the 9th.
    for (const day of DAYS.slice(0, 2)) {
      await store('chats', [
        ...Array.from({ length: 8 }, (_, i) => row(day, `kept-${i}`, 0.5)),
        row(day, 'late-riser', 0.4),
      ]);
    }
    // Today 'late-riser' spends less than 'newcomer', but with its settled 0.8 it spent most in all.
    await store('chats', [row(DAYS[2]!, 'late-riser', 1), row(DAYS[2]!, 'newcomer', 1.2)]);
    const settled = (depth: number) => topSpenders(t.app.db, 'chats', DAYS[0]!, DAYS[1]!, depth);
    const days = { fromDay: DAYS[0]!, liveFrom: DAYS[2]!, toDay: DAYS[2]! };
    const split = await topSpendersSplit(t.app.db, 'chats', days, 1, settled);
    expect(split.top).toEqual([
      { id: 'late-riser', requests: 3, tokens: 3, cost_usd: expect.closeTo(1.8, 9) },
    ]);
    expect(asAnswered(split)).toEqual(
      asAnswered(await rankAllSpenders(t.app.db, 'chats', DAYS[0]!, DAYS[2]!, 1)),
    );
  });

  it('reads deeper when an id in neither list may still have spent most', async () => {
    // Limit 1: the kept ranking holds 8 ids, the live day's list 4. 'hidden' is 9th before and 5th today,
    // yet spent most over both (1.45 against 'kept-0''s 1.2).
    await store('users', [
      row(DAYS[0]!, 'hidden', 0.9),
      ...Array.from({ length: 8 }, (_, i) => row(DAYS[0]!, `kept-${i}`, i === 0 ? 1.2 : 1)),
    ]);
    await store('users', [
      row(DAYS[1]!, 'hidden', 0.55),
      ...Array.from({ length: 4 }, (_, i) => row(DAYS[1]!, `live-${i}`, 0.6)),
    ]);
    const settled = (depth: number) => topSpenders(t.app.db, 'users', DAYS[0]!, DAYS[0]!, depth);
    const days = { fromDay: DAYS[0]!, liveFrom: DAYS[1]!, toDay: DAYS[1]! };
    const split = await topSpendersSplit(t.app.db, 'users', days, 1, settled);
    expect(split.top.map((entry) => entry.id)).toEqual(['hidden']);
    expect(asAnswered(split)).toEqual(
      asAnswered(await rankAllSpenders(t.app.db, 'users', DAYS[0]!, DAYS[1]!, 1)),
    );
  });

  it('breaks ties by the ids in code point order, whatever the database collation, split or not', async () => {
    const ids = ['é', 'a', 'B', '9', '10', '-1', 'Z', '_'];
    for (const day of DAYS.slice(0, 3)) {
      await store(
        'chats',
        [...ids].sort().map((key) => ({ day, key, requests: 1, tokens: 1, cost_usd: 0.01 })),
      );
    }
    const inCodePointOrder = ['-1', '10', '9', 'B', 'Z', '_', 'a', 'é'];
    const all = await rankAllSpenders(t.app.db, 'chats', DAYS[0]!, DAYS[2]!, 8);
    expect(all.top.map((row) => row.id)).toEqual(inCodePointOrder);
    expect((await topSpenders(t.app.db, 'chats', DAYS[0]!, DAYS[2]!, 3)).top.map((row) => row.id)).toEqual(
      inCodePointOrder.slice(0, 3),
    );
    const settled = (depth: number) => topSpenders(t.app.db, 'chats', DAYS[0]!, DAYS[1]!, depth);
    const days = { fromDay: DAYS[0]!, liveFrom: DAYS[2]!, toDay: DAYS[2]! };
    const split = await topSpendersSplit(t.app.db, 'chats', days, 4, settled);
    expect(split.top.map((row) => row.id)).toEqual(inCodePointOrder.slice(0, 4));
  });

  it('answers the endpoint as before: the listed, the rest as other, and the total', async () => {
    const next = random(5);
    for (const day of DAYS) await store('chats', spendRows(next, day, 500, 1_000));
    await t.app.db.transaction().execute((trx) => foldDay(trx, 'chats', DAYS[2]!, 10));
    const all = await rankAllSpenders(t.app.db, 'chats', DAYS[0]!, DAYS.at(-1)!, 4);
    const admin = await t.loginAdmin();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/metrics/llm/top-chats?from=${DAYS[0]}T00:00:00.000Z&to=${dayOf(FIRST + 10 * DAY_MS)}T00:00:00.000Z&limit=4`,
      headers: admin.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{
      chats: Array<{ chat_id: string; cost_usd: number }>;
      total: { requests: number };
    }>();
    expect(body.chats.map((row) => row.chat_id)).toEqual(all.top.map((row) => row.id));
    expect(body.total.requests).toBe(all.total.requests);
  });
});

describe.each(dialects)('the llm spend reads migration on %s', (dialect) => {
  const BEFORE = '20261128100000-metrics-coarse-rollups';
  async function open(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
    if (dialect === 'sqlite') return { handle: openDatabase({}), drop: async () => {} };
    const { url, drop } = await createPostgresDatabase({ empty: true });
    return { handle: openDatabase({ databaseUrl: url }), drop };
  }
  const indexes = async (handle: DatabaseHandle) => {
    const { rows } =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master
            where type = 'index' and name like 'llm_%_daily_by_%' order by name`.execute(handle.db)
        : await sql<{ name: string }>`select indexname as name from pg_indexes
            where indexname like 'llm_%_daily_by_%' order by indexname`.execute(handle.db);
    return rows.map((row) => row.name);
  };

  it('indexes the stored rows and copies their daily totals going up, and drops both going down', async () => {
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle, BEFORE);
      await handle.db
        .insertInto('llm_chat_daily')
        .values([
          { day: '2026-11-20', chat_id: '-1001', requests: 2, tokens: 20, cost_usd: 0.5 },
          { day: '2026-11-20', chat_id: '__other__', requests: 3, tokens: 30, cost_usd: 0.25 },
          { day: '2026-11-21', chat_id: '-1001', requests: 1, tokens: 10, cost_usd: 0.125 },
        ])
        .execute();
      await migrateToLatest(handle);
      expect(await indexes(handle)).toEqual([
        'llm_chat_daily_by_cost',
        'llm_chat_daily_by_id',
        'llm_user_daily_by_cost',
        'llm_user_daily_by_id',
      ]);
      expect(await topSpenders(handle.db, 'chats', '2026-11-20', '2026-11-21', 10)).toEqual({
        top: [{ id: '-1001', requests: 3, tokens: 30, cost_usd: 0.625 }],
        total: { requests: 6, tokens: 60, cost_usd: 0.875 },
      });
      expect(await topSpenders(handle.db, 'users', '2026-11-20', '2026-11-21', 10)).toEqual({
        top: [],
        total: { requests: 0, tokens: 0, cost_usd: 0 },
      });
      await migrateToLatest(handle, BEFORE);
      expect(await indexes(handle)).toEqual([]);
      await expect(sql`select count(*) from llm_spend_daily_totals`.execute(handle.db)).rejects.toThrow();
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });

  it('keys the lookup by id by the id and day alone, so updating the sums leaves its keys as they were', async () => {
    const LOOKUPS = '20261130090000-llm-spend-lookups';
    const columns = async (handle: DatabaseHandle, index: string) => {
      const { rows } =
        dialect === 'sqlite'
          ? await sql<{ name: string }>`select name from pragma_index_info(${index}) order by seqno`.execute(
              handle.db,
            )
          : await sql<{ name: string }>`select a.attname as name from pg_index x
              join pg_class c on c.oid = x.indexrelid
              join pg_attribute a on a.attrelid = x.indrelid and a.attnum = any(x.indkey)
              where c.relname = ${index} order by array_position(x.indkey::int2[], a.attnum)`.execute(
              handle.db,
            );
      return rows.map((row) => row.name);
    };
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle);
      expect(await columns(handle, 'llm_chat_daily_by_id')).toEqual(['chat_id', 'day']);
      expect(await columns(handle, 'llm_user_daily_by_id')).toEqual(['user_id', 'day']);
      await upsertDimensionSums(handle.db, {
        features: [],
        errors: [],
        chats: [{ day: '2026-11-20', key: '-1001', requests: 2, tokens: 20, cost_usd: 0.5 }],
        users: [],
      });
      const settled = (depth: number) => topSpenders(handle.db, 'chats', '2026-11-19', '2026-11-19', depth);
      const days = { fromDay: '2026-11-19', liveFrom: '2026-11-20', toDay: '2026-11-20' };
      expect(await topSpendersSplit(handle.db, 'chats', days, 10, settled)).toEqual({
        top: [{ id: '-1001', requests: 2, tokens: 20, cost_usd: 0.5 }],
        total: { requests: 2, tokens: 20, cost_usd: 0.5 },
      });
      await migrateToLatest(handle, '20261129090000-llm-spend-reads');
      expect(await columns(handle, 'llm_chat_daily_by_id')).toEqual([
        'chat_id',
        'day',
        'cost_usd',
        'requests',
        'tokens',
      ]);
      await migrateToLatest(handle, LOOKUPS);
      expect(await columns(handle, 'llm_user_daily_by_id')).toEqual(['user_id', 'day']);
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });
});
