import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LimitMetric, LimitWindow } from '@lumi/contract';
import type { Allowance, Limit } from '@lumi/contract';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import type { UsageKind } from '../src/db/limit-tables.js';
import {
  InProcessIngest,
  IngestWorker,
  type IngestDatabase,
  type IngestNews,
  type IngestWriter,
} from '../src/modules/ingestion/ingest-writer.js';
import { LocalInvalidation, type InvalidationTopic } from '../src/modules/cluster/invalidation.js';
import type { AppliedLimit } from '../src/modules/limits/limit-book.js';
import { LimitEvents } from '../src/modules/limits/limit-events.js';
import { UsageMirror } from '../src/modules/limits/usage-mirror.js';
import { UsageReader } from '../src/modules/limits/usage-reader.js';
import { bucketNames } from '../src/modules/limits/bucket-names.js';
import { HOUR_MS, MINUTE_MS } from '../src/lib/hour-buckets.js';
import { createPostgresDatabase, dialects, migratedSqlite, useTestApp } from './helper.js';
import type { UsageSum } from '../src/modules/telemetry-store/telemetry-store.js';
import { botKey, CHAT_DAY_COST, events, ingest } from './telemetry-helper.js';

/**
 * (docs/operators/limits.md, "What counts") On SQLite the allowance takes a subject's stored usage and grants
 * from memory (modules/limits/usage-mirror.ts): loaded once, then kept in step with each stored batch (in the
 * server's thread, or written behind by the ingest worker) and each stored part of the grants. Whatever was
 * stored, before or after the load, across a day's and a month's turn in LUMI_TIMEZONE, every limit's
 * standing from memory is the one a read of the database gives.
 */

const TZ = 'Europe/Berlin';
// 12:30 in Berlin on the 30th: the day turns at 23:00 UTC, the month at 2026-11-30T23:00Z.
const START = Date.parse('2026-11-30T11:30:00.000Z');

// Ids the mirror keeps as numbers, and one of 20 digits (more than a double holds exactly) it keeps by name
// (subject-slots.ts).
const CHATS = ['-101', '-102', '-10012345678901234567'];
const USERS = ['7', '0'];
const FEATURES = ['reply', 'digest'];
/** A chat whose only calls are of the first month. */
const LAPSED = '-104';
const SUBJECTS: [UsageKind, string][] = [
  ...[...CHATS, LAPSED].map((c): [UsageKind, string] => ['chat', c]),
  ...USERS.map((u): [UsageKind, string] => ['user', u]),
  ...FEATURES.map((f): [UsageKind, string] => ['feature', f]),
];
const METRICS: LimitMetric[] = ['requests', 'tokens', 'cost_usd'];
const WINDOWS: LimitWindow[] = ['minute', 'hour', 'day', 'month'];

/** Every metric and window on every subject, as limits that apply to it. */
function everyLimit(): AppliedLimit[] {
  let id = 0;
  return SUBJECTS.flatMap(([kind, subject]) =>
    METRICS.flatMap((metric) =>
      WINDOWS.map((window) => ({
        kind,
        subject,
        limit: {
          id: (id += 1),
          scope: kind,
          subject,
          metric,
          window,
          amount: 1e9,
          mode: 'hard' as const,
          raise_amount: null,
          raise_until: null,
          note: '',
          created_at: '',
          created_by: null,
          updated_at: '',
          updated_by: null,
        },
      })),
    ),
  );
}

/** Calls spread over the month and the hours around `now`, by the subjects in turn (`seed` varies them). */
function calls(now: number, seed: number) {
  const offsets = [
    0,
    20_000,
    3 * MINUTE_MS,
    HOUR_MS,
    2 * HOUR_MS,
    14 * HOUR_MS,
    3 * 24 * HOUR_MS,
    20 * 24 * HOUR_MS,
  ];
  return offsets.map((back, i) =>
    events.llmCall(now - back, {
      chat_id: CHATS[(i + seed) % CHATS.length],
      user_id: USERS[(i + seed) % USERS.length],
      feature: FEATURES[(i + seed) % FEATURES.length],
      input_tokens: 100 + seed + i,
      cost_usd: 0.01 * (1 + ((i + seed) % 5)),
    }),
  );
}

/** Invalidation in one process, where a test tells of a change as if another instance had made it. */
class ToldFromElsewhere extends LocalInvalidation {
  tell(topic: InvalidationTopic): void {
    this.run(topic, true);
  }
}

