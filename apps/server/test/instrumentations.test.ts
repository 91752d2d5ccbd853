import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  LlmErrors,
  LlmFeatureUsage,
  LlmLatency,
  LlmTopChats,
  LlmTopUsers,
  LlmUsage,
} from '@lumi/contract';
import { LlmApiStandIn, type StandInCall } from '@lumi/test-support/llm-api-stand-in';
import { NodeProcess } from '@lumi/test-support/server-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.js';
import plan from './instrumentations/bots/scenario.json';
import { botKey } from './telemetry-helper.js';

/**
 * (docs/bot-developers/otlp.md) The real client packages bot teams use, instrumented as each
 * instrumentation's README sets it up, send their spans through the official OTLP exporter to a listening
 * Lumi; the LLM APIs are the local stand-in (@lumi/test-support/llm-api-stand-in). Each bot runs the
 * scenario of instrumentations/bots/scenario.json, and the dashboards must show what the stand-in
 * answered: every call once, under the model asked for and its provider's name, its tokens and catalogue
 * price, its failures and their types, and the chat, user and feature it was made for. What an
 * instrumentation itself leaves out (a span it never ends, usage it does not record) cannot reach Lumi;
 * each bot below says what, and the expectations follow from it.
 */

type Step = (typeof plan.steps)[number];
type Kind = 'chat' | 'stream' | 'embed';
type Update = (typeof plan.updates)[keyof typeof plan.updates];

interface Bot {
  /** The script under instrumentations/bots/, without extension; also its fixture's name. */
  name: string;
  script: string;
  kinds: Kind[];
  provider: string;
  chatModel: string;
  embedModel?: string;
  /** The status a step that fails with `status` asks the stand-in for (Anthropic's 529 for a server error). */
  failStatus?: (status: number) => number;
  /** The error_type of a failure, by the status it failed with (docs/bot-developers/otlp.md). */
  errorTypes: Record<number, string>;
  /** False where the instrumentation never ends (so never exports) the span of a call that failed. */
  exportsFailures: boolean;
  /** Whether the span of a successful step carries its token usage. */
  reportsUsage: (step: Step) => boolean;
  /** Whether the spans carry cached input tokens (else a cached call is priced as uncached input). */
  reportsCachedTokens: boolean;
}

