import {
  MESSAGING_MESSAGES,
  type AuditListResponse,
  type Template,
  type TemplateVersion,
} from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp, type Session } from './helper.js';
import { createChannel, createTemplate, createTopic, MESSAGING } from './messaging-helper.js';

describe.each(dialects)('message templates on %s', (dialect) => {
  const t = useTestApp(dialect);

  const call = (session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `${MESSAGING}${url}`, headers: session.auth, payload });
  const save = async (session: Session, id: number, payload: object) => {
    const res = await call(session, 'PUT', `/templates/${id}`, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Template>();
  };

  it('creates a template with the defaults of the spec', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, {
      channel_id: channel.id,
      template_name: 'Price alert',
      template_content: 'Hi {{token_name}}',
    });
    expect(template).toEqual({
      id: expect.any(Number),
      template_name: 'Price alert',
      channel_id: channel.id,
      topic_id: null,
      template_content: 'Hi {{token_name}}',
      message_type: 'custom',
      parse_mode: 'HTML',
      disable_web_preview: false,
      disable_notification: false,
      allow_pinning: false,
      pin_by_default: false,
      split_long_messages: false,
      enabled: true,
      description: '',
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      updated_by: 'admin',
    });
    expect((await call(admin, 'GET', `/templates/${template.id}`)).json()).toEqual(template);
    expectError(await call(admin, 'GET', '/templates/999999'), 404, 'not_found');
  });

  it.each([
    [{ template_content: 'x' }, 'template_name', MESSAGING_MESSAGES.templateNameRequired],
    [
      { template_name: 'A', template_content: 'x', channel_id: undefined },
      'channel_id',
      MESSAGING_MESSAGES.channelRequired,
    ],
    [{ template_name: 'A' }, 'template_content', MESSAGING_MESSAGES.contentRequired],
    [
      { template_name: 'A', template_content: '  \n' },
      'template_content',
      MESSAGING_MESSAGES.contentRequired,
    ],
    [
      { template_name: 'A', template_content: 'x'.repeat(20_001) },
      'template_content',
      MESSAGING_MESSAGES.contentTooLong,
    ],
    [
      { template_name: 'A', template_content: 'x', pin_by_default: true },
      'pin_by_default',
      MESSAGING_MESSAGES.pinNeedsAllowPinning,
    ],
    [{ template_name: 'A', template_content: 'x', message_type: 'news' }, 'message_type', expect.any(String)],
    [{ template_name: 'A', template_content: 'x', parse_mode: 'html' }, 'parse_mode', expect.any(String)],
  ])('validates %j', async (payload, path, message) => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const res = await call(admin, 'POST', '/templates', { channel_id: channel.id, ...payload });
    expect(expectError(res, 422, 'validation_failed').errors).toContainEqual({ path, message });
  });

  it('accepts Pin by Default with Allow Pinning, and checks the pair again on every save', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, {
      channel_id: channel.id,
      allow_pinning: true,
      pin_by_default: true,
    });
    expect(template).toMatchObject({ allow_pinning: true, pin_by_default: true });
    const res = await call(admin, 'PUT', `/templates/${template.id}`, { version: 1, allow_pinning: false });
    const body = expectError(res, 422, 'validation_failed');
    expect(body.errors).toEqual([
      { path: 'pin_by_default', message: MESSAGING_MESSAGES.pinNeedsAllowPinning },
    ]);
    expect(body.detail).toBe(MESSAGING_MESSAGES.pinNeedsAllowPinning);
  });

  it('requires an existing channel and a topic of that channel', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin, { channel_name: 'Alerts' });
    const other = await createChannel(t, admin);
    const foreign = await createTopic(t, admin, other.id, { topic_name: 'Elsewhere' });
    const base = { template_name: 'A', template_content: 'x' };

    const noChannel = expectError(
      await call(admin, 'POST', '/templates', { ...base, channel_id: 999_999 }),
      422,
    );
    expect(noChannel.errors).toEqual([{ path: 'channel_id', message: 'There is no channel 999999' }]);
    const wrongTopic = await call(admin, 'POST', '/templates', {
      ...base,
      channel_id: channel.id,
      topic_id: foreign.id,
    });
    expect(expectError(wrongTopic, 422).errors).toEqual([
      { path: 'topic_id', message: "The topic 'Elsewhere' belongs to another channel, not to 'Alerts'" },
    ]);
    const noTopic = await call(admin, 'POST', '/templates', {
      ...base,
      channel_id: channel.id,
      topic_id: 999_999,
    });
    expect(expectError(noTopic, 422).errors).toEqual([
      { path: 'topic_id', message: 'There is no topic 999999' },
    ]);

    const template = await createTemplate(t, admin, { channel_id: other.id, topic_id: foreign.id });
    // Moving to another channel without choosing one of its topics is refused, with the reason.
    expectError(
      await call(admin, 'PUT', `/templates/${template.id}`, { version: 1, channel_id: channel.id }),
      422,
    );
    const moved = await save(admin, template.id, { version: 1, channel_id: channel.id, topic_id: null });
    expect(moved).toMatchObject({ channel_id: channel.id, topic_id: null, version: 2 });
  });

  it('keeps template names unique without regard to case', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    await createTemplate(t, admin, { channel_id: channel.id, template_name: 'Daily digest' });
    const other = await createTemplate(t, admin, { channel_id: channel.id, template_name: 'Other' });
    const res = await call(admin, 'POST', '/templates', {
      channel_id: channel.id,
      template_name: 'DAILY DIGEST',
      template_content: 'x',
    });
    expect(expectError(res, 409, 'conflict').detail).toBe(
      "A message template named 'Daily digest' already exists",
    );
    expectError(
      await call(admin, 'PUT', `/templates/${other.id}`, { version: 1, template_name: 'daily digest' }),
      409,
    );
    // A change of case of its own name is not a clash.
    expect(await save(admin, other.id, { version: 1, template_name: 'OTHER' })).toMatchObject({
      template_name: 'OTHER',
    });
  });

  it('filters the list by channel, message type and enabled', async () => {
    const admin = await t.loginAdmin();
    const a = await createChannel(t, admin);
    const b = await createChannel(t, admin);
    await createTemplate(t, admin, { channel_id: a.id, template_name: 'A alert', message_type: 'alert' });
    await createTemplate(t, admin, {
      channel_id: a.id,
      template_name: 'A digest',
      message_type: 'digest',
      enabled: false,
    });
    await createTemplate(t, admin, { channel_id: b.id, template_name: 'B alert', message_type: 'alert' });
    const names = async (query: string) =>
      (await call(admin, 'GET', `/templates${query}`)).json<Template[]>().map((x) => x.template_name);
    expect(await names('')).toEqual(['A alert', 'A digest', 'B alert']);
    expect(await names(`?channel_id=${a.id}`)).toEqual(['A alert', 'A digest']);
    expect(await names('?message_type=alert')).toEqual(['A alert', 'B alert']);
    expect(await names('?enabled=false')).toEqual(['A digest']);
    expect(await names(`?channel_id=${a.id}&message_type=alert&enabled=true`)).toEqual(['A alert']);
    expectError(await call(admin, 'GET', '/templates?message_type=news'), 422);
  });

  it('keeps every version and restores an old one as a new version', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, {
      channel_id: channel.id,
      template_name: 'Alert',
      template_content: 'First {{token_name}}',
      description: 'v1',
    });
    const second = await save(admin, template.id, {
      version: 1,
      template_content: 'Second',
      parse_mode: 'MarkdownV2',
    });
    expect(second).toMatchObject({
      version: 2,
      template_content: 'Second',
      parse_mode: 'MarkdownV2',
      description: 'v1',
    });
    // Every save is a version, even one that changes nothing.
    const third = await save(admin, template.id, { version: 2 });
    expect(third.version).toBe(3);

    const versions = (await call(admin, 'GET', `/templates/${template.id}/versions`)).json<
      TemplateVersion[]
    >();
    expect(versions.map((v) => [v.version, v.action, v.changes])).toEqual([
      [3, 'updated', []],
      [2, 'updated', ['template_content', 'parse_mode']],
      [1, 'created', expect.arrayContaining(['template_name', 'template_content', 'pin_by_default'])],
    ]);
    const first = (await call(admin, 'GET', `/templates/${template.id}/versions/1`)).json<TemplateVersion>();
    expect(first).toMatchObject({
      version: 1,
      updated_by: 'admin',
      restored_from: null,
      snapshot: {
        template_name: 'Alert',
        template_content: 'First {{token_name}}',
        parse_mode: 'HTML',
        description: 'v1',
      },
    });
    expectError(await call(admin, 'GET', `/templates/${template.id}/versions/9`), 404, 'not_found');

    const restored = await call(admin, 'POST', `/templates/${template.id}/versions/1/restore`, {});
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<Template>()).toMatchObject({
      version: 4,
      template_content: 'First {{token_name}}',
      parse_mode: 'HTML',
    });
    const latest = (await call(admin, 'GET', `/templates/${template.id}/versions/4`)).json<TemplateVersion>();
    expect(latest).toMatchObject({
      action: 'restored',
      restored_from: 1,
      changes: ['template_content', 'parse_mode'],
    });
    expectError(await call(admin, 'POST', `/templates/${template.id}/versions/9/restore`, {}), 404);
  });

  describe('saving cannot break sending', () => {
    const BAD_MARKUP = '<b>bold {{token_name}}</i>';

    it('refuses content Telegram would refuse with its example data, with line and column', async () => {
      const admin = await t.loginAdmin();
      const channel = await createChannel(t, admin);
      const refused = expectError(
        await call(admin, 'POST', '/templates', {
          template_name: 'Market dashboard',
          channel_id: channel.id,
          template_content: `Prices\n${BAD_MARKUP}`,
        }),
        422,
        'validation_failed',
      );
      expect(refused.detail).toBe(
        "The template cannot be saved: Line 2, column 23: Telegram would refuse this message (can't parse entities): " +
          refused.errors![0]!.message.replace(
            /^Telegram would refuse this message \(can't parse entities\): /,
            '',
          ),
      );
      expect(refused.errors).toEqual([
        {
          path: 'template_content',
          message: expect.stringMatching(/^Telegram would refuse this message \(can't parse entities\): /),
          line: 2,
          column: 23,
        },
      ]);
      const list = await call(admin, 'GET', '/templates');
      expect(list.json<Template[]>()).toEqual([]);

      const tooLong = expectError(
        await call(admin, 'POST', '/templates', {
          template_name: 'Long',
          channel_id: channel.id,
          template_content: 'x'.repeat(5000),
        }),
        422,
      );
      expect(tooLong.detail).toMatch(/The message is 5000 characters once formatting is removed/);
      expect(tooLong.errors![0]).toEqual({ path: 'template_content', message: expect.any(String) });
      const syntax = expectError(
        await call(admin, 'POST', '/templates', {
          template_name: 'Syntax',
          channel_id: channel.id,
          template_content: 'Hi {{token_name',
        }),
        422,
      );
      expect(syntax.errors![0]).toMatchObject({ line: 1, column: expect.any(Number) });
    });

    it('saves content whose only problem is data without an example, and edits only when they render', async () => {
      const admin = await t.loginAdmin();
      const channel = await createChannel(t, admin);
      // 'announcement' is not in the catalogue, so the example data renders an empty message: a warning.
      const template = await createTemplate(t, admin, {
        channel_id: channel.id,
        template_content: '<b>{{announcement}}</b>',
      });
      expectError(
        await call(admin, 'PUT', `/templates/${template.id}`, { version: 1, template_content: BAD_MARKUP }),
        422,
      );
      expectError(
        await call(admin, 'PUT', `/templates/${template.id}`, {
          version: 1,
          template_content: '*bold',
          parse_mode: 'MarkdownV2',
        }),
        422,
      );
      expect((await call(admin, 'GET', `/templates/${template.id}`)).json<Template>()).toMatchObject({
        version: 1,
        template_content: '<b>{{announcement}}</b>',
      });
      // Settings alone save as before, and so does unchanged content.
      expect((await save(admin, template.id, { version: 1, enabled: false })).version).toBe(2);
    });

    it('saves content longer than one message only while the template splits long messages', async () => {
      const admin = await t.loginAdmin();
      const channel = await createChannel(t, admin);
      const long = `<b>Report</b>\n\n${'A line of the report.\n'.repeat(300)}`;
      const values = { template_name: 'Long report', channel_id: channel.id, template_content: long };
      const refused = expectError(await call(admin, 'POST', '/templates', values), 422);
      expect(refused.detail).toMatch(/Telegram allows at most 4096/);
      const created = await call(admin, 'POST', '/templates', { ...values, split_long_messages: true });
      expect(created.statusCode, created.body).toBe(201);
      const template = created.json<Template>();
      expect(template.split_long_messages).toBe(true);
      // Turning splitting off checks the content again.
      expectError(
        await call(admin, 'PUT', `/templates/${template.id}`, { version: 1, split_long_messages: false }),
        422,
      );
      expect((await save(admin, template.id, { version: 1, description: 'Daily' })).version).toBe(2);
    });

    it('refuses to restore a version that would no longer render into an accepted message', async () => {
      const admin = await t.loginAdmin();
      const channel = await createChannel(t, admin);
      const template = await createTemplate(t, admin, {
        channel_id: channel.id,
        template_content: 'Raw {{{token_name}}}',
      });
      await save(admin, template.id, { version: 1, template_content: 'Plain {{token_name}}' });
      const variables = await t.app.inject({
        method: 'GET',
        url: `${MESSAGING}/variables`,
        headers: admin.auth,
      });
      const tokenName = variables
        .json<{ id: number; variable_name: string }[]>()
        .find((v) => v.variable_name === 'token_name')!;
      const changed = await call(admin, 'PUT', `/variables/${tokenName.id}`, { example_value: '<b>Pepe' });
      expect(changed.statusCode, changed.body).toBe(200);
      const refused = expectError(
        await call(admin, 'POST', `/templates/${template.id}/versions/1/restore`, {}),
        422,
      );
      expect(refused.detail).toMatch(/^Version 1 cannot be restored: /);
      expect((await call(admin, 'GET', `/templates/${template.id}`)).json<Template>().version).toBe(2);
    });
  });

  it('refuses a stale save, restore or delete with 409 and the current template', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, { channel_id: channel.id, template_name: 'Shared' });
    await save(admin, template.id, { version: 1, template_content: 'Theirs' });

    const stale = await call(admin, 'PUT', `/templates/${template.id}`, {
      version: 1,
      template_content: 'Mine',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'conflict',
      detail:
        "admin saved 'Shared' since you loaded it (now version 2). Reload to see their change, then make yours again.",
      current: { id: template.id, version: 2, template_content: 'Theirs' },
    });
    const missingVersion = expectError(
      await call(admin, 'PUT', `/templates/${template.id}`, { template_content: 'x' }),
      422,
    );
    expect(missingVersion.errors).toEqual([{ path: 'version', message: MESSAGING_MESSAGES.versionRequired }]);
    for (const res of [
      await call(admin, 'POST', `/templates/${template.id}/versions/1/restore`, { version: 1 }),
      await call(admin, 'DELETE', `/templates/${template.id}?version=1`),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'conflict', current: { version: 2 } });
    }
    expect((await call(admin, 'GET', `/templates/${template.id}`)).json<Template>().template_content).toBe(
      'Theirs',
    );

    expect((await call(admin, 'DELETE', `/templates/${template.id}?version=2`)).json()).toEqual({ ok: true });
    expectError(await call(admin, 'GET', `/templates/${template.id}`), 404);
    expectError(await call(admin, 'GET', `/templates/${template.id}/versions`), 404);
  });

  it('lets one of two saves from the same version win at once, on either instance; the other gets 409', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, { channel_id: channel.id });
    const other = dialect === 'postgres' ? await t.secondInstance() : t.app;
    // Both instances have checked the sign-in already, so neither request waits on that.
    for (const app of [t.app, other]) {
      await app.inject({ method: 'GET', url: `${MESSAGING}/templates`, headers: admin.auth });
    }
    const results = await Promise.all(
      [t.app, other].map((app, index) =>
        app.inject({
          method: 'PUT',
          url: `${MESSAGING}/templates/${template.id}`,
          headers: admin.auth,
          payload: { version: 1, template_content: `Save ${index}` },
        }),
      ),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const versions = (await call(admin, 'GET', `/templates/${template.id}/versions`)).json<
      TemplateVersion[]
    >();
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
  });

  it('refuses to restore a version whose topic no longer exists', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const topic = await createTopic(t, admin, channel.id, { topic_name: 'Gone' });
    const template = await createTemplate(t, admin, { channel_id: channel.id, topic_id: topic.id });
    await save(admin, template.id, { version: 1, topic_id: null });
    expect((await call(admin, 'DELETE', `/channels/${channel.id}/topics/${topic.id}`)).statusCode).toBe(200);
    const res = await call(admin, 'POST', `/templates/${template.id}/versions/1/restore`);
    expect(expectError(res, 409).detail).toBe(
      `Version 1 cannot be restored as it is: There is no topic ${topic.id}`,
    );
  });

  it('audits creation, saves, restores and deletion', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, { channel_id: channel.id, template_content: 'One' });
    await save(admin, template.id, { version: 1, template_content: 'Two' });
    await call(admin, 'POST', `/templates/${template.id}/versions/1/restore`, {});
    await call(admin, 'DELETE', `/templates/${template.id}?version=3`);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/audit-logs', headers: admin.auth });
    const logs = res.json<AuditListResponse>().logs.filter((l) => l.action.startsWith('template.'));
    expect(logs.map((l) => l.action)).toEqual([
      'template.deleted',
      'template.restored',
      'template.updated',
      'template.created',
    ]);
    expect(logs[2]).toMatchObject({
      resource_type: 'template',
      resource_id: String(template.id),
      old_value: { version: 1, template_content: 'One' },
      new_value: { version: 2, template_content: 'Two' },
    });
  });

  it('deletes a template by marking it: gone from the lists, its name free, its versions kept', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, {
      channel_id: channel.id,
      template_name: 'Daily digest',
    });
    await save(admin, template.id, { version: 1, template_content: 'Second' });

    const missing = expectError(await call(admin, 'DELETE', `/templates/${template.id}`), 422);
    expect(missing.errors).toEqual([{ path: 'version', message: MESSAGING_MESSAGES.versionRequired }]);
    expect((await call(admin, 'DELETE', `/templates/${template.id}?version=2`)).json()).toEqual({ ok: true });

    expectError(await call(admin, 'GET', `/templates/${template.id}`), 404);
    expectError(await call(admin, 'PUT', `/templates/${template.id}`, { version: 2 }), 404);
    expectError(await call(admin, 'DELETE', `/templates/${template.id}?version=2`), 404);
    expect((await call(admin, 'GET', '/templates')).json<Template[]>()).toEqual([]);

    const again = await createTemplate(t, admin, { channel_id: channel.id, template_name: 'daily DIGEST' });
    expect(again.id).not.toBe(template.id);
    expect((await call(admin, 'GET', '/templates')).json<Template[]>().map((x) => x.id)).toEqual([again.id]);
    const clash = await call(admin, 'POST', '/templates', {
      channel_id: channel.id,
      template_name: 'Daily Digest',
      template_content: 'x',
    });
    expect(expectError(clash, 409).detail).toBe("A message template named 'daily DIGEST' already exists");

    const kept = await t.app.db
      .selectFrom('messaging_template_versions')
      .select('version')
      .where('template_id', '=', template.id)
      .orderBy('version')
      .execute();
    expect(kept.map((row) => row.version)).toEqual([1, 2]);
    const row = await t.app.db
      .selectFrom('messaging_templates')
      .select(['deleted_at', 'deleted_by'])
      .where('id', '=', template.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ deleted_at: expect.any(String), deleted_by: 'admin' });

    const res = await t.app.inject({ method: 'GET', url: '/api/admin/audit-logs', headers: admin.auth });
    const deleted = res.json<AuditListResponse>().logs.find((l) => l.action === 'template.deleted');
    expect(deleted).toMatchObject({
      resource_id: String(template.id),
      user: 'admin',
      old_value: { version: 2, template_name: 'Daily digest', template_content: 'Second' },
    });
  });

  it('lets the channel and topic of a deleted template be deleted', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const topic = await createTopic(t, admin, channel.id, { topic_name: 'News' });
    const other = await createTopic(t, admin, channel.id, { topic_name: 'Alerts', message_thread_id: 7 });
    const first = await createTemplate(t, admin, { channel_id: channel.id, topic_id: topic.id });
    const second = await createTemplate(t, admin, { channel_id: channel.id, topic_id: other.id });
    for (const template of [first, second]) {
      expect((await call(admin, 'DELETE', `/templates/${template.id}?version=1`)).statusCode).toBe(200);
    }
    expect((await call(admin, 'DELETE', `/channels/${channel.id}/topics/${topic.id}`)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/channels/${channel.id}`)).statusCode).toBe(200);
    const versions = await t.app.db
      .selectFrom('messaging_template_versions')
      .select('template_id')
      .where('template_id', 'in', [first.id, second.id])
      .execute();
    expect(versions).toHaveLength(2);
  });

  it('lets one of two deletes of the same template win, on either instance; the other finds it gone', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, { channel_id: channel.id });
    const other = dialect === 'postgres' ? await t.secondInstance() : t.app;
    for (const app of [t.app, other]) {
      await app.inject({ method: 'GET', url: `${MESSAGING}/templates`, headers: admin.auth });
    }
    const results = await Promise.all(
      [t.app, other].map((app) =>
        app.inject({
          method: 'DELETE',
          url: `${MESSAGING}/templates/${template.id}?version=1`,
          headers: admin.auth,
        }),
      ),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 404]);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/audit-logs', headers: admin.auth });
    const logs = res.json<AuditListResponse>().logs.filter((l) => l.action === 'template.deleted');
    expect(logs).toHaveLength(1);
  });

  it('lets a viewer read but not change templates', async () => {
    const admin = await t.loginAdmin();
    const viewer = await t.signInAs(['viewer']);
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, { channel_id: channel.id });
    expect((await call(viewer, 'GET', `/templates/${template.id}`)).statusCode).toBe(200);
    const refused = expectError(await call(viewer, 'PUT', `/templates/${template.id}`, { version: 1 }), 403);
    expect(refused.detail).toContain('templates:write');
    expectError(await call(viewer, 'DELETE', `/templates/${template.id}?version=1`), 403);
    expect((await call(viewer, 'GET', `/templates/${template.id}`)).statusCode).toBe(200);
  });
});