const IN_THREAD = 'in the server’s thread';
const BY_WORKER = 'by the ingest worker';
const ON_POSTGRES = 'by the ingest worker on PostgreSQL';
const modes = [IN_THREAD, BY_WORKER, ...(process.env.TEST_DATABASE_URL ? [ON_POSTGRES] : [])];

/**
 * A scratch database for each test: SQLite in memory or (`where` 'file', for the ingest worker) in a file,
 * or a PostgreSQL database of its own; and the writer stored batches go through, both closed after the test.
 */
function useScratch() {
  let handle: DatabaseHandle | undefined;
  let dir: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  const scratch = {
    writer: undefined as IngestWriter | undefined,
    /** Where the ingest worker connects to it. */
    database: undefined as IngestDatabase | undefined,
    async open(where: 'memory' | 'file' | 'postgres'): Promise<DatabaseHandle> {
      if (where === 'memory') return (handle = await migratedSqlite());
      if (where === 'postgres') {
        const made = await createPostgresDatabase();
        drop = made.drop;
        scratch.database = { databaseUrl: made.url };
        return (handle = openDatabase({ databaseUrl: made.url }));
      }
      dir = mkdtempSync(path.join(os.tmpdir(), 'lumi-mirror-'));
      handle = await migratedSqlite(path.join(dir, 'lumi.db'));
      scratch.database = { sqliteFile: handle.file! };
      return handle;
    },
  };
  afterEach(async () => {
    await scratch.writer?.close();
    await handle?.db.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await drop?.();
    handle = scratch.writer = scratch.database = dir = drop = undefined;
  });
  return scratch;
}

/**
 * The mirror kept in step with what `worker` tells, as services.ts has it: its usage and calls, numbered
 * (the allowance's counts come through LimitEvents); `told` has the usage news; `started` resolves at its
 * start.
 */
function followWorker(mirror: UsageMirror, worker: IngestWorker, clock: () => number) {
  const told: Extract<IngestNews, { usage: UsageSum[] }>[] = [];
  const started = new Promise<void>((resolve) => {
    worker.onNews((news) => {
      if ('usage' in news) {
        told.push(news);
        mirror.addUsage(news.usage, clock(), news.number, news.calls);
      } else resolve();
    });
  });
  return { told, started };
}

