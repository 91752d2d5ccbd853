import { ALLOWANCE_REASONS, CONFIG_DOMAINS, telemetryEventSchema, type ConfigDomain } from '@lumi/contract';
import type {
  allowanceRequestSchema,
  allowanceSchema,
  botConfigSchema,
  botLimitsSnapshotSchema,
  botUsageRequestSchema,
  botUsageResponseSchema,
  cacheStatsEventSchema,
  deliveryRequestSchema,
  deliverySchema,
  errorEventSchema,
  feedbackEventSchema,
  heartbeatEventSchema,
  ingestResponseSchema,
  integrationCallEventSchema,
  llmCallEventSchema,
  marketDataEventSchema,
  LIMIT_METRICS,
  LIMIT_MODES,
  LIMIT_SCOPES,
  LIMIT_WINDOWS,
} from '@lumi/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  cacheStatsEvent,
  cleanName,
  cleanText,
  errorEvent,
  feedbackEvent,
  heartbeatEvent,
  integrationCallEvent,
  llmCallEvent,
  marketDataEvent,
  telegramId,
} from '../src/events.js';
import {
  ALLOWANCE_REASONS as WIRE_ALLOWANCE_REASONS,
  CONFIG_DOMAINS as WIRE_CONFIG_DOMAINS,
} from '../src/wire.js';
import type * as Wire from '../src/wire.js';

/**
 * The SDK writes the API's types out itself (src/wire.ts), so the published package needs nothing of the
 * server; these tests hold them to the contract the server validates with: every field the contract
 * knows, of the same type, and every event the SDK makes accepted by the contract's own schema.
 */

/** Keys of an object type, the optional ones included. */
type KeysOf<T> = keyof { [K in keyof T]-?: T[K] };

describe('the wire types match @lumi/contract', () => {
  it('has each event type with the contract’s fields (plus the SDK’s extras, which the server ignores)', () => {
    type Input<S extends z.ZodType> = z.input<S>;
    expectTypeOf<KeysOf<Wire.LlmCallEvent>>().toEqualTypeOf<KeysOf<Input<typeof llmCallEventSchema>>>();
    expectTypeOf<Wire.LlmCallEvent>().toExtend<Input<typeof llmCallEventSchema>>();
    expectTypeOf<
      Exclude<KeysOf<Wire.IntegrationCallEvent>, 'chat_id' | 'user_id' | 'update_type'>
    >().toEqualTypeOf<KeysOf<Input<typeof integrationCallEventSchema>>>();
    expectTypeOf<Wire.IntegrationCallEvent>().toExtend<Input<typeof integrationCallEventSchema>>();
    expectTypeOf<KeysOf<Wire.CacheStatsEvent>>().toEqualTypeOf<KeysOf<Input<typeof cacheStatsEventSchema>>>();
    expectTypeOf<Wire.CacheStatsEvent>().toExtend<Input<typeof cacheStatsEventSchema>>();
    expectTypeOf<KeysOf<Wire.HeartbeatEvent>>().toEqualTypeOf<KeysOf<Input<typeof heartbeatEventSchema>>>();
    expectTypeOf<Wire.HeartbeatEvent>().toExtend<Input<typeof heartbeatEventSchema>>();
    expectTypeOf<
      Exclude<KeysOf<Wire.ErrorEvent>, 'chat_id' | 'user_id' | 'feature' | 'error_type'>
    >().toEqualTypeOf<KeysOf<Input<typeof errorEventSchema>>>();
    expectTypeOf<Wire.ErrorEvent>().toExtend<Input<typeof errorEventSchema>>();
    expectTypeOf<KeysOf<Wire.MarketDataEvent>>().toEqualTypeOf<KeysOf<Input<typeof marketDataEventSchema>>>();
    expectTypeOf<Wire.MarketDataEvent>().toExtend<Input<typeof marketDataEventSchema>>();
    expectTypeOf<KeysOf<Wire.FeedbackEvent>>().toEqualTypeOf<KeysOf<Input<typeof feedbackEventSchema>>>();
    expectTypeOf<Wire.FeedbackEvent>().toExtend<Input<typeof feedbackEventSchema>>();
  });

  it('reads the answers as the contract writes them', () => {
    expectTypeOf<z.output<typeof ingestResponseSchema>>().toEqualTypeOf<Wire.IngestResult>();
    expectTypeOf<z.output<typeof deliverySchema>>().toEqualTypeOf<Wire.Delivery>();
    expectTypeOf<z.output<typeof botConfigSchema>['domains'][Wire.ConfigDomain]>().toEqualTypeOf<
      Wire.BotConfigItem[]
    >();
    expectTypeOf<Wire.DeliveryRequest>().toExtend<z.input<typeof deliveryRequestSchema>>();
    expectTypeOf<KeysOf<Wire.DeliveryRequest>>().toEqualTypeOf<
      KeysOf<z.input<typeof deliveryRequestSchema>>
    >();
  });

  it('has the allowance, the limits snapshot and the usage of the contract', () => {
    expectTypeOf<z.output<typeof allowanceSchema>>().toEqualTypeOf<Wire.Allowance>();
    expectTypeOf<z.input<typeof allowanceRequestSchema>>().toEqualTypeOf<Wire.AllowanceRequest>();
    expectTypeOf<z.output<typeof botLimitsSnapshotSchema>>().toEqualTypeOf<Wire.BotLimitsSnapshot>();
    expectTypeOf<z.output<typeof botUsageResponseSchema>>().toEqualTypeOf<Wire.BotUsageResponse>();
    expectTypeOf<Wire.BotUsageRequest>().toEqualTypeOf<z.input<typeof botUsageRequestSchema>>();
    expectTypeOf<Wire.LimitScope>().toEqualTypeOf<(typeof LIMIT_SCOPES)[number]>();
    expectTypeOf<Wire.LimitMetric>().toEqualTypeOf<(typeof LIMIT_METRICS)[number]>();
    expectTypeOf<Wire.LimitWindow>().toEqualTypeOf<(typeof LIMIT_WINDOWS)[number]>();
    expectTypeOf<Wire.LimitMode>().toEqualTypeOf<(typeof LIMIT_MODES)[number]>();
    expect(WIRE_ALLOWANCE_REASONS).toEqual(ALLOWANCE_REASONS);
  });

  it('has the configuration domains of the contract, in its order', () => {
    expectTypeOf<Wire.ConfigDomain>().toEqualTypeOf<ConfigDomain>();
    expect(WIRE_CONFIG_DOMAINS).toEqual(CONFIG_DOMAINS);
  });
});

