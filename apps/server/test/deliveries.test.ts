import type {
  ApiKeyCreated,
  AuditListResponse,
  Channel,
  Delivery,
  DeliveryBatchResponse,
  DeliveryDetail,
  DeliveryListResponse,
  Template,
} from '@lumi/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SenderSettings } from '../src/modules/messaging/deliveries/sender-settings.js';
import { RenderBusyError } from '../src/modules/messaging/rendering/render-budget.js';
import {
  badRequest,
  FakeBotApi,
  forbidden,
  serverError,
  tooManyRequests,
} from '@lumi/test-support/fake-bot-api';
import { createTestApp, dialects, expectError, type Session, type TestApp } from './helper.js';
import { createChannel, createTemplate, createTopic, MESSAGING } from './messaging-helper.js';
import { seededRandom } from '@lumi/test-support/seeded-random';

const TOKEN = '123456789:AAE-secret_token-value';
const DATA = { token_name: 'Pepe', price_usd: 0.00001234 };
const TEXT = '<b>Pepe</b> is at $0.00001234';
const START = Date.parse('2026-11-25T10:00:00.000Z');
const SECOND = 1000;

/**
 * Limits that never hold a test up, unless a test sets its own: no spacing between sends, and a chat's next
 * message may go as soon as the previous one was answered.
 */
const OPEN: Partial<SenderSettings> = {
  limits: { perSecond: 100_000, perChatGapMs: 0, perChatPerMinute: 1000 },
  baseBackoffMs: 10 * SECOND,
  maxAttempts: 3,
};