const BOTS: Bot[] = [
  {
    name: 'otel-openai',
    script: 'otel-openai.cjs',
    kinds: ['chat', 'stream', 'embed'],
    provider: 'openai',
    chatModel: 'gpt-4o-mini',
    embedModel: 'text-embedding-3-small',
    errorTypes: { 429: 'rate_limited', 500: 'server_error' },
    exportsFailures: true,
    reportsUsage: () => true,
    reportsCachedTokens: false,
  },
  {
    // Its chat and embeddings wrappers end a span only when the call resolves; a streamed call's span
    // gets no token counts (include_usage's chunk is not read), nor does an embeddings span.
    name: 'openinference-openai',
    script: 'openinference-openai.cjs',
    kinds: ['chat', 'stream', 'embed'],
    provider: 'openai',
    chatModel: 'gpt-4o-mini',
    embedModel: 'text-embedding-3-small',
    errorTypes: {},
    exportsFailures: false,
    reportsUsage: (step) => step.kind === 'chat',
    reportsCachedTokens: true,
  },
  {
    // Ends no span for a call that fails; a streamed call's span has no usage unless enrichTokens (then
    // a tiktoken estimate); no embeddings instrumentation.
    name: 'traceloop-openai',
    script: 'traceloop-openai.cjs',
    kinds: ['chat', 'stream'],
    provider: 'openai',
    chatModel: 'gpt-4o-mini',
    errorTypes: {},
    exportsFailures: false,
    reportsUsage: (step) => step.kind === 'chat',
    reportsCachedTokens: false,
  },
  {
    // OpenLLMetry's span holds the Anthropic SDK's own anthropic.messages.create span: one call. Its input
    // tokens leave the cached ones out (Anthropic's own input_tokens); a failure's status starts its
    // status message ("429 {…}") and the SDK's span has it as http.response.status_code.
    name: 'traceloop-anthropic',
    script: 'traceloop-anthropic.cjs',
    kinds: ['chat', 'stream'],
    provider: 'anthropic',
    chatModel: 'claude-3-5-haiku-latest',
    failStatus: (status) => (status === 500 ? 529 : status),
    errorTypes: { 429: 'rate_limited', 529: 'server_error' },
    exportsFailures: true,
    reportsUsage: () => true,
    reportsCachedTokens: true,
  },
  {
    // The Anthropic SDK's own span alone (what a bot on @anthropic-ai/sdk 1.x has: OpenLLMetry's
    // instrumentation cannot load there). Its input tokens include the cached ones, as the GenAI
    // conventions say; the chat is its gen_ai.conversation.id.
    name: 'anthropic-sdk',
    script: 'anthropic-sdk.cjs',
    kinds: ['chat', 'stream'],
    provider: 'anthropic',
    chatModel: 'claude-3-5-haiku-latest',
    failStatus: (status) => (status === 500 ? 529 : status),
    errorTypes: { 429: 'rate_limited', 529: 'server_error' },
    exportsFailures: true,
    reportsUsage: () => true,
    reportsCachedTokens: true,
  },
  {
    // A failure has AI_APICallError as its exception type and the provider's message, which names no
    // status: nothing in the spans tells a rate limit from a server error.
    name: 'ai-sdk',
    script: 'ai-sdk.mjs',
    kinds: ['chat', 'stream', 'embed'],
    provider: 'openai',
    chatModel: 'gpt-4o-mini',
    embedModel: 'text-embedding-3-small',
    errorTypes: { 429: 'AI_APICallError', 500: 'AI_APICallError' },
    exportsFailures: true,
    reportsUsage: () => true,
    reportsCachedTokens: true,
  },
  {
    // gen_ai.provider.name is the GenAI conventions' "gcp.gen_ai"; output_tokens leave out the thinking
    // tokens Gemini 2.5 bills as output (gen_ai.usage.reasoning_tokens beside them).
    name: 'traceloop-google-genai',
    script: 'traceloop-google-genai.cjs',
    kinds: ['chat', 'stream'],
    provider: 'google',
    chatModel: 'gemini-2.5-flash',
    errorTypes: { 429: 'rate_limited', 500: 'server_error' },
    exportsFailures: true,
    reportsUsage: () => true,
    reportsCachedTokens: true,
  },
];

/**
 * The built-in catalogue's prices (genai-prices), USD per million tokens: input, output, cached input read
 * and written. A cached token is one of the input tokens, priced at its own rate.
 */
const PRICES: Record<string, { input: number; output: number; cacheRead?: number; cacheWrite?: number }> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'claude-3-5-haiku-latest': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.03 },
};

interface Tally {
  requests: number;
  failed: number;
  input: number;
  output: number;
  cost: number;
  unpriced: number;
}
const tally = (): Tally => ({ requests: 0, failed: 0, input: 0, output: 0, cost: 0, unpriced: 0 });

