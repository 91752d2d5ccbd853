import { LLM_CALLS_EXPORT_COLUMNS, type LlmCallDetail, type LlmCalls } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp } from './helper.js';
import {
  llmCallById,
  llmCallsCount,
  llmCallsPage,
} from '../src/modules/telemetry-store/llm-calls.repository.js';
import { adminGet, botKeyWithId, events, ingest, MINUTE } from './telemetry-helper.js';

/**
 * (docs/operators/metrics.md, "Calls") The calls behind the figures: GET /api/metrics/llm/calls and
 * /api/metrics/llm/calls/{id}, on both databases.
 */

const DAY = 24 * 60 * MINUTE;
const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const CALLS = '/api/metrics/llm/calls';

describe.each(dialects)('the calls behind the figures on %s', (dialect) => {
  const t = useTestApp(dialect, { app: { now: () => NOW } });
  const get = <T>(url: string) => adminGet<T>(t, url);

  /** Ten calls a minute apart, newest first in the list: chats, users, features, failures, costs. */
  async function seed() {
    const key = await botKeyWithId(t);
    await ingest(
      t.app,
      key.headers,
      Array.from({ length: 10 }, (_, i) =>
        events.llmCall(NOW - (i + 1) * MINUTE, {
          id: `call-${i}`,
          model: i % 2 === 0 ? 'gpt-4o' : 'gpt-4o-mini',
          chat_id: i < 4 ? '-1001' : '-1002',
          user_id: String(40 + (i % 3)),
          ...(i === 9 ? {} : { feature: i % 3 === 0 ? 'digest' : 'reply' }),
          latency_ms: 100 * (i + 1),
          cost_usd: i / 100,
          ...(i === 2 ? { success: false, error_type: 'timeout' } : {}),
          ...(i === 5 ? { success: false } : {}),
        }),
      ),
    );
    return key;
  }
  const ids = (page: LlmCalls) => page.calls.map((c) => c.id);
  const list = (query = '') => get<LlmCalls>(`${CALLS}${query}`);

  it('lists the calls of the last 24 hours newest first, with what each row shows, and counts them', async () => {
    await seed();
    const page = await list();
    expect(page.total).toBe(10);
    expect(page.total_is_lower_bound).toBe(false);
    expect(page.next_cursor).toBeNull();
    expect(page.calls.map((c) => c.ts)).toEqual(
      Array.from({ length: 10 }, (_, i) => new Date(NOW - (i + 1) * MINUTE).toISOString()),
    );
    expect(page.calls[2]).toMatchObject({
      model: 'gpt-4o',
      feature: 'reply',
      chat_id: '-1001',
      user_id: '42',
      input_tokens: 100,
      output_tokens: 50,
      usage_known: true,
      cost_usd: 0.02,
      cost_source: 'bot',
      latency_ms: 300,
      success: false,
      error_type: 'timeout',
    });
    // A failure reported without a type reads as the errors panel names it.
    expect(page.calls[5]).toMatchObject({ success: false, error_type: 'unknown' });
    expect(page.calls[0]).toMatchObject({ success: true, error_type: null });
  });

  it.each([
    ['?model=gpt-4o-mini', 5],
    ['?provider=openai', 10],
    ['?provider=anthropic', 0],
    ['?feature=digest', 3],
    ['?no_feature=true', 1],
    ['?chat_id=-1001', 4],
    ['?user_id=41', 3],
    ['?failed=true', 2],
    ['?failed=false', 8],
    ['?error_type=timeout', 1],
    ['?error_type=unknown', 1],
    ['?error_type=timeout&failed=true', 1],
    ['?error_type=timeout&failed=false', 0],
    ['?error_type=timeout&min_latency_ms=300', 1],
    ['?error_type=timeout&min_latency_ms=301', 0],
    ['?error_type=unknown&failed=false', 0],
    ['?error_type=timeout&model=gpt-4o&min_cost_usd=0.02', 1],
    ['?error_type=timeout&model=gpt-4o-mini', 0],
    ['?failed=true&model=gpt-4o-mini&feature=reply&user_id=42', 1],
    ['?min_latency_ms=800', 3],
    ['?min_cost_usd=0.05', 5],
    ['?chat_id=-1002&failed=true&min_latency_ms=500', 1],
    [`?from=${new Date(NOW - 3 * MINUTE).toISOString()}&to=${new Date(NOW - MINUTE).toISOString()}`, 2],
  ])('filters %s to %i calls', async (query, count) => {
    await seed();
    const page = await list(query);
    expect(page.total).toBe(count);
    expect(page.calls).toHaveLength(count);
  });

  it("reads a filtered page's calls whole, as the unfiltered list shows them", async () => {
    await seed();
    const all = await list();
    const failedMini = all.calls.filter((call) => !call.success && call.model === 'gpt-4o-mini');
    expect(failedMini).toHaveLength(1);
    expect((await list('?failed=true&model=gpt-4o-mini')).calls).toEqual(failedMini);
    const expensive = all.calls.filter((call) => call.cost_usd >= 0.05 && call.model === 'gpt-4o');
    expect((await list('?min_cost_usd=0.05&model=gpt-4o')).calls).toEqual(expensive);
  });

  it('pages by cursor through every call once, whatever the page size', async () => {
    await seed();
    const all = ids(await list());
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: LlmCalls = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.total).toBe(10);
      seen.push(...ids(page));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(all);
  });

  it('opens one call with its ids, trace and span, and the key that sent it', async () => {
    const key = await botKeyWithId(t);
    const start = BigInt(NOW - 5 * MINUTE) * 1_000_000n;
    const otlp = await t.app.inject({
      method: 'POST',
      url: '/api/otlp/v1/traces',
      headers: { ...key.headers, 'content-type': 'application/json' },
      payload: {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: '5b8efff798038103d269b633813fc60c',
                    spanId: 'eee19b7ec3c1b174',
                    name: 'chat gpt-4o-mini',
                    startTimeUnixNano: String(start),
                    endTimeUnixNano: String(start + 750_000_000n),
                    attributes: [
                      { key: 'gen_ai.provider.name', value: { stringValue: 'openai' } },
                      { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
                      { key: 'gen_ai.response.model', value: { stringValue: 'gpt-4o-mini-2024-07-18' } },
                      { key: 'gen_ai.usage.input_tokens', value: { intValue: 1000 } },
                      { key: 'gen_ai.usage.output_tokens', value: { intValue: 100 } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(otlp.statusCode, otlp.body).toBe(200);
    const [row] = (await list()).calls;
    const call = await get<LlmCallDetail>(`${CALLS}/${row!.id}`);
    expect(call).toMatchObject({
      id: row!.id,
      model: 'gpt-4o-mini',
      response_model: 'gpt-4o-mini-2024-07-18',
      client_id: 'otlp:5b8efff798038103d269b633813fc60c:eee19b7ec3c1b174',
      trace_id: '5b8efff798038103d269b633813fc60c',
      span_id: 'eee19b7ec3c1b174',
      latency_ms: 750,
      cost_source: 'priced',
      cost_usd: 0.00021,
      api_key: { id: key.id, name: expect.stringMatching(/^bot /) },
    });
  });

  it('exports the matching calls as CSV, newest first, and audits the export', async () => {
    await seed();
    const admin = await t.loginAdmin();
    const res = await t.app.inject({
      method: 'GET',
      url: `${CALLS}.csv?chat_id=-1001&failed=false`,
      headers: admin.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="lumi-calls-\d{8}T\d{4}Z-\d{8}T\d{4}Z\.csv"$/,
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(LLM_CALLS_EXPORT_COLUMNS.join(','));
    // Calls 0, 1 and 3 of chat -1001 succeeded (2 failed), newest first.
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(
      [0, 1, 3].map((i) => new Date(NOW - (i + 1) * MINUTE).toISOString()),
    );
    const entries = await t.app.db
      .selectFrom('audit_logs')
      .select(['resource_name', 'new_value'])
      .where('action', '=', 'metrics.exported')
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]!.resource_name).toBe('calls');
    expect(JSON.parse(entries[0]!.new_value!)).toMatchObject({
      panel: 'calls',
      chat_id: '-1001',
      failed: 'false',
    });
  });

  it('refuses a bad filter or cursor with 422 and an unknown call with 404', async () => {
    const admin = await t.loginAdmin();
    const ask = (url: string) => t.app.inject({ method: 'GET', url, headers: admin.auth });
    for (const query of [
      '?chat_id=chat-1',
      '?failed=yes',
      '?min_cost_usd=abc',
      '?min_latency_ms=-1',
      '?limit=201',
      '?cursor=bm90IGEgY3Vyc29y',
      `?from=${new Date(NOW).toISOString()}&to=${new Date(NOW - MINUTE).toISOString()}`,
    ]) {
      expectError(await ask(`${CALLS}${query}`), 422, 'validation_failed');
    }
    expectError(await ask(`${CALLS}/999999`), 404, 'not_found');
    expectError(await ask(`${CALLS}/abc`), 422, 'validation_failed');
  });

  it('reads at most scanMax calls for filters without an index, and a short page goes on from where it stopped', async () => {
    await seed();
    const range = { from: new Date(NOW - DAY).toISOString(), to: new Date(NOW).toISOString() };
    const filters = { ...range, model: 'gpt-4o-mini' };
    const ids = (rows: { id: number | string }[]) => rows.map((row) => String(row.id));
    const clientIds = async (rows: { id: number | string }[]) =>
      (await Promise.all(ids(rows).map((id) => llmCallById(t.app.db, id)))).map((row) => row!.client_id);

    // The newest four calls are call-0 to call-3; two of them are gpt-4o-mini.
    const first = await llmCallsPage(t.app.db, filters, null, 3, 4);
    expect(await clientIds(first.rows)).toEqual(['call-1', 'call-3']);
    expect(first.searchCut).toBe(true);
    const second = await llmCallsPage(t.app.db, filters, first.next, 3, 4);
    expect(await clientIds(second.rows)).toEqual(['call-5', 'call-7']);
    const third = await llmCallsPage(t.app.db, filters, second.next, 3, 4);
    expect(await clientIds(third.rows)).toEqual(['call-9']);
    expect(third).toMatchObject({ next: null, searchCut: false });

    // A full page continues from its last call; an indexed filter alone is never cut.
    const full = await llmCallsPage(t.app.db, filters, null, 1, 4);
    expect(await clientIds(full.rows)).toEqual(['call-1']);
    expect(full.searchCut).toBe(false);
    expect(await llmCallsPage(t.app.db, { ...range, chat_id: '-1002' }, null, 10, 2)).toMatchObject({
      searchCut: false,
      next: null,
    });

    // Two indexed filters: the chat's index reads the candidates, the failures are filtered among them.
    const chatFailures = { ...range, chat_id: '-1001', failed: 'true' as const };
    const cut = await llmCallsPage(t.app.db, chatFailures, null, 5, 2);
    expect(cut.rows).toEqual([]);
    expect(cut.searchCut).toBe(true);
    expect(await clientIds((await llmCallsPage(t.app.db, chatFailures, cut.next, 5, 2)).rows)).toEqual([
      'call-2',
    ]);
    expect(await llmCallsCount(t.app.db, chatFailures, 100, 2)).toEqual({ count: 1, lowerBound: true });

    expect(await llmCallsCount(t.app.db, filters, 100, 4)).toEqual({ count: 2, lowerBound: true });
    expect(await llmCallsCount(t.app.db, filters, 100, 10)).toEqual({ count: 5, lowerBound: false });
    expect(await llmCallsCount(t.app.db, filters, 3, 10)).toEqual({ count: 3, lowerBound: true });
    expect(await llmCallsCount(t.app.db, { ...range, failed: 'true' }, 100, 1)).toEqual({
      count: 2,
      lowerBound: false,
    });
  });
});
