import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLumi, LumiError, type BotLimitsSnapshot, type Lumi, type LumiOptions } from '../src/index.js';
import { FakeLumi } from './fake-lumi.js';
import { until } from './wait.js';

/**
 * `lumi.allow()`, the local check (docs/bot-developers/limits.md), against the stand-in's limits
 * endpoints: the decision rules as Lumi applies them, request limits binding between syncs, windows that
 * roll over on a fake clock, fail open or closed while Lumi is down, and a bounded memory of subjects.
 */

type SnapshotLimit = BotLimitsSnapshot['limits'][number];
type SnapshotRule = BotLimitsSnapshot['rules'][number];

const T0 = Date.parse('2026-03-10T12:00:30.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

const limit = (fields: Partial<SnapshotLimit> & Pick<SnapshotLimit, 'id' | 'scope'>): SnapshotLimit => ({
  subject: null,
  metric: 'requests',
  window: 'day',
  mode: 'hard',
  amount: 10,
  amount_until: null,
  ...fields,
});
const rule = (
  action: SnapshotRule['action'],
  kind: SnapshotRule['subject_kind'],
  subject: string,
  expires: number | null = null,
): SnapshotRule => ({
  action,
  subject_kind: kind,
  subject,
  expires_at: expires === null ? null : at(expires),
});

let lumi: FakeLumi;
const clients: Lumi[] = [];
const problems: string[] = [];

const connect = (options: Partial<LumiOptions> = {}) => {
  const client = createLumi({
    url: lumi.url,
    apiKey: 'lumi_test',
    onError: (error) => problems.push(error.message),
    limits: {},
    ...options,
  });
  clients.push(client);
  return client;
};

/** A started client with the copy loaded. */
async function ready(options: Partial<LumiOptions> = {}) {
  const bot = connect(options).start();
  expect(await bot.limits.load()).toBe(true);
  return bot;
}

const requestsTo = (path: string) => lumi.requests.filter((r) => r.path === path);
const fakeClock = () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(T0);
};

beforeEach(async () => {
  lumi = await FakeLumi.start();
  problems.length = 0;
});

afterEach(async () => {
  vi.useRealTimers();
  for (const client of clients.splice(0)) await client.close(0);
  await lumi.close();
});