describe.each(modes)('the allowance’s mirror of usage, batches stored %s', (mode) => {
  const scratch = useScratch();

  it('gives every limit the standing a read of the database gives, as usage and grants are stored', async () => {
    let clock = START;
    const now = () => clock;
    const handle = await scratch.open(
      mode === IN_THREAD ? 'memory' : mode === ON_POSTGRES ? 'postgres' : 'file',
    );
    const { db } = handle;
    const mirror = new UsageMirror(TZ, mode !== IN_THREAD);
    // The allowance's counts are stored by the worker too where it stores the batches, as services.ts has it.
    const worker =
      mode === IN_THREAD ? undefined : new IngestWorker({ database: scratch.database!, timezone: TZ });
    const grants = worker
      ? new LimitEvents((part) => worker.storeLimitEvents(part), 60_000)
      : LimitEvents.inProcess(db, 60_000);
    let told: Extract<IngestNews, { usage: UsageSum[] }>[] = [];
    let started = Promise.resolve();
    grants.onPartStored((rows, number) => mirror.addGrants(rows, clock, number));
    if (worker) {
      ({ told, started } = followWorker(mirror, worker, now));
      scratch.writer = worker;
    } else {
      scratch.writer = new InProcessIngest(db, TZ, (sums) => mirror.addUsage(sums, clock));
    }
    const writer = scratch.writer!;
    const ingest = async (seed: number) => {
      const result = await writer.ingest(calls(clock, seed), clock);
      expect(result.accepted).toBe(8);
    };
    /** Grants of every subject but LAPSED in the current minute and hour, and in the hour before. */
    const grant = async (count: number) => {
      const names = bucketNames(clock);
      for (const [kind, subject] of SUBJECTS.filter(([, subject]) => subject !== LAPSED)) {
        grants.grant({ kind, subject, grain: 'minute', bucket: names.minute }, count);
        grants.grant({ kind, subject, grain: 'hour', bucket: names.hour }, count);
        grants.grant({ kind, subject, grain: 'hour', bucket: names.previousHour }, 1);
      }
      await grants.flush();
    };
    const limits = everyLimit();
    const standings = async (reader: UsageReader) =>
      (await reader.standings(limits, clock)).map((s) => ({
        limit: s.applied.limit.id,
        used: Number(s.used.toFixed(9)),
        before: Number(s.before.toFixed(9)),
        granted: s.granted,
      }));
    // A month's first snapshot has the mirror loaded again (services.ts does the same).
    let reloading = Promise.resolve();
    mirror.reloadWith(() => {
      mirror.expect();
      if (writer instanceof IngestWorker) {
        reloading = writer.mirrorImage(clock).then((image) => mirror.adopt(image));
      } else expect(mirror.load(db, clock)).toBe(true);
    });
    /** Compares; `inMemory` false where the mirror must leave the subjects to a read (a clock set back). */
    const same = async (when: string, inMemory = true) => {
      mirror.snapshot('chat', CHATS[0]!, clock);
      await reloading;
      for (const [kind, subject] of SUBJECTS) {
        expect(mirror.snapshot(kind, subject, clock) !== undefined, `${when}: ${subject} in memory`).toBe(
          inMemory,
        );
      }
      const mirrored = new UsageReader(db, TZ, now);
      mirrored.mirrorWith(mirror);
      const read = await standings(new UsageReader(db, TZ, now));
      expect(
        read.some((s) => s.used > 0),
        when,
      ).toBe(true);
      expect(await standings(mirrored), when).toEqual(read);
    };

    // Stored before the load (made by the worker in its thread, or in the server's): the load takes them,
    // and a write the worker stored before it is not added twice.
    if (worker) worker.start();
    await started;
    await ingest(1);
    expect(
      (await writer.ingest([events.llmCall(clock - HOUR_MS, { chat_id: LAPSED })], clock)).accepted,
    ).toBe(1);
    await grant(2);
    // Grants of the next minute stored before a load asked for in this one: the load holds them.
    const nextMinute = bucketNames(clock + MINUTE_MS).minute;
    grants.grant({ kind: 'chat', subject: CHATS[0]!, grain: 'minute', bucket: nextMinute }, 4);
    await grants.flush();
    if (worker) {
      mirror.expect();
      mirror.adopt(await worker.mirrorImage(clock));
    } else expect(mirror.load(db, clock)).toBe(true);
    clock += MINUTE_MS;
    await same('loaded, in the next minute');
    // Told of a write the load already saw (its news late): nothing is added.
    for (const news of told) mirror.addUsage(news.usage, clock, news.number, news.calls);
    await same('told late of a write loaded');

    await ingest(2);
    await grant(3);
    await same('after a batch and grants');

    clock += 40 * MINUTE_MS;
    await ingest(3);
    await grant(1);
    await same('in the next hour');

    // 23:10 in Berlin: the hours before the day's first are summed apart now.
    clock = Date.parse('2026-11-30T22:10:00.000Z');
    await same('before the day turns');
    clock = Date.parse('2026-11-30T23:10:00.000Z');
    await ingest(4);
    await grant(2);
    await same('after the day and the month turned');
    clock = Date.parse('2026-11-30T22:50:00.000Z');
    await same('with the clock set back into the month before', false);
    clock = Date.parse('2026-11-30T23:10:00.000Z');

    clock += 26 * HOUR_MS;
    await ingest(5);
    await grant(1);
    await same('the next day');
  });
});

