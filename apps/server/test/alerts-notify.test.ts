import {
  ALERT_WEBHOOK_HEADERS,
  alertWebhookBodySchema,
  type AlertHistoryResponse,
  type AlertNotification,
  type AlertNotificationListResponse,
  type AlertRule,
  type Channel,
  type ContactPointCreated,
} from '@lumi/contract';
import { checkTelegramText } from '@lumi/telegram-markup';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SenderSettings } from '../src/modules/messaging/deliveries/sender-settings.js';
import { ALERTS, createRule, createTelegramPoint, createWebhookPoint, runPass } from './alerts-helper.js';
import { FakeBotApi } from '@lumi/test-support/fake-bot-api';
import { createTestApp, dialects, type Session, type TestApp } from './helper.js';
import { createChannel, createTemplate } from './messaging-helper.js';
import { botKey, events, ingest } from './telemetry-helper.js';
import { signatureValid, WebhookReceiver } from '@lumi/test-support/webhook-receiver';

const TOKEN = '123456789:AAE-secret_token-value';
const START = Date.parse('2026-11-26T09:00:00.000Z');
const SECOND = 1000;
const OPEN: Partial<SenderSettings> = {
  limits: { perSecond: 1000, perChatGapMs: 0, perChatPerMinute: 1000 },
};

/**
 * The proof that alerts arrive (docs/bot-developers/alerts.md): with a clock the test moves, telemetry stops and starts, passes of
 * the evaluation run directly, and the fake Bot API and a webhook receiver see each notification once.
 */
