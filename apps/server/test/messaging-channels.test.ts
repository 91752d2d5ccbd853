import { MESSAGING_MESSAGES, type AuditListResponse, type Channel, type Topic } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp, type Session } from './helper.js';
import { createChannel, createTemplate, createTopic, MESSAGING } from './messaging-helper.js';

describe.each(dialects)('channels and topics on %s', (dialect) => {
  const t = useTestApp(dialect);

  const call = (session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `${MESSAGING}${url}`, headers: session.auth, payload });

  it('adds, lists, changes and deletes channels', async () => {
    const admin = await t.loginAdmin();
    const alerts = await createChannel(t, admin, { channel_name: 'Alerts', chat_id: '@lumi_alerts' });
    expect(alerts).toEqual({
      id: expect.any(Number),
      channel_name: 'Alerts',
      chat_id: '@lumi_alerts',
      enabled: true,
      description: '',
      send_problem: null,
      send_problem_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const digest = await createChannel(t, admin, {
      channel_name: 'Digest',
      enabled: false,
      description: 'Daily',
    });

    const list = async (query = '') => (await call(admin, 'GET', `/channels${query}`)).json<Channel[]>();
    expect((await list()).map((c) => c.channel_name)).toEqual(['Alerts', 'Digest']);
    expect((await list('?enabled=true')).map((c) => c.channel_name)).toEqual(['Alerts']);
    expect((await list('?enabled=false')).map((c) => c.channel_name)).toEqual(['Digest']);
    expectError(await call(admin, 'GET', '/channels?enabled=maybe'), 422, 'validation_failed');

    // Fields left out keep their values.
    const changed = await call(admin, 'PUT', `/channels/${digest.id}`, { enabled: true });
    expect(changed.json<Channel>()).toMatchObject({
      channel_name: 'Digest',
      description: 'Daily',
      enabled: true,
    });
    const renamed = await call(admin, 'PUT', `/channels/${digest.id}`, {
      channel_name: 'Daily digest',
      description: null,
    });
    expect(renamed.json<Channel>()).toMatchObject({ channel_name: 'Daily digest', description: '' });

    expect((await call(admin, 'DELETE', `/channels/${alerts.id}`)).json()).toEqual({ ok: true });
    expect((await list()).map((c) => c.channel_name)).toEqual(['Daily digest']);
    expectError(await call(admin, 'DELETE', `/channels/${alerts.id}`), 404, 'not_found');
    expectError(await call(admin, 'PUT', `/channels/${alerts.id}`, { enabled: false }), 404, 'not_found');
  });

  it.each([
    [{ chat_id: '-100123' }, 'channel_name', MESSAGING_MESSAGES.channelNameRequired],
    [{ channel_name: ' ', chat_id: '-100123' }, 'channel_name', MESSAGING_MESSAGES.channelNameRequired],
    [{ channel_name: 'A' }, 'chat_id', MESSAGING_MESSAGES.chatIdRequired],
    [{ channel_name: 'A', chat_id: 'lumi' }, 'chat_id', MESSAGING_MESSAGES.chatIdInvalid],
    [{ channel_name: 'A', chat_id: '@abc' }, 'chat_id', MESSAGING_MESSAGES.chatIdInvalid],
    [{ channel_name: 'A', chat_id: '12.5' }, 'chat_id', MESSAGING_MESSAGES.chatIdInvalid],
  ])('validates the channel %j', async (payload, path, message) => {
    const admin = await t.loginAdmin();
    const body = expectError(await call(admin, 'POST', '/channels', payload), 422, 'validation_failed');
    expect(body.errors).toContainEqual({ path, message });
  });

  it('keeps channel names unique without regard to case', async () => {
    const admin = await t.loginAdmin();
    await createChannel(t, admin, { channel_name: 'Alerts' });
    const other = await createChannel(t, admin, { channel_name: 'Other' });
    const body = expectError(
      await call(admin, 'POST', '/channels', { channel_name: 'ALERTS', chat_id: '1' }),
      409,
    );
    expect(body.detail).toBe("A channel named 'Alerts' already exists");
    expectError(
      await call(admin, 'PUT', `/channels/${other.id}`, { channel_name: 'alerts' }),
      409,
      'conflict',
    );
  });

  it('gives a Telegram chat one channel, also when requests race, and leaves older shared chats working', async () => {
    const admin = await t.loginAdmin();
    const alerts = await createChannel(t, admin, { channel_name: 'Alerts', chat_id: '@Lumi_Alerts' });
    const taken = expectError(
      await call(admin, 'POST', '/channels', { channel_name: 'Again', chat_id: '@lumi_alerts' }),
      409,
      'conflict',
    );
    expect(taken.detail).toBe(
      "Channel 'Alerts' already posts to chat @Lumi_Alerts. Add a topic to it, or use another chat.",
    );
    const other = await createChannel(t, admin, { channel_name: 'Other', chat_id: '-1005' });
    expectError(await call(admin, 'PUT', `/channels/${other.id}`, { chat_id: '@LUMI_ALERTS' }), 409);

    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(admin, 'POST', '/channels', { channel_name: `Racer ${i}`, chat_id: '-1007' }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(9).fill(409)]);

    // Two channels that shared a chat before the rule keep their edits that leave the chat as it is.
    await t.app.db
      .updateTable('messaging_channels')
      .set({ chat_id: alerts.chat_id })
      .where('id', '=', other.id)
      .execute();
    const renamed = await call(admin, 'PUT', `/channels/${other.id}`, {
      channel_name: 'Other renamed',
      chat_id: '@lumi_alerts',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it('refuses to delete a channel or topic that templates use, naming them', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin, { channel_name: 'Alerts' });
    const topic = await createTopic(t, admin, channel.id, { topic_name: 'Whales' });
    await createTemplate(t, admin, {
      channel_id: channel.id,
      template_name: 'Whale alert',
      topic_id: topic.id,
    });
    await createTemplate(t, admin, { channel_id: channel.id, template_name: 'Daily' });

    const refused = expectError(await call(admin, 'DELETE', `/channels/${channel.id}`), 409, 'conflict');
    expect(refused.detail).toBe(
      "The channel 'Alerts' is used by 2 templates: 'Daily', 'Whale alert'. Move them to another channel or delete them first.",
    );
    const topicRefused = expectError(
      await call(admin, 'DELETE', `/channels/${channel.id}/topics/${topic.id}`),
      409,
      'conflict',
    );
    expect(topicRefused.detail).toContain("The topic 'Whales' is used by the template 'Whale alert'");

    // Once no template uses it, the channel goes, and its topics with it.
    const unused = await createChannel(t, admin);
    await createTopic(t, admin, unused.id);
    expect((await call(admin, 'DELETE', `/channels/${unused.id}`)).statusCode).toBe(200);
    expectError(await call(admin, 'GET', `/channels/${unused.id}/topics`), 404, 'not_found');
  });

  it("adds, lists, changes and deletes a channel's topics", async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const other = await createChannel(t, admin);
    const whales = await createTopic(t, admin, channel.id, { topic_name: 'Whales', message_thread_id: 12 });
    expect(whales).toEqual({
      id: expect.any(Number),
      channel_id: channel.id,
      topic_name: 'Whales',
      message_thread_id: 12,
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await createTopic(t, admin, channel.id, { topic_name: 'Alpha', message_thread_id: 13, enabled: false });
    // The same name and thread id in another channel are fine.
    await createTopic(t, admin, other.id, { topic_name: 'Whales', message_thread_id: 12 });

    const topics = async (query = '') =>
      (await call(admin, 'GET', `/channels/${channel.id}/topics${query}`))
        .json<Topic[]>()
        .map((x) => x.topic_name);
    expect(await topics()).toEqual(['Alpha', 'Whales']);
    expect(await topics('?enabled=true')).toEqual(['Whales']);

    const clash = await call(admin, 'POST', `/channels/${channel.id}/topics`, {
      topic_name: 'whales',
      message_thread_id: 99,
    });
    expect(expectError(clash, 409).detail).toBe("This channel already has a topic named 'Whales'");
    const threadClash = await call(admin, 'POST', `/channels/${channel.id}/topics`, {
      topic_name: 'New',
      message_thread_id: 12,
    });
    expect(expectError(threadClash, 409).detail).toBe(
      "The topic 'Whales' of this channel already has message thread 12",
    );

    const changed = await call(admin, 'PUT', `/channels/${channel.id}/topics/${whales.id}`, {
      message_thread_id: 20,
    });
    expect(changed.json<Topic>()).toMatchObject({ topic_name: 'Whales', message_thread_id: 20 });
    // A topic is reached through its own channel only.
    expectError(
      await call(admin, 'PUT', `/channels/${other.id}/topics/${whales.id}`, { enabled: false }),
      404,
    );
    expectError(await call(admin, 'DELETE', `/channels/${other.id}/topics/${whales.id}`), 404);

    expect((await call(admin, 'DELETE', `/channels/${channel.id}/topics/${whales.id}`)).statusCode).toBe(200);
    expect(await topics()).toEqual(['Alpha']);
  });

  it.each([
    [{ message_thread_id: 1 }, 'topic_name', MESSAGING_MESSAGES.topicNameRequired],
    [{ topic_name: 'A' }, 'message_thread_id', MESSAGING_MESSAGES.threadIdInvalid],
    [{ topic_name: 'A', message_thread_id: 0 }, 'message_thread_id', MESSAGING_MESSAGES.threadIdInvalid],
    [{ topic_name: 'A', message_thread_id: 1.5 }, 'message_thread_id', MESSAGING_MESSAGES.threadIdInvalid],
  ])('validates the topic %j', async (payload, path, message) => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const body = expectError(await call(admin, 'POST', `/channels/${channel.id}/topics`, payload), 422);
    expect(body.errors).toContainEqual({ path, message });
  });

  it('audits every change to channels and topics', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin, { channel_name: 'Audited' });
    const topic = await createTopic(t, admin, channel.id);
    await call(admin, 'PUT', `/channels/${channel.id}`, { description: 'Changed' });
    await call(admin, 'PUT', `/channels/${channel.id}/topics/${topic.id}`, { enabled: false });
    await call(admin, 'DELETE', `/channels/${channel.id}/topics/${topic.id}`);
    await call(admin, 'DELETE', `/channels/${channel.id}`);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/audit-logs', headers: admin.auth });
    const logs = res.json<AuditListResponse>().logs.filter((l) => /^(channel|topic)\./.test(l.action));
    expect(logs.map((l) => l.action)).toEqual([
      'channel.deleted',
      'topic.deleted',
      'topic.updated',
      'channel.updated',
      'topic.created',
      'channel.created',
    ]);
    expect(logs.every((l) => l.user === 'admin')).toBe(true);
    expect(logs[3]).toMatchObject({
      resource_type: 'channel',
      resource_id: String(channel.id),
      old_value: { description: '' },
      new_value: { description: 'Changed' },
    });
  });
});
