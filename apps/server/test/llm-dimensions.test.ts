import type { LlmErrors, LlmFeatureUsage, LlmTopChats, LlmTopUsers } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { rankAllSpenders } from '../src/modules/telemetry-store/top-spenders.repository.js';
import { createPostgresDatabase, dialects, expectError, useTestApp } from './helper.js';
import { adminGet, botKey, events, HOUR, ingest, ingestRequest, reportAll } from './telemetry-helper.js';

/**
 * (docs/operators/metrics.md) an llm_call's chat_id, user_id, feature and error_type, their
 * rollups, the bound on the daily chat and user rollups, and the endpoints that read them.
 */

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** A deterministic stream of numbers in [0, 1), so a failing run can be repeated. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}
const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

type Call = ReturnType<typeof events.llmCall> & {
  chat_id?: string;
  user_id?: string;
  feature?: string;
  error_type?: string;
};

/** Adds `value` to the sums under `key`. */
function add<T extends Record<string, number>>(map: Map<string, T>, key: string, value: T) {
  const sum = map.get(key);
  if (!sum) map.set(key, { ...value });
  else
    for (const field of Object.keys(value) as (keyof T)[]) (sum[field] as number) += value[field] as number;
}

describe.each(dialects)('llm_call dimensions on %s', (dialect) => {
  let now = NOW;
  const t = useTestApp(dialect, { app: { now: () => now } });

  const get = <T>(url: string) => adminGet<T>(t, url);
  const report = (list: unknown[]) => reportAll(t, list);
  const range = (from: number, to: number) =>
    `from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;

  describe('ingestion', () => {
    it('stores the dimensions as sent, hostile text included', async () => {
      now = NOW;
      const hostile = `<img src=x onerror="alert('x')">'; DROP TABLE llm_calls; --`;
      await report([
        events.llmCall(NOW, {
          id: 'a',
          chat_id: '-1001234567890',
          user_id: '42',
          feature: hostile.slice(0, 64),
          error_type: `%s %n {{7*7}} ${'é'.repeat(10)} 🙂`,
          success: false,
        }),
        events.llmCall(NOW, { id: 'b' }),
      ]);
      const rows = await t.app.db
        .selectFrom('llm_calls')
        .select(['client_id', 'chat_id', 'user_id', 'feature', 'error_type'])
        .orderBy('client_id')
        .execute();
      expect(rows).toEqual([
        {
          client_id: 'a',
          chat_id: '-1001234567890',
          user_id: '42',
          feature: hostile.slice(0, 64),
          error_type: `%s %n {{7*7}} ${'é'.repeat(10)} 🙂`,
        },
        { client_id: 'b', chat_id: null, user_id: null, feature: null, error_type: null },
      ]);
      const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
      expect(features.features.map((f) => f.feature).sort()).toEqual([hostile.slice(0, 64), null].sort());
    });

    it.each([
      ['chat_id', 12345, 'chat_id: Must be a Telegram id sent as a string'],
      ['chat_id', '007', 'chat_id: Must be a Telegram id: digits'],
      ['chat_id', '12a', 'chat_id: Must be a Telegram id: digits'],
      ['chat_id', '', 'chat_id: Must be a Telegram id: digits'],
      ['chat_id', '1'.repeat(21), 'chat_id: Must be a Telegram id: digits'],
      ['user_id', '+5', 'user_id: Must be a Telegram id: digits'],
      ['user_id', '__other__', 'user_id: Must be a Telegram id: digits'],
      ['feature', '   ', 'feature: Must not be blank'],
      ['feature', 'f'.repeat(65), 'feature: Must be at most 64 characters'],
      ['feature', 're\u200Bply', 'feature: Names cannot contain invisible characters'],
      ['feature', 'two\nlines', 'feature: Names cannot contain invisible characters'],
      ['feature', 42, 'feature: '],
      ['error_type', 'e'.repeat(101), 'error_type: Must be at most 100 characters'],
      ['error_type', 'bell\u0007', 'error_type: Must not contain control characters'],
    ])('rejects %s %j with the field named', async (field, value, detail) => {
      now = NOW;
      const res = await ingestRequest(t.app, await botKey(t), [
        events.llmCall(NOW, { [field]: value }),
        events.llmCall(NOW, { chat_id: '-100200300', user_id: '0', feature: 'reply' }),
      ]);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ accepted: number; rejected: Array<{ index: number; detail: string }> }>();
      expect(body.accepted).toBe(1);
      expect(body.rejected).toHaveLength(1);
      expect(body.rejected[0]!.index).toBe(0);
      expect(body.rejected[0]!.detail).toContain(detail);
    });
  });

  describe('rollups and their endpoints', () => {
    /** 400 calls over the last 30 hours with every dimension sometimes missing, and the expected sums. */
    function sample() {
      const next = random(dialect === 'sqlite' ? 17 : 29);
      const calls: Call[] = Array.from({ length: 400 }, (_, i) => {
        const fields: Record<string, unknown> = {
          id: `call-${i}`,
          provider: pick(next, ['openai', 'gemini']),
          model: pick(next, ['m-small', 'm-large']),
          input_tokens: Math.floor(next() * 2000),
          output_tokens: Math.floor(next() * 500),
          cost_usd: Math.round(next() * 1000) / 10_000,
          success: next() > 0.3,
        };
        const feature = pick(next, ['reply', 'digest', 'summarize', undefined]);
        const chat = pick(next, [...Array.from({ length: 25 }, (_, c) => `-100${c}`), undefined]);
        const user = pick(next, [...Array.from({ length: 12 }, (_, u) => String(1000 + u)), undefined]);
        const errorType = pick(next, ['timeout', 'rate_limited', '"quoted", type', undefined]);
        if (feature) fields.feature = feature;
        if (chat) fields.chat_id = chat;
        if (user) fields.user_id = user;
        if (errorType) fields.error_type = errorType;
        return events.llmCall(NOW - Math.floor(next() * 30 * HOUR), fields) as Call;
      });
      return calls;
    }

    const WINDOW_START = Date.parse('2026-11-19T13:00:00.000Z');
    const inWindow = (call: Call) => Date.parse(call.ts) >= WINDOW_START;

    it('sums by feature, provider and model over the default last 24 hours', async () => {
      now = NOW;
      const calls = sample();
      await report(calls.slice(0, 200));
      await report(calls.slice(200));
      const expected = new Map<string, Record<string, number>>();
      for (const call of calls.filter(inWindow)) {
        add(expected, `${call.feature ?? ''}|${call.provider}|${call.model}`, {
          requests: 1,
          failed_requests: call.success ? 0 : 1,
          input_tokens: call.input_tokens,
          output_tokens: call.output_tokens,
          cost_usd: call.cost_usd,
        });
      }
      const answer = await get<LlmFeatureUsage>('/api/metrics/llm/features');
      expect(answer.from).toBe('2026-11-19T13:00:00.000Z');
      expect(answer.to).toBe('2026-11-20T13:00:00.000Z');
      const got = new Map<string, Record<string, number>>();
      for (const feature of answer.features) {
        const models = feature.models.reduce((sum, m) => sum + m.requests, 0);
        expect(models).toBe(feature.requests);
        for (const { provider, model, ...sums } of feature.models) {
          got.set(`${feature.feature ?? ''}|${provider}|${model}`, sums);
        }
      }
      expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [key, sums] of expected) {
        const actual = got.get(key)!;
        expect({ ...actual, cost_usd: 0 }, key).toEqual({ ...sums, cost_usd: 0 });
        expect(actual.cost_usd, key).toBeCloseTo(sums.cost_usd!, 6);
      }
      const costs = answer.features.map((f) => f.cost_usd);
      expect(costs).toEqual([...costs].sort((a, b) => b - a));
    });

    it('reports error rates by provider and model and failures by error type', async () => {
      now = NOW;
      const calls = sample();
      await report(calls);
      const models = new Map<string, { requests: number; failed: number }>();
      const types = new Map<string, { errors: number }>();
      const breakdown = new Map<string, { errors: number }>();
      for (const call of calls.filter(inWindow)) {
        add(models, `${call.provider}|${call.model}`, { requests: 1, failed: call.success ? 0 : 1 });
        if (call.success) continue;
        add(types, call.error_type ?? 'unknown', { errors: 1 });
        add(breakdown, `${call.provider}|${call.model}|${call.error_type ?? 'unknown'}`, { errors: 1 });
      }
      const answer = await get<LlmErrors>('/api/metrics/llm/errors');
      expect(new Map(answer.models.map((m) => [`${m.provider}|${m.model}`, m]))).toEqual(
        new Map(
          [...models].map(([key, m]) => {
            const [provider, model] = key.split('|');
            return [
              key,
              {
                provider,
                model,
                requests: m.requests,
                failed_requests: m.failed,
                error_rate: Math.round((m.failed / m.requests) * 10_000) / 100,
              },
            ];
          }),
        ),
      );
      const rates = answer.models.map((m) => m.error_rate);
      expect(rates).toEqual([...rates].sort((a, b) => b - a));
      expect(Object.fromEntries(answer.error_types.map((e) => [e.error_type, e.errors]))).toEqual(
        Object.fromEntries([...types].map(([type, { errors }]) => [type, errors])),
      );
      // A type's error rate is its failures per call of the range, whatever the model.
      const callCount = [...models.values()].reduce((sum, m) => sum + m.requests, 0);
      expect(Object.fromEntries(answer.error_types.map((e) => [e.error_type, e.error_rate]))).toEqual(
        Object.fromEntries(
          [...types].map(([type, { errors }]) => [type, Math.round((errors / callCount) * 10_000) / 100]),
        ),
      );
      expect(
        Object.fromEntries(
          answer.breakdown.map((e) => [`${e.provider}|${e.model}|${e.error_type}`, e.errors]),
        ),
      ).toEqual(Object.fromEntries([...breakdown].map(([key, { errors }]) => [key, errors])));
    });

    it('ranks chats and users by cost over the UTC days of the range', async () => {
      now = NOW;
      const calls = sample();
      await report(calls);
      // The range touches 2026-11-19 and 2026-11-20: every call of the sample counts.
      const from = Date.parse('2026-11-19T20:00:00.000Z');
      const spend = (key: 'chat_id' | 'user_id') => {
        const sums = new Map<string, { requests: number; tokens: number; cost_usd: number }>();
        for (const call of calls) {
          const id = call[key];
          if (id) {
            add(sums, id, {
              requests: 1,
              tokens: call.input_tokens + call.output_tokens,
              cost_usd: call.cost_usd,
            });
          }
        }
        return [...sums].sort(([a, x], [b, y]) => y.cost_usd - x.cost_usd || (a < b ? -1 : 1));
      };
      const chats = spend('chat_id');
      const top = await get<LlmTopChats>(`/api/metrics/llm/top-chats?${range(from, NOW)}&limit=5`);
      expect(top.from_day).toBe('2026-11-19');
      expect(top.to_day).toBe('2026-11-20');
      expect(top.chats.map((c) => c.chat_id)).toEqual(chats.slice(0, 5).map(([id]) => id));
      for (const [i, [, sums]] of chats.slice(0, 5).entries()) {
        expect(top.chats[i]!.requests).toBe(sums.requests);
        expect(top.chats[i]!.tokens).toBe(sums.tokens);
        expect(top.chats[i]!.cost_usd).toBeCloseTo(sums.cost_usd, 6);
      }
      const rest = chats.slice(5).map(([, sums]) => sums);
      expect(top.other.requests).toBe(rest.reduce((sum, s) => sum + s.requests, 0));
      expect(top.other.tokens).toBe(rest.reduce((sum, s) => sum + s.tokens, 0));
      expect(top.other.cost_usd).toBeCloseTo(
        rest.reduce((sum, s) => sum + s.cost_usd, 0),
        6,
      );
      expect(top.total.requests).toBe(calls.filter((c) => c.chat_id).length);

      const users = spend('user_id');
      const topUsers = await get<LlmTopUsers>(`/api/metrics/llm/top-users?${range(from, NOW)}&limit=1000`);
      expect(topUsers.users.map((u) => u.user_id)).toEqual(users.map(([id]) => id));
      expect(topUsers.other).toEqual({ requests: 0, tokens: 0, cost_usd: 0 });

      // A range within one day sees that day only.
      const today = await get<LlmTopChats>(
        `/api/metrics/llm/top-chats?${range(Date.parse('2026-11-20T00:00:00.000Z'), NOW)}`,
      );
      expect(today.from_day).toBe('2026-11-20');
      expect(today.total.requests).toBe(
        calls.filter((c) => c.chat_id && c.ts >= '2026-11-20T00:00:00.000Z').length,
      );
    });

    it('keeps the top lists exact while the settled days are kept: calls today, late calls, the day turning', async () => {
      now = NOW;
      await report(sample());
      const expectExact = async (fromDay: string, toDay: string) => {
        const to = iso(Date.parse(toDay) + DAY);
        const chats = await get<LlmTopChats>(
          `/api/metrics/llm/top-chats?from=${fromDay}T00:00:00.000Z&to=${to}&limit=3`,
        );
        const users = await get<LlmTopUsers>(
          `/api/metrics/llm/top-users?from=${fromDay}T00:00:00.000Z&to=${to}&limit=3`,
        );
        const allChats = await rankAllSpenders(t.app.db, 'chats', fromDay, toDay, 3);
        const allUsers = await rankAllSpenders(t.app.db, 'users', fromDay, toDay, 3);
        expect(chats.chats.map((c) => c.chat_id)).toEqual(allChats.top.map((row) => row.id));
        expect(chats.total.requests).toBe(allChats.total.requests);
        expect(users.users.map((u) => u.user_id)).toEqual(allUsers.top.map((row) => row.id));
        expect(users.total.requests).toBe(allUsers.total.requests);
        return { chats, users };
      };
      const spender = (ts: number, id: string, cost: number) =>
        events.llmCall(ts, {
          id: `spend-${id}`,
          provider: 'openai',
          model: 'm-large',
          cost_usd: cost,
          chat_id: `-100${id}`,
          user_id: id,
        });
      await expectExact('2026-11-15', '2026-11-20');

      // A call of today counts at once beside the kept ranking of the days before.
      await report([spender(NOW - 600_000, '777', 50)]);
      expect((await expectExact('2026-11-15', '2026-11-20')).chats.chats[0]!.chat_id).toBe('-100777');
      // So does a late call for a settled day: it clears what was kept.
      await report([spender(Date.parse('2026-11-19T05:00:00.000Z'), '888', 80)]);
      expect((await expectExact('2026-11-15', '2026-11-20')).users.users[0]!.user_id).toBe('888');

      // Past the first hour of the next day, the day before is settled and kept too.
      now = Date.parse('2026-11-21T01:30:00.000Z');
      await expectExact('2026-11-15', '2026-11-21');
      await expectExact('2026-11-15', '2026-11-20');
      await report([spender(Date.parse('2026-11-20T23:00:00.000Z'), '999', 200)]);
      expect((await expectExact('2026-11-15', '2026-11-21')).chats.chats[0]!.chat_id).toBe('-100999');
      expect((await expectExact('2026-11-15', '2026-11-20')).chats.chats[0]!.chat_id).toBe('-100999');
    });

    it('answers a quiet range with empty lists and zeros', async () => {
      now = NOW;
      expect(await get<LlmFeatureUsage>('/api/metrics/llm/features')).toEqual({
        from: '2026-11-19T13:00:00.000Z',
        to: '2026-11-20T13:00:00.000Z',
        features: [],
      });
      const zero = { requests: 0, tokens: 0, cost_usd: 0 };
      expect(await get<LlmTopUsers>('/api/metrics/llm/top-users')).toEqual({
        from_day: '2026-11-19',
        to_day: '2026-11-20',
        users: [],
        other: zero,
        total: zero,
      });
      expect(await get<LlmErrors>('/api/metrics/llm/errors')).toMatchObject({
        models: [],
        error_types: [],
        breakdown: [],
      });
    });
  });

  describe('the bound on chats and users per day', () => {
    it('keeps a finished day to its top 1,000 chats and one other row holding the rest', async () => {
      now = NOW;
      const yesterday = Date.parse('2026-11-19T10:00:00.000Z');
      // 1,500 chats with distinct costs; chat i costs i (in tenths of a cent), so 501..1500 are the top.
      const calls = Array.from({ length: 1500 }, (_, i) =>
        events.llmCall(yesterday, {
          chat_id: String(1_000_000 + i + 1),
          user_id: String(i % 3),
          cost_usd: (i + 1) / 1000,
          input_tokens: i + 1,
          output_tokens: 0,
        }),
      );
      await report(calls.slice(0, 750));
      await report(calls.slice(750));
      // Today is not finished: its chats stay however many there are.
      const today = Array.from({ length: 1002 }, (_, i) =>
        events.llmCall(NOW, { chat_id: String(i + 1), cost_usd: 0.001 }),
      );
      await report(today.slice(0, 501));
      await report(today.slice(501));
      const dayRange = range(Date.parse('2026-11-19T00:00:00.000Z'), Date.parse('2026-11-20T00:00:00.000Z'));
      const url = `/api/metrics/llm/top-chats?${dayRange}&limit=1000`;
      const before = await get<LlmTopChats>(url);

      expect(await t.app.services.telemetryStore.housekeeping.compactFinishedDays()).toEqual({
        days_folded: 1,
        rows_folded: 500,
      });
      const rows = (day: string) =>
        t.app.db
          .selectFrom('llm_chat_daily')
          .select(['chat_id', 'requests', 'tokens', 'cost_usd'])
          .where('day', '=', day)
          .execute();
      const kept = await rows('2026-11-19');
      expect(kept).toHaveLength(1001);
      const other = kept.find((row) => row.chat_id === '__other__')!;
      expect(Number(other.requests)).toBe(500);
      expect(Number(other.tokens)).toBe((500 * 501) / 2);
      expect(Number(other.cost_usd)).toBeCloseTo((500 * 501) / 2 / 1000, 6);
      expect(await rows('2026-11-20')).toHaveLength(1002);

      const after = await get<LlmTopChats>(url);
      expect(after.chats.map((c) => c.chat_id)).toEqual(
        Array.from({ length: 1000 }, (_, i) => String(1_000_000 + 1500 - i)),
      );
      expect(after.chats).toEqual(before.chats);
      expect(after.total).toEqual(before.total);
      expect(after.total.requests).toBe(1500);
      expect(after.other.requests).toBe(500);
      expect(after.other.cost_usd).toBeCloseTo(other.cost_usd as number, 6);

      // A second run finds nothing to do; a late event for a folded chat is folded again.
      expect(await t.app.services.telemetryStore.housekeeping.compactFinishedDays()).toEqual({
        days_folded: 0,
        rows_folded: 0,
      });
      await report([events.llmCall(yesterday, { chat_id: '1000001', cost_usd: 0.0001, input_tokens: 1 })]);
      expect(await rows('2026-11-19')).toHaveLength(1002);
      expect(await t.app.services.telemetryStore.housekeeping.compactFinishedDays()).toEqual({
        days_folded: 1,
        rows_folded: 1,
      });
      expect(await rows('2026-11-19')).toHaveLength(1001);
      const late = await get<LlmTopChats>(url);
      expect(late.total.requests).toBe(1501);
      expect(late.other.requests).toBe(501);

      // Users: three of them, far below the bound, are never folded.
      expect((await get<LlmTopUsers>(`/api/metrics/llm/top-users?${dayRange}`)).users).toHaveLength(3);
    });

    it('loses no late event folded while it arrives, and deadlocks with none', async () => {
      now = NOW;
      const yesterday = Date.parse('2026-11-19T10:00:00.000Z');
      const batch = (offset: number) =>
        Array.from({ length: 600 }, (_, i) =>
          events.llmCall(yesterday, { chat_id: String(offset + i), cost_usd: ((offset + i) % 997) / 1000 }),
        );
      await report(batch(0));
      await report(batch(600));
      const key = await botKey(t);
      // Late events for the day being folded, in batches sent side by side with the fold.
      const late = [batch(300), batch(900), batch(1500)];
      await Promise.all([
        t.app.services.telemetryStore.housekeeping.compactFinishedDays(),
        ...late.map((list) => ingest(t.app, key, list)),
        t.app.services.telemetryStore.housekeeping.compactFinishedDays(),
      ]);
      await t.app.services.telemetryStore.housekeeping.compactFinishedDays();
      const rows = await t.app.db
        .selectFrom('llm_chat_daily')
        .select(['chat_id', 'requests'])
        .where('day', '=', '2026-11-19')
        .execute();
      expect(rows.length).toBeLessThanOrEqual(1001);
      expect(rows.reduce((sum, row) => sum + Number(row.requests), 0)).toBe(1200 + 3 * 600);
    });

    it('prunes the dimension rollups with the hourly ones, after 400 days', async () => {
      now = NOW;
      await report([
        events.llmCall(NOW - 399 * DAY, { chat_id: '7', user_id: '8', feature: 'digest', success: false }),
      ]);
      const tables = ['llm_feature_hourly', 'llm_error_hourly', 'llm_chat_daily', 'llm_user_daily'] as const;
      const counts = () =>
        Promise.all(
          tables.map(async (table) =>
            Number(
              (
                await t.app.db
                  .selectFrom(table)
                  .select((eb) => eb.fn.countAll().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          ),
        );
      const old = range(NOW - 399 * DAY - HOUR, NOW - 399 * DAY + HOUR);
      expect((await get<LlmTopChats>(`/api/metrics/llm/top-chats?${old}`)).total.requests).toBe(1);
      await t.app.services.telemetryStore.retention.prune();
      expect(await counts()).toEqual([1, 1, 1, 1]);
      now = NOW + 2 * DAY;
      await t.app.services.telemetryStore.retention.prune();
      expect(await counts()).toEqual([0, 0, 0, 0]);
      expect((await get<LlmTopChats>(`/api/metrics/llm/top-chats?${old}`)).total.requests).toBe(0);
    });
  });

  describe('validation and access', () => {
    it.each([
      ['from after to', `from=${iso(NOW)}&to=${iso(NOW - HOUR)}`, 'from must be before to'],
      ['an empty range', `from=${iso(NOW)}&to=${iso(NOW)}`, 'from must be before to'],
      ['more than 92 days', `from=${iso(NOW - 93 * DAY)}&to=${iso(NOW)}`, 'at most 92 days'],
      ['a from in the future', `from=${iso(NOW + 2 * HOUR)}`, 'from must be before to'],
      ['a time that is no time', 'from=yesterday', 'from: Must be an ISO 8601 time'],
      ['a time without offset', 'to=2026-11-20T10:00:00', 'to: Must be an ISO 8601 time'],
    ])('answers 422 for %s', async (_, query, detail) => {
      now = NOW;
      const admin = await t.loginAdmin();
      for (const path of ['features', 'top-chats', 'top-users', 'errors']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/metrics/llm/${path}?${query.replaceAll('+', '%2B')}`,
          headers: admin.auth,
        });
        expect(expectError(res, 422, 'validation_failed').detail).toContain(detail);
      }
    });

    it('accepts a range of exactly 92 days', async () => {
      now = NOW;
      await get<LlmFeatureUsage>(`/api/metrics/llm/features?${range(NOW - 92 * DAY, NOW)}`);
    });

    it.each(['0', '1001', 'ten', '-1'])('answers 422 for limit=%s', async (limit) => {
      now = NOW;
      const admin = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/metrics/llm/top-chats?limit=${limit}`,
        headers: admin.auth,
      });
      expect(expectError(res, 422, 'validation_failed').detail).toMatch(/^limit: /);
    });

    it('lets a viewer read, and refuses callers without a session or with a bot key', async () => {
      now = NOW;
      const viewer = await t.signInAs(['viewer']);
      const key = await botKey(t, ['ingest:write']);
      for (const path of ['features', 'top-chats', 'top-users', 'errors']) {
        const url = `/api/metrics/llm/${path}`;
        expect((await t.app.inject({ method: 'GET', url, headers: viewer.auth })).statusCode).toBe(200);
        expectError(await t.app.inject({ method: 'GET', url }), 401);
        expectError(await t.app.inject({ method: 'GET', url, headers: key }), 403);
      }
    });
  });
});