describe.each(dialects)(
  'the allowance’s mirror in a server on %s whose batches the ingest worker stores',
  (dialect) => {
    const clock = START;
    const invalidation = new ToldFromElsewhere();
    const t = useTestApp(dialect, {
      ingestWorker: true,
      app: { now: () => clock, telemetry: { timezone: TZ }, invalidation },
    });

    // On PostgreSQL once the server has seen that it is the only instance on its database.
    it('is loaded by the worker (GET /api/ready says so) and counts what the worker stores next', async () => {
      const ready = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/ready' })).json<{ allowance: string }>().allowance;
      await vi.waitFor(async () => expect(await ready()).toBe('memory'), { timeout: 10_000 });
      const auth = (await t.loginAdmin()).auth;
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/limits',
        headers: auth,
        payload: CHAT_DAY_COST,
      });
      expect(created.statusCode, created.body).toBe(201);
      const limit = created.json<Limit>();
      const key = await botKey(t, ['allowance:read', 'ingest:write']);
      const decide = async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/bot/allowance',
          headers: key,
          payload: { chat_id: '-100', user_id: '7', feature: 'reply' },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<Allowance>();
      };
      expect(await decide()).toMatchObject({ allowed: true, reason: 'within_limits' });
      await ingest(t.app, key, [events.llmCall(START - 10 * MINUTE_MS, { chat_id: '-100', cost_usd: 0.06 })]);
      expect(await decide()).toMatchObject({
        allowed: false,
        reason: 'limit_reached',
        limit: { id: limit.id },
      });
      if (dialect === 'sqlite') return;
      // Another instance's reports told (NOTIFY) before it was seen to arrive: the mirror, which lacks them,
      // is let go of, and the database read, with the same answer.
      invalidation.tell('telemetry');
      expect(t.app.services.allowance.usageSource).toBe('database');
      expect(await decide()).toMatchObject({ allowed: false, limit: { id: limit.id } });
      // That instance left before it was let in: this one, still alone, loads it again a moment later.
      await vi.waitFor(async () => expect(await ready()).toBe('memory'), { timeout: 20_000 });
      // Another instance is let in, so this one reads the database; once it has gone, the one left loads
      // the mirror again.
      const other = await t.secondInstance();
      await vi.waitFor(() => expect(t.app.services.allowance.countsWhere).toBe('database'), {
        timeout: 20_000,
      });
      expect(t.app.services.allowance.usageSource).toBe('database');
      await other.close();
      await vi.waitFor(async () => expect(await ready()).toBe('memory'), { timeout: 20_000 });
      expect(await decide()).toMatchObject({ allowed: false, limit: { id: limit.id } });
    });
  },
);

/** A subject's usage of an hour (its start in ms) as a write tells the mirror of it. */
const hourUsage = (kind: UsageKind, subject: string, hour: number, requests: number): UsageSum => ({
  ...{ kind, subject, grain: 'hour', bucket: new Date(hour).toISOString() },
  ...{ requests, tokens: 10 * requests, cost_usd: 0.01 * requests },
});

/** A mirror loaded at START from a scratch database with nothing stored, and that database. */
async function emptyMirror(scratch: ReturnType<typeof useScratch>) {
  const { db } = await scratch.open('memory');
  const mirror = new UsageMirror(TZ);
  expect(mirror.load(db, START)).toBe(true);
  return { mirror, db };
}

describe('the snapshots the allowance’s mirror answers with', () => {
  const scratch = useScratch();

  it('answers again with the one made last for a subject of many hours, until its usage, grants or minute change', async () => {
    const { mirror, db } = await emptyMirror(scratch);
    const current = START - (START % HOUR_MS);
    // Five hours of the day for a feature, one for a chat.
    mirror.addUsage(
      [
        ...[0, 1, 2, 3, 4].map((back) => hourUsage('feature', 'reply', current - back * HOUR_MS, 1)),
        hourUsage('chat', '-1', current, 1),
      ],
      START,
    );
    const first = mirror.snapshot('feature', 'reply', START)!;
    expect(first.hours.size).toBe(5);
    expect(mirror.snapshot('feature', 'reply', START + 1_000)).toBe(first);
    // A subject of fewer hours is made again each time.
    expect(mirror.snapshot('chat', '-1', START)).not.toBe(mirror.snapshot('chat', '-1', START));
    // Its usage changed: made again, with the change.
    mirror.addUsage([hourUsage('feature', 'reply', current - 2 * HOUR_MS, 2)], START);
    const changed = mirror.snapshot('feature', 'reply', START)!;
    expect(changed).not.toBe(first);
    expect(changed.hours.get(current - 2 * HOUR_MS)!.requests).toBe(3);
    expect(mirror.snapshot('feature', 'reply', START)).toBe(changed);
    // Its grants changed.
    const minute = bucketNames(START).minute;
    mirror.addGrants(
      [{ kind: 'feature', subject: 'reply', grain: 'minute', bucket: minute, granted: 4 }],
      START,
    );
    const granted = mirror.snapshot('feature', 'reply', START)!;
    expect(granted).not.toBe(changed);
    expect(granted.minuteGranted).toBe(4);
    // The next minute: the minute's grants start again from none.
    const next = mirror.snapshot('feature', 'reply', START + MINUTE_MS)!;
    expect(next).not.toBe(granted);
    expect(next.minuteGranted).toBe(0);
    // A check that needs a chat's calls of the minute has them on its own copy: another check may be
    // answered with the same snapshot.
    mirror.addUsage(
      [0, 1, 2, 3].map((back) => hourUsage('chat', '-2', current - back * HOUR_MS, 1)),
      START,
    );
    const kept = mirror.snapshot('chat', '-2', START)!;
    const reader = new UsageReader(db, TZ, () => START);
    reader.mirrorWith(mirror);
    const minuteLimit = everyLimit().find(
      (a) => a.kind === 'chat' && a.limit.window === 'minute' && a.limit.metric === 'requests',
    )!;
    await reader.standings([{ ...minuteLimit, subject: '-2' }], START);
    expect(mirror.snapshot('chat', '-2', START)).toBe(kept);
    expect(kept.recent).toBeNull();
    // Let go of with the rest when unloaded.
    mirror.unload();
    expect(mirror.snapshot('feature', 'reply', START)).toBeUndefined();
  });
});

