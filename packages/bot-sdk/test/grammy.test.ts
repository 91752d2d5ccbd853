import { FakeBotApi } from '@lumi/test-support/fake-bot-api';
import { Bot, BotError, type Context } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIStandIn, type OpenAIStandIn } from '../../../examples/grammy-bot/stand-ins/openai.js';
import {
  createLumi,
  type LocalAllowance,
  type Lumi,
  type LumiFlavor,
  type TelemetryEvent,
} from '../src/index.js';
import { FakeLumi } from './fake-lumi.js';

/**
 * The grammY plugin in a real grammY bot: updates go in through `bot.handleUpdate` (as a webhook or
 * polling would hand them over) and the bot's Bot API calls go to the shared stand-in of the Bot API.
 */

type MyContext = Context & LumiFlavor<Lumi>;

const botInfo: UserFromGetMe = {
  id: 999,
  is_bot: true,
  first_name: 'Lumi test bot',
  username: 'lumi_test_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
} as UserFromGetMe;

let lumi: FakeLumi;
let botApi: FakeBotApi;
let llm: OpenAIStandIn;
let client: Lumi;
let bot: Bot<MyContext>;
let updateId = 0;

const chat = { id: -100200300, type: 'supergroup' as const, title: 'Test group' };
const alice = { id: 4242, is_bot: false, first_name: 'Alice' };

const message = (text: string): Update => ({
  update_id: (updateId += 1),
  message: {
    message_id: 500 + updateId,
    date: 1_700_000_000,
    chat,
    from: alice,
    text,
    ...(text.startsWith('/') && {
      entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }],
    }),
  },
});

const reaction = (messageId: number, emoji: '👍' | '👎', before: Array<'👍' | '👎'> = []): Update => ({
  update_id: (updateId += 1),
  message_reaction: {
    chat,
    message_id: messageId,
    user: alice,
    date: 1_700_000_000,
    old_reaction: before.map((e) => ({ type: 'emoji', emoji: e })),
    new_reaction: [{ type: 'emoji', emoji }],
  },
});

async function events<T extends TelemetryEvent['type']>(type: T) {
  await client.flush();
  return lumi.stored.filter((e): e is Extract<TelemetryEvent, { type: T }> => e.type === type);
}

beforeAll(async () => {
  [lumi, botApi, llm] = await Promise.all([FakeLumi.start(), FakeBotApi.start(), startOpenAIStandIn()]);
  client = createLumi({ url: lumi.url, apiKey: 'lumi_test', onError: () => undefined });
  const openai = client.openai(new OpenAI({ apiKey: 'sk-test', baseURL: llm.url, maxRetries: 0 }));
  bot = new Bot<MyContext>('123:test-token', { botInfo, client: { apiRoot: botApi.url } });
  bot.use(
    client.grammy({
      feature: (ctx) => (ctx.message?.text?.startsWith('/') ? 'command' : undefined),
    }),
  );
  bot.command('boom', () => {
    throw new Error('handler failed');
  });
  bot.on('message:text', async (ctx) => {
    ctx.lumi.setFeature('reply');
    // A little later, deeper in awaits: the context still holds.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const completion = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: ctx.message.text }],
    });
    await ctx.reply(completion.choices[0]!.message.content ?? '');
  });
  bot.catch(() => undefined);
});

afterAll(async () => {
  await client.close(0);
  await Promise.all([lumi.close(), botApi.close(), llm.close()]);
});

afterEach(() => {
  lumi.stored.length = 0;
});

