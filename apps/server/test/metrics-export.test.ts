import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  METRICS_EXPORT_COLUMNS,
  type IntegrationMetrics,
  type LlmFeatureUsage,
  type LlmTopChats,
  type LlmTopUsers,
  type LlmUsage,
  type MetricsExportPanel,
} from '@lumi/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { SpendSum } from '../src/modules/telemetry-store/llm-dimensions.js';
import { upsertDimensionSums } from '../src/modules/telemetry-store/llm-dimensions.repository.js';
import { readCsv } from './csv-reader.js';
import { dialects, expectError, useTestApp, type Session } from './helper.js';
import { botKey, events, HOUR, ingest } from './telemetry-helper.js';

/** CSV export (docs/operators/metrics.md, "CSV exports"): what a Metrics panel shows, as a streamed CSV file, on both databases. */

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const DAY = 24 * HOUR;
const BOM = '\uFEFF';
const iso = (ms: number) => new Date(ms).toISOString();
const range = (from: number, to: number) =>
  `from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;

/** A file's records without its byte order mark and header, which every file starts with. */
function csvRows(panel: MetricsExportPanel, body: string): string[][] {
  expect(body.startsWith(BOM)).toBe(true);
  const [header, ...rows] = readCsv(body.slice(BOM.length));
  expect(header).toEqual(METRICS_EXPORT_COLUMNS[panel]);
  return rows;
}

const sum = (rows: string[][], column: number) => rows.reduce((total, row) => total + Number(row[column]), 0);

describe.each(dialects)('metrics CSV export on %s', (dialect) => {
  const now = NOW;
  const t = useTestApp(dialect, { app: { now: () => now } });

  const download = (session: Session, panel: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/metrics/export/${panel}.csv?${query}`, headers: session.auth });
  async function exported(session: Session, panel: MetricsExportPanel, query = '') {
    const res = await download(session, panel, query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="lumi-${panel}-\\d{8}T\\d{4}Z-\\d{8}T\\d{4}Z\\.csv"$`),
    );
    return csvRows(panel, res.body);
  }
  async function json<T>(session: Session, url: string): Promise<T> {
    const res = await t.app.inject({ method: 'GET', url, headers: session.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  }

  it('exports usage by day, provider, model and feature with the totals the features panel shows', async () => {
    const viewer = await t.signInAs(['viewer']);
    const calls = [];
    for (let index = 0; index < 60; index += 1) {
      calls.push(
        events.llmCall(NOW - (index % 40) * HOUR, {
          id: `u${index}`,
          provider: index % 3 === 0 ? 'anthropic' : 'openai',
          model: index % 3 === 0 ? 'claude' : 'gpt-4o',
          ...(index % 4 !== 0 && { feature: ['reply', 'digest', 'summarize, fast'][index % 3] }),
          input_tokens: 100 + index,
          output_tokens: 10 + index,
          cost_usd: 0.001 * (index + 1),
          success: index % 7 !== 0,
        }),
      );
    }
    expect((await ingest(t.app, await botKey(t), calls)).rejected).toEqual([]);

    const query = range(NOW - 30 * HOUR, NOW + HOUR);
    const rows = await exported(viewer, 'usage', query);
    const panel = await json<LlmFeatureUsage>(viewer, `/api/metrics/llm/features?${query}`);
    // Two UTC days, each sorted by provider, model and feature.
    expect(new Set(rows.map((row) => row[0]))).toEqual(new Set(['2026-11-19', '2026-11-20']));
    const byFeature = new Map<string, number[]>();
    for (const row of rows) {
      const totals = byFeature.get(row[3]!) ?? [0, 0, 0, 0, 0];
      [4, 5, 6, 7, 8].forEach((column, index) => (totals[index]! += Number(row[column])));
      byFeature.set(row[3]!, totals);
    }
    expect(panel.features.length).toBeGreaterThan(2);
    expect(byFeature.size).toBe(panel.features.length);
    for (const feature of panel.features) {
      const totals = byFeature.get(feature.feature ?? '')!;
      expect(totals.slice(0, 4)).toEqual([
        feature.requests,
        feature.failed_requests,
        feature.input_tokens,
        feature.output_tokens,
      ]);
      expect(totals[4]).toBeCloseTo(feature.cost_usd, 5);
    }
    // Outside the range, nothing; the file of nothing still has its header.
    expect(await exported(viewer, 'usage', range(NOW - 90 * DAY, NOW - 80 * DAY))).toEqual([]);
  });

  it('exports the usage panel without its query: the last 24 hours, as the other range panels', async () => {
    const admin = await t.loginAdmin();
    await ingest(t.app, await botKey(t), [
      events.llmCall(NOW - 23 * HOUR - 45 * 60_000, { id: 'before' }),
      events.llmCall(NOW - 23 * HOUR, { id: 'in' }),
    ]);
    expect(sum(await exported(admin, 'usage'), 4)).toBe(1);
  });

  it('exports every chat and user by cost, across pages, with the totals of the top lists', async () => {
    const admin = await t.loginAdmin();
    const days = ['2026-11-19', '2026-11-20'];
    // As the ingest transaction writes them: the rows and their days' totals.
    const spend = (kind: 'chats' | 'users', rows: SpendSum[]) =>
      upsertDimensionSums(t.app.db, { features: [], errors: [], chats: [], users: [], [kind]: rows });
    // 2,500 chats over two days, many with the same cost (the order breaks ties by id), and the chats a
    // finished day folded away.
    for (const day of days) {
      for (let offset = 0; offset < 2500; offset += 500) {
        await spend(
          'chats',
          Array.from({ length: 500 }, (_, index) => ({
            day,
            key: String(-1_001_000_000_000 - offset - index),
            requests: 1 + ((offset + index) % 5),
            tokens: 100,
            cost_usd: ((offset + index) % 13) * 0.25,
          })),
        );
      }
    }
    await spend('chats', [{ day: days[0]!, key: '__other__', requests: 77, tokens: 7700, cost_usd: 1.5 }]);
    await spend('users', [
      { day: days[1]!, key: '42', requests: 3, tokens: 30, cost_usd: 0.3 },
      { day: days[1]!, key: '7', requests: 1, tokens: 10, cost_usd: 0.9 },
    ]);

    const query = range(NOW - 30 * HOUR, NOW + HOUR);
    const rows = await exported(admin, 'top-chats', query);
    expect(rows).toHaveLength(2501);
    expect(new Set(rows.map((row) => row[0])).size).toBe(2501);
    // A group chat's id starts with a minus and is a plain number: no formula guard.
    expect(rows[0]![0]).toMatch(/^-100\d+$/);
    expect(rows.at(-1)).toEqual(['other', '77', '7700', '1.5']);
    const costs = rows.slice(0, -1).map((row) => Number(row[3]));
    expect(costs.every((cost, index) => index === 0 || cost <= costs[index - 1]!)).toBe(true);

    const top = await json<LlmTopChats>(admin, `/api/metrics/llm/top-chats?${query}&limit=1000`);
    expect(rows.slice(0, 1000)).toEqual(
      top.chats.map((chat) => [
        chat.chat_id,
        String(chat.requests),
        String(chat.tokens),
        String(chat.cost_usd),
      ]),
    );
    expect(sum(rows, 1)).toBe(top.total.requests);
    expect(sum(rows, 2)).toBe(top.total.tokens);
    expect(sum(rows, 3)).toBeCloseTo(top.total.cost_usd, 5);

    const users = await exported(admin, 'top-users', query);
    const topUsers = await json<LlmTopUsers>(admin, `/api/metrics/llm/top-users?${query}`);
    expect(users).toEqual([
      ['7', '1', '10', '0.9'],
      ['42', '3', '30', '0.3'],
    ]);
    expect(sum(users, 3)).toBeCloseTo(topUsers.total.cost_usd, 6);
  });

  it('exports the integrations panel: calls, successes, errors, rate and the latest status', async () => {
    const admin = await t.loginAdmin();
    await ingest(t.app, await botKey(t), [
      events.integrationCall(NOW - 2 * HOUR, { id: 'a', service_name: 'exchange', status: 'success' }),
      events.integrationCall(NOW - HOUR, { id: 'b', service_name: 'exchange', status: 'error' }),
      events.integrationCall(NOW - 30 * 60_000, { id: 'c', service_name: 'exchange', status: 'success' }),
      events.integrationCall(NOW - 3 * HOUR, { id: 'd', service_name: '=news, "feed"', status: 'error' }),
      events.integrationCall(NOW - 30 * HOUR, { id: 'e', service_name: 'old', status: 'success' }),
    ]);
    const rows = await exported(admin, 'integrations');
    const panel = await json<IntegrationMetrics>(admin, '/api/metrics/integrations');
    expect(rows).toEqual(
      panel.data.map((service) => [
        service.service_name.startsWith('=') ? `'${service.service_name}` : service.service_name,
        String(service.total_calls),
        String(service.success_count),
        String(service.error_count),
        String(service.success_rate),
        service.last_api_call,
        service.last_status,
      ]),
    );
    expect(rows.map((row) => [row[0], row[1], row[4], row[6]])).toEqual([
      [`'=news, "feed"`, '1', '0', 'error'],
      ['exchange', '3', '66.67', 'success'],
    ]);
  });

  it('quotes commas, quotes and line breaks and guards cells against formulas', async () => {
    const admin = await t.loginAdmin();
    const hour = iso(Math.floor(NOW / HOUR) * HOUR);
    const hostile = [
      'summarize, fast',
      'say "hi"',
      'line one\nline two',
      '=HYPERLINK("http://x")',
      '@SUM(A1)',
      '+5',
    ];
    // Ingestion refuses line breaks in a feature; the file must not rely on it, so one is stored directly.
    await t.app.db
      .insertInto('llm_feature_hourly')
      .values(
        hostile.map((feature, index) => ({
          hour,
          feature,
          provider: index === 0 ? '-2+3' : 'openai',
          model: 'gpt-4o',
          requests: 1,
          failed_requests: 0,
          input_tokens: 1,
          output_tokens: 1,
          cost_usd: 0.5,
        })),
      )
      .execute();
    const res = await download(admin, 'usage');
    const rows = csvRows('usage', res.body);
    expect(rows.map((row) => [row[1], row[3]])).toEqual([
      ["'-2+3", 'summarize, fast'],
      ['openai', '+5'],
      ['openai', '\'=HYPERLINK("http://x")'],
      ['openai', "'@SUM(A1)"],
      ['openai', 'line one\nline two'],
      ['openai', 'say "hi"'],
    ]);
    // The raw text: quoted and doubled as RFC 4180 says.
    expect(res.body).toContain('"\'=HYPERLINK(""http://x"")"');
    expect(res.body).toContain('"line one\nline two"');
  });

  it('refuses a bad range or panel with 422 and a caller without metrics:read', async () => {
    const admin = await t.loginAdmin();
    for (const query of [
      range(NOW, NOW - HOUR),
      range(NOW - 93 * DAY, NOW),
      'from=yesterday',
      'to=2026-13-01T00:00:00Z',
    ]) {
      const body = expectError(await download(admin, 'usage', query), 422, 'validation_failed');
      expect(body.errors?.[0]?.path, query).toMatch(/^(from|to)$/);
    }
    const panel = expectError(await download(admin, 'secrets'), 422, 'validation_failed');
    expect(panel.detail).toMatch(/usage, top-chats, top-users, integrations/);
    expect((await download(admin, 'usage', range(NOW - 92 * DAY, NOW))).statusCode).toBe(200);

    const nobody = await t.signInAs([]);
    expectError(await download(nobody, 'usage'), 403, 'forbidden');
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/metrics/export/usage.csv' }),
      401,
      'unauthenticated',
    );
  });

  it('audits each export it answers, with its panel and range, but not a refused one or a HEAD request', async () => {
    const viewer = await t.signInAs(['viewer'], 'exporting-viewer');
    expect((await download(viewer, 'top-users', range(NOW - 2 * HOUR, NOW))).statusCode).toBe(200);
    expectError(await download(viewer, 'usage', range(NOW, NOW - HOUR)), 422, 'validation_failed');
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/metrics/export/usage.csv',
      headers: viewer.auth,
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/csv; charset=utf-8');

    const entries = await t.app.db
      .selectFrom('audit_logs')
      .select(['actor_username', 'resource_type', 'resource_name', 'new_value'])
      .where('action', '=', 'metrics.exported')
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_username: 'exporting-viewer',
      resource_type: 'metrics',
      resource_name: 'top-users',
    });
    expect(JSON.parse(entries[0]!.new_value!)).toEqual({
      panel: 'top-users',
      from: '2026-11-20T10:00:00.000Z',
      to: '2026-11-20T13:00:00.000Z',
    });
  });

  describe('over 100,000 rows through a real connection', () => {
    const PER_DAY = 10_200;
    const DAYS = Array.from({ length: 10 }, (_, index) => `2026-11-${String(11 + index).padStart(2, '0')}`);
    const PADDING = 'x'.repeat(200);

    /** Ten days of usage, each with 10,200 provider, model and feature rows of about 250 bytes. */
    const insertMany = async () => {
      for (const day of DAYS) {
        for (let offset = 0; offset < PER_DAY; offset += 1000) {
          await t.app.db
            .insertInto('llm_feature_hourly')
            .values(
              Array.from({ length: Math.min(1000, PER_DAY - offset) }, (_, index) => ({
                hour: `${day}T10:00:00.000Z`,
                feature: `feature ${String(offset + index).padStart(6, '0')}, "bulk" ${PADDING}`,
                provider: `provider-${(offset + index) % 7}`,
                model: `model-${(offset + index) % 11}`,
                requests: 2,
                failed_requests: 1,
                input_tokens: 300,
                output_tokens: 40,
                cost_usd: 0.25,
              })),
            )
            .execute();
        }
      }
    };

    const get = (path: string, session: Session) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const { port } = t.app.server.address() as AddressInfo;
        httpRequest({ host: '127.0.0.1', port, path, headers: session.auth }, resolve)
          .on('error', reject)
          .end();
      });

    /** Reads a body to its end; `onFirstChunk` runs (and is awaited) before the second chunk is taken. */
    const readBody = async (res: IncomingMessage, onFirstChunk?: () => Promise<void>) => {
      const chunks: Buffer[] = [];
      for await (const chunk of res) {
        chunks.push(chunk as Buffer);
        if (chunks.length === 1) await onFirstChunk?.();
      }
      return Buffer.concat(chunks).toString('utf8');
    };

    const path = `/api/metrics/export/usage.csv?${range(Date.parse(`${DAYS[0]}T00:00:00Z`), NOW)}`;

    it('streams every row, reading the rollup page by page while the download runs', async () => {
      const admin = await t.loginAdmin();
      await insertMany();
      await t.app.listen({ port: 0, host: '127.0.0.1' });

      const res = await get(path, admin);
      expect(res.statusCode).toBe(200);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const rows = csvRows('usage', await readBody(res));
      expect(rows).toHaveLength(DAYS.length * PER_DAY);
      expect(rows.filter((row) => row[0] === DAYS[1])).toHaveLength(PER_DAY);
      expect(rows[0]).toEqual([
        DAYS[0],
        'provider-0',
        'model-0',
        `feature 000000, "bulk" ${PADDING}`,
        '2',
        '1',
        '300',
        '40',
        '0.25',
      ]);
      expect(sum(rows, 4)).toBe(2 * DAYS.length * PER_DAY);

      // Not built before it is sent: once the first bytes have arrived, every row is deleted, and the
      // download, which has not read that far yet, does not hold them (more than the socket buffers hold).
      const paused = await get(path, admin);
      const body = await readBody(paused, async () => {
        await t.app.db.deleteFrom('llm_feature_hourly').execute();
      });
      const kept = csvRows('usage', body);
      expect(kept.length).toBeGreaterThanOrEqual(1000);
      expect(kept.length, 'rows read before the deletion').toBeLessThan(rows.length / 2);
    }, 120_000);

    it('cuts the download off when the database fails part way, instead of ending it as if complete', async () => {
      const admin = await t.loginAdmin();
      await insertMany();
      await t.app.listen({ port: 0, host: '127.0.0.1' });

      const res = await get(path, admin);
      expect(res.statusCode).toBe(200);
      const read = readBody(res, async () => {
        await sql`ALTER TABLE llm_feature_hourly RENAME TO llm_feature_hourly_away`.execute(t.app.db);
      });
      await expect(read).rejects.toThrow(/aborted|socket hang up|ECONNRESET/);
      await sql`ALTER TABLE llm_feature_hourly_away RENAME TO llm_feature_hourly`.execute(t.app.db);
    }, 120_000);
  });
});