describe.each(dialects)('alert notifications on %s', (dialect) => {
  let bot: FakeBotApi;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let admin: Session;
  let now = START;
  let channel: Channel;
  let key: { authorization: string };

  beforeAll(async () => {
    [bot, receiver] = await Promise.all([FakeBotApi.start(), WebhookReceiver.start()]);
  });
  afterAll(async () => {
    await Promise.all([bot.close(), receiver.close()]);
  });
  beforeEach(async () => {
    now = START;
    bot.reset();
    receiver.reset();
    t = await createTestApp({
      dialect,
      app: {
        now: () => now,
        telegram: { botToken: TOKEN, apiBaseUrl: bot.url, timeoutMs: 2000 },
        sender: OPEN,
      },
    });
    admin = await t.loginAdmin();
    channel = await createChannel(t, admin, { chat_id: '-1001234567890' });
    key = await botKey(t);
  });
  afterEach(async () => {
    await t?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `${ALERTS}${url}`, headers: admin.auth, payload });
  const heartbeat = (status = 'connected') =>
    ingest(t.app, key, [events.heartbeat(now, { telegram_status: status })]);
  const sendDeliveries = () => t.app.services.messaging.sender.runOnce();
  const messages = () => bot.requests.filter((r) => r.method === 'sendMessage').map((r) => r.body);
  const notifications = async (pointId: number) =>
    (await call('GET', `/contact-points/${pointId}/notifications`)).json<AlertNotificationListResponse>()
      .notifications;
  const history = async (ruleId: number) =>
    (await call('GET', `/history?rule_id=${ruleId}`)).json<AlertHistoryResponse>().entries;
  const rule = async (id: number) => (await call('GET', `/rules/${id}`)).json<AlertRule>();

  it('tells a Telegram chat and a webhook once when a heartbeat stops, and once when it resolves', async () => {
    const chat = await createTelegramPoint(t, admin, { channel_id: channel.id });
    const hook = await createWebhookPoint(t, admin, receiver.url);
    const name = `<b>Bot</b> & "co" <i>${'x'.repeat(170)}`;
    const watched = await createRule(t, admin, {
      name,
      condition: { type: 'heartbeat_missing', seconds: 60 },
      severity: 'critical',
      pending_seconds: 30,
      contact_point_ids: [chat.id, hook.id],
    });

    await heartbeat();
    await runPass(t.app);
    expect(await rule(watched.id)).toMatchObject({
      state: 'ok',
      last_evaluation: { holds: false, value: 0 },
    });

    now += 61 * SECOND;
    await runPass(t.app);
    expect(await rule(watched.id)).toMatchObject({
      state: 'pending',
      state_since: '2026-11-26T09:01:01.000Z',
    });
    now += 30 * SECOND;
    const fired = await runPass(t.app);
    expect(fired).toMatchObject({ evaluated: 1, transitions: 1, notifications: 2, failed: 0 });
    expect(await rule(watched.id)).toMatchObject({
      state: 'firing',
      last_evaluation: { value: 91, threshold: 60, unit: 's', holds: true },
    });
    // Another pass while it fires tells nobody again (no re-notify interval).
    now += 10 * SECOND;
    expect(await runPass(t.app)).toMatchObject({ transitions: 0, notifications: 0 });
    await sendDeliveries();

    expect(messages()).toHaveLength(1);
    const firing = messages()[0]!;
    expect(firing).toMatchObject({ chat_id: -1001234567890, parse_mode: 'HTML' });
    const text = String(firing.text);
    expect(checkTelegramText(text, 'HTML').problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(text).toContain('&lt;b&gt;Bot&lt;/b&gt; &amp; "co" &lt;i&gt;');
    expect(text).toContain('FIRING · CRITICAL');
    expect(text).toContain('No heartbeat for 91 s (threshold 60 s)');
    expect(text).toContain(`href="http://localhost:3000/admin/alerts?rule=${watched.id}"`);

    expect(receiver.received).toHaveLength(1);
    const hookCall = receiver.received[0]!;
    expect(signatureValid(hookCall, hook.secret!, ALERT_WEBHOOK_HEADERS)).toBe(true);
    expect(signatureValid(hookCall, 'another secret', ALERT_WEBHOOK_HEADERS)).toBe(false);
    expect(hookCall.headers).toMatchObject({
      'content-type': 'application/json',
      [ALERT_WEBHOOK_HEADERS.event]: 'firing',
      [ALERT_WEBHOOK_HEADERS.timestamp]: String(Math.floor(now / 1000) - 10),
    });
    const body = alertWebhookBodySchema.parse(JSON.parse(hookCall.body));
    expect(body).toEqual({
      version: 1,
      kind: 'firing',
      notification_id: Number(hookCall.headers[ALERT_WEBHOOK_HEADERS.notification]),
      rule: {
        id: watched.id,
        name,
        severity: 'critical',
        condition: { type: 'heartbeat_missing', seconds: 60 },
      },
      state: 'firing',
      previous_state: 'pending',
      value: 91,
      threshold: 60,
      summary: 'No heartbeat for 91 s (threshold 60 s)',
      started_at: '2026-11-26T09:01:01.000Z',
      sent_at: '2026-11-26T09:01:31.000Z',
      url: `http://localhost:3000/admin/alerts?rule=${watched.id}`,
    });

    await heartbeat();
    await runPass(t.app);
    await sendDeliveries();
    expect(messages()).toHaveLength(2);
    const resolved = String(messages()[1]!.text);
    expect(resolved).toContain('RESOLVED · CRITICAL');
    expect(checkTelegramText(resolved, 'HTML').problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({
      kind: 'resolved',
      state: 'ok',
      previous_state: 'firing',
      started_at: '2026-11-26T09:01:01.000Z',
    });

    expect((await history(watched.id)).map((e) => [e.from_state, e.to_state, e.value, e.silenced])).toEqual([
      ['firing', 'ok', 0, false],
      ['pending', 'firing', 91, false],
      ['ok', 'pending', 61, false],
    ]);
    const toldChat = await notifications(chat.id);
    expect(toldChat.map((n) => [n.kind, n.status, n.rule_name])).toEqual([
      ['resolved', 'sent', name],
      ['firing', 'sent', name],
    ]);
    expect(toldChat.every((n) => n.delivery_id !== null)).toBe(true);
    expect(
      (await notifications(hook.id)).map((n) => [n.kind, n.status, n.attempts, n.response_status]),
    ).toEqual([
      ['resolved', 'sent', 1, 200],
      ['firing', 'sent', 1, 200],
    ]);
    // A pass run again finds nothing to send.
    await runPass(t.app);
    await t.app.services.alerts.notifier.sendDue();
    await sendDeliveries();
    expect(messages()).toHaveLength(2);
    expect(receiver.received).toHaveLength(2);
  });

  it('retries a webhook with backoff after a 500, fails at once on a 404 and gives up after six tries', async () => {
    const hook = await createWebhookPoint(t, admin, receiver.url);
    await createRule(t, admin, { contact_point_ids: [hook.id] });
    receiver.respond(500);
    await heartbeat('disconnected');
    await runPass(t.app);
    const [first] = await notifications(hook.id);
    expect(first).toMatchObject({
      kind: 'firing',
      status: 'queued',
      attempts: 1,
      response_status: 500,
      error: 'The webhook answered HTTP 500',
      next_attempt_at: '2026-11-26T09:00:30.000Z',
    });
    now += 20 * SECOND;
    expect(await t.app.services.alerts.notifier.sendDue()).toBe(0);
    now += 10 * SECOND;
    expect(await t.app.services.alerts.notifier.sendDue()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect((await notifications(hook.id))[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
      response_status: 200,
      error: null,
      sent_at: '2026-11-26T09:00:30.000Z',
    });
    // Both tries carried the same notification, each signed when it was sent.
    const ids = receiver.received.map((r) => r.headers[ALERT_WEBHOOK_HEADERS.notification]);
    expect(new Set(ids).size).toBe(1);
    expect(receiver.received.every((r) => signatureValid(r, hook.secret!, ALERT_WEBHOOK_HEADERS))).toBe(true);

    // Resolved: a 404 is not tried again.
    receiver.respond(404);
    await heartbeat('connected');
    await runPass(t.app);
    expect((await notifications(hook.id))[0]).toMatchObject({
      kind: 'resolved',
      status: 'failed',
      attempts: 1,
      response_status: 404,
      error: 'The webhook answered HTTP 404',
      next_attempt_at: null,
    });

    // Firing again: 503 six times, 30 s, 60 s, 120 s, 240 s and 480 s apart, then failed.
    receiver.reset();
    receiver.respond(503, 503, 503, 503, 503, 503, 200);
    await heartbeat('disconnected');
    await runPass(t.app);
    for (const wait of [30, 60, 120, 240, 480]) {
      now += (wait - 1) * SECOND;
      expect(await t.app.services.alerts.notifier.sendDue()).toBe(0);
      now += SECOND;
      expect(await t.app.services.alerts.notifier.sendDue()).toBe(1);
    }
    expect(receiver.received).toHaveLength(6);
    expect((await notifications(hook.id))[0]).toMatchObject({
      status: 'failed',
      attempts: 6,
      response_status: 503,
      next_attempt_at: null,
    });
    now += 3600 * SECOND;
    expect(await t.app.services.alerts.notifier.sendDue()).toBe(0);
  });

  it('keeps a silenced rule changing state without telling anyone, and tells once the silence ends', async () => {
    const hook = await createWebhookPoint(t, admin, receiver.url);
    const watched = await createRule(t, admin, { severity: 'warning', contact_point_ids: [hook.id] });
    const silence = await call('POST', '/silences', {
      kind: 'once',
      severity: 'warning',
      comment: 'Planned Telegram outage',
      ends_at: '2026-11-26T09:10:00Z',
    });
    expect(silence.statusCode, silence.body).toBe(201);
    await heartbeat('disconnected');
    expect(await runPass(t.app)).toMatchObject({ transitions: 1, notifications: 0 });
    expect(await rule(watched.id)).toMatchObject({ state: 'firing', silenced: true });
    expect(await history(watched.id)).toMatchObject([{ to_state: 'firing', silenced: true }]);
    expect(receiver.received).toHaveLength(0);
    expect(await notifications(hook.id)).toEqual([]);

    now = Date.parse('2026-11-26T09:10:00.000Z');
    await heartbeat('disconnected');
    await runPass(t.app);
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ kind: 'firing', state: 'firing' });
    expect(await rule(watched.id)).toMatchObject({ silenced: false });
  });

  it('prunes settled notifications after 90 days and the history after 400, keeping what is newer', async () => {
    const hook = await createWebhookPoint(t, admin, receiver.url);
    const chat = await createTelegramPoint(t, admin, { channel_id: channel.id });
    const watched = await createRule(t, admin, { contact_point_ids: [hook.id, chat.id] });
    await heartbeat('disconnected');
    await runPass(t.app);
    expect(await notifications(hook.id)).toMatchObject([{ kind: 'firing', status: 'sent' }]);
    // A Telegram notification is settled by its delivery, which is still queued here.
    expect(await notifications(chat.id)).toMatchObject([{ kind: 'firing', status: 'queued' }]);
    expect(await history(watched.id)).toHaveLength(1);

    const prune = () => t.app.services.alerts.history.prune();
    now = START + 89 * 86_400_000;
    expect(await prune()).toEqual({ history: 0, notifications: 0 });
    now = START + 91 * 86_400_000;
    expect(await prune()).toEqual({ history: 0, notifications: 2 });
    admin = await t.loginAdmin();
    expect(await notifications(hook.id)).toEqual([]);
    expect(await notifications(chat.id)).toEqual([]);
    expect(await history(watched.id)).toHaveLength(1);
    now = START + 401 * 86_400_000;
    expect(await prune()).toEqual({ history: 1, notifications: 0 });
    admin = await t.loginAdmin();
    expect(await history(watched.id)).toEqual([]);
  });

  it('sends test notifications, and fails one the renderer refuses with its reason', async () => {
    const hook = await createWebhookPoint(t, admin, receiver.url);
    const tested = await call('POST', `/contact-points/${hook.id}/test`);
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json<AlertNotification>()).toMatchObject({
      kind: 'test',
      status: 'sent',
      attempts: 1,
      response_status: 200,
      rule_id: null,
    });
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ kind: 'test', rule: null });
    expect(signatureValid(receiver.received[0]!, hook.secret!, ALERT_WEBHOOK_HEADERS)).toBe(true);

    receiver.respond(500);
    const failing = (await call('POST', `/contact-points/${hook.id}/test`)).json<AlertNotification>();
    expect(failing).toMatchObject({ status: 'failed', attempts: 1, response_status: 500 });
    now += 3600 * SECOND;
    expect(await t.app.services.alerts.notifier.sendDue()).toBe(0);

    receiver.respond(302);
    const redirected = (await call('POST', `/contact-points/${hook.id}/test`)).json<AlertNotification>();
    expect(redirected).toMatchObject({
      status: 'failed',
      response_status: 302,
      error: 'The webhook answered HTTP 302 (redirects are not followed; use the final URL)',
    });
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks/lumi', '/hooks/lumi', '/hooks/lumi']);

    const unreachable = await createWebhookPoint(t, admin, 'http://127.0.0.1:9/hooks');
    const refused = (await call('POST', `/contact-points/${unreachable.id}/test`)).json<AlertNotification>();
    expect(refused).toMatchObject({ status: 'failed', response_status: null });
    expect(refused.error).toMatch(/^Could not reach the webhook/);

    const chat = await createTelegramPoint(t, admin, { channel_id: channel.id });
    const queued = (await call('POST', `/contact-points/${chat.id}/test`)).json<AlertNotification>();
    expect(queued).toMatchObject({ kind: 'test', status: 'queued', delivery_id: expect.any(Number) });
    await sendDeliveries();
    expect(String(messages()[0]!.text)).toContain('TEST · WARNING');
    expect((await notifications(chat.id))[0]).toMatchObject({
      status: 'sent',
      delivery_id: queued.delivery_id,
    });

    // A template that inserts the rule name as markup: a name Telegram would refuse is never sent.
    const raw = await createTemplate(t, admin, {
      channel_id: channel.id,
      template_content: '<b>{{{alert_rule_name}}}</b> {{alert_summary}}',
    });
    const rawChat: ContactPointCreated = await createTelegramPoint(t, admin, {
      channel_id: channel.id,
      template_id: raw.id,
    });
    await createRule(t, admin, { name: 'Broken <i> name', contact_point_ids: [rawChat.id] });
    await heartbeat('disconnected');
    await runPass(t.app);
    const [broken] = await notifications(rawChat.id);
    expect(broken).toMatchObject({ kind: 'firing', status: 'failed', delivery_id: null });
    expect(broken!.error).toMatch(/^Not queued: /);
  });

  it('evaluates the other rules when one cannot be evaluated', async () => {
    const hook = await createWebhookPoint(t, admin, receiver.url);
    const broken = await createRule(t, admin, { name: 'A broken', contact_point_ids: [hook.id] });
    const fine = await createRule(t, admin, { name: 'B fine', contact_point_ids: [hook.id] });
    await t.app.db
      .updateTable('alert_rules')
      .set({ condition: 'not json' })
      .where('id', '=', broken.id)
      .execute();
    await heartbeat('disconnected');
    expect(await runPass(t.app)).toMatchObject({ evaluated: 1, failed: 1, transitions: 1 });
    expect(await rule(fine.id)).toMatchObject({ state: 'firing' });
  });
});
