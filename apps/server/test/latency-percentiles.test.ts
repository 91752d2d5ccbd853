import type { IntegrationLatency, LatencyFigures, LlmLatency } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp } from './helper.js';
import { adminGet, botKey, events, HOUR, ingest } from './telemetry-helper.js';
import { seededRandom } from '@lumi/test-support/seeded-random';

/**
 * (docs/operators/metrics.md) p50/p95/p99 read from the hourly latency histograms agree with
 * the exact nearest-rank percentiles of the raw latencies, per hour, per day and over a range.
 */

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const DAY = 24 * HOUR;
const HOURS = 6;
const iso = (ms: number) => new Date(ms).toISOString();
const hourStart = (ms: number) => iso(Math.floor(ms / HOUR) * HOUR);

/** The bound the buckets promise (2 %), and the percentiles the endpoints answer. */
const ALPHA = 0.02;
const QS = [
  [0.5, 'p50_ms'],
  [0.95, 'p95_ms'],
  [0.99, 'p99_ms'],
] as const;

const next = seededRandom(2026);
const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());

function exact(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
}

/** The answered percentiles are within the bound of the exact ones, and the count is exact. */
function expectClose(answer: LatencyFigures, values: number[], label: string) {
  expect(answer.requests, label).toBe(values.length);
  for (const [q, field] of QS) {
    const truth = exact(values, q);
    const error = Math.abs(answer[field]! - truth) / truth;
    expect(error, `${label} ${field}: ${answer[field]} vs ${truth}`).toBeLessThanOrEqual(ALPHA);
  }
}

/** Each model's and service's latencies by hour start: what the test knows the bot sent. */
const sent = {
  llm: new Map<string, Map<string, number[]>>(),
  integrations: new Map<string, Map<string, number[]>>(),
};
function record(into: Map<string, Map<string, number[]>>, key: string, ts: number, latency: number) {
  const hours = into.get(key) ?? new Map<string, number[]>();
  into.set(key, hours);
  const list = hours.get(hourStart(ts)) ?? [];
  hours.set(hourStart(ts), list);
  list.push(latency);
}

const MODELS = [
  // Lognormal around a median that grows hour by hour ("the model is getting slower").
  {
    provider: 'openai',
    model: 'gpt-4o',
    latency: (h: number) => 600 * (1 + h / 3) * Math.exp(0.6 * normal()),
  },
  // Heavy tail (Pareto), capped at the 24 h the schema allows.
  {
    provider: 'anthropic',
    model: 'claude-sonnet',
    latency: () => Math.min(86_400_000, 300 / (1 - next()) ** (1 / 1.3)),
  },
  // Uniform, with cached calls answered in well under a millisecond.
  { provider: 'openai', model: 'gpt-4o-mini', latency: () => (next() < 0.2 ? next() : next() * 3000) },
];
const SERVICES = [
  { service_name: 'exchange', latency: () => 40 * Math.exp(normal()) },
  { service_name: 'telegram', latency: () => 120 },
];

/** Thousands of calls over HOURS hours ending with NOW, each with an id so a resend is a duplicate. */
function workload(): unknown[] {
  const list: unknown[] = [];
  for (let h = 0; h < HOURS; h += 1) {
    const start = Math.floor(NOW / HOUR) * HOUR - (HOURS - 1 - h) * HOUR;
    for (const m of MODELS) {
      for (let i = 0; i < 400 + 150 * h; i += 1) {
        const ts = Math.min(NOW, start + Math.floor(next() * HOUR));
        const latency = Math.round(m.latency(h) * 1000) / 1000;
        record(sent.llm, `${m.provider}/${m.model}`, ts, latency);
        list.push(
          events.llmCall(ts, {
            id: `llm-${list.length}`,
            provider: m.provider,
            model: m.model,
            latency_ms: latency,
          }),
        );
      }
    }
    for (const s of SERVICES) {
      for (let i = 0; i < 300; i += 1) {
        const ts = Math.min(NOW, start + Math.floor(next() * HOUR));
        const latency = Math.round(s.latency() * 1000) / 1000;
        record(sent.integrations, s.service_name, ts, latency);
        list.push(
          events.integrationCall(ts, {
            id: `int-${list.length}`,
            service_name: s.service_name,
            latency_ms: latency,
          }),
        );
      }
    }
  }
  return list;
}
const WORKLOAD = workload();