describe('the events the SDK makes', () => {
  const ts = new Date('2026-01-02T03:04:05.000Z');
  const made = [
    llmCallEvent({
      provider: 'openai',
      model: 'gpt-4o-mini',
      inputTokens: 812.4,
      outputTokens: 164,
      latencyMs: 640.7,
      chatId: -1001234567890,
      userId: 42n,
      feature: '  reply\n',
      success: false,
      errorType: 'rate_limited',
      ts,
    }),
    integrationCallEvent({
      serviceName: 'coingecko',
      status: 'error',
      latencyMs: 12,
      error: 'bad\u0000gateway',
      ts,
    }),
    cacheStatsEvent({
      hits: 3,
      misses: 1,
      entries: 40,
      avgResponseTimeCachedMs: 2,
      avgResponseTimeUncachedMs: 300,
      ts,
    }),
    heartbeatEvent({
      telegramStatus: 'connected',
      startedAt: ts,
      activeLocks: [{ name: 'digest', holder: 'worker-1', since: ts }],
      ts,
    }),
    errorEvent(new TypeError('boom\u0007'), { defaultSource: 'bot', chatId: '-100', ts }),
    marketDataEvent({ lastCandleTime: ts, websocketStatus: 'connected', missingIntervals: 0, ts }),
    feedbackEvent({
      chatId: -100,
      messageId: 9,
      userId: 42,
      reaction: '👍',
      feature: 'reply',
      ts,
    }) as Wire.FeedbackEvent,
    feedbackEvent({
      chatId: -100,
      messageId: 9,
      score: 4,
      configRevision: 'rev-1',
      ts,
    }) as Wire.FeedbackEvent,
  ];

  it.each(made.map((event) => [event.type, event] as const))(
    'are accepted by the contract: %s',
    (_type, event) => {
      const parsed = telemetryEventSchema.safeParse(event);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(event.ts).toBe('2026-01-02T03:04:05.000Z');
      expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it('writes ids, numbers and names the way Lumi keys them', () => {
    expect(made[0]).toMatchObject({
      chat_id: '-1001234567890',
      user_id: '42',
      feature: 'reply',
      input_tokens: 812,
      latency_ms: 641,
      cached: false,
    });
    expect(made[1]).toMatchObject({ error: 'bad gateway' });
    expect(made[4]).toMatchObject({ source: 'bot', chat_id: '-100', error_type: 'TypeError' });
    expect((made[4] as Wire.ErrorEvent).message).toMatch(/^TypeError: boom \n {4}at /);
    expect(telegramId('007')).toBeUndefined();
    expect(telegramId(0)).toBe('0');
    expect(cleanName('\u200b ', 64)).toBeUndefined();
    expect(cleanName('x'.repeat(70), 64)).toHaveLength(64);
    expect(cleanText('a\uD800b\u0000c\n', 10)).toBe('a\uFFFDb c\n');
  });

  it('makes feedback events of the new type, and refuses incomplete ones', () => {
    expect(
      feedbackEvent({
        chatId: -100,
        messageId: 7,
        userId: 42,
        reaction: '👍',
        configRevision: 'abc',
        id: 'f1',
        ts,
      }),
    ).toEqual({
      type: 'feedback',
      id: 'f1',
      ts: '2026-01-02T03:04:05.000Z',
      chat_id: '-100',
      message_id: 7,
      user_id: '42',
      reaction: '👍',
      config_revision: 'abc',
    });
    expect(feedbackEvent({ chatId: -100, messageId: 7, userId: 42 })).toMatch(/reaction or a score/);
    expect(feedbackEvent({ chatId: 'x', messageId: 7, userId: 42, score: 1 })).toMatch(/chatId/);
    expect(feedbackEvent({ chatId: 1, messageId: 7, score: 9 })).toMatch(/-1 to 5/);
  });
});
