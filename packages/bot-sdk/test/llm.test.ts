import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIStandIn, type OpenAIStandIn } from '../../../examples/grammy-bot/stand-ins/openai.js';
import { createLumi, type LlmCallEvent, type Lumi } from '../src/index.js';
import { FakeLumi } from './fake-lumi.js';

/**
 * The wrappers around the official clients, `openai` and `@google/genai`, each calling a local stand-in of
 * its API: every call becomes one llm_call with the model, tokens, latency, failure and the context's chat,
 * user and feature, and the client behaves as before.
 */

let lumi: FakeLumi;
let bot: Lumi;
let openaiStandIn: OpenAIStandIn;
let gemini: Server;
let geminiUrl: string;
let geminiFailures: number[] = [];

/** A stand-in for the Gemini API's generateContent and streamGenerateContent (SSE). */
function startGemini(): Promise<void> {
  gemini = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const failure = geminiFailures.shift();
      if (failure) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ error: { code: failure, message: 'Quota', status: 'RESOURCE_EXHAUSTED' } }),
        );
      }
      const answer = (text: string, usage: object) => ({
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: usage,
        modelVersion: 'gemini-2.0-flash-001',
      });
      if (req.url?.includes(':streamGenerateContent')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify(answer('Hel', { promptTokenCount: 9, candidatesTokenCount: 1 }))}\r\n\r\n`,
        );
        res.end(
          `data: ${JSON.stringify(answer('lo', { promptTokenCount: 9, candidatesTokenCount: 2, thoughtsTokenCount: 5 }))}\r\n\r\n`,
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          answer('Hello', { promptTokenCount: 12, candidatesTokenCount: 3, totalTokenCount: 15 }),
        ),
      );
    });
  });
  return new Promise((resolve) =>
    gemini.listen(0, '127.0.0.1', () => {
      geminiUrl = `http://127.0.0.1:${(gemini.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  lumi = await FakeLumi.start();
  openaiStandIn = await startOpenAIStandIn();
  await startGemini();
  bot = createLumi({ url: lumi.url, apiKey: 'lumi_test', onError: () => undefined });
});

afterAll(async () => {
  await bot.close(0);
  await Promise.all([lumi.close(), openaiStandIn.close(), new Promise((resolve) => gemini.close(resolve))]);
});

afterEach(() => {
  lumi.stored.length = 0;
});

/** The llm_call events Lumi got. */
async function reported(): Promise<LlmCallEvent[]> {
  await bot.flush();
  return lumi.stored.filter((e): e is LlmCallEvent => e.type === 'llm_call');
}

const openai = () =>
  bot.openai(new OpenAI({ apiKey: 'sk-test', baseURL: openaiStandIn.url, maxRetries: 0 }), {
    feature: 'reply',
  });

describe('openai', () => {
  it('reports a chat completion with the context it was made in', async () => {
    const client = openai();
    const completion = await bot.withContext({ chatId: -1001, userId: 42 }, () =>
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Hi there' }],
      }),
    );
    expect(completion.choices[0]!.message.content).toMatch(/Hi there/);
    const [call] = await reported();
    expect(call).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      input_tokens: completion.usage!.prompt_tokens,
      output_tokens: completion.usage!.completion_tokens,
      success: true,
      cached: false,
      chat_id: '-1001',
      user_id: '42',
      feature: 'reply',
    });
    expect(call!.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('keeps the client’s own API (withResponse) and reports once, however often it is wrapped', async () => {
    const client = bot.openai(openai());
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      .withResponse();
    expect(response.status).toBe(200);
    expect(data.model).toBe('gpt-4o');
    expect(await reported()).toHaveLength(1);
  });

  it('reports a stream when it ends, with the usage chunk’s tokens', async () => {
    const client = openai();
    const stream = await bot.withContext({ chatId: 5, feature: 'story' }, () =>
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Tell me a story' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toMatch(/Tell me a story/);
    const [call] = await reported();
    expect(call).toMatchObject({ chat_id: '5', feature: 'story', success: true });
    expect(call!.input_tokens).toBeGreaterThan(0);
    expect(call!.output_tokens).toBe(Math.ceil(text.length / 4));
  });

  it('marks a stream that told no usage, so Lumi flags the call as unpriced rather than free', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    for await (const chunk of stream) void chunk;
    const [call] = await reported();
    expect(call).toMatchObject({ success: true, input_tokens: 0, output_tokens: 0, usage_known: false });
  });

  it('reports a failed call with its error type and throws the error on', async () => {
    openaiStandIn.failNext(429);
    const client = openai();
    await expect(
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const [call] = await reported();
    expect(call).toMatchObject({
      success: false,
      error_type: 'rate_limited',
      input_tokens: 0,
      output_tokens: 0,
    });
  });
});

describe('@google/genai', () => {
  const genai = () =>
    bot.googleGenAI(
      new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: geminiUrl, retryOptions: { attempts: 1 } } }),
    );

  it('reports generateContent, and chats, which go through it', async () => {
    const client = genai();
    const response = await bot.withContext({ chatId: 7, userId: 8, feature: 'summarize' }, () =>
      client.models.generateContent({ model: 'gemini-2.0-flash', contents: 'Sum up' }),
    );
    expect(response.text).toBe('Hello');
    const chat = client.chats.create({ model: 'models/gemini-2.0-flash' });
    await chat.sendMessage({ message: 'Hi' });
    const calls = await reported();
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      provider: 'gemini',
      model: 'gemini-2.0-flash',
      input_tokens: 12,
      output_tokens: 3,
      chat_id: '7',
      user_id: '8',
      feature: 'summarize',
      success: true,
    });
    expect(calls[1]).toMatchObject({ model: 'gemini-2.0-flash', input_tokens: 12 });
  });

  it('reports a stream once it ends, thinking tokens counted as output', async () => {
    const client = genai();
    let text = '';
    for await (const chunk of await client.models.generateContentStream({
      model: 'gemini-2.5-pro',
      contents: 'Hi',
    })) {
      text += chunk.text ?? '';
    }
    expect(text).toBe('Hello');
    const [call] = await reported();
    expect(call).toMatchObject({ model: 'gemini-2.5-pro', input_tokens: 9, output_tokens: 7, success: true });
  });

  it('reports a failed call as rate_limited', async () => {
    geminiFailures = [429];
    await expect(
      genai().models.generateContent({ model: 'gemini-2.0-flash', contents: 'x' }),
    ).rejects.toThrow();
    const [call] = await reported();
    expect(call).toMatchObject({ success: false, error_type: 'rate_limited' });
  });
});

describe('budgets', () => {
  it('says when Lumi answered that a provider’s budget is used up', async () => {
    bot.llmCall({ provider: 'openai', model: 'm', inputTokens: 1, outputTokens: 1, latencyMs: 1 });
    await bot.flush();
    expect(bot.budgetExceeded('openai')).toBe(true);
    expect(bot.budgetExceeded('gemini')).toBe(false);
  });
});