/**
 * The usage panel counts LUMI_TIMEZONE days (Asia/Kolkata is 5:30 ahead of UTC, so its days begin mid-hour
 * and the rollups' hours are split as the panel splits them); the file of the panel's window has its days.
 */
describe.each(dialects)('the usage export in LUMI_TIMEZONE on %s', (dialect) => {
  const t = useTestApp(dialect, { app: { now: () => NOW, telemetry: { timezone: 'Asia/Kolkata' } } });

  it("holds the usage panel's days with its figures, day by day", async () => {
    const admin = await t.loginAdmin();
    const calls = Array.from({ length: 80 }, (_, index) =>
      events.llmCall(NOW - index * 2 * HOUR - 17 * 60_000, {
        id: `k${index}`,
        provider: index % 2 ? 'openai' : 'gemini',
        input_tokens: 10 + index,
        output_tokens: index,
        cost_usd: 0.01 * index,
      }),
    );
    expect((await ingest(t.app, await botKey(t), calls)).rejected).toEqual([]);
    const usage = await t.app.inject({
      method: 'GET',
      url: '/api/metrics/llm-usage?days=7',
      headers: admin.auth,
    });
    const panel = usage.json<LlmUsage>();
    expect(panel.window).toEqual({
      from: '2026-11-13T18:00:00.000Z',
      to: '2026-11-20T18:00:00.000Z',
      timezone: 'Asia/Kolkata',
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/metrics/export/usage.csv?${range(Date.parse(panel.window.from), Date.parse(panel.window.to))}`,
      headers: admin.auth,
    });
    const rows = csvRows('usage', res.body);
    const fileDays = new Map<string, { tokens: number; cost: number }>();
    for (const row of rows) {
      const day = fileDays.get(row[0]!) ?? { tokens: 0, cost: 0 };
      day.tokens += Number(row[6]) + Number(row[7]);
      day.cost += Number(row[8]);
      fileDays.set(row[0]!, day);
    }
    const panelDays = new Map<string, { tokens: number; cost: number }>();
    for (const entry of panel.daily_usage) {
      if (entry.tokens_used === 0) continue;
      const day = panelDays.get(entry.date) ?? { tokens: 0, cost: 0 };
      day.tokens += entry.tokens_used;
      day.cost += entry.cost;
      panelDays.set(entry.date, day);
    }
    expect([...fileDays.keys()].sort()).toEqual([...panelDays.keys()].sort());
    expect(fileDays.size).toBe(7);
    for (const [date, day] of panelDays) {
      expect(fileDays.get(date)!.tokens, date).toBe(day.tokens);
      expect(fileDays.get(date)!.cost, date).toBeCloseTo(day.cost, 4);
    }
  });
});
