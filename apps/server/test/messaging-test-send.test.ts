import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditListResponse, Channel, TestSendRecord, TestSendResult } from '@lumi/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TelegramSettings } from '../src/modules/messaging/telegram/telegram-client.js';
import { badRequest, FakeBotApi, tooManyRequests } from '@lumi/test-support/fake-bot-api';
import { createTestApp, dialects, expectError, type Session, type TestApp } from './helper.js';
import { createChannel, createTemplate, createTopic, MESSAGING } from './messaging-helper.js';

const TOKEN = '123456789:AAE-secret_token-value';
const DATA = { token_name: 'Pepe', price_usd: 0.00001234 };
const TEXT = '<b>Pepe</b> is at $0.00001234';
const CHAT_ID = '-1001234567890';

describe.each(dialects)('Telegram test sends on %s', (dialect) => {
  let bot: FakeBotApi;
  let t: TestApp;
  let admin: Session;
  /** What the client was asked to wait, instead of waiting. */
  const waits: number[] = [];
  /** Every answer of the API in a test, to show the token is in none. */
  const bodies: string[] = [];

  const settings = (overrides: Partial<TelegramSettings> = {}): TelegramSettings => ({
    botToken: TOKEN,
    apiBaseUrl: bot.url,
    timeoutMs: 300,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...overrides,
  });
  const start = async (overrides: Partial<TelegramSettings> = {}) => {
    await t?.close();
    t = await createTestApp({ dialect, app: { telegram: settings(overrides) } });
    admin = await t.loginAdmin();
  };

  beforeAll(async () => {
    bot = await FakeBotApi.start();
  });
  afterAll(async () => {
    await bot.close();
  });
  beforeEach(async () => {
    bot.reset();
    waits.length = 0;
    bodies.length = 0;
    await start();
  });
  afterEach(async () => {
    for (const body of bodies) expect(body).not.toContain(TOKEN);
    await t?.close();
  });

  const send = async (templateId: number, payload: object = { data: DATA }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${MESSAGING}/templates/${templateId}/test`,
      headers: admin.auth,
      payload,
    });
    bodies.push(res.body);
    return res;
  };
  const sent = async (templateId: number, payload?: object) => {
    const res = await send(templateId, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TestSendResult>();
  };
  const history = async (templateId: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${MESSAGING}/templates/${templateId}/test-history`,
      headers: admin.auth,
    });
    bodies.push(res.body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TestSendRecord[]>();
  };
  /** A template on the test's one channel (a chat has one channel), made on first use. */
  const setup = async (template: object = {}) => {
    const channel =
      (await t.app.inject({ method: 'GET', url: `${MESSAGING}/channels`, headers: admin.auth }))
        .json<Channel[]>()
        .find((c) => c.chat_id === CHAT_ID) ?? (await createChannel(t, admin, { chat_id: CHAT_ID }));
    return createTemplate(t, admin, { channel_id: channel.id, ...template });
  };

  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])(
    'calls sendMessage with disable_web_preview %s and disable_notification %s',
    async (disableWebPreview, disableNotification) => {
      const template = await setup({
        disable_web_preview: disableWebPreview,
        disable_notification: disableNotification,
      });
      expect(await sent(template.id)).toEqual({ success: true, telegram_message_id: 1001, pinned: false });
      expect(bot.requests).toEqual([
        {
          token: TOKEN,
          method: 'sendMessage',
          body: {
            chat_id: -1001234567890,
            text: TEXT,
            parse_mode: 'HTML',
            link_preview_options: { is_disabled: disableWebPreview },
            disable_notification: disableNotification,
          },
        },
      ]);
    },
  );

  it('sends the parse mode of the template and an @username chat id as text', async () => {
    const channel = await createChannel(t, admin, { chat_id: '@lumi_alerts' });
    const template = await createTemplate(t, admin, {
      channel_id: channel.id,
      parse_mode: 'MarkdownV2',
      template_content: '*{{token_name}}* at {{formatCurrency price_usd}}',
    });
    await sent(template.id);
    expect(bot.requests[0]?.body).toMatchObject({
      chat_id: '@lumi_alerts',
      parse_mode: 'MarkdownV2',
      text: '*Pepe* at $0\\.00001234',
    });
  });

  it("routes to the template's topic, or to the thread and channel the test names", async () => {
    const channel = await createChannel(t, admin, { chat_id: CHAT_ID });
    const topic = await createTopic(t, admin, channel.id, { message_thread_id: 77 });
    const other = await createChannel(t, admin, { chat_id: '-1009999' });
    const template = await createTemplate(t, admin, { channel_id: channel.id, topic_id: topic.id });

    await sent(template.id);
    await sent(template.id, { data: DATA, test_thread_id: 12 });
    await sent(template.id, { data: DATA, test_channel_id: other.id });
    await sent(template.id, { data: DATA, test_channel_id: other.id, test_thread_id: 5 });
    expect(bot.requests.map((r) => [r.body.chat_id, r.body.message_thread_id])).toEqual([
      [-1001234567890, 77],
      [-1001234567890, 12],
      [-1009999, undefined],
      [-1009999, 5],
    ]);

    const records = await history(template.id);
    expect(records.map((r) => [r.channel_id, r.topic_id, r.message_thread_id])).toEqual([
      [other.id, null, 5],
      [other.id, null, null],
      [channel.id, null, 12],
      [channel.id, topic.id, 77],
    ]);

    const unknown = expectError(await send(template.id, { data: DATA, test_channel_id: 999_999 }), 422);
    expect(unknown.errors).toEqual([{ path: 'test_channel_id', message: 'There is no channel 999999' }]);
  });

  it('pins the message with Pin by Default, and only then', async () => {
    const pinned = await setup({ allow_pinning: true, pin_by_default: true, disable_notification: true });
    expect(await sent(pinned.id)).toEqual({ success: true, telegram_message_id: 1001, pinned: true });
    expect(bot.requests[1]).toEqual({
      token: TOKEN,
      method: 'pinChatMessage',
      body: { chat_id: -1001234567890, message_id: 1001, disable_notification: true },
    });

    bot.reset();
    const allowedOnly = await setup({ allow_pinning: true });
    await sent(allowedOnly.id);
    expect(bot.methods()).toEqual(['sendMessage']);
  });

  it('reports a pin Telegram refuses, with the message sent', async () => {
    const template = await setup({ allow_pinning: true, pin_by_default: true });
    bot.respond({
      status: 200,
      body: { ok: true, result: { message_id: 55, date: 0, chat: { id: 1, type: 'group' } } },
    });
    bot.respond(badRequest('Bad Request: not enough rights to manage pinned messages in the chat'));
    expect(await sent(template.id)).toEqual({
      success: true,
      telegram_message_id: 55,
      pinned: false,
      error:
        'Sent, but Telegram did not pin it: Bad Request: not enough rights to manage pinned messages in the chat',
    });
  });

  it('waits retry_after on 429 and tries again, at most 3 times', async () => {
    const template = await setup();
    bot.respond(tooManyRequests(1));
    expect(await sent(template.id)).toMatchObject({ success: true, telegram_message_id: 1001 });
    expect(waits).toEqual([1000]);
    expect(bot.methods()).toEqual(['sendMessage', 'sendMessage']);

    bot.reset();
    waits.length = 0;
    bot.respond(tooManyRequests(2), tooManyRequests(2), tooManyRequests(2), tooManyRequests(2));
    const failed = await sent(template.id);
    expect(failed).toMatchObject({ success: false, telegram_message_id: null });
    expect(failed.error).toContain('429 Too Many Requests, still after 3 tries');
    expect(failed.error).toContain('try again in 2 s');
    expect(waits).toEqual([2000, 2000]);
    expect(bot.requests).toHaveLength(3);
  });

  it('does not wait for a retry_after beyond its cap', async () => {
    const template = await setup();
    bot.respond(tooManyRequests(3600));
    const failed = await sent(template.id);
    expect(failed.error).toContain('try again in 3600 s');
    expect(waits).toEqual([]);
    expect(bot.requests).toHaveLength(1);
  });

  it("returns Telegram's description of a 400 as the error", async () => {
    const template = await setup();
    const description = "Bad Request: can't parse entities: Can't find end of Bold entity at byte offset 0";
    bot.respond(badRequest(description));
    expect(await sent(template.id)).toEqual({
      success: false,
      telegram_message_id: null,
      pinned: false,
      error: description,
    });
    const [record] = await history(template.id);
    expect(record).toMatchObject({ success: false, error: description, telegram_message_id: null });
  });

  it('says how to fix a token Telegram refuses, without showing it', async () => {
    const template = await setup();
    bot.respond({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    const result = await sent(template.id);
    expect(result.error).toBe('Telegram refused the bot token (Unauthorized): check TELEGRAM_BOT_TOKEN');
  });

  it('gives up after the timeout with a clear error', async () => {
    const template = await setup();
    bot.respond('hang');
    const result = await sent(template.id);
    expect(result).toMatchObject({ success: false, telegram_message_id: null });
    expect(result.error).toBe('Telegram did not answer sendMessage within 0.3 s; try again later');
  });

  it('reports a network failure and an answer that is not the Bot API', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    await start({ apiBaseUrl: `http://127.0.0.1:${port}/` });
    const template = await setup();
    const result = await sent(template.id);
    expect(result.error).toBe(
      `Could not reach Telegram at http://127.0.0.1:${port} (ECONNREFUSED); check the network and TELEGRAM_API_BASE_URL`,
    );

    await start();
    const other = await setup();
    bot.respond('garbage');
    expect((await sent(other.id)).error).toBe(
      'Telegram answered sendMessage with HTTP 502 and no Bot API response; check TELEGRAM_API_BASE_URL',
    );
  });

  it('says how to set TELEGRAM_BOT_TOKEN when there is none, and sends nothing', async () => {
    await start({ botToken: undefined });
    const template = await setup();
    const result = await sent(template.id);
    expect(result).toMatchObject({ success: false, telegram_message_id: null, pinned: false });
    expect(result.error).toContain('set TELEGRAM_BOT_TOKEN');
    expect(bot.requests).toEqual([]);
    expect((await history(template.id))[0]).toMatchObject({ success: false, error: result.error });
  });

  it('sends nothing that Telegram would refuse, and says why', async () => {
    // Saving refuses such content; a raw value can still bring markup Telegram refuses.
    const template = await setup({ template_content: '{{{token_name}}}' });
    const result = await sent(template.id, { data: { token_name: '<b>Pepe' } });
    expect(result.success).toBe(false);
    expect(result.error).toContain('Not sent: Rendered message line 1, column 1');
    expect(result.error).toContain('<b> is never closed');
    expect(bot.requests).toEqual([]);
  });

  it('records every test send, newest first, and audits it', async () => {
    const channel = await createChannel(t, admin, { channel_name: 'Alerts', chat_id: CHAT_ID });
    const topic = await createTopic(t, admin, channel.id, { message_thread_id: 9 });
    const template = await createTemplate(t, admin, { channel_id: channel.id, topic_id: topic.id });
    await sent(template.id);
    const update = await t.app.inject({
      method: 'PUT',
      url: `${MESSAGING}/templates/${template.id}`,
      headers: admin.auth,
      payload: { version: 1, template_content: 'Version two for {{token_name}}' },
    });
    expect(update.statusCode, update.body).toBe(200);
    bot.respond(badRequest('Bad Request: chat not found'));
    await sent(template.id);

    const records = await history(template.id);
    expect(records).toEqual([
      {
        id: expect.any(Number),
        template_id: template.id,
        template_version: 2,
        user: 'admin',
        channel_id: channel.id,
        channel_name: 'Alerts',
        chat_id: '-1001234567890',
        topic_id: topic.id,
        message_thread_id: 9,
        success: false,
        telegram_message_id: null,
        pinned: false,
        error: 'Bad Request: chat not found',
        sent_at: expect.any(String),
      },
      expect.objectContaining({ template_version: 1, success: true, telegram_message_id: 1001, error: null }),
    ]);
    expect(records[1]!.sent_at <= records[0]!.sent_at).toBe(true);

    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?action=template.test_sent',
      headers: admin.auth,
    });
    bodies.push(audit.body);
    const logs = audit.json<AuditListResponse>().logs;
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({
      user: 'admin',
      resource_type: 'template',
      resource_id: String(template.id),
    });
    expect(logs[0]!.new_value).toMatchObject({ success: false, error: 'Bad Request: chat not found' });
  });

  it('answers 404 for a template that does not exist', async () => {
    expectError(await send(999_999), 404, 'not_found');
    expect(bot.requests).toEqual([]);
  });
});