describe.each(dialects)('latency percentiles on %s', (dialect) => {
  let now = NOW;
  const t = useTestApp(dialect, { app: { now: () => now } });

  const get = <T>(url: string) => adminGet<T>(t, url);

  async function report() {
    const key = await botKey(t);
    // Shuffled into batches of the ingest limit, so an hour's histogram is merged from several batches.
    const order = [...WORKLOAD];
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let i = 0; i < order.length; i += 1000) {
      const result = await ingest(t.app, key, order.slice(i, i + 1000));
      expect(result.rejected).toEqual([]);
    }
  }

  function expectLlm(answer: LlmLatency) {
    expect(answer.models.map((m) => `${m.provider}/${m.model}`)).toEqual([
      'anthropic/claude-sonnet',
      'openai/gpt-4o',
      'openai/gpt-4o-mini',
    ]);
    for (const entry of answer.models) {
      const hours = sent.llm.get(`${entry.provider}/${entry.model}`)!;
      expectClose(entry.total, [...hours.values()].flat(), `${entry.model} over the range`);
      for (const interval of entry.intervals) {
        const values = hours.get(interval.start);
        if (values) expectClose(interval, values, `${entry.model} at ${interval.start}`);
        else
          expect(interval).toEqual({
            start: interval.start,
            requests: 0,
            p50_ms: null,
            p95_ms: null,
            p99_ms: null,
          });
      }
    }
  }

  it('answers p50/p95/p99 per provider and model, hour by hour and over the range, within 2 %', async () => {
    now = NOW;
    await report();
    // The default range: the 24 hours up to now.
    const answer = await get<LlmLatency>('/api/metrics/llm/latency');
    expect(answer).toMatchObject({
      from: hourStart(NOW - DAY),
      to: hourStart(NOW + HOUR),
      interval: 'hour',
    });
    expect(answer.models[0]!.intervals).toHaveLength(25);
    expect(answer.models[0]!.intervals[0]!.start).toBe(hourStart(NOW - DAY));
    expect(answer.models[0]!.intervals.at(-1)!.start).toBe(hourStart(NOW));
    expectLlm(answer);

    // A resent batch is a duplicate: no latency is counted twice.
    const key = await botKey(t);
    expect((await ingest(t.app, key, WORKLOAD.slice(0, 1000))).accepted).toBe(0);
    expectLlm(await get<LlmLatency>('/api/metrics/llm/latency'));
  });

  it('answers the same per integration', async () => {
    now = NOW;
    await report();
    const answer = await get<IntegrationLatency>(
      `/api/metrics/integrations/latency?from=${iso(NOW - 3 * HOUR)}&to=${iso(NOW + 1)}`,
    );
    expect(answer.services.map((s) => s.service_name)).toEqual(['exchange', 'telegram']);
    for (const entry of answer.services) {
      const hours = sent.integrations.get(entry.service_name)!;
      const inRange = [...hours.entries()].filter(([hour]) => hour >= hourStart(NOW - 3 * HOUR));
      expect(entry.intervals.map((i) => i.start)).toEqual(inRange.map(([hour]) => hour).sort());
      expectClose(
        entry.total,
        inRange.flatMap(([, values]) => values),
        `${entry.service_name} over 4 hours`,
      );
      for (const interval of entry.intervals) {
        expectClose(interval, hours.get(interval.start)!, `${entry.service_name} at ${interval.start}`);
      }
    }
    // A constant latency has one percentile: every quantile falls in its bucket.
    const { p50_ms, p95_ms, p99_ms } = answer.services[1]!.total;
    expect(new Set([p50_ms, p95_ms, p99_ms]).size).toBe(1);
  });

  it('merges days in LUMI_TIMEZONE and reads only the rollups, so raw events going changes nothing', async () => {
    now = NOW;
    await report();
    const url = `/api/metrics/llm/latency?from=${iso(NOW - 2 * DAY)}&to=${iso(NOW + 1)}&interval=day`;
    const byDay = await get<LlmLatency>(url);
    for (const entry of byDay.models) {
      // The range starts mid-day: the first day begins with the range's first hour.
      expect(entry.intervals.map((i) => i.start)).toEqual([
        hourStart(NOW - 2 * DAY),
        '2026-11-19T00:00:00.000Z',
        '2026-11-20T00:00:00.000Z',
      ]);
      expect(entry.intervals.slice(0, 2).map((i) => i.requests)).toEqual([0, 0]);
      expect(entry.intervals[2]).toEqual({ start: '2026-11-20T00:00:00.000Z', ...entry.total });
      expectClose(
        entry.total,
        [...sent.llm.get(`${entry.provider}/${entry.model}`)!.values()].flat(),
        entry.model,
      );
    }

    // The raw events pass their retention; the histograms stay for 400 days.
    now = NOW + 31 * DAY;
    expect((await t.app.services.telemetryStore.retention.prune()).events).toBe(WORKLOAD.length);
    expect(await get<LlmLatency>(url)).toEqual(byDay);
  });

  it('keeps answers exact while settled hours are cached: late events, recent ones and the hour turning', async () => {
    now = NOW;
    await report();
    const byHour = '/api/metrics/llm/latency';
    const byDay = `/api/metrics/llm/latency?from=${iso(NOW - 2 * DAY)}&to=${iso(NOW + 1)}&interval=day`;
    const requestsOf = (answer: LlmLatency, model: string) =>
      answer.models.find((m) => m.model === model)!.total.requests;
    const hourOf = (answer: LlmLatency, model: string, ts: number) =>
      answer.models.find((m) => m.model === model)!.intervals.find((i) => i.start === hourStart(ts))!;
    const before = await get<LlmLatency>(byHour);
    const beforeByDay = await get<LlmLatency>(byDay);
    const sentToModel = (model: string) => [...sent.llm.get(`openai/${model}`)!.values()].flat().length;
    expect(requestsOf(before, 'gpt-4o')).toBe(sentToModel('gpt-4o'));

    // A late call, five hours back (a settled hour), then one of the current hour: both count at once.
    const key = await botKey(t);
    const late = NOW - 5 * HOUR;
    await ingest(t.app, key, [events.llmCall(late, { id: 'late', model: 'gpt-4o' })]);
    const afterLate = await get<LlmLatency>(byHour);
    expect(requestsOf(afterLate, 'gpt-4o')).toBe(sentToModel('gpt-4o') + 1);
    expect(hourOf(afterLate, 'gpt-4o', late).requests).toBe(hourOf(before, 'gpt-4o', late).requests + 1);
    expect(requestsOf(await get<LlmLatency>(byDay), 'gpt-4o')).toBe(requestsOf(beforeByDay, 'gpt-4o') + 1);

    await ingest(t.app, key, [events.llmCall(NOW, { id: 'recent', model: 'gpt-4o' })]);
    expect(requestsOf(await get<LlmLatency>(byHour), 'gpt-4o')).toBe(sentToModel('gpt-4o') + 2);

    // Two hours on, the hours read afresh before are settled now: same counts, hour by hour.
    now = NOW + 2 * HOUR;
    const later = await get<LlmLatency>(
      `/api/metrics/llm/latency?from=${iso(NOW - DAY)}&to=${iso(NOW + HOUR)}`,
    );
    const current = await get<LlmLatency>(byHour);
    expect(requestsOf(later, 'gpt-4o')).toBe(sentToModel('gpt-4o') + 2);
    expect(hourOf(later, 'gpt-4o', NOW).requests).toBe(hourOf(afterLate, 'gpt-4o', NOW).requests + 1);
    expect(hourOf(current, 'gpt-4o', NOW)).toEqual(hourOf(later, 'gpt-4o', NOW));
    // And a call for an hour that has become settled since still counts at once.
    await ingest(t.app, key, [events.llmCall(NOW, { id: 'late-again', model: 'gpt-4o' })]);
    expect(hourOf(await get<LlmLatency>(byHour), 'gpt-4o', NOW).requests).toBe(
      hourOf(current, 'gpt-4o', NOW).requests + 1,
    );
  });

  it('prunes the histograms with the hourly rollups after 400 days', async () => {
    now = NOW;
    await report();
    now = NOW + 401 * DAY;
    await t.app.services.telemetryStore.retention.prune();
    const url = `/api/metrics/llm/latency?from=${iso(NOW - DAY)}&to=${iso(NOW + 1)}&interval=day`;
    expect((await get<LlmLatency>(url)).models).toEqual([]);
  });

  it('refuses a range it cannot answer with a 422 that says why', async () => {
    const admin = await t.loginAdmin();
    const call = (query: string) =>
      t.app.inject({ method: 'GET', url: `/api/metrics/llm/latency?${query}`, headers: admin.auth });
    const cases: [string, RegExp][] = [
      [`from=${iso(NOW)}&to=${iso(NOW)}`, /from must be before to/],
      [`from=${iso(NOW)}&to=${iso(NOW - HOUR)}`, /from must be before to/],
      [`from=${iso(NOW - 93 * DAY)}&to=${iso(NOW)}&interval=day`, /at most 92 days/],
      [`from=${iso(NOW - 8 * DAY)}&to=${iso(NOW)}`, /at most 7 days; use interval=day/],
      ['from=yesterday', /ISO 8601/],
      ['from=9999-12-20T00:00:00Z&to=9999-12-31T23:59:59Z&interval=day', /between 2000-01-01 and 2100-01-01/],
      ['from=0001-01-01T00:00:00Z&to=0001-01-02T00:00:00Z&interval=day', /between 2000-01-01 and 2100-01-01/],
      ['from=2099-12-31T00:00:00Z&to=2100-01-01T00:00:01Z', /between 2000-01-01 and 2100-01-01/],
      ['interval=week', /interval must be hour or day/],
    ];
    for (const [query, detail] of cases) {
      expect(expectError(await call(query), 422, 'validation_failed').detail, query).toMatch(detail);
    }
    const integrations = await t.app.inject({
      method: 'GET',
      url: `/api/metrics/integrations/latency?from=${iso(NOW)}&to=${iso(NOW - 1)}`,
      headers: admin.auth,
    });
    expectError(integrations, 422, 'validation_failed');
    // The longest ranges are answered.
    now = NOW;
    await get<LlmLatency>(`/api/metrics/llm/latency?from=${iso(NOW - 92 * DAY)}&to=${iso(NOW)}&interval=day`);
    await get<LlmLatency>(`/api/metrics/llm/latency?from=${iso(NOW - 7 * DAY)}&to=${iso(NOW)}`);
  });

  it('lets a viewer read the percentiles and nobody without a session', async () => {
    const viewer = await t.signInAs(['viewer']);
    for (const url of ['/api/metrics/llm/latency', '/api/metrics/integrations/latency']) {
      expect((await t.app.inject({ method: 'GET', url, headers: viewer.auth })).statusCode).toBe(200);
      expectError(await t.app.inject({ method: 'GET', url }), 401);
    }
  });
});