describe.each(dialects)('deliveries on %s', (dialect) => {
  let bot: FakeBotApi;
  let t: TestApp;
  let admin: Session;
  let now = START;
  let channel: Channel;
  let template: Template;

  const start = async (sender: Partial<SenderSettings> = OPEN) => {
    await t?.close();
    t = await createTestApp({
      dialect,
      app: {
        now: () => now,
        telegram: { botToken: TOKEN, apiBaseUrl: bot.url, timeoutMs: 500 },
        sender,
      },
    });
    admin = await t.loginAdmin();
    channel = await createChannel(t, admin, { chat_id: '-1001234567890' });
    template = await createTemplate(t, admin, { channel_id: channel.id });
  };

  beforeAll(async () => {
    bot = await FakeBotApi.start();
  });
  afterAll(async () => {
    await bot.close();
  });
  beforeEach(async () => {
    now = START;
    bot.reset();
    await start();
  });
  afterEach(async () => {
    await t?.close();
  });

  const post = (payload: object, auth = admin.auth) =>
    t.app.inject({ method: 'POST', url: `${MESSAGING}/deliveries`, headers: auth, payload });
  const queue = async (payload: object = {}, auth = admin.auth) => {
    const res = await post({ template_id: template.id, data: DATA, ...payload }, auth);
    expect(res.statusCode, res.body).toBe(202);
    return res.json<Delivery>();
  };
  const detail = async (id: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${MESSAGING}/deliveries/${id}`,
      headers: admin.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DeliveryDetail>();
  };
  const sendRound = () => t.app.services.messaging.sender.runOnce();
  const sends = () => bot.requests.filter((r) => r.method === 'sendMessage');

  it('queues the rendered text with every send option, and sends exactly that', async () => {
    const topic = await createTopic(t, admin, channel.id, { message_thread_id: 77 });
    const pinned = await createTemplate(t, admin, {
      channel_id: channel.id,
      topic_id: topic.id,
      disable_web_preview: true,
      disable_notification: true,
      allow_pinning: true,
      pin_by_default: true,
    });
    const queued = await queue({ template_id: pinned.id });
    expect(queued).toMatchObject({
      status: 'queued',
      source: 'user',
      requested_by: 'admin',
      template_id: pinned.id,
      template_version: 1,
      channel_id: channel.id,
      chat_id: '-1001234567890',
      topic_id: topic.id,
      topic_name: topic.topic_name,
      message_thread_id: 77,
      text: TEXT,
      parse_mode: 'HTML',
      disable_web_preview: true,
      disable_notification: true,
      pin: true,
      attempts: 0,
      next_attempt_at: new Date(START).toISOString(),
    });

    // A later edit of the template does not change what was queued.
    const edited = await t.app.inject({
      method: 'PUT',
      url: `${MESSAGING}/templates/${pinned.id}`,
      headers: admin.auth,
      payload: { version: pinned.version, template_content: 'Changed {{token_name}}' },
    });
    expect(edited.statusCode, edited.body).toBe(200);

    expect(await sendRound()).toBe(1);
    expect(bot.methods()).toEqual(['sendMessage', 'pinChatMessage']);
    expect(bot.requests[0]!.body).toEqual({
      chat_id: -1001234567890,
      text: TEXT,
      parse_mode: 'HTML',
      message_thread_id: 77,
      link_preview_options: { is_disabled: true },
      disable_notification: true,
    });
    const sent = await detail(queued.id);
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 1,
      telegram_message_id: 1001,
      pinned: true,
      error: null,
      data: DATA,
      sent_at: new Date(START).toISOString(),
    });
    expect(sent.attempt_log).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'sent', error: null, error_code: null }),
    ]);
    expect(await sendRound()).toBe(0);
  });

  it('sends a text longer than one message as consecutive parts when the template splits, else refuses it with its length', async () => {
    const paragraph = (n: number) => `${n}: ${'word '.repeat(700).trim()}`;
    const body = [1, 2, 3].map(paragraph).join('\n\n');
    const content = '<b>{{body}}</b>';
    const whole = await createTemplate(t, admin, { channel_id: channel.id, template_content: content });
    const refused = expectError(
      await post({ template_id: whole.id, data: { body } }),
      422,
      'validation_failed',
    );
    expect(refused.detail).toMatch(
      /^Not queued: The message is 10\d{3} characters .*Telegram allows at most 4096\. Turn on “Split long messages” in the template/,
    );

    const splitting = await createTemplate(t, admin, {
      channel_id: channel.id,
      template_content: content,
      split_long_messages: true,
      allow_pinning: true,
      pin_by_default: true,
    });
    const queued = await queue({ template_id: splitting.id, data: { body } });
    expect(queued).toMatchObject({ status: 'queued', parts: 3, parts_sent: 0 });

    while ((await sendRound()) > 0) now += SECOND;
    const texts = sends().map((r) => r.body as { text: string; entities: object[]; parse_mode?: string });
    expect(texts).toHaveLength(3);
    // In order, each within the limit, the whole text between them, bold reopened in each part.
    expect(texts.map((p) => p.text.trim().split(':')[0])).toEqual(['1', '2', '3']);
    expect(texts.map((p) => p.text).join('')).toBe(body);
    for (const part of texts) {
      expect(part.text.length).toBeLessThanOrEqual(4096);
      expect(part.parse_mode).toBeUndefined();
      expect(part.entities).toEqual([{ type: 'bold', offset: 0, length: part.text.length }]);
    }
    // The first part is the message: it is the one pinned.
    expect(bot.methods().at(-1)).toBe('pinChatMessage');
    expect(bot.requests.at(-1)!.body).toMatchObject({ message_id: 1001 });
    const sent = await detail(queued.id);
    expect(sent).toMatchObject({ status: 'sent', parts: 3, parts_sent: 3, telegram_message_id: 1001 });
    expect(sent.attempt_log.map((a) => [a.part, a.outcome])).toEqual([
      [1, 'sent'],
      [2, 'sent'],
      [3, 'sent'],
    ]);
  });

  it('refuses with 422 what it cannot send, and keeps each refusal as a refused delivery with its id', async () => {
    const raw = await createTemplate(t, admin, { channel_id: channel.id, template_content: '{{{html}}}' });
    const broken = expectError(
      await post({ template_id: raw.id, data: { html: '<b>never closed' } }),
      422,
      'validation_failed',
    );
    expect(broken.detail).toMatch(/^Not queued: /);
    expect(broken.delivery_id).toEqual(expect.any(Number));
    expect(await detail(broken.delivery_id!)).toMatchObject({
      status: 'refused',
      source: 'user',
      requested_by: 'admin',
      template_id: raw.id,
      channel_id: channel.id,
      text: '<b>never closed',
      error: broken.detail,
      attempts: 0,
      next_attempt_at: null,
      data: { html: '<b>never closed' },
      attempt_log: [],
    });
    const tooLong = expectError(
      await post({ template_id: raw.id, data: { html: 'x'.repeat(4097) } }),
      422,
      'validation_failed',
    );
    expect(tooLong.detail).toMatch(/4,096|4096/);
    expect(tooLong.delivery_id).toEqual(expect.any(Number));

    // The caller's own mistakes are answered and not kept: they name nothing that could be sent.
    expect(expectError(await post({ template_id: 999999 }), 422, 'validation_failed').errors).toEqual([
      { path: 'template_id', message: 'There is no message template 999999' },
    ]);
    expect(expectError(await post({ template_name: 'nope' }), 422, 'validation_failed').errors).toEqual([
      { path: 'template_name', message: "There is no message template named 'nope'" },
    ]);
    expectError(await post({ data: {} }), 422, 'validation_failed');
    expectError(
      await post({ template_id: template.id, template_name: template.template_name }),
      422,
      'validation_failed',
    );
    expectError(await post({ template_id: template.id, send_at: 'tomorrow' }), 422, 'validation_failed');
    const farAway = expectError(
      await post({ template_id: template.id, data: DATA, send_at: '2030-01-01T00:00:00Z' }),
      422,
      'validation_failed',
    );
    expect(farAway.detail).toBe('send_at may be at most 366 days ahead');
    expect(farAway.delivery_id).toBeUndefined();

    const disabled = await createChannel(t, admin, { enabled: false });
    const offChannel = expectError(
      await post({ template_id: template.id, data: DATA, channel_id: disabled.id }),
      422,
      'validation_failed',
    );
    expect(offChannel.detail).toBe(`The channel '${disabled.channel_name}' is disabled`);
    expect(offChannel.delivery_id).toEqual(expect.any(Number));
    const otherTopic = await createTopic(t, admin, disabled.id);
    expect(
      expectError(
        await post({ template_id: template.id, data: DATA, topic_id: otherTopic.id }),
        422,
        'validation_failed',
      ).delivery_id,
    ).toBeUndefined();

    const list = await t.app.inject({ method: 'GET', url: `${MESSAGING}/deliveries`, headers: admin.auth });
    const kept = list.json<DeliveryListResponse>().deliveries;
    expect(kept.map((d) => [d.id, d.status])).toEqual([
      [offChannel.delivery_id, 'refused'],
      [tooLong.delivery_id, 'refused'],
      [broken.delivery_id, 'refused'],
    ]);
    const refusedOnly = await t.app.inject({
      method: 'GET',
      url: `${MESSAGING}/deliveries?status=refused`,
      headers: admin.auth,
    });
    expect(refusedOnly.json<DeliveryListResponse>().deliveries).toHaveLength(3);
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?action=delivery.refused',
      headers: admin.auth,
    });
    expect(audit.json<AuditListResponse>().logs.map((log) => log.resource_id)).toEqual(
      [offChannel.delivery_id, tooLong.delivery_id, broken.delivery_id].map(String),
    );

    // A refused delivery is never sent, nor can it be retried or cancelled.
    await sendRound();
    expect(sends()).toEqual([]);
    for (const action of ['retry', 'cancel']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${MESSAGING}/deliveries/${broken.delivery_id}/${action}`,
        headers: admin.auth,
      });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'conflict', current: { status: 'refused' } });
    }
  });

  it("keeps a bot key's refusal under its name, and a disabled template's", async () => {
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: admin.auth,
      payload: { name: 'bot', scopes: ['messages:send'] },
    });
    expect(key.statusCode, key.body).toBe(201);
    const bearer = { authorization: `Bearer ${key.json<ApiKeyCreated>().key}` };
    const off = await createTemplate(t, admin, { channel_id: channel.id, enabled: false });
    const refused = expectError(await post({ template_id: off.id, data: DATA }, bearer), 422);
    expect(refused.detail).toBe(`The template '${off.template_name}' is disabled`);
    expect(await detail(refused.delivery_id!)).toMatchObject({
      status: 'refused',
      source: 'api_key',
      requested_by: 'key:bot',
      text: '',
    });
  });

  it('answers a render given up only for load with 503 and Retry-After, and keeps nothing', async () => {
    const rendering = t.app.services.messaging.rendering;
    const render = rendering.render.bind(rendering);
    rendering.render = () => Promise.reject(new RenderBusyError());
    try {
      const busy = expectError(
        await post({ template_id: template.id, data: DATA }),
        503,
        'service_unavailable',
      );
      expect(busy.delivery_id).toBeUndefined();
    } finally {
      rendering.render = render;
    }
    const list = await t.app.inject({ method: 'GET', url: `${MESSAGING}/deliveries`, headers: admin.auth });
    expect(list.json<DeliveryListResponse>().deliveries).toEqual([]);
    // Asked again once the machine has room, it is queued.
    await queue();
  });

  it('returns the first delivery for a repeated idempotency key of the same caller, also under parallel requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        post({ template_id: template.id, data: DATA, idempotency_key: 'order-7' }),
      ),
    );
    const ids = new Set(results.map((res) => res.json<Delivery>().id));
    expect(ids.size).toBe(1);
    expect(results.filter((res) => res.statusCode === 202)).toHaveLength(1);
    expect(results.filter((res) => res.statusCode === 200)).toHaveLength(11);

    // Another caller's key is its own.
    const operator = await t.signInAs(['operator']);
    const theirs = await queue({ idempotency_key: 'order-7' }, operator.auth);
    expect(ids.has(theirs.id)).toBe(false);

    // After 24 hours the key may be used again.
    now = START + 24 * 3600 * SECOND + SECOND;
    admin = await t.loginAdmin();
    const again = await queue({ idempotency_key: 'order-7' });
    expect(ids.has(again.id)).toBe(false);
  });

  it('judges each delivery of a batch on its own', async () => {
    const raw = await createTemplate(t, admin, { channel_id: channel.id, template_content: '{{{html}}}' });
    const res = await t.app.inject({
      method: 'POST',
      url: `${MESSAGING}/deliveries/batch`,
      headers: admin.auth,
      payload: {
        deliveries: [
          { template_id: template.id, data: DATA },
          { template_id: 999999 },
          'not an object',
          { template_name: template.template_name, data: DATA, idempotency_key: 'b-1' },
          { template_name: template.template_name, data: DATA, idempotency_key: 'b-1' },
          { template_id: raw.id, data: { html: '<i>open' } },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json<DeliveryBatchResponse>();
    expect(body.accepted.map((a) => a.index)).toEqual([0, 3, 4]);
    expect(body.accepted[1]!.delivery.id).toBe(body.accepted[2]!.delivery.id);
    expect(body.rejected).toEqual([
      { index: 1, detail: 'There is no message template 999999' },
      { index: 2, detail: expect.stringMatching(/object/) },
      { index: 5, detail: expect.stringMatching(/^Not queued: /), delivery_id: expect.any(Number) },
    ]);
    expect(await detail(body.rejected[2]!.delivery_id!)).toMatchObject({
      status: 'refused',
      text: '<i>open',
    });
    const tooMany = await t.app.inject({
      method: 'POST',
      url: `${MESSAGING}/deliveries/batch`,
      headers: admin.auth,
      payload: { deliveries: Array.from({ length: 501 }, () => ({ template_id: template.id })) },
    });
    expect(expectError(tooMany, 422, 'validation_failed').errors).toContainEqual({
      path: 'deliveries',
      message: 'At most 500 deliveries per request',
    });
  });

  it('lets a bot key with messages:send queue and read its own deliveries, and no one else', async () => {
    const key = async (scopes: string[], name = `bot ${scopes.join(' ')}`) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/api-keys',
        headers: admin.auth,
        payload: { name, scopes },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { authorization: `Bearer ${res.json<ApiKeyCreated>().key}` };
    };
    const sender = await key(['messages:send']);
    const queued = await queue({}, sender);
    expect(queued).toMatchObject({ source: 'api_key', requested_by: 'key:bot messages:send' });
    const read = await t.app.inject({
      method: 'GET',
      url: `${MESSAGING}/deliveries/${queued.id}`,
      headers: sender,
    });
    expect(read.statusCode).toBe(200);
    // A key reads only what it queued: another key's delivery, or a user's, is not there for it.
    const other = await key(['messages:send'], 'another bot');
    const read404 = (id: number, auth: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `${MESSAGING}/deliveries/${id}`, headers: auth });
    expectError(await read404(queued.id, other), 404, 'not_found');
    const mine = await queue();
    expectError(await read404(mine.id, sender), 404, 'not_found');
    expect((await read404(queued.id, admin.auth)).statusCode).toBe(200);
    expectError(await post({ template_id: template.id }, await key(['templates:read'])), 403, 'forbidden');
    const viewer = await t.signInAs(['viewer']);
    expectError(await post({ template_id: template.id }, viewer.auth), 403, 'forbidden');
  });

  it('cancels a queued delivery and retries a failed one, audited, and refuses both otherwise with 409', async () => {
    const first = await queue();
    const cancel = (id: number) =>
      t.app.inject({ method: 'POST', url: `${MESSAGING}/deliveries/${id}/cancel`, headers: admin.auth });
    const retry = (id: number) =>
      t.app.inject({ method: 'POST', url: `${MESSAGING}/deliveries/${id}/retry`, headers: admin.auth });
    expect((await cancel(first.id)).json<Delivery>().status).toBe('cancelled');
    expect(await sendRound()).toBe(0);
    const refused = await cancel(first.id);
    expect(refused.statusCode).toBe(409);
    // The answer carries the delivery as it is, so the console can show it.
    expect(refused.json()).toMatchObject({
      code: 'conflict',
      detail: 'Only a queued delivery can be cancelled; this one is cancelled',
      current: { id: first.id, status: 'cancelled' },
    });
    expect((await retry(first.id)).statusCode).toBe(409);

    bot.respond(badRequest('Bad Request: can\'t parse entities: Unsupported start tag "x"'));
    const second = await queue();
    await sendRound();
    expect(await detail(second.id)).toMatchObject({
      status: 'failed',
      error: 'Bad Request: can\'t parse entities: Unsupported start tag "x"',
    });
    const retried = await retry(second.id);
    expect(retried.json<Delivery>()).toMatchObject({ status: 'queued', error: null });
    await sendRound();
    const done = await detail(second.id);
    expect(done).toMatchObject({ status: 'sent', attempts: 2 });
    expect(done.attempt_log.map((a) => a.outcome)).toEqual(['failed', 'sent']);

    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?resource_type=delivery',
      headers: admin.auth,
    });
    expect(audit.json<AuditListResponse>().logs.map((l) => l.action)).toEqual([
      'delivery.retried',
      'delivery.queued',
      'delivery.cancelled',
      'delivery.queued',
    ]);
  });

  it('fails at once on 400, and on 403 marks the channel until a message gets through', async () => {
    bot.respond(forbidden());
    const refused = await queue();
    await sendRound();
    expect(await detail(refused.id)).toMatchObject({
      status: 'failed',
      error: 'Forbidden: bot was kicked from the supergroup chat',
    });
    const marked = await t.app.inject({ method: 'GET', url: `${MESSAGING}/channels`, headers: admin.auth });
    expect(marked.json<Channel[]>().find((c) => c.id === channel.id)).toMatchObject({
      send_problem: 'Forbidden: bot was kicked from the supergroup chat',
      send_problem_at: new Date(START).toISOString(),
    });
    await queue();
    await sendRound();
    const cleared = await t.app.inject({ method: 'GET', url: `${MESSAGING}/channels`, headers: admin.auth });
    expect(cleared.json<Channel[]>().find((c) => c.id === channel.id)).toMatchObject({
      send_problem: null,
      send_problem_at: null,
    });
  });

  it('retries network errors and 5xx with growing backoff, a bounded number of times', async () => {
    bot.respond(serverError(), 'garbage', serverError());
    const queued = await queue();
    await sendRound();
    const once = await detail(queued.id);
    expect(once).toMatchObject({ status: 'queued', attempts: 1 });
    const firstWait = Date.parse(once.next_attempt_at!) - now;
    expect(firstWait).toBeGreaterThanOrEqual(5 * SECOND);
    expect(firstWait).toBeLessThanOrEqual(10 * SECOND);
    expect(await sendRound()).toBe(0); // not due yet

    now = Date.parse(once.next_attempt_at!);
    await sendRound();
    const twice = await detail(queued.id);
    const secondWait = Date.parse(twice.next_attempt_at!) - now;
    expect(secondWait).toBeGreaterThanOrEqual(10 * SECOND);
    expect(secondWait).toBeLessThanOrEqual(20 * SECOND);

    now = Date.parse(twice.next_attempt_at!);
    await sendRound();
    const given = await detail(queued.id);
    expect(given.status).toBe('failed');
    expect(given.error).toMatch(/gave up after 3 tries/);
    expect(given.attempt_log.map((a) => a.outcome)).toEqual(['retry', 'retry', 'failed']);
    expect(given.attempt_log[0]).toMatchObject({ error_code: 502 });
  });

  it('retries a send Telegram does not answer in time', async () => {
    bot.respond('hang');
    const queued = await queue();
    await sendRound();
    const timedOut = await detail(queued.id);
    expect(timedOut).toMatchObject({ status: 'queued', attempts: 1 });
    expect(timedOut.attempt_log[0]).toMatchObject({ outcome: 'retry', error_code: null });
    expect(timedOut.attempt_log[0]!.error).toMatch(/did not answer sendMessage within 0.5 s/);
    now = Date.parse(timedOut.next_attempt_at!);
    await sendRound();
    expect((await detail(queued.id)).status).toBe('sent');
  });

  it('pauses the whole bot for retry_after on 429, without using up a try', async () => {
    const other = await createChannel(t, admin, { chat_id: '-1009' });
    bot.respond(tooManyRequests(30));
    const limited = await queue();
    await sendRound();
    const paused = await detail(limited.id);
    expect(paused).toMatchObject({ status: 'queued', attempts: 0 });
    expect(paused.attempt_log).toEqual([
      expect.objectContaining({ outcome: 'rate_limited', error_code: 429, retry_after_seconds: 30 }),
    ]);
    // Another chat waits too: Telegram limits the bot.
    await queue({ channel_id: other.id });
    now += 29 * SECOND;
    expect(await sendRound()).toBe(0);
    now += 2 * SECOND;
    expect(await sendRound()).toBe(2);
    expect((await detail(limited.id)).status).toBe('sent');
  });

  it("holds Telegram's limits counted from each send's answer: M a second in all, a chat's gap, N a minute per group", async () => {
    await start({ ...OPEN, limits: { perSecond: 3, perChatGapMs: SECOND, perChatPerMinute: 2 } });
    // Telegram receives each request when it is sent, by the test's clock, and answers 100 ms later.
    bot.clock = () => now;
    bot.onArrival = () => {
      now += 100;
    };
    const chats = await Promise.all(
      ['-1', '-2', '-3', '-4'].map((chat_id) => createChannel(t, admin, { chat_id })),
    );
    for (const c of chats) {
      for (let i = 0; i < 3; i += 1) await queue({ channel_id: c.id });
    }
    const at = (ms: number) => {
      now = START + ms;
      return sendRound();
    };
    // As counted: the bot's second is 1,020 ms, spread 340 ms apart; a chat's gap 1,100 ms from the
    // previous answer; a group's minute 63 s from the answer.
    expect(await at(0)).toBe(1);
    expect(await at(338)).toBe(0);
    expect(await at(340)).toBe(1);
    expect(await at(680)).toBe(1);
    // The 4th is within 1,020 ms of when the 1st was answered (at 100), so it waits for 1,120.
    expect(await at(1020)).toBe(0);
    expect(await at(1119)).toBe(0);
    expect(await at(1120)).toBe(1);
    // Chat -1 again (its gap ended at 1,200): the bot's turn is 1,460, once the 2nd was answered + 1,020.
    expect(await at(1459)).toBe(0);
    expect(await at(1460)).toBe(1);
    expect(await at(1800)).toBe(1);
    expect(await at(2140)).toBe(0);
    expect(await at(2240)).toBe(1);
    expect(await at(2580)).toBe(1);
    // Each group had its 2 this minute: the 3rd goes 63 s after its chat's 1st was answered.
    expect(await at(63_099)).toBe(0);
    expect(await at(63_100)).toBe(1);
    expect(await at(63_440)).toBe(1);
    expect(await at(63_780)).toBe(1);
    expect(await at(64_219)).toBe(0);
    expect(await at(64_220)).toBe(1);

    const received = bot.messages().map((m) => [m.chat_id, m.at - START]);
    expect(received).toEqual([
      ['-1', 0],
      ['-2', 340],
      ['-3', 680],
      ['-4', 1120],
      ['-1', 1460],
      ['-2', 1800],
      ['-3', 2240],
      ['-4', 2580],
      ['-1', 63_100],
      ['-2', 63_440],
      ['-3', 63_780],
      ['-4', 64_220],
    ]);
    // Each attempt is recorded as started when its request went out.
    const starts = await t.app.db
      .selectFrom('delivery_attempts')
      .select(['started_at', 'finished_at'])
      .orderBy('started_at')
      .execute();
    expect(starts.map((a) => Date.parse(a.started_at) - START)).toEqual(received.map(([, ms]) => ms));
    expect(starts.every((a) => Date.parse(a.finished_at!) - Date.parse(a.started_at) === 100)).toBe(true);
  });

  it("holds a private chat to its gap only, not to a group's minute", async () => {
    await start({ ...OPEN, limits: { perSecond: 100_000, perChatGapMs: SECOND, perChatPerMinute: 2 } });
    const person = await createChannel(t, admin, { chat_id: '42' });
    for (let i = 0; i < 3; i += 1) await queue({ channel_id: person.id });
    expect(await sendRound()).toBe(1);
    now += 1099;
    expect(await sendRound()).toBe(0);
    now += 1;
    expect(await sendRound()).toBe(1);
    now += 1100;
    expect(await sendRound()).toBe(1);
    expect(sends()).toHaveLength(3);
  });

  it('after an instance stops mid-send, makes unknown only a delivery whose send had started, and sends the others', async () => {
    const other = await createChannel(t, admin, { chat_id: '-1009' });
    const started = await queue();
    const claimed = await queue({ channel_id: other.id });
    // As an instance that died holding both, its lease run out: `started` with its attempt recorded (its
    // request may have gone out), `claimed` without one (its request never went out).
    const lease = {
      status: 'sending' as const,
      lease_owner: 'dead-instance',
      lease_expires_at: new Date(now - 1).toISOString(),
    };
    await t.app.db
      .updateTable('deliveries')
      .set({ ...lease, attempts: 1 })
      .where('id', '=', started.id)
      .execute();
    await t.app.db
      .insertInto('delivery_attempts')
      .values({
        delivery_id: started.id,
        attempt: 1,
        chat_id: started.chat_id,
        instance: 'dead-instance',
        outcome: 'sending',
        started_at: new Date(now - 2 * SECOND).toISOString(),
      })
      .execute();
    await t.app.db.updateTable('deliveries').set(lease).where('id', '=', claimed.id).execute();

    expect(await sendRound()).toBe(1);
    const unknown = await detail(started.id);
    expect(unknown).toMatchObject({ status: 'unknown', attempts: 1 });
    expect(unknown.error).toMatch(/may or may not have been sent/);
    expect(unknown.attempt_log).toEqual([expect.objectContaining({ attempt: 1, outcome: 'unknown' })]);
    expect(await detail(claimed.id)).toMatchObject({
      status: 'sent',
      attempts: 1,
      attempt_log: [expect.objectContaining({ attempt: 1, outcome: 'sent' })],
    });
    // Only the one that never went out was sent, once; the unknown one is never sent again by itself.
    expect(sends().map((r) => r.body.chat_id)).toEqual([-1009]);
    now += 3600 * SECOND;
    expect(await sendRound()).toBe(0);
    expect(sends()).toHaveLength(1);
  });

  it('reports each send to the integrations panel as the telegram service', async () => {
    bot.respond(badRequest('Bad Request: chat not found'));
    await queue();
    await queue();
    await sendRound();
    await t.app.services.integrations.flush();
    const res = await t.app.inject({ method: 'GET', url: '/api/metrics/integrations', headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.stringify(res.json())).toContain('telegram');
    const rows = await t.app.db
      .selectFrom('integration_calls')
      .selectAll()
      .where('service_name', '=', 'telegram')
      .execute();
    expect(rows.map((r) => r.status).sort()).toEqual(['error', 'success']);
  });

  it('answers the last 24 hours by status', async () => {
    await queue();
    const cancelled = await queue();
    await t.app.inject({
      method: 'POST',
      url: `${MESSAGING}/deliveries/${cancelled.id}/cancel`,
      headers: admin.auth,
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `${MESSAGING}/deliveries/summary`,
      headers: admin.auth,
    });
    expect(res.json()).toEqual({
      since: new Date(START - 24 * 3600 * SECOND).toISOString(),
      queued: 1,
      sending: 0,
      sent: 0,
      failed: 0,
      cancelled: 1,
      unknown: 0,
      refused: 0,
    });
  });

  it('removes settled deliveries past their retention with their attempts, never a queued one', async () => {
    const sent = await queue();
    await sendRound();
    const cancelled = await queue();
    await t.app.inject({
      method: 'POST',
      url: `${MESSAGING}/deliveries/${cancelled.id}/cancel`,
      headers: admin.auth,
    });
    const waiting = await queue();
    now = START + 30 * 24 * 3600 * SECOND - SECOND;
    admin = await t.loginAdmin();
    const recent = await queue();
    expect(await t.app.services.messaging.deliveries.prune(30)).toBe(0);
    now = START + 30 * 24 * 3600 * SECOND + SECOND;
    expect(await t.app.services.messaging.deliveries.prune(30)).toBe(2);
    const list = await t.app.inject({ method: 'GET', url: `${MESSAGING}/deliveries`, headers: admin.auth });
    expect(list.json<DeliveryListResponse>().deliveries.map((d) => d.id)).toEqual([recent.id, waiting.id]);
    const attempts = await t.app.db
      .selectFrom('delivery_attempts')
      .select('delivery_id')
      .where('delivery_id', '=', sent.id)
      .execute();
    expect(attempts).toEqual([]);
  });

  it('pages the log newest first and filters it', async () => {
    const other = await createChannel(t, admin, { chat_id: '-2' });
    for (let i = 0; i < 5; i += 1) await queue(i % 2 ? { channel_id: other.id } : {});
    const page = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${MESSAGING}/deliveries?${query}`,
        headers: admin.auth,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<DeliveryListResponse>();
    };
    const first = await page('limit=2');
    expect(first.deliveries).toHaveLength(2);
    const second = await page(`limit=2&cursor=${first.next_cursor}`);
    const third = await page(`limit=2&cursor=${second.next_cursor}`);
    expect(third.next_cursor).toBeNull();
    const ids = [...first.deliveries, ...second.deliveries, ...third.deliveries].map((d) => d.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(5);
    expect((await page(`channel_id=${other.id}`)).deliveries).toHaveLength(2);
    expect((await page('status=sent')).deliveries).toHaveLength(0);
    expectError(
      await t.app.inject({ method: 'GET', url: `${MESSAGING}/deliveries?status=lost`, headers: admin.auth }),
      422,
      'validation_failed',
    );
  });
});

describe.skipIf(!dialects.includes('postgres'))('deliveries shared by two instances on PostgreSQL', () => {
  let bot: FakeBotApi;
  beforeAll(async () => {
    bot = await FakeBotApi.start();
  });
  afterAll(async () => {
    await bot.close();
  });

  it('sends each of 300 queued deliveries exactly once', async () => {
    const t = await createTestApp({
      dialect: 'postgres',
      app: {
        telegram: { botToken: TOKEN, apiBaseUrl: bot.url, timeoutMs: 2000 },
        sender: OPEN,
      },
    });
    try {
      const admin = await t.loginAdmin();
      const channels = await Promise.all(
        Array.from({ length: 10 }, (_, i) => createChannel(t, admin, { chat_id: `-10${i}` })),
      );
      const template = await createTemplate(t, admin, {
        channel_id: channels[0]!.id,
        template_content: 'Message {{n}}',
      });
      const res = await t.app.inject({
        method: 'POST',
        url: `${MESSAGING}/deliveries/batch`,
        headers: admin.auth,
        payload: {
          deliveries: Array.from({ length: 300 }, (_, n) => ({
            template_id: template.id,
            channel_id: channels[n % 10]!.id,
            data: { n },
          })),
        },
      });
      expect(res.json<DeliveryBatchResponse>().rejected).toEqual([]);
      expect(res.json<DeliveryBatchResponse>().accepted).toHaveLength(300);
      const other = await t.secondInstance();
      bot.delayMs = 5;
      const senders = [t.app.services.messaging.sender, other.services.messaging.sender];
      let rounds = 0;
      for (;;) {
        const claimed = await Promise.all(senders.flatMap((s) => [s.runOnce(), s.runOnce()]));
        rounds += 1;
        if (claimed.every((n) => n === 0) || rounds > 200) break;
      }
      const texts = bot.requests.filter((r) => r.method === 'sendMessage').map((r) => r.body.text);
      expect(texts).toHaveLength(300);
      expect(new Set(texts).size).toBe(300);
      const statuses = await t.app.db.selectFrom('deliveries').select('status').execute();
      expect(statuses.every((s) => s.status === 'sent')).toBe(true);
    } finally {
      await t.close();
    }
  });
});

/** The most of `times` (ms, sorted) that fall within any `windowMs`, i.e. less than windowMs apart. */
function busiest(times: number[], windowMs: number): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < times.length; last += 1) {
    while (times[last]! - times[first]! >= windowMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/**
 * Telegram's limits as Telegram sees them: the times are the fake Bot API's own, taken when each request
 * arrived, after a time on the way that varies from one request to the next. The windows are shrunk (a
 * "second" of 300 ms, a chat's gap of 50 ms, a "minute" of 2 s) so that 500 messages take seconds, each
 * rule binds (a few chats get far more than their share), and the pacing code is the one that runs with
 * Telegram's real windows. On PostgreSQL two instances share the database and send together.
 */
describe.each(dialects)('pacing as Telegram receives it, on %s', (dialect) => {
  const LIMITS = { perSecond: 30, secondMs: 250, perChatGapMs: 30, perChatPerMinute: 20, minuteMs: 2000 };
  const MESSAGES = 500;
  let bot: FakeBotApi;
  beforeAll(async () => {
    bot = await FakeBotApi.start();
  });
  afterAll(async () => {
    await bot.close();
  });

  it('sends 500 messages over 50 chats, never more than Telegram allows in any window', async () => {
    const random = seededRandom(2026);
    bot.transitMs = () => random() * 25;
    const t = await createTestApp({
      dialect,
      app: {
        telegram: { botToken: TOKEN, apiBaseUrl: bot.url, timeoutMs: 5000 },
        sender: { limits: LIMITS },
      },
    });
    const senders = [t.app.services.messaging.sender];
    try {
      const admin = await t.loginAdmin();
      // 25 groups and 25 private chats. Groups 0-3 get 40 messages each (more than a "minute" allows),
      // private chat 0 gets 40 (bound by its gap); the other 45 chats share the rest.
      const chatIds = Array.from({ length: 50 }, (_, i) => (i < 25 ? `-100${i}` : String(5000 + i)));
      const channels = await Promise.all(chatIds.map((chat_id) => createChannel(t, admin, { chat_id })));
      const template = await createTemplate(t, admin, {
        channel_id: channels[0]!.id,
        template_content: 'Message {{n}}',
      });
      const heavy = [...Array.from({ length: 4 }, (_, g) => Array(40).fill(g)), Array(40).fill(25)].flat();
      const rest = Array.from(
        { length: MESSAGES - heavy.length },
        (_, n) => [4 + (n % 21), 26 + (n % 24)][n % 2]!,
      );
      const targets = [...heavy, ...rest];
      for (let i = targets.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [targets[i], targets[j]] = [targets[j]!, targets[i]!];
      }
      const queued = await t.app.inject({
        method: 'POST',
        url: `${MESSAGING}/deliveries/batch`,
        headers: admin.auth,
        payload: {
          deliveries: targets.map((c, n) => ({
            template_id: template.id,
            channel_id: channels[c]!.id,
            data: { n },
          })),
        },
      });
      expect(queued.json<DeliveryBatchResponse>().accepted).toHaveLength(MESSAGES);

      if (dialect === 'postgres') senders.push((await t.secondInstance()).services.messaging.sender);
      for (const sender of senders) sender.start();
      await bot.messagesArrived(MESSAGES);
      await Promise.all(senders.map((sender) => sender.stop()));

      const received = bot.messages();
      expect(received).toHaveLength(MESSAGES);
      expect(new Set(received.map((m) => m.text)).size).toBe(MESSAGES);
      const statuses = await t.app.db.selectFrom('deliveries').select('status').execute();
      expect(statuses.filter((d) => d.status !== 'sent')).toEqual([]);

      const times = (list: typeof received) => list.map((m) => m.at).sort((a, b) => a - b);
      expect(busiest(times(received), LIMITS.secondMs)).toBeLessThanOrEqual(LIMITS.perSecond);
      const byChat = new Map<string, typeof received>();
      for (const m of received) byChat.set(m.chat_id, [...(byChat.get(m.chat_id) ?? []), m]);
      for (const [chat, messages] of byChat) {
        expect(busiest(times(messages), LIMITS.perChatGapMs), `chat ${chat}`).toBe(1);
        if (chat.startsWith('-')) {
          expect(busiest(times(messages), LIMITS.minuteMs), `group ${chat}`).toBeLessThanOrEqual(
            LIMITS.perChatPerMinute,
          );
        }
      }
    } finally {
      await Promise.all(senders.map((sender) => sender.stop()));
      await t.close();
    }
  }, 60_000);
});