describe('lumi.allow(): the decision', () => {
  it('denies a banned chat or user until the ban expires, and admits an allowlisted one (a ban wins)', async () => {
    fakeClock();
    lumi.limits.limits = [limit({ id: 1, scope: 'each_user', amount: 1 })];
    lumi.limits.rules = [
      rule('ban', 'chat', '-100', 90),
      rule('ban', 'user', '666'),
      rule('allow', 'chat', '-200'),
      rule('allow', 'user', '7', 60),
    ];
    const bot = await ready();

    expect(bot.allow({ chatId: -100, userId: 1 })).toEqual({
      allowed: false,
      reason: 'banned',
      limit: null,
      remaining: null,
      retry_after_seconds: 90,
    });
    expect(bot.allow({ chatId: -200, userId: 666 })).toMatchObject({
      allowed: false,
      reason: 'banned',
      retry_after_seconds: null,
    });
    expect(bot.allow({ chatId: '-200', userId: 2 })).toEqual({
      allowed: true,
      reason: 'allowlisted',
      limit: null,
      remaining: null,
      retry_after_seconds: null,
    });
    // Allowlisted: the each-user limit of 1 does not apply.
    expect([1, 2, 3].map(() => bot.allow({ userId: 7 }).reason)).toEqual(Array(3).fill('allowlisted'));

    await vi.advanceTimersByTimeAsync(61_000);
    expect(bot.allow({ userId: 7 })).toMatchObject({ allowed: true, reason: 'within_limits' });
    expect(bot.allow({ userId: 7 })).toMatchObject({ allowed: false, reason: 'limit_reached' });
    expect(bot.allow({ chatId: -100, userId: 1 }).reason).toBe('banned');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(bot.allow({ chatId: -100, userId: 1 })).toMatchObject({ allowed: true, reason: 'within_limits' });
  });

  it('applies a chat’s own limit instead of the each-chat default of the same metric and window, and only limits of the subjects named', async () => {
    fakeClock();
    lumi.limits.limits = [
      limit({ id: 1, scope: 'each_chat', metric: 'requests', amount: 5 }),
      limit({ id: 2, scope: 'each_chat', metric: 'cost_usd', amount: 1 }),
      limit({ id: 3, scope: 'chat', subject: '-100', metric: 'requests', amount: 100 }),
      limit({ id: 4, scope: 'feature', subject: 'summary', metric: 'tokens', window: 'hour', amount: 1000 }),
      limit({ id: 5, scope: 'user', subject: '42', metric: 'cost_usd', window: 'month', mode: 'soft' }),
    ];
    lumi.usage.set('3|-100', 50).set('2|-100', 2).set('1|-300', 5).set('5|42', 12);
    const bot = await ready();
    // The first checks count before their usage arrives; then the copy has it.
    bot.allow({ chatId: -100 });
    bot.allow({ chatId: -300 });
    bot.allow({ userId: 42 });
    await bot.limits.load();

    const endOfDay = Math.ceil((Date.parse('2026-03-11T00:00:00Z') - T0) / 1000);
    expect(bot.allow({ chatId: -100 })).toEqual({
      allowed: false,
      reason: 'limit_reached',
      limit: {
        id: 2,
        scope: 'each_chat',
        subject: '-100',
        metric: 'cost_usd',
        window: 'day',
        mode: 'hard',
        amount: 1,
        used: 2,
      },
      remaining: 0,
      retry_after_seconds: endOfDay,
    });
    // -300 has no limit of its own: the default of 5 requests applies (5 reported + 1 counted here).
    expect(bot.allow({ chatId: -300 })).toMatchObject({ reason: 'limit_reached', limit: { id: 1, used: 6 } });
    expect(bot.allow({ chatId: -500 })).toEqual({
      allowed: true,
      reason: 'within_limits',
      limit: {
        id: 1,
        scope: 'each_chat',
        subject: '-500',
        metric: 'requests',
        window: 'day',
        mode: 'hard',
        amount: 5,
        used: 1,
      },
      remaining: 4,
      retry_after_seconds: null,
    });
    expect(bot.allow({ feature: 'reply' }).reason).toBe('no_limits');
    expect(bot.allow({ feature: ' summary\n' })).toMatchObject({
      reason: 'within_limits',
      limit: { id: 4, subject: 'summary', used: 0 },
    });
    expect(bot.allow({ chatId: -600, userId: 42 })).toMatchObject({
      allowed: true,
      reason: 'over_soft_limit',
      limit: { id: 5, scope: 'user', subject: '42', mode: 'soft', used: 12 },
      remaining: 0,
    });
  });

  it('lets a hard limit deny and a soft one only flag, and names the limit closest to its amount', async () => {
    lumi.limits.limits = [
      limit({ id: 1, scope: 'chat', subject: '-100', window: 'hour', mode: 'soft', amount: 5 }),
      limit({ id: 2, scope: 'chat', subject: '-100', metric: 'cost_usd', amount: 10 }),
      limit({ id: 3, scope: 'user', subject: '7', metric: 'tokens', window: 'month', amount: 1000 }),
      limit({ id: 4, scope: 'chat', subject: '-200', window: 'hour', amount: 10 }),
      limit({ id: 5, scope: 'chat', subject: '-200', metric: 'cost_usd', window: 'hour', amount: 1 }),
    ];
    lumi.usage.set('1|-100', 7).set('2|-100', 3).set('3|7', 900).set('4|-200', 2).set('5|-200', 0.75);
    const bot = await ready();
    bot.allow({ chatId: -100, userId: 7 });
    bot.allow({ chatId: -200 });
    await bot.limits.load();

    expect(bot.allow({ chatId: -100, userId: 7 })).toMatchObject({
      allowed: true,
      reason: 'over_soft_limit',
      limit: { id: 1, mode: 'soft', amount: 5, used: 9 },
      remaining: 0,
    });
    // Within: 4 of 10 requests (0.4) and $0.75 of $1 (0.75): the cost limit is the closer.
    expect(bot.allow({ chatId: -200 })).toMatchObject({
      reason: 'within_limits',
      limit: { id: 5, metric: 'cost_usd', used: 0.75 },
      remaining: 0.25,
    });

    lumi.usage.set('2|-100', 10);
    await bot.limits.load();
    expect(bot.allow({ chatId: -100, userId: 7 })).toMatchObject({
      allowed: false,
      reason: 'limit_reached',
      limit: { id: 2, mode: 'hard', metric: 'cost_usd', amount: 10, used: 10 },
      remaining: 0,
    });
    // Several used up: cost or tokens before requests, then the window that ends last (the longest wait).
    lumi.usage.set('4|-200', 10).set('5|-200', 1);
    await bot.limits.load();
    expect(bot.allow({ chatId: -200 })).toMatchObject({
      allowed: false,
      limit: { id: 5, metric: 'cost_usd' },
    });
    lumi.usage.set('3|7', 1000);
    await bot.limits.load();
    expect(bot.allow({ chatId: -100, userId: 7 })).toMatchObject({ limit: { id: 3, window: 'month' } });
  });

  it('binds request limits between syncs: with 10 left, exactly 10 of 50 checks are allowed', async () => {
    lumi.limits.limits = [limit({ id: 1, scope: 'chat', subject: '-100', window: 'hour', amount: 30 })];
    lumi.usage.set('1|-100', 19);
    const bot = await ready();
    expect(bot.allow({ chatId: -100 })).toMatchObject({ allowed: true, remaining: 29 });
    await bot.limits.load();
    // 19 reported plus the check above: 10 left.
    const answers = Array.from({ length: 50 }, () => bot.allow({ chatId: -100 }));
    expect(answers.filter((a) => a.allowed)).toHaveLength(10);
    expect(answers[9]).toMatchObject({ allowed: true, remaining: 0, limit: { used: 30 } });
    expect(answers[10]).toMatchObject({ allowed: false, reason: 'limit_reached', limit: { used: 30 } });

    // Lumi has not had the reports of those calls yet: what was admitted here still counts.
    await bot.limits.load();
    expect(bot.allow({ chatId: -100 })).toMatchObject({ allowed: false, limit: { used: 30 } });
    // Another process's calls: Lumi's figure is higher, and wins.
    lumi.usage.set('1|-100', 34);
    await bot.limits.load();
    expect(bot.allow({ chatId: -100 })).toMatchObject({ allowed: false, limit: { used: 34 } });
  });

  it('starts a window again from 0 when it ends, on its own while Lumi cannot be reached', async () => {
    fakeClock();
    lumi.limits.limits = [limit({ id: 1, scope: 'chat', subject: '-100', window: 'minute', amount: 3 })];
    lumi.usage.set('1|-100', 1);
    const bot = await ready();
    bot.allow({ chatId: -100 });
    await bot.limits.load();
    expect(bot.allow({ chatId: -100 })).toMatchObject({ allowed: true, remaining: 0 });
    expect(bot.allow({ chatId: -100 })).toMatchObject({ allowed: false, retry_after_seconds: 30 });

    lumi.offline = true;
    await vi.advanceTimersByTimeAsync(29_000);
    expect(bot.allow({ chatId: -100 })).toMatchObject({ allowed: false, retry_after_seconds: 1 });
    await vi.advanceTimersByTimeAsync(1_000);
    const answers = [1, 2, 3, 4].map(() => bot.allow({ chatId: -100 }));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false]);
    expect(answers[3]).toMatchObject({ limit: { used: 3 }, retry_after_seconds: 60 });
  });

  it('takes the chat, user and feature from the current context', async () => {
    lumi.limits.rules = [rule('ban', 'user', '7')];
    const bot = await ready();
    expect(bot.withContext({ chatId: -100, userId: 7 }, () => bot.allow()).reason).toBe('banned');
    expect(bot.withContext({ chatId: -100, userId: 7 }, () => bot.allow({ userId: 8 })).reason).toBe(
      'no_limits',
    );
  });
});

