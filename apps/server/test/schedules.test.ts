import type {
  AuditListResponse,
  Channel,
  DeliveryListResponse,
  Schedule,
  ScheduleInput,
  SchedulePreview,
  Template,
} from '@lumi/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clusterJobs } from '../src/jobs.js';
import { createTestApp, dialects, expectError, type Session, type TestApp } from './helper.js';
import { createChannel, createTemplate, createTopic, MESSAGING } from './messaging-helper.js';
import { botKey, events, ingest } from './telemetry-helper.js';
import { RenderBusyError } from '../src/modules/messaging/rendering/render-budget.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = Date.parse('2026-11-25T08:00:00.000Z');
const DATA = { token_name: 'Pepe', price_usd: 0.5 };

describe.each(dialects)('schedules on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let now = START;
  let channel: Channel;
  let template: Template;
  const warnings: string[] = [];

  beforeEach(async () => {
    now = START;
    warnings.length = 0;
    t = await createTestApp({ dialect, app: { now: () => now } });
    admin = await t.loginAdmin();
    channel = await createChannel(t, admin);
    template = await createTemplate(t, admin, { channel_id: channel.id });
  });
  afterEach(async () => {
    await t?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    auth = admin.auth,
  ) => t.app.inject({ method, url: `${MESSAGING}${url}`, headers: auth, payload });
  const create = async (values: Partial<ScheduleInput> = {}) => {
    const res = await call('POST', '/schedules', {
      name: 'Daily report',
      template_id: template.id,
      recurrence: { kind: 'daily', time: '09:00' },
      timezone: 'UTC',
      data: DATA,
      ...values,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Schedule>();
  };
  const get = async (id: number) => (await call('GET', `/schedules/${id}`)).json<Schedule>();
  const runs = async (id: number) =>
    (await call('GET', `/schedules/${id}/runs`)).json<DeliveryListResponse>().deliveries;
  const job = (app = t.app, catchupMinutes = 60) => {
    const found = clusterJobs(app.services, {
      housekeepingSeconds: 600,
      log: { info: () => {}, warn: (_d: object, message: string) => warnings.push(message) },
      scheduleCatchupMinutes: catchupMinutes,
      timezone: 'UTC',
      now: () => now,
    }).find((j) => j.name === 'schedules');
    return () => found!.run();
  };

  it('creates, reads, lists, edits with its version and deletes a schedule, every change audited', async () => {
    const created = await create();
    expect(created).toMatchObject({
      name: 'Daily report',
      template_name: template.template_name,
      channel_id: null,
      recurrence: { kind: 'daily', time: '09:00' },
      timezone: 'UTC',
      data_source: 'fixed',
      data: DATA,
      enabled: true,
      version: 1,
      run_count: 0,
      last_result: null,
      next_run_at: '2026-11-25T09:00:00.000Z',
    });
    expect(await get(created.id)).toEqual(created);
    const list = await call('GET', '/schedules');
    expect(list.json<{ schedules: Schedule[] }>().schedules.map((s) => s.id)).toEqual([created.id]);

    const edited = await call('PUT', `/schedules/${created.id}`, {
      version: 1,
      recurrence: { kind: 'weekly', weekday: 'monday', time: '07:30' },
      timezone: 'Europe/Berlin',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // Monday 30 November 2026, 07:30 in Berlin (UTC+1).
    expect(edited.json<Schedule>()).toMatchObject({ version: 2, next_run_at: '2026-11-30T06:30:00.000Z' });

    const stale = await call('PUT', `/schedules/${created.id}`, { version: 1, name: 'Late' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      detail: expect.stringMatching(/since you loaded it/),
      current: { version: 2, data: DATA },
    });
    expect((await call('DELETE', `/schedules/${created.id}?version=1`)).statusCode).toBe(409);
    expect((await call('DELETE', `/schedules/${created.id}?version=2`)).statusCode).toBe(200);
    expectError(await call('GET', `/schedules/${created.id}`), 404);

    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?resource_type=schedule',
      headers: admin.auth,
    });
    const actions = audit.json<AuditListResponse>().logs.map((l) => l.action);
    expect(actions.sort()).toEqual(['schedule.created', 'schedule.deleted', 'schedule.updated']);
  });

  it('names the field that is wrong', async () => {
    const post = (values: object) =>
      call('POST', '/schedules', {
        name: 'x',
        template_id: template.id,
        recurrence: { kind: 'daily', time: '09:00' },
        ...values,
      });
    const field = async (values: object) => {
      const body = expectError(await post(values), 422, 'validation_failed');
      return body.errors?.[0];
    };
    expect(await field({ recurrence: { kind: 'cron', cron: '61 * * * *' } })).toMatchObject({
      path: 'recurrence.cron',
      message: expect.stringContaining('minute'),
    });
    expect(await field({ recurrence: { kind: 'cron', cron: '* * *' } })).toMatchObject({
      path: 'recurrence.cron',
      message: expect.stringContaining('five fields'),
    });
    expect(await field({ recurrence: { kind: 'daily', time: '25:00' } })).toMatchObject({
      path: 'recurrence.time',
    });
    expect(await field({ recurrence: { kind: 'every', hours: 5 } })).toMatchObject({
      path: 'recurrence.hours',
    });
    expect(await field({ timezone: 'Mars/Olympus' })).toMatchObject({
      path: 'timezone',
      message: expect.stringContaining('IANA'),
    });
    expect(await field({ template_id: 999999 })).toMatchObject({ path: 'template_id' });
    expect(await field({ channel_id: 999999 })).toMatchObject({ path: 'channel_id' });
    expect(await field({ topic_id: 999999 })).toMatchObject({ path: 'topic_id' });
    const other = await createChannel(t, admin);
    const topic = await createTopic(t, admin, other.id);
    expect(await field({ topic_id: topic.id })).toMatchObject({
      path: 'topic_id',
      message: expect.stringContaining('another channel'),
    });
    expect(await field({ max_runs: 0 })).toMatchObject({ path: 'max_runs' });
    expect(await field({ name: '' })).toMatchObject({ path: 'name', message: 'Name the schedule' });
  });

  it('previews the next five runs of a recurrence in its time zone', async () => {
    const res = await call('POST', '/schedules/preview', {
      recurrence: { kind: 'every', hours: 4 },
      timezone: 'Asia/Kolkata',
    });
    expect(res.statusCode, res.body).toBe(200);
    // 08:00 UTC is 13:30 in Kolkata: next at 16:00, 20:00, 00:00 … local.
    expect(res.json<SchedulePreview>()).toEqual({
      cron: '0 */4 * * *',
      description: 'Every 4 hours',
      runs: [
        '2026-11-25T10:30:00.000Z',
        '2026-11-25T14:30:00.000Z',
        '2026-11-25T18:30:00.000Z',
        '2026-11-25T22:30:00.000Z',
        '2026-11-26T02:30:00.000Z',
      ],
    });
    expectError(
      await call('POST', '/schedules/preview', {
        recurrence: { kind: 'cron', cron: '0 9 * * 9' },
        timezone: 'UTC',
      }),
      422,
    );
  });

  it('makes exactly one delivery per run, however often the job runs', async () => {
    const schedule = await create({ recurrence: { kind: 'every', hours: 1 } });
    const run = job();
    await run();
    expect(await runs(schedule.id)).toEqual([]);
    now = START + HOUR + 5_000;
    await Promise.all([run(), run()]);
    await run();
    const made = await runs(schedule.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      schedule_id: schedule.id,
      source: 'schedule',
      requested_by: 'Daily report',
      status: 'queued',
      text: '<b>Pepe</b> is at $0.50',
    });
    expect(await get(schedule.id)).toMatchObject({
      run_count: 1,
      next_run_at: '2026-11-25T10:00:00.000Z',
      last_result: { run_at: '2026-11-25T09:00:00.000Z', outcome: 'queued', delivery_id: made[0]!.id },
    });
  });

  it('pauses and resumes: runs due while paused are not sent', async () => {
    const schedule = await create({ recurrence: { kind: 'every', hours: 1 } });
    const paused = await call('POST', `/schedules/${schedule.id}/pause`);
    expect(paused.json<Schedule>()).toMatchObject({ enabled: false, next_run_at: null, version: 2 });
    now = START + 3 * HOUR + 10_000;
    await job()();
    expect(await runs(schedule.id)).toEqual([]);
    const resumed = await call('POST', `/schedules/${schedule.id}/resume`);
    expect(resumed.json<Schedule>()).toMatchObject({
      enabled: true,
      next_run_at: '2026-11-25T12:00:00.000Z',
    });
    now = START + 4 * HOUR + 10_000;
    await job()();
    expect(await runs(schedule.id)).toHaveLength(1);
  });

  it('sends a missed run younger than the catch-up age once, and skips and logs older ones', async () => {
    const schedule = await create({ recurrence: { kind: 'every', hours: 1 } });
    // Down from 08:00 to 12:30: the runs at 09:00, 10:00 and 11:00 are older than 60 minutes, 12:00 is not.
    now = START + 4.5 * HOUR;
    await job()();
    const made = await runs(schedule.id);
    expect(made).toHaveLength(1);
    expect(warnings.join('\n')).toMatch(
      /3 run\(s\) from 2026-11-25T09:00:00.000Z to 2026-11-25T11:00:00.000Z/,
    );
    expect(await get(schedule.id)).toMatchObject({
      run_count: 1,
      last_result: { run_at: '2026-11-25T12:00:00.000Z', outcome: 'queued' },
    });
    // The skipped runs are not considered again.
    await job()();
    expect(await runs(schedule.id)).toHaveLength(1);
  });

  it('stops at max_runs and ends_at', async () => {
    const counted = await create({ recurrence: { kind: 'every', hours: 1 }, max_runs: 2 });
    const ending = await create({
      name: 'Ending',
      recurrence: { kind: 'every', hours: 1 },
      ends_at: '2026-11-25T10:30:00Z',
    });
    for (let hour = 1; hour <= 5; hour += 1) {
      now = START + hour * HOUR + 1_000;
      await job()();
    }
    expect(await runs(counted.id)).toHaveLength(2);
    expect(await runs(ending.id)).toHaveLength(2);
    expect(await get(counted.id)).toMatchObject({ run_count: 2, next_run_at: null });
    expect(await get(ending.id)).toMatchObject({ next_run_at: null });
  });

  it('tries a run again on the next pass when the renderer was only busy, and keeps no refusal', async () => {
    const schedule = await create({ recurrence: { kind: 'every', hours: 1 } });
    now = START + HOUR + 1_000;
    const rendering = t.app.services.messaging.rendering;
    const render = rendering.render.bind(rendering);
    rendering.render = () => Promise.reject(new RenderBusyError());
    try {
      await expect(job()()).rejects.toBeInstanceOf(RenderBusyError);
    } finally {
      rendering.render = render;
    }
    expect(await runs(schedule.id)).toEqual([]);
    expect((await get(schedule.id)).last_result).toBeNull();
    await job()();
    const [run] = await runs(schedule.id);
    expect(run?.status).toBe('queued');
    expect((await get(schedule.id)).last_result).toMatchObject({ outcome: 'queued', delivery_id: run?.id });
  });

  it('records a run that was refused, with the reason and the refused delivery', async () => {
    const schedule = await create({ recurrence: { kind: 'every', hours: 1 } });
    await call('PUT', `/templates/${template.id}`, { version: template.version, enabled: false });
    now = START + HOUR + 1_000;
    await job()();
    const { last_result: result } = await get(schedule.id);
    expect(result).toMatchObject({
      outcome: 'refused',
      delivery_id: expect.any(Number),
      detail: expect.stringContaining('disabled'),
    });
    expect((await runs(schedule.id)).map((d) => [d.id, d.status, d.error])).toEqual([
      [result!.delivery_id, 'refused', result!.detail],
    ]);
  });

  it.each([
    [
      'daily 02:30 in spring',
      '2026-03-27T12:00:00Z',
      ['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z'],
    ],
    [
      'daily 02:30 in autumn',
      '2026-10-23T12:00:00Z',
      ['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'],
    ],
  ])('runs Europe/Berlin %s once a day across the daylight-saving change', async (_name, from, expected) => {
    now = Date.parse(from);
    const schedule = await create({
      timezone: 'Europe/Berlin',
      recurrence: { kind: 'daily', time: '02:30' },
    });
    const run = job();
    // Every 15 minutes for three days, as the job would.
    for (let step = 0; step < 3 * 96; step += 1) {
      now += 15 * MINUTE;
      await run();
    }
    const sent = (await runs(schedule.id)).map((d) => d.send_at).sort();
    expect(sent).toEqual(expected);
  });

  it.each([
    ['spring', '2026-03-28T22:00:00Z'],
    ['autumn', '2026-10-24T22:00:00Z'],
  ])('runs hourly in Europe/Berlin an hour apart across the %s change', async (_name, from) => {
    now = Date.parse(from);
    const schedule = await create({ timezone: 'Europe/Berlin', recurrence: { kind: 'every', hours: 1 } });
    const run = job();
    for (let step = 0; step < 6 * 4; step += 1) {
      now += 15 * MINUTE;
      await run();
    }
    const sent = (await runs(schedule.id)).map((d) => Date.parse(d.send_at)).sort((a, b) => a - b);
    expect(sent).toHaveLength(6);
    expect(sent.slice(1).map((at, i) => at - sent[i]!)).toEqual([HOUR, HOUR, HOUR, HOUR, HOUR]);
  });

  describe('data sources', () => {
    /** The text of the first run of a schedule with this source; `meanwhile` runs at the run's time. */
    const dataOfRun = async (source: string, meanwhile: () => Promise<unknown> = async () => {}) => {
      const content =
        '{{#each providers}}{{provider}} {{tokens}} {{cost}} {{requests}};{{/each}}' +
        '{{telegram_status}} {{error_count_24h}} {{usage_date}}{{budget_date}} {{exceeded_count}}' +
        '{{#each budgets}} {{provider}} {{usage_percentage}}{{/each}}';
      const reporting = await createTemplate(t, admin, { channel_id: channel.id, template_content: content });
      const schedule = await create({
        name: source,
        template_id: reporting.id,
        data_source: source as ScheduleInput['data_source'],
        recurrence: { kind: 'every', hours: 1 },
      });
      now = START + HOUR + 1_000;
      await meanwhile();
      await job()();
      const [delivery] = await runs(schedule.id);
      expect(delivery, JSON.stringify(await get(schedule.id))).toBeDefined();
      return delivery!.text;
    };

    it('llm_usage_yesterday sums yesterday by provider, requests included', async () => {
      const key = await botKey(t);
      await ingest(t.app, key, [
        events.llmCall('2026-11-24T10:00:00Z', {
          provider: 'openai',
          input_tokens: 100,
          output_tokens: 50,
          cost_usd: 0.25,
        }),
        events.llmCall('2026-11-24T11:00:00Z', {
          provider: 'anthropic',
          input_tokens: 10,
          output_tokens: 10,
          cost_usd: 0.1,
        }),
        events.llmCall('2026-11-25T07:00:00Z', {
          provider: 'openai',
          input_tokens: 999,
          output_tokens: 1,
          cost_usd: 9,
        }),
      ]);
      expect(await dataOfRun('llm_usage_yesterday')).toBe(
        'anthropic 20 0.1 1;openai 150 0.25 1;  2026-11-24 ',
      );
    });

    it('bot_health reports the latest heartbeat', async () => {
      const key = await botKey(t);
      const heartbeat = () =>
        ingest(t.app, key, [events.heartbeat(START + HOUR - 30_000, { telegram_status: 'connected' })]);
      expect(await dataOfRun('bot_health', heartbeat)).toBe('connected 0  ');
    });

    it('token_budgets gives the active budgets with today’s usage', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/config/token-budgets/openai',
        headers: admin.auth,
        payload: { daily_token_limit: 1000 },
      });
      expect(res.statusCode, res.body).toBe(201);
      const key = await botKey(t);
      await ingest(t.app, key, [
        events.llmCall(START - 10 * MINUTE, { input_tokens: 900, output_tokens: 100 }),
      ]);
      expect(await dataOfRun('token_budgets')).toBe('  2026-11-25 1 openai 100');
    });
  });

  if (dialect === 'postgres') {
    it('two instances running the job at once make one delivery per run', async () => {
      const schedule = await create({ recurrence: { kind: 'every', hours: 1 } });
      const second = await t.secondInstance();
      now = START + 2 * HOUR + 1_000;
      // A catch-up age of 3 hours, so both runs (09:00 and 10:00) are sent.
      const passes = [job(t.app, 180), job(second, 180), job(t.app, 180), job(second, 180)];
      await Promise.all(passes.map((pass) => pass()));
      const made = await runs(schedule.id);
      expect(made).toHaveLength(2);
      expect((await get(schedule.id)).run_count).toBe(2);
    });
  }
});
