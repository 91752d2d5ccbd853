import type { IntegrationLatency, LlmErrors, LlmFeatureUsage, LlmLatency } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { foldLatencyDay } from '../src/modules/telemetry-store/latency.repository.js';
import { createPostgresDatabase, dialects, useTestApp } from './helper.js';
import { adminGet, botKey, events, HOUR, ingest } from './telemetry-helper.js';
import { seededRandom } from '@lumi/test-support/seeded-random';

/**
 * The metrics endpoints fast on long ranges (docs/operators/metrics.md): usage by feature and errors read whole UTC days from
 * the daily sums and the edge hours from the hourly ones; latency reads the folded histograms (finished
 * hours and days) beside the hourly rows. The answers are the same as the hourly rows alone give, across
 * day and month edges, before and after the housekeeping fold, and with late calls in folded hours.
 */

const NOW = Date.parse('2026-12-01T10:30:00.000Z');
const FIRST = Date.parse('2026-11-28T20:00:00.000Z');
const DAY = 24 * HOUR;

const next = seededRandom(17);

const MODELS = [
  ['openai', 'gpt-4o'],
  ['anthropic', 'claude-sonnet'],
] as const;
const FEATURES = ['reply', 'digest', undefined];
const ERROR_TYPES = ['timeout', 'rate_limit', undefined];

interface Call {
  ts: number;
  provider: string;
  model: string;
  feature: string | undefined;
  success: boolean;
  errorType: string | undefined;
  input: number;
  output: number;
  cost: number;
}

function call(ts: number, n: number): Call {
  const [provider, model] = MODELS[n % MODELS.length]!;
  const success = next() > 0.2;
  return {
    ts,
    provider,
    model,
    feature: FEATURES[Math.floor(next() * FEATURES.length)],
    success,
    errorType: success ? undefined : ERROR_TYPES[Math.floor(next() * ERROR_TYPES.length)],
    input: 10 + Math.floor(next() * 500),
    output: Math.floor(next() * 200),
    cost: Math.round(next() * 1e6) / 1e8,
  };
}

/** Six calls and two integration calls an hour, from FIRST up to NOW. */
const CALLS: Call[] = [];
for (let hour = FIRST; hour < NOW; hour += HOUR) {
  for (let i = 0; i < 6; i += 1) CALLS.push(call(Math.min(NOW, hour + Math.floor(next() * HOUR)), i));
}
/** Late calls: in whole days and at a day's edge, after their hours were folded. */
const LATE = [
  ...[0, 1, 2, 3].map((i) => call(Date.parse('2026-11-29T03:10:00.000Z') + i * 1000, i)),
  ...[0, 1, 2].map((i) => call(Date.parse('2026-11-30T23:59:00.000Z') + i * 1000, i)),
];

const payload = (calls: Call[], tag: string) =>
  calls.flatMap((c, i) => [
    events.llmCall(c.ts, {
      id: `${tag}-${i}`,
      provider: c.provider,
      model: c.model,
      input_tokens: c.input,
      output_tokens: c.output,
      cost_usd: c.cost,
      latency_ms: 50 + Math.round(next() * 5000),
      success: c.success,
      ...(c.feature ? { feature: c.feature } : {}),
      ...(c.errorType ? { error_type: c.errorType } : {}),
    }),
    ...(i % 3 === 0
      ? [
          events.integrationCall(c.ts, {
            id: `${tag}-ic-${i}`,
            service_name: i % 2 ? 'exchange' : 'telegram',
            latency_ms: 20 + Math.round(next() * 900),
          }),
        ]
      : []),
  ]);