describe('lumi.allow(): keeping the copy in step', () => {
  it('answers as onUnavailable says before the first copy and once it is stale, and decides again when Lumi is back', async () => {
    fakeClock();
    lumi.offline = true;
    const open = connect().start();
    const closed = connect({ limits: { onUnavailable: 'closed' } }).start();
    expect(open.allow({ chatId: -100 })).toEqual({
      allowed: true,
      reason: 'unavailable',
      limit: null,
      remaining: null,
      retry_after_seconds: null,
    });
    expect(closed.allow({ chatId: -100 })).toMatchObject({ allowed: false, reason: 'unavailable' });
    const told = /^GET \/api\/bot\/limits: Lumi could not be reached/;
    await until(() => problems.some((problem) => told.test(problem)), 'the failure told');

    lumi.offline = false;
    lumi.limits.rules = [rule('ban', 'chat', '-100')];
    await vi.advanceTimersByTimeAsync(30_000);
    await until(() => closed.limits.stats().fresh && open.limits.stats().fresh, 'the copies');
    expect(closed.allow({ chatId: -100 }).reason).toBe('banned');
    expect(open.allow({ chatId: -101 }).reason).toBe('no_limits');

    lumi.offline = true;
    // Each copy is stale 120 s after it arrived (a request may end while the fake clock runs).
    const staleAt = (bot: Lumi) => bot.limits.stats().fetchedAt!.getTime() + 120_000;
    await vi.advanceTimersByTimeAsync(staleAt(closed) - Date.now());
    expect(closed.allow({ chatId: -101 })).toMatchObject({ allowed: true, reason: 'no_limits' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(closed.limits.stats().fresh).toBe(false);
    expect(closed.allow({ chatId: -101 })).toMatchObject({ allowed: false, reason: 'unavailable' });
    await vi.advanceTimersByTimeAsync(Math.max(0, staleAt(open) + 1_000 - Date.now()));
    expect(open.allow({ chatId: -100 })).toMatchObject({ allowed: true, reason: 'unavailable' });
  });

  it('asks Lumi for the exact decision with allowance(), and answers unavailable while Lumi cannot be reached', async () => {
    const bot = connect({ limits: { onUnavailable: 'closed' } });
    lumi.allowance = { ...lumi.allowance, reason: 'within_limits' };
    const answer = await bot.withContext({ chatId: -100, userId: 7, feature: 'reply' }, () =>
      bot.allowance(),
    );
    expect(answer.reason).toBe('within_limits');
    expect(requestsTo('/api/bot/allowance')[0]!.body).toEqual({
      chat_id: '-100',
      user_id: '7',
      feature: 'reply',
    });

    lumi.reply('/api/bot/allowance', { status: 403, body: { detail: 'The key lacks allowance:read' } });
    await expect(bot.allowance({ chatId: -100 })).rejects.toThrow(LumiError);
    lumi.offline = true;
    expect(await bot.allowance({ chatId: -100 })).toMatchObject({ allowed: false, reason: 'unavailable' });
  });

  it('reads the limits at start() only when `limits` is set, else on the first check; and again when a raise ends', async () => {
    fakeClock();
    const lazy = connect({ limits: undefined }).start();
    await lazy.flush();
    expect(requestsTo('/api/bot/limits')).toHaveLength(0);
    expect(lazy.allow().reason).toBe('unavailable');
    await until(() => lazy.limits.stats().fresh, 'the copy');

    lumi.limits.limits = [limit({ id: 1, scope: 'feature', subject: 'reply', amount_until: at(5) })];
    await ready();
    const before = requestsTo('/api/bot/limits').length;
    await vi.advanceTimersByTimeAsync(6_000);
    await until(() => requestsTo('/api/bot/limits').length > before, 'the limits read again');
  });

  it('reads the usage of new subjects in one request per 500, and remembers at most maxSubjects', async () => {
    lumi.limits.limits = [
      limit({ id: 1, scope: 'each_chat', amount: 1000 }),
      limit({ id: 2, scope: 'feature', subject: 'reply' }),
    ];
    const bot = await ready({ limits: { maxSubjects: 1200 } });
    for (let i = 1; i <= 1200; i += 1) bot.allow({ chatId: -i, userId: i });
    await bot.limits.load();
    const asked = requestsTo('/api/bot/allowance/usage').map(
      (r) => (r.body as { chat_ids?: string[] }).chat_ids,
    );
    expect(asked[0]).toHaveLength(500);
    expect(Math.max(...asked.map((ids) => ids?.length ?? 0))).toBe(500);
    expect(new Set(asked.flatMap((ids) => ids ?? [])).size).toBe(1200);
    // Users have no limits here: none is remembered.
    expect(bot.limits.stats().subjects).toBe(1200);

    const small = await ready({ limits: { maxSubjects: 100 } });
    for (let i = 1; i <= 1000; i += 1) small.allow({ chatId: -i, feature: 'reply' });
    expect(small.limits.stats().subjects).toBe(101);
  });

  it('forgets the subjects not checked for forgetAfterMs', async () => {
    fakeClock();
    lumi.limits.limits = [limit({ id: 1, scope: 'each_user', amount: 1000 })];
    const bot = await ready({ limits: { forgetAfterMs: 60_000 } });
    for (let i = 1; i <= 50; i += 1) bot.allow({ userId: i });
    await vi.advanceTimersByTimeAsync(30_000);
    bot.allow({ userId: 1 });
    expect(bot.limits.stats().subjects).toBe(50);
    await vi.advanceTimersByTimeAsync(35_000);
    expect(bot.limits.stats().subjects).toBe(1);
  });
});
