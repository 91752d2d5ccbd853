import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLumi, type LocalAllowance, type Lumi } from '../src/index.js';
import { dialects, LumiServer } from './lumi-server.js';

/**
 * The local check against the real server: limits, bans and allowlist entries made through the operators'
 * API, then the same checks made locally (`lumi.allow()`) on one chat and exactly (`lumi.allowance()`,
 * `POST /api/bot/allowance`) on its twin, which has the same limits: the answers must be the same.
 */

describe.each(dialects)('lumi.allow() against the real server on %s', (dialect) => {
  let server: LumiServer;
  let bot: Lumi;
  const problems: string[] = [];

  const limit = (body: Record<string, unknown>) =>
    server.admin('POST', '/api/limits', { mode: 'hard', window: 'hour', metric: 'requests', ...body });

  beforeAll(async () => {
    server = await LumiServer.start(dialect);
    const key = await server.admin<{ key: string }>('POST', '/api/admin/api-keys', {
      name: 'sdk-limits',
      scopes: ['ingest:write', 'allowance:read'],
    });
    await limit({ scope: 'each_chat', amount: 3 });
    for (const chat of ['-1001', '-1002']) await limit({ scope: 'chat', subject: chat, amount: 5 });
    for (const chat of ['-4001', '-4002']) {
      await limit({ scope: 'chat', subject: chat, metric: 'cost_usd', window: 'day', amount: 1 });
    }
    for (const feature of ['soft-a', 'soft-b']) {
      await limit({ scope: 'feature', subject: feature, amount: 2, mode: 'soft' });
    }
    await server.admin('POST', '/api/limits/access-rules', {
      action: 'ban',
      subject_kind: 'user',
      subject: '666',
      reason: 'Abuse',
    });
    await server.admin('POST', '/api/limits/access-rules', {
      action: 'allow',
      subject_kind: 'user',
      subject: '7',
      reason: 'Our team',
    });
    bot = createLumi({
      url: server.url,
      apiKey: key.key,
      limits: {},
      onError: (e) => problems.push(e.message),
    });
    expect(await bot.limits.load()).toBe(true);
  });

  afterAll(async () => {
    await bot?.close(0);
    await server?.stop();
  });

  /**
   * The answer with the limit named as in `twin`'s (the twins' own limits have their own ids), and its wait
   * left out (compared apart, to the second).
   */
  const as = (answer: LocalAllowance, twin: LocalAllowance) => ({
    ...answer,
    limit: answer.limit && { ...answer.limit, id: twin.limit?.id, subject: twin.limit?.subject },
    retry_after_seconds: null,
  });

  async function twins(
    local: Parameters<Lumi['allow']>[0],
    exact: Parameters<Lumi['allow']>[0],
    times: number,
  ) {
    const mine: LocalAllowance[] = [];
    const lumis: LocalAllowance[] = [];
    for (let i = 0; i < times; i += 1) {
      mine.push(bot.allow(local));
      lumis.push(await bot.allowance(exact));
    }
    expect(mine.map((answer, i) => as(answer, lumis[i]!))).toEqual(lumis.map((answer) => as(answer, answer)));
    mine.forEach((answer, i) => {
      const wait = lumis[i]!.retry_after_seconds;
      if (wait === null) expect(answer.retry_after_seconds).toBeNull();
      else expect(Math.abs(answer.retry_after_seconds! - wait)).toBeLessThanOrEqual(1);
    });
    return lumis;
  }

  it('decides a chat’s own limit, the each-chat default and a soft feature limit as Lumi does', async () => {
    const own = await twins({ chatId: -1001 }, { chatId: -1002 }, 7);
    expect(own.map((a) => a.allowed)).toEqual([true, true, true, true, true, false, false]);
    const defaults = await twins({ chatId: -2001 }, { chatId: -2002 }, 5);
    expect(defaults.map((a) => a.reason)).toEqual([
      'within_limits',
      'within_limits',
      'within_limits',
      'limit_reached',
      'limit_reached',
    ]);
    const soft = await twins({ feature: 'soft-a' }, { feature: 'soft-b' }, 4);
    expect(soft.map((a) => a.reason)).toEqual([
      'within_limits',
      'within_limits',
      'over_soft_limit',
      'over_soft_limit',
    ]);
  });

  it('reads the cost the bot reported, as Lumi counts it', async () => {
    await twins({ chatId: -4001 }, { chatId: -4002 }, 1);
    for (const chatId of [-4001, -4002, -4001, -4002]) {
      bot.llmCall({
        provider: 'openai',
        model: 'gpt-4o-mini',
        inputTokens: 100,
        outputTokens: 20,
        latencyMs: 300,
        costUsd: 0.6,
        chatId,
      });
    }
    expect(await bot.flush(20_000)).toBe(0);
    await bot.limits.load();
    const [spent] = await twins({ chatId: -4001 }, { chatId: -4002 }, 1);
    expect(spent).toMatchObject({
      allowed: false,
      reason: 'limit_reached',
      limit: { metric: 'cost_usd', used: 1.2 },
    });
  });

  it('decides bans and allowlist entries as Lumi does', async () => {
    const banned = await twins({ chatId: -3001, userId: 666 }, { chatId: -3002, userId: 666 }, 1);
    expect(banned[0]).toMatchObject({ allowed: false, reason: 'banned', retry_after_seconds: null });
    const listed = await twins({ chatId: -3001, userId: 7 }, { chatId: -3002, userId: 7 }, 4);
    expect(listed.map((a) => a.reason)).toEqual(Array(4).fill('allowlisted'));
    expect(problems).toEqual([]);
  });
});