/** [from, to): with edge hours, whole days only, inside one day, over the month's edge, and the default. */
const RANGES: [string, string | undefined, string | undefined][] = [
  ['two whole days and edge hours', '2026-11-28T20:00:00.000Z', '2026-12-01T11:00:00.000Z'],
  ['whole days only', '2026-11-29T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
  ['hours inside one day', '2026-11-30T05:15:00.000Z', '2026-11-30T09:00:00.000Z'],
  ['across the month edge', '2026-11-30T13:00:00.000Z', '2026-12-01T02:00:00.000Z'],
  ['the default last 24 hours', undefined, undefined],
];

const query = (from?: string, to?: string) =>
  [from && `from=${from}`, to && `to=${to}`].filter(Boolean).join('&');

/** What the endpoints must answer for the calls of the whole hours [from, to). */
function expected(calls: Call[], from: number, to: number) {
  const inRange = calls.filter((c) => c.ts >= Math.floor(from / HOUR) * HOUR && c.ts < to);
  const features = new Map<
    string,
    { requests: number; failed: number; input: number; output: number; cost: number }
  >();
  const models = new Map<string, { requests: number; failed: number }>();
  const errorTypes = new Map<string, number>();
  for (const c of inRange) {
    const f = features.get(c.feature ?? '') ?? { requests: 0, failed: 0, input: 0, output: 0, cost: 0 };
    f.requests += 1;
    f.failed += c.success ? 0 : 1;
    f.input += c.input;
    f.output += c.output;
    f.cost += c.cost;
    features.set(c.feature ?? '', f);
    const m = models.get(`${c.provider}/${c.model}`) ?? { requests: 0, failed: 0 };
    m.requests += 1;
    m.failed += c.success ? 0 : 1;
    models.set(`${c.provider}/${c.model}`, m);
    if (!c.success)
      errorTypes.set(c.errorType ?? 'unknown', (errorTypes.get(c.errorType ?? 'unknown') ?? 0) + 1);
  }
  return { features, models, errorTypes };
}

describe.each(dialects)('coarse metrics rollups on %s', (dialect) => {
  let now = NOW;
  const t = useTestApp(dialect, { app: { now: () => now } });

  const get = <T>(url: string) => adminGet<T>(t, url);

  async function send(calls: Call[], tag: string) {
    const key = await botKey(t);
    const list = payload(calls, tag);
    for (let i = 0; i < list.length; i += 1000) {
      expect((await ingest(t.app, key, list.slice(i, i + 1000))).rejected).toEqual([]);
    }
  }

  async function expectDimensions(calls: Call[]) {
    for (const [label, from, to] of RANGES) {
      const end = to ? Date.parse(to) : Math.floor(NOW / HOUR) * HOUR + HOUR;
      const truth = expected(calls, from ? Date.parse(from) : end - DAY, end);
      const usage = await get<LlmFeatureUsage>(`/api/metrics/llm/features?${query(from, to)}`);
      expect(usage.features.map((f) => f.feature ?? '').sort(), label).toEqual(
        [...truth.features.keys()].sort(),
      );
      for (const f of usage.features) {
        const want = truth.features.get(f.feature ?? '')!;
        expect([f.requests, f.failed_requests, f.input_tokens, f.output_tokens], label).toEqual([
          want.requests,
          want.failed,
          want.input,
          want.output,
        ]);
        expect(f.cost_usd, label).toBeCloseTo(want.cost, 6);
      }
      const errors = await get<LlmErrors>(`/api/metrics/llm/errors?${query(from, to)}`);
      expect(
        Object.fromEntries(
          errors.models.map((m) => [
            `${m.provider}/${m.model}`,
            { requests: m.requests, failed: m.failed_requests },
          ]),
        ),
        label,
      ).toEqual(Object.fromEntries(truth.models));
      expect(Object.fromEntries(errors.error_types.map((e) => [e.error_type, e.errors])), label).toEqual(
        Object.fromEntries(truth.errorTypes),
      );
    }
  }

  /** Every latency answer of the ranges, by hour (where allowed) and by day. */
  async function latencies() {
    const answers: unknown[] = [];
    for (const [, from, to] of RANGES) {
      for (const interval of ['hour', 'day']) {
        const q = `${query(from, to)}&interval=${interval}`;
        answers.push(await get<LlmLatency>(`/api/metrics/llm/latency?${q}`));
        answers.push(await get<IntegrationLatency>(`/api/metrics/integrations/latency?${q}`));
      }
    }
    return answers;
  }

  it('answers usage by feature and errors from the daily sums as the calls add up, late ones too', async () => {
    now = NOW;
    await send(CALLS, 'on-time');
    await expectDimensions(CALLS);
    await send(LATE, 'late');
    await expectDimensions([...CALLS, ...LATE]);
  });

  it('answers the same latencies before and after the fold, and with late calls in folded hours', async () => {
    now = NOW;
    await send(CALLS, 'on-time');
    const unfolded = await latencies();
    const first = await t.app.services.telemetryStore.housekeeping.foldFinishedHours();
    expect(first.latency_rows_folded).toBeGreaterThan(0);
    expect(await latencies()).toEqual(unfolded);
    // Nothing left to fold: the current hour stays in the hourly rows.
    expect(await t.app.services.telemetryStore.housekeeping.foldFinishedHours()).toEqual({
      latency_rows_folded: 0,
    });

    await send(LATE, 'late');
    const withLate = await latencies();
    expect(withLate).not.toEqual(unfolded);
    const whole = await get<LlmLatency>(
      `/api/metrics/llm/latency?${query(RANGES[0]![1], RANGES[0]![2])}&interval=day`,
    );
    expect(whole.models.reduce((sum, m) => sum + m.total.requests, 0)).toBe(CALLS.length + LATE.length);
    expect(
      (await t.app.services.telemetryStore.housekeeping.foldFinishedHours()).latency_rows_folded,
    ).toBeGreaterThan(0);
    expect(await latencies()).toEqual(withLate);
  });

  it('loses no call that arrives while its hour is folded', async () => {
    now = NOW;
    await send(CALLS, 'on-time');
    const range = `${query(RANGES[0]![1], RANGES[0]![2])}&interval=day`;
    await Promise.all([send(LATE, 'late'), t.app.services.telemetryStore.housekeeping.foldFinishedHours()]);
    await t.app.services.telemetryStore.housekeeping.foldFinishedHours();
    const answer = await get<LlmLatency>(`/api/metrics/llm/latency?${range}`);
    expect(answer.models.reduce((sum, m) => sum + m.total.requests, 0)).toBe(CALLS.length + LATE.length);
  });
});

describe.each(dialects)('the coarse rollups migration on %s', (dialect) => {
  const BEFORE = '20261128090000-two-factor';
  const open = async (): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> => {
    if (dialect === 'sqlite') return { handle: openDatabase({}), drop: async () => {} };
    const database = await createPostgresDatabase({ empty: true });
    return { handle: openDatabase({ databaseUrl: database.url }), drop: database.drop };
  };
  const feature = (hour: string, requests: number) => ({
    hour,
    feature: 'reply',
    provider: 'openai',
    model: 'gpt-4o',
    requests,
    failed_requests: 1,
    input_tokens: requests * 10,
    output_tokens: requests,
    cost_usd: requests / 100,
  });
  const bucketRows = async (handle: DatabaseHandle) =>
    (
      await handle.db.selectFrom('llm_latency_hourly').selectAll().orderBy('hour').orderBy('bucket').execute()
    ).map((row) => ({ ...row, count: Number(row.count) }));

  it('copies the hourly sums per day, and going down gives the folded histograms back', async () => {
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle, BEFORE);
      await handle.db
        .insertInto('llm_feature_hourly')
        .values([
          feature('2026-11-20T10:00:00.000Z', 5),
          feature('2026-11-20T23:00:00.000Z', 3),
          feature('2026-11-21T00:00:00.000Z', 2),
        ])
        .execute();
      const latencies = [
        { hour: '2026-11-20T10:00:00.000Z', provider: 'openai', model: 'gpt-4o', bucket: 170, count: 4 },
        { hour: '2026-11-20T10:00:00.000Z', provider: 'openai', model: 'gpt-4o', bucket: 171, count: 2 },
        { hour: '2026-11-20T11:00:00.000Z', provider: 'openai', model: 'gpt-4o', bucket: -3, count: 1 },
      ];
      await handle.db.insertInto('llm_latency_hourly').values(latencies).execute();
      await migrateToLatest(handle);

      const daily = await handle.db.selectFrom('llm_feature_daily').selectAll().orderBy('day').execute();
      expect(
        daily.map((row) => ({
          day: row.day,
          requests: Number(row.requests),
          failed: Number(row.failed_requests),
        })),
      ).toEqual([
        { day: '2026-11-20', requests: 8, failed: 2 },
        { day: '2026-11-21', requests: 2, failed: 1 },
      ]);
      const moved = await handle.db
        .transaction()
        .execute((trx) => foldLatencyDay(trx, 'llm', '2026-11-20', '2026-11-21T00:00:00.000Z'));
      expect(moved).toBe(3);
      expect(await bucketRows(handle)).toEqual([]);
      const folded = await handle.db
        .selectFrom('llm_latency_folded')
        .select(['grain', 'start', 'counts'])
        .orderBy('grain')
        .orderBy('start')
        .execute();
      expect(folded).toEqual([
        { grain: 'day', start: '2026-11-20T00:00:00.000Z', counts: '-3:1,170:4,171:2' },
        { grain: 'hour', start: '2026-11-20T10:00:00.000Z', counts: '170:4,171:2' },
        { grain: 'hour', start: '2026-11-20T11:00:00.000Z', counts: '-3:1' },
      ]);

      await migrateToLatest(handle, BEFORE);
      expect(await bucketRows(handle)).toEqual(latencies);
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });
});
