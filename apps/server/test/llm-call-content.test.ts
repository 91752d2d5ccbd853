import {
  LLM_CONTENT_LIMITS,
  LLM_CONTENT_REDACTED,
  type ApiKey,
  type AuditLog,
  type LlmCallContent,
  type LlmCallDetail,
  type LlmCalls,
} from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp } from './helper.js';
import { adminGet, botKeyWithId, events, ingest, MINUTE } from './telemetry-helper.js';

/**
 * (docs/operators/metrics.md, "Content of calls") A call's prompt and completion: kept only for a key that
 * captures content, redacted and capped before storing, read with llm:content:read and audited, removed
 * after LUMI_CONTENT_RETENTION_DAYS; on both databases.
 */

const DAY = 24 * 60 * MINUTE;
const CALLS = '/api/metrics/llm/calls';

describe.each(dialects)('the content of calls on %s', (dialect) => {
  let now = Date.parse('2026-11-20T12:30:00.000Z');
  const t = useTestApp(dialect, { app: { now: () => now, telemetry: { contentRetentionDays: 3 } } });

  const admin = () => t.loginAdmin();
  async function setContent(keyId: number, body: unknown) {
    return t.app.inject({
      method: 'PUT',
      url: `/api/admin/api-keys/${keyId}/content`,
      headers: (await admin()).auth,
      payload: body as object,
    });
  }
  async function capturingKey(redactions: string[] = []) {
    const key = await botKeyWithId(t);
    const res = await setContent(key.id, { capture_content: true, content_redactions: redactions });
    expect(res.statusCode, res.body).toBe(200);
    return key;
  }
  async function onlyCall(): Promise<LlmCallDetail> {
    const page = await adminGet<LlmCalls>(t, CALLS);
    expect(page.calls).toHaveLength(1);
    return adminGet<LlmCallDetail>(t, `${CALLS}/${page.calls[0]!.id}`);
  }
  async function readContent(id: string) {
    return t.app.inject({ method: 'GET', url: `${CALLS}/${id}/content`, headers: (await admin()).auth });
  }

  it('keeps nothing for a key that does not capture content (the default)', async () => {
    const key = await botKeyWithId(t);
    await ingest(t.app, key.headers, [
      events.llmCall(now - MINUTE, { prompt: 'my card is 4111 1111 1111 1111', completion: 'noted' }),
    ]);
    const call = await onlyCall();
    expect(call.content).toBe('none');
    const body = expectError(await readContent(call.id), 404);
    expect(body.detail).toMatch(/did not capture content/);
  });

  it('keeps the prompt and completion of a capturing key, redacted and printable, and audits each view', async () => {
    const key = await capturingKey(['\\b\\d{4} \\d{4} \\d{4} \\d{4}\\b', '[\\w.+-]+@[\\w-]+\\.[\\w.-]*\\w']);
    await ingest(t.app, key.headers, [
      events.llmCall(now - MINUTE, {
        id: 'with-content',
        prompt: [
          { role: 'system', content: 'You are Lumi.' },
          { role: 'user', content: 'Card 4111 1111 1111 1111, mail me at ann@example.com\u0007' },
        ],
        completion: 'Sure, ann@example.com.',
      }),
    ]);
    const call = await onlyCall();
    expect(call.content).toBe('kept');
    const res = await readContent(call.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json<LlmCallContent>()).toEqual({
      prompt: [
        { role: 'system', text: 'You are Lumi.' },
        { role: 'user', text: `Card ${LLM_CONTENT_REDACTED}, mail me at ${LLM_CONTENT_REDACTED}\uFFFD` },
      ],
      completion: [{ role: 'assistant', text: `Sure, ${LLM_CONTENT_REDACTED}.` }],
      truncated: false,
      redactions: 3,
      expires_at: new Date(now - MINUTE + 3 * DAY).toISOString(),
    });
    const audit = await adminGet<{ logs: AuditLog[] }>(
      t,
      '/api/admin/audit-logs?action=llm_call.content_viewed',
    );
    expect(audit.logs).toHaveLength(1);
    expect(audit.logs[0]).toMatchObject({ resource_type: 'llm_call', resource_id: call.id });

    // The same event sent again is a duplicate: its content is not stored twice.
    await ingest(t.app, key.headers, [
      events.llmCall(now - MINUTE, { id: 'with-content', prompt: 'other', completion: 'other' }),
    ]);
    expect((await readContent(call.id)).json<LlmCallContent>().prompt[0]!.text).toBe('You are Lumi.');
  });

  it('applies a change of the key’s settings from its next batch, although the key was checked just before', async () => {
    const key = await botKeyWithId(t);
    await ingest(t.app, key.headers, [events.llmCall(now - 2 * MINUTE, { id: 'before', prompt: 'first' })]);
    const res = await setContent(key.id, { capture_content: true, content_redactions: [] });
    expect(res.statusCode, res.body).toBe(200);
    await ingest(t.app, key.headers, [events.llmCall(now - MINUTE, { id: 'after', prompt: 'second' })]);
    // Newest first: the batch after the change, then the one before it.
    const page = await adminGet<LlmCalls>(t, CALLS);
    const details = await Promise.all(
      page.calls.map((call) => adminGet<LlmCallDetail>(t, `${CALLS}/${call.id}`)),
    );
    expect(details.map((call) => [call.client_id, call.content])).toEqual([
      ['after', 'kept'],
      ['before', 'none'],
    ]);
  });

  it('needs llm:content:read, which the seeded operator role does not have', async () => {
    const key = await capturingKey();
    await ingest(t.app, key.headers, [events.llmCall(now - MINUTE, { prompt: 'p', completion: 'c' })]);
    const call = await onlyCall();
    const operator = await t.signInAs(['operator']);
    const res = await t.app.inject({
      method: 'GET',
      url: `${CALLS}/${call.id}/content`,
      headers: operator.auth,
    });
    expect(expectError(res, 403).detail).toMatch(/llm:content:read/);
  });

  it('cuts each side to its limit and says so', async () => {
    const key = await capturingKey();
    const many = Array.from({ length: LLM_CONTENT_LIMITS.messagesMax + 5 }, () => ({
      role: 'user',
      content: 'hi',
    }));
    await ingest(t.app, key.headers, [
      events.llmCall(now - MINUTE, {
        prompt: 'x'.repeat(LLM_CONTENT_LIMITS.textMax + 500),
        completion: many,
      }),
    ]);
    const content = (await readContent((await onlyCall()).id)).json<LlmCallContent>();
    expect(content.truncated).toBe(true);
    expect(content.prompt[0]!.text).toHaveLength(LLM_CONTENT_LIMITS.textMax);
    expect(content.completion).toHaveLength(LLM_CONTENT_LIMITS.messagesMax);
  });

  it('removes content after LUMI_CONTENT_RETENTION_DAYS and keeps the call', async () => {
    const key = await capturingKey();
    await ingest(t.app, key.headers, [events.llmCall(now - MINUTE, { prompt: 'p', completion: 'c' })]);
    const { id } = await onlyCall();
    now += 3 * DAY;
    expect((await t.app.services.telemetryStore.retention.prune()).contents).toBe(1);
    expect((await adminGet<LlmCallDetail>(t, `${CALLS}/${id}`)).content).toBe('removed');
    expect(expectError(await readContent(id), 404).detail).toMatch(/removed after 3 days/);
  });

  it('refuses patterns that are not regular expressions or could run for very long, and audits a change', async () => {
    const key = await botKeyWithId(t);
    for (const pattern of ['(unclosed', '(a+)+$']) {
      const body = expectError(
        await setContent(key.id, { capture_content: true, content_redactions: [pattern] }),
        422,
      );
      expect(body.errors).toEqual([
        { path: 'content_redactions.0', message: expect.stringContaining(pattern) },
      ]);
    }
    expectError(await setContent(key.id, { capture_content: 'yes', content_redactions: [] }), 422);
    expectError(await setContent(999_999, { capture_content: true, content_redactions: [] }), 404);
    const res = await setContent(key.id, { capture_content: true, content_redactions: ['secret', 'secret'] });
    expect(res.json<ApiKey>()).toMatchObject({ capture_content: true, content_redactions: ['secret'] });
    // Saving the same settings again changes nothing and writes no second entry.
    await setContent(key.id, { capture_content: true, content_redactions: ['secret'] });
    const audit = await adminGet<{ logs: AuditLog[] }>(
      t,
      '/api/admin/audit-logs?action=api_key.content_changed',
    );
    expect(audit.logs).toHaveLength(1);
    expect(audit.logs[0]).toMatchObject({
      old_value: { capture_content: false, content_redactions: [] },
      new_value: { capture_content: true, content_redactions: ['secret'] },
    });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/api-keys/${key.id}`,
      headers: (await admin()).auth,
    });
    expectError(await setContent(key.id, { capture_content: false, content_redactions: [] }), 409);
  });

  it('answers parallel identical changes with one change and one audit entry', async () => {
    const key = await botKeyWithId(t);
    const { auth } = await admin();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({
          method: 'PUT',
          url: `/api/admin/api-keys/${key.id}/content`,
          headers: auth,
          payload: { capture_content: true, content_redactions: ['x'] },
        }),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const audit = await adminGet<{ logs: AuditLog[] }>(
      t,
      '/api/admin/audit-logs?action=api_key.content_changed',
    );
    expect(audit.logs).toHaveLength(1);
  });

  it('reads the content of OTLP spans in each convention', async () => {
    const key = await capturingKey(['secret-\\d+']);
    const start = BigInt(now - MINUTE) * 1_000_000n;
    const span = (spanId: string, attributes: Record<string, string>) => ({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId,
      name: 'chat',
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + 500_000_000n),
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.system', value: { stringValue: 'openai' } },
        { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
        ...Object.entries(attributes).map(([k, v]) => ({ key: k, value: { stringValue: v } })),
      ],
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/otlp/v1/traces',
      headers: { ...key.headers, 'content-type': 'application/json' },
      payload: {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  // GenAI semantic conventions
                  span('0000000000000001', {
                    'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
                    'gen_ai.input.messages': JSON.stringify([
                      { role: 'user', parts: [{ type: 'text', content: 'code secret-42?' }] },
                    ]),
                    'gen_ai.output.messages': JSON.stringify([
                      { role: 'assistant', parts: [{ type: 'text', content: 'No.' }], finish_reason: 'stop' },
                    ]),
                  }),
                  // OpenLLMetry
                  span('0000000000000002', {
                    'gen_ai.prompt.0.role': 'user',
                    'gen_ai.prompt.0.content': 'hello',
                    'gen_ai.completion.0.role': 'assistant',
                    'gen_ai.completion.0.content': 'hi there',
                  }),
                  // OpenInference
                  span('0000000000000003', {
                    'llm.input_messages.0.message.role': 'user',
                    'llm.input_messages.0.message.content': 'question',
                    'llm.output_messages.0.message.role': 'assistant',
                    'llm.output_messages.0.message.content': 'answer',
                  }),
                  // Vercel AI SDK
                  span('0000000000000004', {
                    'ai.prompt.messages': JSON.stringify([
                      { role: 'user', content: [{ type: 'text', text: 'from the AI SDK' }] },
                    ]),
                    'ai.response.text': 'done',
                  }),
                ],
              },
            ],
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await adminGet<LlmCalls>(t, CALLS);
    expect(page.calls).toHaveLength(4);
    const bySpan = new Map<string, LlmCallContent>();
    for (const call of page.calls) {
      const detail = await adminGet<LlmCallDetail>(t, `${CALLS}/${call.id}`);
      bySpan.set(detail.span_id!, (await readContent(call.id)).json<LlmCallContent>());
    }
    expect(bySpan.get('0000000000000001')).toMatchObject({
      prompt: [
        { role: 'system', text: 'Be brief.' },
        { role: 'user', text: `code ${LLM_CONTENT_REDACTED}?` },
      ],
      completion: [{ role: 'assistant', text: 'No.' }],
      redactions: 1,
    });
    expect(bySpan.get('0000000000000002')).toMatchObject({
      prompt: [{ role: 'user', text: 'hello' }],
      completion: [{ role: 'assistant', text: 'hi there' }],
    });
    expect(bySpan.get('0000000000000003')).toMatchObject({
      prompt: [{ role: 'user', text: 'question' }],
      completion: [{ role: 'assistant', text: 'answer' }],
    });
    expect(bySpan.get('0000000000000004')).toMatchObject({
      prompt: [{ role: 'user', text: 'from the AI SDK' }],
      completion: [{ role: 'assistant', text: 'done' }],
    });
  });
});