/** What the dashboards should show for a bot's run: the stand-in's answers as the bot's spans tell them. */
function expected(bot: Bot, calls: StandInCall[]) {
  const steps = plan.steps.filter((step) => bot.kinds.includes(step.kind as Kind));
  const byModel = new Map<string, Tally>();
  const byFeature = new Map<string, Tally>();
  const byChat = new Map<string, Tally>();
  const byUser = new Map<string, Tally>();
  const errorTypes = new Map<string, number>();
  const total = tally();
  steps.forEach((step, i) => {
    const failed = step.fail !== undefined;
    if (failed && !bot.exportsFailures) return;
    const call = calls[i]!;
    const update: Update = plan.updates[step.update as keyof typeof plan.updates];
    const model = step.kind === 'embed' ? bot.embedModel! : bot.chatModel;
    const usage = !failed && bot.reportsUsage(step);
    const { input, output } = usage ? call.usage : { input: 0, output: 0 };
    const cacheRead = usage && bot.reportsCachedTokens ? call.usage.cacheRead : 0;
    const cacheWrite = usage && bot.reportsCachedTokens ? call.usage.cacheWrite : 0;
    const price = PRICES[model]!;
    const cost =
      ((input - cacheRead - cacheWrite) * price.input +
        cacheRead * (price.cacheRead ?? price.input) +
        cacheWrite * (price.cacheWrite ?? price.input) +
        output * price.output) /
      1e6;
    const add = (map: Map<string, Tally>, key: string) => {
      const t = map.get(key) ?? tally();
      map.set(key, t);
      return t;
    };
    for (const t of [
      add(byModel, model),
      add(byFeature, update.feature),
      add(byChat, update.chat_id),
      add(byUser, update.user_id),
      total,
    ]) {
      t.requests += 1;
      t.failed += failed ? 1 : 0;
      t.input += input;
      t.output += output;
      t.cost += cost;
      t.unpriced += !failed && !usage ? 1 : 0;
    }
    if (failed) {
      const type = bot.errorTypes[bot.failStatus?.(step.fail!) ?? step.fail!]!;
      errorTypes.set(type, (errorTypes.get(type) ?? 0) + 1);
    }
  });
  return { steps, byModel, byFeature, byChat, byUser, errorTypes, total };
}

/** The dashboards give each cost to the millionth of a dollar: a sum of `rows` of them may be that far off. */
function expectCost(what: string, actual: number, cost: number, rows = 1) {
  const told = `${what}: ${actual} USD on the dashboard, ${cost} USD at the catalogue's prices`;
  expect(actual, told).toBeGreaterThan(0);
  expect(Math.abs(actual - cost), told).toBeLessThanOrEqual(5e-7 * rows + 1e-12);
}

const botsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'instrumentations', 'bots');