describe.each(dialects)('the llm dimensions migration on %s', (dialect) => {
  const open = async (): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> => {
    if (dialect === 'sqlite') return { handle: openDatabase({}), drop: async () => {} };
    const database = await createPostgresDatabase({ empty: true });
    return { handle: openDatabase({ databaseUrl: database.url }), drop: database.drop };
  };
  const usage = (hour: string, model: string, requests: number, failed: number) => ({
    hour,
    provider: 'openai',
    model,
    requests,
    failed_requests: failed,
    cached_requests: 0,
    input_tokens: requests * 10,
    output_tokens: requests,
    cost_usd: requests / 100,
    latency_ms_total: 0,
    last_call_at: hour,
  });

  it('copies the usage counted so far as feature none and failures of unknown type', async () => {
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle, '20261126090000-alerts');
      const hour = '2026-11-20T10:00:00.000Z';
      await handle.db
        .insertInto('llm_usage_hourly')
        .values([usage(hour, 'm-small', 5, 2), usage(hour, 'm-large', 3, 0)])
        .execute();
      await migrateToLatest(handle);

      const features = await handle.db
        .selectFrom('llm_feature_hourly')
        .selectAll()
        .orderBy('model')
        .execute();
      expect(features.map((row) => ({ ...row, requests: Number(row.requests) }))).toMatchObject([
        { hour, feature: '', provider: 'openai', model: 'm-large', requests: 3 },
        { hour, feature: '', provider: 'openai', model: 'm-small', requests: 5 },
      ]);
      const errors = await handle.db.selectFrom('llm_error_hourly').selectAll().execute();
      expect(errors.map((row) => ({ ...row, errors: Number(row.errors) }))).toEqual([
        { hour, provider: 'openai', model: 'm-small', error_type: 'unknown', errors: 2 },
      ]);
      expect(await handle.db.selectFrom('llm_chat_daily').selectAll().execute()).toEqual([]);
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });
});
