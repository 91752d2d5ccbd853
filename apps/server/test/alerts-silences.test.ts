import {
  ALERT_MESSAGES,
  type AlertRule,
  type AlertSummary,
  type AuditListResponse,
  type Silence,
} from '@lumi/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALERTS, createRule, createWebhookPoint, runPass } from './alerts-helper.js';
import { createTestApp, dialects, expectError, type Session, type TestApp } from './helper.js';
import { botKey, events, ingest, MINUTE } from './telemetry-helper.js';

const START = Date.parse('2026-11-26T09:00:00.000Z');
const HOOK_URL = 'https://hooks.example.com/lumi';

/** Silences that are edited after they are made: extended, ended now, refused when they would mute nothing. */
describe.each(dialects)('alert silences on %s', (dialect) => {
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

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `${ALERTS}${url}`, headers: admin.auth, payload });
  const silenceOf = async (id: number) => (await call('GET', `/silences/${id}`)).json<Silence>();
  const ruleOf = async (id: number) => (await call('GET', `/rules/${id}`)).json<AlertRule>();
  const createOnce = async (values: object = {}) => {
    const res = await call('POST', '/silences', {
      kind: 'once',
      comment: 'Deploying',
      ends_at: '2026-11-26T10:00:00Z',
      ...values,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Silence>();
  };
  /** The PUT body that keeps a silence as it is but for `changes`. */
  const replacing = (silence: Silence, changes: object) => ({
    kind: silence.kind,
    rule_id: silence.rule_id,
    severity: silence.severity,
    comment: silence.comment,
    starts_at: silence.starts_at,
    ends_at: silence.ends_at,
    ...changes,
  });
  const auditOf = async (id: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?resource_type=alert_silence',
      headers: admin.auth,
    });
    return res
      .json<AuditListResponse>()
      .logs.filter((log) => log.resource_id === String(id))
      .reverse();
  };

  it('refuses a once silence that ends before its start or has ended already, with the message on its end', async () => {
    const refused = async (method: 'POST' | 'PUT', url: string, payload: object, message: string) => {
      const body = expectError(await call(method, url, payload), 422, 'validation_failed');
      expect(body.errors).toEqual([{ path: 'ends_at', message }]);
    };
    const beforeStart = {
      kind: 'once',
      comment: 'x',
      starts_at: '2026-11-27T10:00:00Z',
      ends_at: '2026-11-27T09:00:00Z',
    };
    await refused('POST', '/silences', beforeStart, ALERT_MESSAGES.endsAfterStart);
    for (const ends_at of ['2026-11-26T08:59:59Z', '2026-11-26T09:00:00Z', '2026-11-26T10:00:00+01:00']) {
      await refused('POST', '/silences', { kind: 'once', comment: 'x', ends_at }, ALERT_MESSAGES.endsPassed);
    }
    // A start in the past is fine while the end is still ahead.
    await createOnce({ starts_at: '2026-11-26T08:00:00Z' });

    const silence = await createOnce();
    await refused('PUT', `/silences/${silence.id}`, { ...beforeStart }, ALERT_MESSAGES.endsAfterStart);
    now += 30 * MINUTE;
    await refused(
      'PUT',
      `/silences/${silence.id}`,
      replacing(silence, { ends_at: '2026-11-26T09:15:00Z' }),
      ALERT_MESSAGES.endsPassed,
    );
    expect(await silenceOf(silence.id)).toMatchObject({ ends_at: silence.ends_at, status: 'active' });
    expectError(await call('PUT', '/silences/999999', replacing(silence, {})), 404);
    // `now` ends a silence in an edit only: a new one would mute nothing.
    expectError(await call('POST', '/silences', { kind: 'once', comment: 'x', ends_at: 'now' }), 422);
  });

  it('extends a silence and ends it now, keeping it expired, each change audited', async () => {
    const hook = await createWebhookPoint(t, admin, HOOK_URL);
    const rule = await createRule(t, admin, { contact_point_ids: [hook.id] });
    const silence = await createOnce({ rule_id: rule.id });
    expect(silence).toMatchObject({ status: 'active', next_change_at: '2026-11-26T10:00:00.000Z' });

    now += 50 * MINUTE;
    const extended = await call('PUT', `/silences/${silence.id}`, {
      ...replacing(silence, { ends_at: '2026-11-26T12:00:00Z' }),
    });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json<Silence>()).toMatchObject({
      starts_at: '2026-11-26T09:00:00.000Z',
      ends_at: '2026-11-26T12:00:00.000Z',
      status: 'active',
      next_change_at: '2026-11-26T12:00:00.000Z',
    });
    now += 20 * MINUTE;
    expect(await ruleOf(rule.id)).toMatchObject({ silenced: true });

    const ended = await call('PUT', `/silences/${silence.id}`, replacing(silence, { ends_at: 'now' }));
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json<Silence>()).toMatchObject({
      starts_at: '2026-11-26T09:00:00.000Z',
      ends_at: '2026-11-26T10:10:00.000Z',
      status: 'expired',
      next_change_at: null,
    });
    expect(await ruleOf(rule.id)).toMatchObject({ silenced: false });
    const again = expectError(
      await call('PUT', `/silences/${silence.id}`, replacing(silence, { ends_at: 'now' })),
      409,
      'conflict',
    );
    expect(again.detail).toBe('The silence has already ended');

    expect((await auditOf(silence.id)).map((log) => [log.action, log.new_value])).toEqual([
      ['alert_silence.created', expect.objectContaining({ ends_at: '2026-11-26T10:00:00.000Z' })],
      ['alert_silence.updated', expect.objectContaining({ ends_at: '2026-11-26T12:00:00.000Z' })],
      ['alert_silence.updated', expect.objectContaining({ ends_at: '2026-11-26T10:10:00.000Z' })],
    ]);

    // An ended silence can be given a later end again.
    const renewed = await call(
      'PUT',
      `/silences/${silence.id}`,
      replacing(silence, { ends_at: '2026-11-26T11:00:00Z' }),
    );
    expect(renewed.json<Silence>()).toMatchObject({ status: 'active' });
  });

  it('ends now only an active silence that runs until a time', async () => {
    const scheduled = await createOnce({
      starts_at: '2026-11-27T09:00:00Z',
      ends_at: '2026-11-27T10:00:00Z',
    });
    const window = await call('POST', '/silences', {
      kind: 'recurring',
      comment: 'Maintenance',
      weekdays: ['thursday'],
      start_time: '08:30',
      duration_minutes: 60,
      timezone: 'UTC',
    });
    expect(window.json<Silence>()).toMatchObject({ status: 'active' });
    const endNow = { kind: 'once', comment: 'x', starts_at: '2026-11-26T08:30:00Z', ends_at: 'now' };
    for (const id of [scheduled.id, window.json<Silence>().id]) {
      const refused = expectError(await call('PUT', `/silences/${id}`, endNow), 409, 'conflict');
      expect(refused.detail).toBe(
        'Only an active silence that runs until a time can end now; delete it instead',
      );
    }
    expect(await silenceOf(scheduled.id)).toEqual(scheduled);

    // Its start stays before the end: a start left out (now) or later is refused.
    const active = await createOnce();
    for (const starts_at of [null, '2026-11-26T09:30:00Z']) {
      const refused = expectError(
        await call('PUT', `/silences/${active.id}`, replacing(active, { starts_at, ends_at: 'now' })),
        422,
      );
      expect(refused.errors).toEqual([{ path: 'ends_at', message: ALERT_MESSAGES.endsAfterStart }]);
    }
  });

  it('answers identical edits sent at once: every extension is kept, one End now ends it and the rest 409', async () => {
    const silence = await createOnce();
    const extend = replacing(silence, { ends_at: '2026-11-26T12:00:00Z' });
    const extensions = await Promise.all(
      Array.from({ length: 6 }, () => call('PUT', `/silences/${silence.id}`, extend)),
    );
    expect(extensions.map((res) => res.statusCode)).toEqual(Array(6).fill(200));

    now += 10 * MINUTE;
    const ends = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('PUT', `/silences/${silence.id}`, replacing(silence, { ends_at: 'now' })),
      ),
    );
    const statuses = ends.map((res) => res.statusCode).sort();
    expect(statuses, ends.map((res) => res.body).join('\n')).toEqual([200, 409, 409, 409, 409, 409]);
    for (const res of ends.filter((r) => r.statusCode === 409)) expectError(res, 409, 'conflict');
    expect(await silenceOf(silence.id)).toMatchObject({
      ends_at: '2026-11-26T09:10:00.000Z',
      status: 'expired',
    });
    const updates = (await auditOf(silence.id)).filter((log) => log.action === 'alert_silence.updated');
    expect(updates).toHaveLength(7);
  });

  it('says which firing rules a silence covers in the summary', async () => {
    const hook = await createWebhookPoint(t, admin, HOOK_URL);
    const muted = await createRule(t, admin, {
      name: 'Muted',
      severity: 'critical',
      contact_point_ids: [hook.id],
    });
    await createRule(t, admin, { name: 'Loud', contact_point_ids: [hook.id] });
    await createOnce({ rule_id: muted.id });
    await ingest(t.app, await botKey(t), [events.heartbeat(now, { telegram_status: 'disconnected' })]);
    await runPass(t.app);

    const summary = (await call('GET', '/summary')).json<AlertSummary>();
    expect(summary.firing).toBe(2);
    expect(summary.firing_rules.map((rule) => [rule.name, rule.silenced])).toEqual([
      ['Muted', true],
      ['Loud', false],
    ]);
  });
});