describe.each(dialects)('latency percentiles by day in a time zone on %s', (dialect) => {
  // India is 5 h 30 min ahead of UTC: the hour from 18:00 UTC, which holds local midnight, opens the day.
  const t = useTestApp(dialect, { app: { now: () => NOW, telemetry: { timezone: 'Asia/Kolkata' } } });

  it('splits days at local midnight, the straddling hour counting for the new day', async () => {
    await ingest(t.app, await botKey(t), [
      events.llmCall('2026-11-19T17:50:00.000Z', { latency_ms: 100 }),
      events.llmCall('2026-11-19T18:10:00.000Z', { latency_ms: 200 }),
      events.llmCall('2026-11-20T12:00:00.000Z', { latency_ms: 400 }),
    ]);
    const admin = await t.loginAdmin();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/metrics/llm/latency?from=2026-11-19T00:00:00.000Z&to=${iso(NOW)}&interval=day`,
      headers: admin.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [model] = res.json<LlmLatency>().models;
    expect(model!.intervals.map((i) => [i.start, i.requests])).toEqual([
      ['2026-11-19T00:00:00.000Z', 1],
      ['2026-11-19T18:00:00.000Z', 2],
    ]);
    expectClose(model!.intervals[0]!, [100], 'the 19th');
    expectClose(model!.intervals[1]!, [200, 400], 'the 20th');
    expectClose(model!.total, [100, 200, 400], 'both days');
  });
});
