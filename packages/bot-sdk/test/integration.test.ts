import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeBotApi } from '@lumi/test-support/fake-bot-api';
import { trace } from '@opentelemetry/api';
import { Bot, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIStandIn, type OpenAIStandIn } from '../../../examples/grammy-bot/stand-ins/openai.js';
import { createLumi, type BotConfig, type Lumi, type LumiFlavor, type LumiOptions } from '../src/index.js';
import { dialects, LumiServer } from './lumi-server.js';

/**
 * The SDK against the real server, over HTTP only: every event type stored and shown by the panels' own
 * endpoints, a retry after a lost answer counted once, the configuration with its ETag, deliveries that
 * reach the Bot API stand-in, spans through OTLP, and a grammY bot's updates. On SQLite always and on
 * PostgreSQL with TEST_DATABASE_URL. (Feedback events are tested against test/fake-lumi.ts only: the server
 * does not take the type yet.)
 */

const botInfo = { id: 999, is_bot: true, first_name: 'SDK bot', username: 'sdk_bot' } as UserFromGetMe;

describe.each(dialects)('against the real server on %s', (dialect) => {
  let server: LumiServer;
  let botApi: FakeBotApi;
  let llm: OpenAIStandIn;
  let apiKey: string;
  let templateId: number;
  const clients: Lumi[] = [];
  const problems: string[] = [];

  const connect = (options: Partial<LumiOptions> = {}) => {
    const client = createLumi({
      url: server.url,
      apiKey,
      onError: (e) => problems.push(e.message),
      ...options,
    });
    clients.push(client);
    return client;
  };
  const today = () => new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    [botApi, llm] = await Promise.all([FakeBotApi.start(), startOpenAIStandIn()]);
    server = await LumiServer.start(dialect, {
      TELEGRAM_BOT_TOKEN: '123456:sdk-test-token',
      TELEGRAM_API_BASE_URL: botApi.url,
    });
    const key = await server.admin<{ key: string }>('POST', '/api/admin/api-keys', {
      name: 'sdk-test',
      scopes: ['ingest:write', 'config:read', 'messages:send'],
    });
    apiKey = key.key;
    await server.admin('POST', '/api/admin/api/config/personalities', {
      name: 'Lumi',
      content: { tone: 'warm' },
      priority: 10,
    });
    const channel = await server.admin<{ id: number }>('POST', '/api/v1/messaging/channels', {
      channel_name: 'SDK test',
      chat_id: '-100777',
    });
    const template = await server.admin<{ id: number }>('POST', '/api/v1/messaging/templates', {
      template_name: 'SDK hello',
      channel_id: channel.id,
      template_content: 'Hello {{name}} from the SDK.',
    });
    templateId = template.id;
  });

  afterAll(async () => {
    for (const client of clients) await client.close(1000);
    await server?.stop();
    await Promise.all([botApi?.close(), llm?.close()]);
  });

  it('stores every event type, and the panels show them', async () => {
    const bot = connect({ telegramStatus: () => 'polling' });
    bot.start();
    bot.llmCall({
      provider: 'gemini',
      model: 'gemini-2.0-flash',
      inputTokens: 800,
      outputTokens: 150,
      latencyMs: 640,
      chatId: -1001234567890,
      userId: 42,
      feature: 'digest',
    });
    bot.integrationCall({ serviceName: 'coingecko', status: 'success', latencyMs: 85 });
    bot.cacheStats({
      hits: 30,
      misses: 10,
      entries: 120,
      avgResponseTimeCachedMs: 3,
      avgResponseTimeUncachedMs: 240,
    });
    bot.error(new Error('Feed stalled\nsecond line'), { source: 'market-feed' });
    bot.marketData({ lastCandleTime: new Date(), websocketStatus: 'connected', missingIntervals: 2 });
    expect(await bot.flush()).toBe(0);
    expect(bot.stats()).toMatchObject({ accepted: 6, rejected: 0, dropped: 0 });
    expect(problems).toEqual([]);

    const health = await server.admin<{ telegram_status: string; error_count_24h: number }>(
      'GET',
      '/api/metrics/bot-health',
    );
    expect(health).toMatchObject({ telegram_status: 'polling', error_count_24h: 1 });
    const chats = await server.admin<{ chats: Array<{ chat_id: string; tokens: number }> }>(
      'GET',
      `/api/metrics/llm/top-chats?from=${today()}T00:00:00Z`,
    );
    expect(chats.chats).toContainEqual(expect.objectContaining({ chat_id: '-1001234567890', tokens: 950 }));
    const integrations = await server.admin<{ data: Array<{ service_name: string }> }>(
      'GET',
      '/api/metrics/integrations',
    );
    expect(integrations.data.map((s) => s.service_name)).toContain('coingecko');
    expect(await server.admin('GET', '/api/metrics/cache')).toMatchObject({
      total_hits: 30,
      cache_entries: 120,
    });
    expect(await server.admin('GET', '/api/metrics/market-data')).toMatchObject({ missing_intervals: 2 });
  });

  it('sends a batch whose answer was lost again, and Lumi counts it once', async () => {
    // A proxy that lets the first batch reach Lumi but answers the bot 502, as a load balancer may.
    let lost = 0;
    const proxy: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = await fetch(`${server.url}${req.url}`, {
        method: req.method,
        headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' },
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const text = await answer.text();
      if (req.url === '/api/ingest/events' && lost++ === 0) return void res.writeHead(502).end();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const bot = connect({
      url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      queue: { minRetryDelayMs: 10 },
    });
    for (let n = 0; n < 3; n += 1) {
      bot.llmCall({
        provider: 'retry-test',
        model: 'm',
        inputTokens: 10,
        outputTokens: 1,
        latencyMs: 5,
        feature: 'retry',
      });
    }
    expect(await bot.flush()).toBe(0);
    proxy.close();
    expect(bot.stats()).toMatchObject({ retries: 1, accepted: 0, duplicates: 3 });
    const features = await server.admin<{ features: Array<{ feature: string | null; requests: number }> }>(
      'GET',
      '/api/metrics/llm/features',
    );
    expect(features.features.find((f) => f.feature === 'retry')?.requests).toBe(3);
  });

  it('reads the configuration with its ETag and sees an operator’s change', async () => {
    const statuses: number[] = [];
    const bot = connect({
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (url.endsWith('/api/bot/config')) statuses.push(response.status);
        return response;
      },
    });
    const changes: BotConfig[] = [];
    bot.config.on('change', (config) => changes.push(config));
    await bot.config.load();
    const item = bot.config.item('personalities', 'Lumi')!;
    expect(item.content).toEqual({ tone: 'warm' });
    await bot.config.load();
    expect(statuses).toEqual([200, 304]);

    await server.admin('PUT', `/api/admin/api/config/personalities/${item.id}`, {
      name: 'Lumi',
      content: { tone: 'playful' },
      priority: 10,
      version: item.version,
    });
    await bot.config.load();
    expect(statuses).toEqual([200, 304, 200]);
    expect(changes.map((c) => c.domains.personalities?.[0]?.content)).toEqual([
      { tone: 'warm' },
      { tone: 'playful' },
    ]);
  });

  it('queues deliveries that reach the Bot API, once per idempotency key', async () => {
    const bot = connect();
    const delivery = await bot.send({
      template: 'SDK hello',
      data: { name: 'Ada' },
      idempotencyKey: 'sdk-1',
    });
    expect(delivery).toMatchObject({ status: 'queued', text: 'Hello Ada from the SDK.', chat_id: '-100777' });
    const again = await bot.send({ template: templateId, data: { name: 'Ada' }, idempotencyKey: 'sdk-1' });
    expect(again.id).toBe(delivery.id);
    await botApi.messagesArrived(1);
    expect(botApi.messages()).toEqual([
      expect.objectContaining({ chat_id: '-100777', text: 'Hello Ada from the SDK.' }),
    ]);
  });

  it('exports GenAI spans through OTLP (protobuf), with the chat of their context', async () => {
    const bot = connect();
    const otel = await bot.otel({ serviceName: 'sdk-test' });
    bot.withContext({ chatId: 555, userId: 9, feature: 'otel' }, () => {
      const span = trace.getTracer('test').startSpan('chat claude', {
        attributes: {
          'gen_ai.provider.name': 'anthropic',
          'gen_ai.request.model': 'claude-3-5-haiku',
          'gen_ai.usage.input_tokens': 40,
          'gen_ai.usage.output_tokens': 8,
        },
      });
      span.end();
    });
    await otel.shutdown();
    const chats = await server.admin<{ chats: Array<{ chat_id: string; tokens: number }> }>(
      'GET',
      `/api/metrics/llm/top-chats?from=${today()}T00:00:00Z`,
    );
    expect(chats.chats).toContainEqual(expect.objectContaining({ chat_id: '555', tokens: 48 }));
  });

  it('reports a grammY bot’s updates and its LLM calls with their chat and user', async () => {
    const lumi = connect();
    const openai = lumi.openai(new OpenAI({ apiKey: 'sk-test', baseURL: llm.url, maxRetries: 0 }));
    const bot = new Bot<Context & LumiFlavor<Lumi>>('123:test', { botInfo, client: { apiRoot: botApi.url } });
    bot.use(lumi.grammy());
    bot.on('message:text', async (ctx) => {
      ctx.lumi.setFeature('reply');
      const completion = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: ctx.message.text }],
      });
      await ctx.reply(completion.choices[0]!.message.content!);
    });
    const chat = { id: -100999, type: 'group' as const, title: 'Group' };
    await bot.handleUpdate({
      update_id: 1,
      message: {
        message_id: 1,
        date: 1,
        chat,
        from: { id: 77, is_bot: false, first_name: 'Bo' },
        text: 'Hello bot',
      },
    });
    expect(await lumi.flush()).toBe(0);
    expect(lumi.stats()).toMatchObject({ accepted: 2, rejected: 0 });
    const users = await server.admin<{ users: Array<{ user_id: string }> }>(
      'GET',
      `/api/metrics/llm/top-users?from=${today()}T00:00:00Z`,
    );
    expect(users.users.map((u) => u.user_id)).toContain('77');
    const integrations = await server.admin<{ data: Array<{ service_name: string; total_calls: number }> }>(
      'GET',
      '/api/metrics/integrations',
    );
    expect(integrations.data).toContainEqual(
      expect.objectContaining({ service_name: 'telegram_updates', total_calls: 1 }),
    );
  });
});
