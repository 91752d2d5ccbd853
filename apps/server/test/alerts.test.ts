import {
  DEFAULT_ALERT_TEMPLATE_NAME,
  type AlertEvaluation,
  type AlertHistoryResponse,
  type AlertRule,
  type AlertSummary,
  type AuditListResponse,
  type Channel,
  type ContactPoint,
  type ContactPointListResponse,
  type Silence,
  type Template,
} from '@lumi/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALERTS, createRule, createTelegramPoint, createWebhookPoint, runPass } from './alerts-helper.js';
import { createTestApp, dialects, expectError, type Session, type TestApp } from './helper.js';
import { createChannel, createTemplate, createTopic, MESSAGING } from './messaging-helper.js';
import { botKey, events, ingest } from './telemetry-helper.js';

const START = Date.parse('2026-11-26T09:00:00.000Z');
const HOOK_URL = 'https://hooks.example.com/lumi';

describe.each(dialects)('the alerts API on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let now = START;

  beforeEach(async () => {
    now = START;
    t = await createTestApp({ dialect, app: { now: () => now } });
    admin = await t.loginAdmin();
  });
  afterEach(async () => {
    await t?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    auth = admin.auth,
  ) => t.app.inject({ method, url: `${ALERTS}${url}`, headers: auth, payload });
  const auditActions = async (resourceType: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/audit-logs?resource_type=${resourceType}`,
      headers: admin.auth,
    });
    return res
      .json<AuditListResponse>()
      .logs.map((l) => l.action)
      .sort();
  };
  const heartbeat = async (status: string) => {
    const key = await botKey(t);
    await ingest(t.app, key, [events.heartbeat(now, { telegram_status: status })]);
  };

  it('creates, reads, lists, edits and deletes a rule, every change audited', async () => {
    const hook = await createWebhookPoint(t, admin, HOOK_URL);
    const rule = await createRule(t, admin, {
      name: 'Bot offline',
      condition: { type: 'heartbeat_missing', seconds: 60 },
      severity: 'critical',
      pending_seconds: 30,
      contact_point_ids: [hook.id, hook.id],
    });
    expect(rule).toMatchObject({
      name: 'Bot offline',
      condition: { type: 'heartbeat_missing', seconds: 60 },
      severity: 'critical',
      pending_seconds: 30,
      no_data: 'keep',
      renotify_minutes: 0,
      notify_on_resolve: true,
      contact_point_ids: [hook.id],
      enabled: true,
      state: 'ok',
      last_evaluation: null,
      last_evaluated_at: null,
      silenced: false,
      // What to do when it fires, as the console and an alert's link show it (contract's next-steps.ts).
      next_step: { label: 'Open the Overview', to: '/overview' },
      updated_by: 'admin',
    });
    expect(rule.next_step.text).toMatch(/^Check that the bot is running/);
    expect((await call('GET', `/rules/${rule.id}`)).json()).toEqual(rule);
    expect((await call('GET', '/rules')).json<{ rules: AlertRule[] }>().rules).toEqual([rule]);

    // Fields left out keep their values.
    const edited = await call('PUT', `/rules/${rule.id}`, { severity: 'warning', renotify_minutes: 15 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<AlertRule>()).toMatchObject({
      name: 'Bot offline',
      condition: { type: 'heartbeat_missing', seconds: 60 },
      next_step: { to: '/overview' },
      severity: 'warning',
      renotify_minutes: 15,
      pending_seconds: 30,
      contact_point_ids: [hook.id],
    });

    const removed = await call('DELETE', `/rules/${rule.id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expectError(await call('GET', `/rules/${rule.id}`), 404);
    expectError(await call('PUT', `/rules/${rule.id}`, { name: 'Gone' }), 404);
    expectError(await call('DELETE', `/rules/${rule.id}`), 404);
    expect(await auditActions('alert_rule')).toEqual([
      'alert_rule.created',
      'alert_rule.deleted',
      'alert_rule.updated',
    ]);
  });

  it('refuses rules it cannot keep with a detail that says why', async () => {
    const hook = await createWebhookPoint(t, admin, HOOK_URL);
    const post = (payload: object) =>
      call('POST', '/rules', { name: 'R', condition: { type: 'telegram_disconnected' }, ...payload });

    const missing = expectError(await post({ contact_point_ids: [hook.id, 999998, 999999] }), 422);
    expect(missing.detail).toBe('There are no contact points 999998, 999999');
    expect(missing.errors).toEqual([{ path: 'contact_point_ids', message: missing.detail }]);
    expect(expectError(await post({ contact_point_ids: [] }), 422).detail).toBe(
      'Choose at least one contact point, or disable the rule',
    );
    // A disabled rule may wait for its contact points.
    expect((await post({ contact_point_ids: [], enabled: false })).statusCode).toBe(201);

    const invalid = [
      { name: '', contact_point_ids: [hook.id] },
      { name: 'x'.repeat(201), contact_point_ids: [hook.id] },
      { name: 'Bell\u0007', contact_point_ids: [hook.id] },
      { condition: { type: 'nope' }, contact_point_ids: [hook.id] },
      { condition: { type: 'heartbeat_missing', seconds: 5 }, contact_point_ids: [hook.id] },
      { condition: { type: 'errors', count: -1, minutes: 5 }, contact_point_ids: [hook.id] },
      { condition: { type: 'errors', count: 1, minutes: 1441 }, contact_point_ids: [hook.id] },
      { condition: { type: 'budget_usage', provider: '', percent: 80 }, contact_point_ids: [hook.id] },
      { pending_seconds: 1.5, contact_point_ids: [hook.id] },
      { contact_point_ids: Array.from({ length: 11 }, (_, i) => i + 1) },
      { severity: 'fatal', contact_point_ids: [hook.id] },
    ];
    for (const payload of invalid) {
      const res = await post(payload);
      const body = expectError(res, res.statusCode === 400 ? 400 : 422);
      expect(body.detail, JSON.stringify(payload)).not.toMatch(/internal|undefined|stack/i);
    }
    const rule = await createRule(t, admin, { contact_point_ids: [hook.id] });
    expect(
      expectError(await call('PUT', `/rules/${rule.id}`, { contact_point_ids: [424242] }), 422).detail,
    ).toBe('There is no contact point 424242');
    expectError(await call('GET', '/rules/abc'), 422);
  });

  it('stores hostile names verbatim', async () => {
    const name = `<b>Bot</b> & "friends" ' <script>alert(1)</script> 🤖 ${'é'.repeat(100)}`;
    const hook = await createWebhookPoint(t, admin, `${HOOK_URL}?a=1&b=<2>`, name);
    expect(hook.name).toBe(name);
    expect(hook.url).toBe(`${HOOK_URL}?a=1&b=<2>`);
    const rule = await createRule(t, admin, {
      name,
      condition: { type: 'errors', count: 1, minutes: 5, source: '<img src=x>' },
      contact_point_ids: [hook.id],
    });
    expect((await call('GET', `/rules/${rule.id}`)).json<AlertRule>()).toMatchObject({
      name,
      condition: { source: '<img src=x>' },
    });
  });

  it('gives a webhook a secret once, refuses contact points it cannot reach and deletes one no rule uses', async () => {
    const hook = await createWebhookPoint(t, admin, HOOK_URL, 'Ops hook');
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
    const read = (await call('GET', `/contact-points/${hook.id}`)).json<ContactPoint>();
    expect(read).not.toHaveProperty('secret');
    expect(read).toMatchObject({ name: 'Ops hook', type: 'webhook', url: HOOK_URL, rule_count: 0 });
    const listed = (await call('GET', '/contact-points')).json<ContactPointListResponse>();
    expect(JSON.stringify(listed)).not.toContain(hook.secret!);
    const other = await createWebhookPoint(t, admin, HOOK_URL);
    expect(other.secret).not.toBe(hook.secret);

    for (const url of ['ftp://example.com/x', 'example.com/hook', 'http://', 'https://exa mple.com']) {
      const res = await call('POST', '/contact-points', { name: 'Bad', type: 'webhook', url });
      expect(expectError(res, 422).detail).toMatch(/http:\/\/ or https:\/\//);
    }
    expectError(await call('POST', '/contact-points', { name: 'Bad', type: 'email' }), 422);
    const noChannel = await call('POST', '/contact-points', {
      name: 'Chat',
      type: 'telegram',
      channel_id: 999999,
    });
    expect(expectError(noChannel, 422).errors).toEqual([
      { path: 'channel_id', message: 'There is no channel 999999' },
    ]);

    const channel = await createChannel(t, admin);
    const elsewhere = await createChannel(t, admin);
    const topic = await createTopic(t, admin, elsewhere.id);
    const wrongTopic = await call('POST', '/contact-points', {
      name: 'Chat',
      type: 'telegram',
      channel_id: channel.id,
      topic_id: topic.id,
    });
    expect(expectError(wrongTopic, 422).errors?.[0]?.path).toBe('topic_id');
    const noTemplate = await call('POST', '/contact-points', {
      name: 'Chat',
      type: 'telegram',
      channel_id: channel.id,
      template_id: 999999,
    });
    expect(expectError(noTemplate, 422).errors?.[0]).toEqual({
      path: 'template_id',
      message: 'There is no message template 999999',
    });

    // Fields of the other type are refused; the others keep their values.
    expect(
      expectError(await call('PUT', `/contact-points/${hook.id}`, { channel_id: channel.id }), 422)
        .errors?.[0]?.path,
    ).toBe('channel_id');
    const renamed = await call('PUT', `/contact-points/${hook.id}`, { name: 'Ops hook 2' });
    expect(renamed.json<ContactPoint>()).toMatchObject({ name: 'Ops hook 2', url: HOOK_URL });

    const rules = [
      await createRule(t, admin, { name: 'Beta', contact_point_ids: [hook.id] }),
      await createRule(t, admin, { name: 'Alpha', contact_point_ids: [hook.id, other.id] }),
    ];
    expect((await call('GET', `/contact-points/${hook.id}`)).json<ContactPoint>().rule_count).toBe(2);
    const refused = expectError(await call('DELETE', `/contact-points/${hook.id}`), 409);
    expect(refused.detail).toBe(
      "The contact point 'Ops hook 2' is used by 2 rules: 'Alpha', 'Beta'. Choose another contact point for them or delete them first.",
    );
    for (const rule of rules) expect((await call('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/contact-points/${hook.id}`)).statusCode).toBe(204);
    expectError(await call('GET', `/contact-points/${hook.id}`), 404);
    expectError(await call('GET', `/contact-points/${hook.id}/notifications`), 404);
    expectError(await call('POST', `/contact-points/${hook.id}/test`), 404);

    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?resource_type=alert_contact_point',
      headers: admin.auth,
    });
    expect(audit.body).not.toContain(hook.secret!);
    expect(
      audit
        .json<AuditListResponse>()
        .logs.map((l) => l.action)
        .sort(),
    ).toEqual([
      'alert_contact_point.created',
      'alert_contact_point.created',
      'alert_contact_point.deleted',
      'alert_contact_point.updated',
    ]);
  });

  it('makes the alert template on the first Telegram contact point without one, once, even when asked in parallel', async () => {
    const channel = await createChannel(t, admin);
    const templates = async () =>
      (await t.app.inject({ method: 'GET', url: `${MESSAGING}/templates`, headers: admin.auth })).json<
        Template[]
      >();
    expect((await templates()).map((tpl) => tpl.template_name)).toEqual([]);
    const made = await Promise.all(
      Array.from({ length: 4 }, () => createTelegramPoint(t, admin, { channel_id: channel.id })),
    );
    expect(made.every((point) => point.secret === null && point.template_id === null)).toBe(true);
    const alertTemplates = (await templates()).filter(
      (tpl) => tpl.template_name === DEFAULT_ALERT_TEMPLATE_NAME,
    );
    expect(alertTemplates).toHaveLength(1);
    expect(alertTemplates[0]).toMatchObject({
      channel_id: channel.id,
      parse_mode: 'HTML',
      message_type: 'alert',
    });

    // One of its own is kept as it is.
    const own = await createTemplate(t, admin, { channel_id: channel.id });
    const point = await createTelegramPoint(t, admin, { channel_id: channel.id, template_id: own.id });
    expect(point).toMatchObject({ template_id: own.id, template_name: own.template_name });
    expect(
      (await templates()).filter((tpl) => tpl.template_name === DEFAULT_ALERT_TEMPLATE_NAME),
    ).toHaveLength(1);
  });

  it('refuses to delete a channel or topic a Telegram contact point posts to, naming it', async () => {
    const channel = await createChannel(t, admin);
    const topic = await createTopic(t, admin, channel.id);
    const chat = await createTelegramPoint(t, admin, {
      channel_id: channel.id,
      topic_id: topic.id,
      name: 'Ops <chat>',
    });
    const removeTopic = () =>
      t.app.inject({
        method: 'DELETE',
        url: `${MESSAGING}/channels/${channel.id}/topics/${topic.id}`,
        headers: admin.auth,
      });
    expect(expectError(await removeTopic(), 409).detail).toMatch(/used by the contact point 'Ops <chat>'/);
    // The alert template made with the contact point posts to the channel too: it is named first.
    const template = (
      await t.app.inject({ method: 'GET', url: `${MESSAGING}/templates`, headers: admin.auth })
    )
      .json<Template[]>()
      .find((candidate) => candidate.template_name === DEFAULT_ALERT_TEMPLATE_NAME)!;
    await t.app.inject({
      method: 'PUT',
      url: `${MESSAGING}/templates/${template.id}`,
      headers: admin.auth,
      payload: { channel_id: (await createChannel(t, admin)).id, version: template.version },
    });
    const removeChannel = () =>
      t.app.inject({ method: 'DELETE', url: `${MESSAGING}/channels/${channel.id}`, headers: admin.auth });
    expect(expectError(await removeChannel(), 409).detail).toMatch(/used by the contact point 'Ops <chat>'/);

    expect((await call('DELETE', `/contact-points/${chat.id}`)).statusCode).toBe(204);
    expect((await removeTopic()).statusCode).toBe(200);
    expect((await removeChannel()).statusCode).toBe(200);
  });

  it('never links a rule to a contact point deleted at the same time', async () => {
    for (let round = 0; round < 5; round += 1) {
      const hook = await createWebhookPoint(t, admin, HOOK_URL);
      const [rule, removed] = await Promise.all([
        call('POST', '/rules', {
          name: `Race ${round}`,
          condition: { type: 'telegram_disconnected' },
          contact_point_ids: [hook.id],
        }),
        call('DELETE', `/contact-points/${hook.id}`),
      ]);
      // Either the rule came first (and the delete is refused) or the delete did (and the rule is refused).
      expect([rule.statusCode, removed.statusCode].sort(), `${rule.body} ${removed.body}`).toEqual(
        rule.statusCode === 201 ? [201, 409] : [204, 422],
      );
    }
  });

  it('keeps silences: one rule or one severity, once or recurring, with their status', async () => {
    const hook = await createWebhookPoint(t, admin, HOOK_URL);
    const rule = await createRule(t, admin, { severity: 'critical', contact_point_ids: [hook.id] });
    const once = await call('POST', '/silences', {
      kind: 'once',
      rule_id: rule.id,
      comment: 'Deploying <v2> & more',
      ends_at: '2026-11-26T11:00:00+01:00',
    });
    expect(once.statusCode, once.body).toBe(201);
    expect(once.json<Silence>()).toMatchObject({
      kind: 'once',
      rule_id: rule.id,
      rule_name: rule.name,
      severity: null,
      comment: 'Deploying <v2> & more',
      starts_at: '2026-11-26T09:00:00.000Z',
      ends_at: '2026-11-26T10:00:00.000Z',
      status: 'active',
      next_change_at: '2026-11-26T10:00:00.000Z',
      created_by: 'admin',
    });
    const silence = once.json<Silence>();
    const extended = await call('PUT', `/silences/${silence.id}`, {
      kind: 'once',
      rule_id: rule.id,
      comment: 'Deploying',
      starts_at: silence.starts_at,
      ends_at: '2026-11-26T11:00:00Z',
    });
    expect(extended.json<Silence>()).toMatchObject({
      comment: 'Deploying',
      status: 'active',
      next_change_at: '2026-11-26T11:00:00.000Z',
    });
    expect((await call('GET', `/rules/${rule.id}`)).json<AlertRule>().silenced).toBe(true);

    const weekly = await call('POST', '/silences', {
      kind: 'recurring',
      severity: 'warning',
      comment: 'Sunday maintenance',
      weekdays: ['sunday'],
      start_time: '02:00',
      duration_minutes: 60,
      timezone: 'Europe/Berlin',
    });
    expect(weekly.statusCode, weekly.body).toBe(201);
    expect(weekly.json<Silence>()).toMatchObject({
      kind: 'recurring',
      weekdays: ['sunday'],
      start_time: '02:00',
      duration_minutes: 60,
      timezone: 'Europe/Berlin',
      status: 'scheduled',
      // Sunday 29 November 2026, 02:00 in Berlin (UTC+1).
      next_change_at: '2026-11-29T01:00:00.000Z',
    });

    expect(
      expectError(
        await call('POST', '/silences', {
          kind: 'once',
          rule_id: 999999,
          comment: 'x',
          ends_at: '2026-12-01T00:00:00Z',
        }),
        422,
      ).errors,
    ).toEqual([{ path: 'rule_id', message: 'There is no alert rule 999999' }]);
    const bad = [
      { kind: 'once', rule_id: rule.id, severity: 'warning', comment: 'x', ends_at: '2026-12-01T00:00:00Z' },
      { kind: 'once', comment: '', ends_at: '2026-12-01T00:00:00Z' },
      { kind: 'once', comment: 'x', ends_at: 'tomorrow' },
      { kind: 'once', comment: 'x', starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' },
      { kind: 'recurring', comment: 'x', weekdays: [], start_time: '02:00', duration_minutes: 60 },
      { kind: 'recurring', comment: 'x', weekdays: ['sunday'], start_time: '24:00', duration_minutes: 60 },
      {
        kind: 'recurring',
        comment: 'x',
        weekdays: ['sunday'],
        start_time: '02:00',
        duration_minutes: 60,
        timezone: 'Mars/Base',
      },
    ];
    for (const payload of bad) expectError(await call('POST', '/silences', payload), 422);

    const list = (await call('GET', '/silences')).json<{ silences: Silence[] }>().silences;
    expect(list.map((s) => s.id).sort()).toEqual([silence.id, weekly.json<Silence>().id].sort());
    expect((await call('DELETE', `/silences/${silence.id}`)).statusCode).toBe(204);
    expectError(await call('GET', `/silences/${silence.id}`), 404);
    expect((await call('GET', `/rules/${rule.id}`)).json<AlertRule>().silenced).toBe(false);
    expect(await auditActions('alert_silence')).toEqual([
      'alert_silence.created',
      'alert_silence.created',
      'alert_silence.deleted',
      'alert_silence.updated',
    ]);
  });

  it('previews a condition, sums up what fires and keeps the history with filters and pages', async () => {
    const hook = await createWebhookPoint(t, admin, HOOK_URL);
    const preview = await call('POST', '/rules/preview', { condition: { type: 'telegram_disconnected' } });
    expect(preview.json<AlertEvaluation>()).toMatchObject({ holds: null, value: null });
    expectError(await call('POST', '/rules/preview', { condition: { type: 'errors', minutes: 5 } }), 422);

    const warning = await createRule(t, admin, { name: 'Warn', contact_point_ids: [hook.id] });
    const critical = await createRule(t, admin, {
      name: 'Crit',
      severity: 'critical',
      contact_point_ids: [hook.id],
    });
    const slow = await createRule(t, admin, {
      name: 'Slow',
      pending_seconds: 600,
      contact_point_ids: [hook.id],
    });

    await heartbeat('disconnected');
    expect(
      (await call('POST', '/rules/preview', { condition: { type: 'telegram_disconnected' } })).json(),
    ).toMatchObject({ holds: true, value: 1 });
    await runPass(t.app);
    const summary = (await call('GET', '/summary')).json<AlertSummary>();
    expect(summary).toMatchObject({ firing: 2, pending: 1 });
    expect(summary.firing_rules.map((r) => r.name)).toEqual(['Crit', 'Warn']);
    expect(summary.firing_rules[0]).toMatchObject({
      id: critical.id,
      severity: 'critical',
      since: '2026-11-26T09:00:00.000Z',
      summary: expect.stringMatching(/^Telegram status disconnected/),
    });
    const got = (await call('GET', `/rules/${warning.id}`)).json<AlertRule>();
    expect(got).toMatchObject({
      state: 'firing',
      state_since: '2026-11-26T09:00:00.000Z',
      last_evaluated_at: '2026-11-26T09:00:00.000Z',
      last_evaluation: { value: 1, threshold: 1, unit: 'bool', holds: true },
    });

    now += 60_000;
    await heartbeat('connected');
    await runPass(t.app);
    // Disabling a firing rule sets it back to ok at once.
    now += 60_000;
    await heartbeat('disconnected');
    await runPass(t.app);
    const disabled = await call('PUT', `/rules/${critical.id}`, { enabled: false });
    expect(disabled.json<AlertRule>()).toMatchObject({ enabled: false, state: 'ok' });

    const history = async (query: string) =>
      (await call('GET', `/history${query}`)).json<AlertHistoryResponse>();
    const all = await history('');
    // Newest first; a pass takes the rules by name.
    expect(all.entries.map((e) => [e.rule_name, e.from_state, e.to_state])).toEqual([
      ['Crit', 'firing', 'ok'],
      ['Warn', 'ok', 'firing'],
      ['Slow', 'ok', 'pending'],
      ['Crit', 'ok', 'firing'],
      ['Warn', 'firing', 'ok'],
      ['Slow', 'pending', 'ok'],
      ['Crit', 'firing', 'ok'],
      ['Warn', 'ok', 'firing'],
      ['Slow', 'ok', 'pending'],
      ['Crit', 'ok', 'firing'],
    ]);
    expect(all.entries[0]).toMatchObject({
      rule_name: 'Crit',
      to_state: 'ok',
      summary: 'The rule was disabled',
    });

    const firing = await history(`?state=firing&severity=warning&rule_id=${warning.id}`);
    expect(firing.entries.map((e) => [e.rule_id, e.to_state, e.value, e.threshold, e.silenced])).toEqual([
      [warning.id, 'firing', 1, 1, false],
      [warning.id, 'firing', 1, 1, false],
    ]);
    const windowed = await history('?from=2026-11-26T09:01:00Z&to=2026-11-26T10:02:00%2B01:00');
    expect(windowed.entries.map((e) => e.at)).toEqual(Array(3).fill('2026-11-26T09:01:00.000Z'));

    const first = await history('?limit=4');
    expect(first.entries).toHaveLength(4);
    const second = await history(`?limit=4&cursor=${first.next_cursor}`);
    const third = await history(`?limit=4&cursor=${second.next_cursor}`);
    expect(third.next_cursor).toBeNull();
    expect([...first.entries, ...second.entries, ...third.entries].map((e) => e.id)).toEqual(
      all.entries.map((e) => e.id),
    );
    expect((await history(`?rule_id=${slow.id}&state=pending`)).entries).toHaveLength(2);
    for (const query of ['?limit=0', '?limit=201', '?state=firingish', '?cursor=-1', '?from=yesterday']) {
      expectError(await call('GET', `/history${query}`), 422);
    }

    // The history outlives the rule.
    expect((await call('DELETE', `/rules/${warning.id}`)).statusCode).toBe(204);
    expect((await history(`?rule_id=${warning.id}`)).entries).toHaveLength(3);
  });

  it('tells a rule that was never evaluated from one evaluated OK', async () => {
    const hook = await createWebhookPoint(t, admin, HOOK_URL);
    const evaluated = await createRule(t, admin, { contact_point_ids: [hook.id] });
    const disabled = await createRule(t, admin, { contact_point_ids: [hook.id], enabled: false });
    expect(evaluated).toMatchObject({ state: 'ok', last_evaluated_at: null, last_evaluation: null });

    await heartbeat('connected');
    now += 30_000;
    await runPass(t.app);
    const rules = (await call('GET', '/rules')).json<{ rules: AlertRule[] }>().rules;
    expect(rules.find((r) => r.id === evaluated.id)).toMatchObject({
      state: 'ok',
      last_evaluated_at: '2026-11-26T09:00:30.000Z',
      last_evaluation: { holds: false },
    });
    // A disabled rule is not evaluated, so it still says it never was.
    expect(rules.find((r) => r.id === disabled.id)).toMatchObject({ state: 'ok', last_evaluated_at: null });
  });

  it('lets a viewer read and refuses them a change', async () => {
    const viewer = await t.signInAs(['viewer']);
    expect((await call('GET', '/rules', undefined, viewer.auth)).statusCode).toBe(200);
    expectError(
      await call('POST', '/contact-points', { name: 'x', type: 'webhook', url: HOOK_URL }, viewer.auth),
      403,
    );
    const operator = await t.signInAs(['operator']);
    expect(
      (await call('POST', '/contact-points', { name: 'x', type: 'webhook', url: HOOK_URL }, operator.auth))
        .statusCode,
    ).toBe(201);
  });

  it('seeds the alert template at start-up on the first channel', async () => {
    const first: Channel = await createChannel(t, admin);
    await createChannel(t, admin);
    await t.app.services.alerts.templates.seed();
    await t.app.services.alerts.templates.seed();
    const templates = (
      await t.app.inject({ method: 'GET', url: `${MESSAGING}/templates`, headers: admin.auth })
    ).json<Template[]>();
    expect(templates.map((tpl) => [tpl.template_name, tpl.channel_id])).toEqual([
      [DEFAULT_ALERT_TEMPLATE_NAME, first.id],
    ]);
  });
});