describe('the allowance’s mirror handed over by another thread', () => {
  const scratch = useScratch();

  it('takes a large image whole, and makes the changes told while it was awaited once it is in', async () => {
    const { mirror: made } = await emptyMirror(scratch);
    const hour = new Date(START - (START % HOUR_MS)).toISOString();
    const usage = (kind: UsageKind, subject: string, requests: number) =>
      hourUsage(kind, subject, START - (START % HOUR_MS), requests);
    // Ids kept as numbers and subjects kept by name, past the first sizes of their tables.
    made.addUsage(
      [
        ...Array.from({ length: 120_000 }, (_, i) => usage('chat', `-${i}`, 1)),
        ...Array.from({ length: 3_000 }, (_, i) => usage('user', `${i}`, 2)),
        usage('chat', '-10012345678901234567', 3),
        usage('feature', '12', 6),
      ],
      START,
    );
    const taking = new UsageMirror(TZ);
    taking.expect();
    // Told while the image is awaited: not yet answered from memory, counted once it is in.
    taking.addUsage([usage('chat', '-7', 2), usage('chat', '-200000', 5)], START);
    taking.addGrants([{ kind: 'chat', subject: '-7', grain: 'hour', bucket: hour, granted: 4 }], START);
    expect(taking.snapshot('chat', '-7', START)).toBeUndefined();
    taking.adopt(made.image());
    const current = Date.parse(hour);
    const requests = (kind: UsageKind, subject: string) =>
      taking.snapshot(kind, subject, START)!.hours.get(current)?.requests ?? 0;
    expect(taking.snapshot('chat', '-7', START)!.hours.get(current)).toEqual({
      requests: 3,
      tokens: 30,
      cost_usd: 0.03,
      granted: 4,
    });
    expect(requests('chat', '-200000')).toBe(5);
    expect(requests('chat', '-119999')).toBe(1);
    expect(requests('user', '2999')).toBe(2);
    expect(requests('chat', '-10012345678901234567')).toBe(3);
    // The first of them, "-0", is kept by name: it is not the id 0.
    expect(requests('chat', '-0')).toBe(1);
    // A feature is never an id, and an id of a chat is not that of a user.
    expect(requests('feature', '12')).toBe(6);
    expect(requests('user', '12')).toBe(2);
    expect(requests('chat', '12')).toBe(0);
    expect(requests('chat', '0')).toBe(0);
    // The image is a copy: a change to the one it was made of is not in it.
    made.addUsage([usage('chat', '-1', 9)], START);
    expect(requests('chat', '-1')).toBe(1);
  });
});