describe.each(dialects)('real LLM instrumentations report through OTLP on %s', (dialect) => {
  describe.each(BOTS)('$name', (bot) => {
    let t: TestApp;
    let calls: StandInCall[] = [];
    let auth: { authorization: string };
    const get = async <T>(url: string): Promise<T> => {
      const res = await t.app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<T>();
    };
    const want = () => expected(bot, calls);

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      auth = (await t.loginAdmin()).auth;
      const key = await botKey(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const standIn = await LlmApiStandIn.start();
      try {
        const run = await NodeProcess.start(path.join(botsDir, bot.script), {
          name: bot.script,
          env: {
            LLM_API_URL: standIn.url,
            LUMI_OTLP_URL: `http://127.0.0.1:${port}/api/otlp/v1/traces`,
            LUMI_API_KEY: key.authorization.slice('Bearer '.length),
            // The bot's exporter and SDK are configured in code, not by a CI machine's environment.
            OTEL_SDK_DISABLED: undefined,
            OTEL_EXPORTER_OTLP_HEADERS: undefined,
            OTEL_EXPORTER_OTLP_TRACES_HEADERS: undefined,
          },
        });
        const code = await run.exited;
        if (code !== 0) throw new Error(`${bot.script} exited with ${code}:\n${run.output()}`);
        calls = [...standIn.calls];
      } finally {
        await standIn.close();
      }
    });
    afterAll(async () => {
      await t?.close();
    });

    it('runs the whole scenario against the stand-in', () => {
      const { steps } = want();
      expect(calls.map((c) => [c.model, c.stream, c.status])).toEqual(
        steps.map((step) => [
          step.kind === 'embed' ? bot.embedModel : bot.chatModel,
          step.kind === 'stream',
          step.fail === undefined ? 200 : (bot.failStatus?.(step.fail) ?? step.fail),
        ]),
      );
    });

    it('counts each call once, under the model asked for', async () => {
      const { total, byModel } = want();
      const usage = await get<LlmUsage>('/api/metrics/llm-usage?days=1');
      expect(usage.totals.requests).toBe(total.requests);
      const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
      const models = new Map<string, number>();
      for (const m of features.features.flatMap((f) => f.models)) {
        models.set(m.model, (models.get(m.model) ?? 0) + m.requests);
      }
      expect(Object.fromEntries(models)).toEqual(
        Object.fromEntries([...byModel].map(([model, t]) => [model, t.requests])),
      );
    });

    it(`names the provider "${bot.provider}"`, async () => {
      const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
      const errors = await get<LlmErrors>('/api/metrics/llm/errors');
      const latency = await get<LlmLatency>('/api/metrics/llm/latency');
      const providers = [
        ...features.features.flatMap((f) => f.models.map((m) => m.provider)),
        ...errors.models.map((m) => m.provider),
        ...latency.models.map((m) => m.provider),
      ];
      expect(providers.length).toBeGreaterThan(0);
      expect(new Set(providers)).toEqual(new Set([bot.provider]));
    });

    it('adds up the tokens in and out of each model, cached and thinking tokens included', async () => {
      const { byModel } = want();
      const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
      const tokens = new Map<string, { input: number; output: number }>();
      for (const m of features.features.flatMap((f) => f.models)) {
        const t = tokens.get(m.model) ?? { input: 0, output: 0 };
        tokens.set(m.model, { input: t.input + m.input_tokens, output: t.output + m.output_tokens });
      }
      expect([...tokens].map(([model, t]) => `${model} in ${t.input} out ${t.output}`).sort()).toEqual(
        [...byModel].map(([model, t]) => `${model} in ${t.input} out ${t.output}`).sort(),
      );
    });

    it('prices every call with usage at the catalogue price, and flags the calls without', async () => {
      const { byModel, total } = want();
      const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
      for (const [model, t] of byModel) {
        const rows = features.features.flatMap((f) => f.models).filter((m) => m.model === model);
        const cost = rows.reduce((sum, m) => sum + m.cost_usd, 0);
        if (t.cost > 0) expectCost(model, cost, t.cost, rows.length);
      }
      const usage = await get<LlmUsage>('/api/metrics/llm-usage?days=1');
      expectCost('all calls', usage.totals.cost, total.cost);
      expect(usage.unpriced_requests).toBe(total.unpriced);
    });

    it('counts the failures under the model asked for, with their error rate and types', async () => {
      const { byModel, errorTypes } = want();
      const errors = await get<LlmErrors>('/api/metrics/llm/errors');
      // The provider's name has a test of its own.
      expect(errors.models.map((m) => [m.model, m.requests, m.failed_requests]).sort()).toEqual(
        [...byModel].map(([model, t]) => [model, t.requests, t.failed]).sort(),
      );
      const chat = byModel.get(bot.chatModel)!;
      expect(errors.models.find((m) => m.model === bot.chatModel)?.error_rate).toBeCloseTo(
        (100 * chat.failed) / chat.requests,
        2,
      );
      expect(Object.fromEntries(errors.error_types.map((e) => [e.error_type, e.errors]))).toEqual(
        Object.fromEntries(errorTypes),
      );
    });

    it('puts each call under the chat, user and feature it was made for', async () => {
      const { byFeature, byChat, byUser } = want();
      const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
      // Calls and failures only: the tokens and costs have tests of their own.
      expect(features.features.map((f) => [f.feature, f.requests, f.failed_requests]).sort()).toEqual(
        [...byFeature].map(([feature, t]) => [feature, t.requests, t.failed]).sort(),
      );
      const chats = await get<LlmTopChats>('/api/metrics/llm/top-chats');
      expect(chats.chats.map((c) => [c.chat_id, c.requests]).sort()).toEqual(
        [...byChat].map(([chat, t]) => [chat, t.requests]).sort(),
      );
      const users = await get<LlmTopUsers>('/api/metrics/llm/top-users');
      expect(users.users.map((u) => [u.user_id, u.requests]).sort()).toEqual(
        [...byUser].map(([user, t]) => [user, t.requests]).sort(),
      );
    });

    it('measures the latency of each model', async () => {
      const { byModel } = want();
      const latency = await get<LlmLatency>('/api/metrics/llm/latency');
      expect(latency.models.map((m) => [m.model, m.total.requests]).sort()).toEqual(
        [...byModel].map(([model, t]) => [model, t.requests]).sort(),
      );
      for (const m of latency.models) {
        expect(m.total.p50_ms).toBeGreaterThan(0);
        expect(m.total.p50_ms).toBeLessThan(10_000);
      }
    });
  });
});