describe('lumi.grammy()', () => {
  it('reports each update with its latency, chat and user, and LLM calls inside with the chat, user and feature', async () => {
    await bot.handleUpdate(message('What is up?'));
    expect(botApi.messages().at(-1)!.text).toMatch(/What is up\?/);

    const [update] = await events('integration_call');
    expect(update).toMatchObject({
      service_name: 'telegram_updates',
      status: 'success',
      chat_id: String(chat.id),
      user_id: String(alice.id),
      update_type: 'message',
    });
    expect(update!.latency_ms).toBeGreaterThanOrEqual(5);
    const [call] = await events('llm_call');
    expect(call).toMatchObject({ chat_id: String(chat.id), user_id: String(alice.id), feature: 'reply' });
  });

  it('reports a handler’s error with the update’s chat and user, and passes it on to grammY', async () => {
    // grammY wraps it in a BotError for bot.catch (polling) or the webhook adapter.
    const caught = await bot.handleUpdate(message('/boom')).catch((error: BotError) => error);
    expect(caught).toBeInstanceOf(BotError);
    expect((caught as BotError).error).toEqual(expect.objectContaining({ message: 'handler failed' }));
    const [error] = await events('error');
    expect(error).toMatchObject({
      source: 'grammy',
      chat_id: String(chat.id),
      user_id: String(alice.id),
      feature: 'command',
      error_type: 'Error',
    });
    expect(error!.message).toMatch(/^Error: handler failed/);
    const [update] = await events('integration_call');
    expect(update).toMatchObject({ status: 'error', error: 'handler failed' });
  });

  it('turns reactions to the bot’s own messages into feedback, with the feature it was written for', async () => {
    await bot.handleUpdate(message('Rate me'));
    const reply = botApi.requests.at(-1)!;
    expect(reply.method).toBe('sendMessage');
    const replyId = 1000 + botApi.accepted.length;

    await bot.handleUpdate(reaction(replyId, '👍'));
    await bot.handleUpdate(reaction(replyId, '👎', ['👍']));
    // A reaction to someone else's message is not feedback on the bot.
    await bot.handleUpdate(reaction(1, '👍'));
    const feedback = await events('feedback');
    expect(feedback).toEqual([
      expect.objectContaining({
        type: 'feedback',
        chat_id: String(chat.id),
        message_id: replyId,
        user_id: String(alice.id),
        reaction: '👍',
        feature: 'reply',
      }),
      expect.objectContaining({ message_id: replyId, reaction: '👎' }),
    ]);
  });

  it('puts the client on ctx.lumi', async () => {
    let seen: unknown;
    const other = new Bot<MyContext>('123:test-token', { botInfo, client: { apiRoot: botApi.url } });
    other.use(client.grammy());
    other.on('message', (ctx) => {
      seen = ctx.lumi.context();
    });
    await other.handleUpdate(message('hi'));
    expect(seen).toEqual({ chatId: chat.id, userId: alice.id });
  });

  it('checks lumi.allow() before the handlers with `allowance`, and ctx.lumi.allow() reads the update’s chat and user', async () => {
    lumi.limits = {
      limits: [
        {
          id: 1,
          scope: 'chat',
          subject: String(chat.id),
          metric: 'requests',
          window: 'day',
          mode: 'hard',
          amount: 1,
          amount_until: null,
        },
      ],
      rules: [{ action: 'ban', subject_kind: 'user', subject: String(alice.id), expires_at: null }],
      timezone: 'UTC',
    };
    const limited = createLumi({ url: lumi.url, apiKey: 'lumi_test', onError: () => undefined, limits: {} });
    try {
      await limited.limits.load();
      const denied: LocalAllowance[] = [];
      const inside: LocalAllowance[] = [];
      const gated = new Bot<MyContext>('123:test-token', { botInfo, client: { apiRoot: botApi.url } });
      gated.use(
        limited.grammy({
          allowance: {
            when: (ctx) => ctx.has('message:text'),
            onDenied: (_ctx, allowance) => void denied.push(allowance),
          },
        }),
      );
      gated.on('message:text', (ctx) => void inside.push(ctx.lumi.allow({ feature: 'reply' })));

      await gated.handleUpdate(message('hi'));
      expect(denied.map((a) => a.reason)).toEqual(['banned']);
      expect(inside).toEqual([]);

      lumi.limits.rules = [];
      await limited.limits.load();
      // The plugin's check takes the one request the chat has; the handler's own check finds none left.
      await gated.handleUpdate(message('hi again'));
      expect(inside).toEqual([
        expect.objectContaining({
          allowed: false,
          reason: 'limit_reached',
          limit: expect.objectContaining({ subject: String(chat.id) }),
        }),
      ]);
      await gated.handleUpdate(message('and again'));
      expect(denied.map((a) => a.reason)).toEqual(['banned', 'limit_reached']);
    } finally {
      await limited.close(0);
    }
  });
});