describe.each(modes.filter((mode) => mode !== IN_THREAD))('the allowance’s mirror loaded %s', (mode) => {
  const scratch = useScratch();

  it('goes on storing batches while it loads a large month, and counts each write once', async () => {
    const postgres = mode === ON_POSTGRES;
    const handle = await scratch.open(postgres ? 'postgres' : 'file');
    const { db } = handle;
    const hour = new Date(START - (START % HOUR_MS)).toISOString();
    // 200,000 chats' usage this hour: a load of several parts.
    await (
      postgres
        ? sql`INSERT INTO limit_usage (kind, subject, grain, bucket, requests, tokens, cost_usd)
          SELECT 'chat', '-5' || i, 'hour', ${hour}, 1, 10, 0.01 FROM generate_series(0, 199999) i`
        : sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 199999)
          INSERT INTO limit_usage (kind, subject, grain, bucket, requests, tokens, cost_usd)
          SELECT 'chat', '-5' || i, 'hour', ${hour}, 1, 10, 0.01 FROM n`
    ).execute(db);
    const mirror = new UsageMirror(TZ, true);
    const worker = new IngestWorker({ database: scratch.database!, timezone: TZ });
    scratch.writer = worker;
    const { started } = followWorker(mirror, worker, () => START);
    worker.start();
    await started;
    let loaded = false;
    mirror.expect();
    const image = worker.mirrorImage(START).then((made) => {
      loaded = true;
      return made;
    });
    // The allowance's counts asked to be stored meanwhile: on SQLite they wait for the load; on PostgreSQL
    // only for its snapshot. Either way they are told of after it, numbered.
    const counts = new LimitEvents((part) => worker.storeLimitEvents(part), 60_000);
    counts.onPartStored((rows, number) => mirror.addGrants(rows, START, number));
    counts.grant({ kind: 'chat', subject: '-101', grain: 'hour', bucket: hour }, 3);
    const stored = counts.flush();
    const batch = [events.llmCall(START - MINUTE_MS, { chat_id: '-101', cost_usd: 0.5 })];
    expect((await worker.ingest(batch, START)).accepted).toBe(1);
    // The minute's calls, which a limit over a minute reads.
    expect(
      (await worker.ingest([events.llmCall(START, { chat_id: '-101', user_id: '7' })], START)).accepted,
    ).toBe(1);
    // Stored while the load was still under way.
    expect(loaded).toBe(false);
    mirror.adopt(await image);
    await stored;
    expect(
      (
        await worker.ingest(
          batch.map((e) => ({ ...e, cost_usd: 0.25 })),
          START,
        )
      ).accepted,
    ).toBe(1);
    const applied = everyLimit().filter((a) => a.subject === '-101' || a.subject === '7');
    const standings = async (reader: UsageReader) =>
      (await reader.standings(applied, START)).map((s) => Number(s.used.toFixed(9)));
    const mirrored = new UsageReader(db, TZ, () => START);
    mirrored.mirrorWith(mirror);
    expect(mirror.snapshot('chat', '-101', START)).toBeDefined();
    // The minute's calls come from memory: the one stored while the load was under way, told of after it.
    expect(mirror.recent('chat', '-101', START)?.requests).toBe(1);
    expect(mirror.recent('user', '7', START)?.requests).toBe(1);
    const read = await standings(new UsageReader(db, TZ, () => START));
    expect(read.some((used) => used > 0)).toBe(true);
    expect(await standings(mirrored)).toEqual(read);
    expect(mirror.snapshot('chat', '-5199999', START)!.hours.get(Date.parse(hour))!.requests).toBe(1);
  });
});

describe('the calls of the minute the allowance’s mirror holds where the ingest worker tells of them', () => {
  it('sums a chat’s calls since the minute’s start, later ones too, and answers only for minutes it holds whole', () => {
    const mirror = new UsageMirror(TZ, true);
    const minute = START - (START % MINUTE_MS);
    // Loaded (here with nothing) at START: whole from START's minute on.
    mirror.loader(START).finish(0);
    const call = (at: number, requests: number, cost: number): UsageSum => ({
      ...{
        kind: 'chat',
        subject: '-1',
        grain: 'minute',
        bucket: new Date(at - (at % MINUTE_MS)).toISOString(),
      },
      ...{ requests, tokens: 100 * requests, cost_usd: cost },
    });
    const told = (at: number, calls: UsageSum[], number: number) => mirror.addUsage([], at, number, calls);
    told(
      START,
      [call(START, 2, 0.5), call(START - MINUTE_MS, 7, 9), call(START + 3 * MINUTE_MS, 1, 0.25)],
      1,
    );
    expect(mirror.recent('chat', '-1', START)).toEqual({ requests: 3, tokens: 300, cost_usd: 0.75 });
    expect(mirror.recent('user', '-1', START)).toEqual({ requests: 0, tokens: 0, cost_usd: 0 });
    // A minute before the load: not held whole, so the database is read.
    expect(mirror.recent('chat', '-1', minute - 1)).toBeUndefined();
    // Two minutes on: only the call stamped later still counts; a write told late of a past minute is left out.
    told(minute + 2 * MINUTE_MS, [call(START, 5, 1)], 2);
    expect(mirror.recent('chat', '-1', minute + 2 * MINUTE_MS)).toEqual({
      requests: 1,
      tokens: 100,
      cost_usd: 0.25,
    });
    // The clock set back into a minute let go of: the database is read.
    expect(mirror.recent('chat', '-1', START)).toBeUndefined();
    // A write the load covered is left out.
    mirror.loader(START).finish(5);
    told(START, [call(START, 2, 0.5)], 4);
    expect(mirror.recent('chat', '-1', START)).toEqual({ requests: 0, tokens: 0, cost_usd: 0 });
  });
});
