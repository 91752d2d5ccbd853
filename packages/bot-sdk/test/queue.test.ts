import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLumi, type Lumi, type LumiOptions } from '../src/index.js';
import { FakeLumi } from './fake-lumi.js';
import { realSleep, until } from './wait.js';

/**
 * Batching, retries, offline behaviour and back-pressure, on a fake clock against a local HTTP server
 * (test/fake-lumi.ts). Every figure below is a default or an option of the client.
 */

let lumi: FakeLumi;
let client: Lumi | undefined;
const problems: string[] = [];

const connect = (options: Partial<LumiOptions> = {}) => {
  client = createLumi({
    url: lumi.url,
    apiKey: 'lumi_test',
    onError: (error) => problems.push(error.message),
    ...options,
  });
  return client;
};

const call = (n: number) => ({
  provider: 'openai',
  model: 'gpt-4o-mini',
  inputTokens: n,
  outputTokens: 1,
  latencyMs: 10,
  id: `call-${n}`,
});

beforeEach(async () => {
  lumi = await FakeLumi.start();
  problems.length = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // Backoff waits take their whole ceiling, so the times below are exact.
  vi.spyOn(Math, 'random').mockReturnValue(1);
});

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await client?.close(0);
  client = undefined;
  await lumi.close();
});

/** Moves the fake clock on, then gives real requests the time to arrive. */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  await realSleep(30);
}

describe('batching', () => {
  it('sends events together once flushIntervalMs has passed since the first', async () => {
    const bot = connect();
    for (let n = 1; n <= 3; n += 1) bot.llmCall(call(n));
    await advance(4900);
    expect(lumi.batches()).toHaveLength(0);
    await advance(100);
    await until(() => lumi.batches().length === 1, 'the batch');
    expect(lumi.batches()[0]!.map((e) => e.id)).toEqual(['call-1', 'call-2', 'call-3']);
    expect(lumi.requests[0]!.headers.authorization).toBe('Bearer lumi_test');
    await until(() => bot.stats().accepted === 3, 'the answer');
    expect(bot.stats()).toMatchObject({ queued: 0, accepted: 3, dropped: 0 });
  });

  it('sends a full batch at once, one request at a time, and the rest on time', async () => {
    const bot = connect({ queue: { maxBatchEvents: 10 } });
    for (let n = 1; n <= 25; n += 1) bot.llmCall(call(n));
    await until(() => lumi.batches().length === 2, 'two full batches');
    expect(lumi.batches().map((b) => b.length)).toEqual([10, 10]);
    await advance(5000);
    await until(() => lumi.batches().length === 3, 'the rest');
    expect(lumi.batches()[2]).toHaveLength(5);
    expect(lumi.stored.map((e) => e.id)).toEqual(Array.from({ length: 25 }, (_, i) => `call-${i + 1}`));
  });

  it('keeps each request under maxBatchBytes', async () => {
    const bot = connect({ queue: { maxBatchBytes: 2000 } });
    for (let n = 1; n <= 20; n += 1) bot.error(new Error('x'.repeat(300)), { id: `e${n}` });
    await bot.flush();
    const sizes = lumi.requests.map((r) => JSON.stringify(r.body).length);
    expect(lumi.stored).toHaveLength(20);
    expect(sizes.length).toBeGreaterThan(3);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(2100);
  });
});

describe('retries', () => {
  it('sends a failed batch again, unchanged, after 1 s, then 2 s, then 4 s', async () => {
    lumi.reply('/api/ingest/events', { status: 503 }, { status: 500 }, 'store-then-fail');
    const bot = connect();
    bot.llmCall(call(1));
    await advance(5000);
    await until(() => lumi.batches().length === 1, 'the first try');
    await advance(999);
    expect(lumi.batches()).toHaveLength(1);
    await advance(1);
    await until(() => lumi.batches().length === 2, 'the second try');
    await advance(2000);
    await until(() => lumi.batches().length === 3, 'the third try (stored, answer lost)');
    await advance(4000);
    await until(() => bot.stats().duplicates === 1, 'the fourth try, a duplicate');
    const [first, ...others] = lumi.batches();
    for (const batch of others) expect(batch).toEqual(first);
    expect(lumi.stored).toHaveLength(1);
    expect(bot.stats()).toMatchObject({ accepted: 0, duplicates: 1, retries: 3, queued: 0, lastError: null });
    // One line for the outage, not one per retry.
    expect(problems.filter((p) => p.includes('503'))).toHaveLength(1);
  });

  it('waits as long as a 429 Retry-After says', async () => {
    lumi.reply('/api/ingest/events', { status: 429, headers: { 'retry-after': '7' } });
    const bot = connect();
    bot.llmCall(call(1));
    await advance(5000);
    await until(() => lumi.batches().length === 1, 'the first try');
    await advance(6990);
    expect(lumi.batches()).toHaveLength(1);
    await advance(10);
    await until(() => lumi.stored.length === 1, 'the retry');
  });

  it('gives up on a request that gets no answer within requestTimeoutMs, and tries again', async () => {
    lumi.reply('/api/ingest/events', 'hang');
    const bot = connect({ requestTimeoutMs: 2000 });
    bot.llmCall(call(1));
    await advance(5000);
    await until(() => lumi.batches().length === 1, 'the first try');
    await advance(2000);
    await until(() => problems.some((p) => p.includes('no answer within 2000 ms')), 'the time-out');
    await advance(1000);
    await until(() => lumi.stored.length === 1, 'the retry');
  });

  it('drops a batch Lumi refuses whole (401) and goes on with the next', async () => {
    lumi.reply('/api/ingest/events', { status: 401, body: { detail: 'Unknown API key' } });
    const bot = connect();
    bot.llmCall(call(1));
    await advance(5000);
    await until(() => bot.stats().dropped === 1, 'the refusal');
    expect(problems.at(-1)).toMatch(/401: Unknown API key; these events were dropped/);
    bot.llmCall(call(2));
    await advance(5000);
    await until(() => lumi.stored.length === 1, 'the next batch');
    expect(lumi.stored[0]!.id).toBe('call-2');
  });

  it('tells about events Lumi refused one by one, and does not send them again', async () => {
    lumi.unknownTypes.add('feedback');
    const bot = connect();
    bot.feedback({ chatId: -100, messageId: 5, userId: 7, reaction: '👍' });
    bot.llmCall(call(1));
    await bot.flush();
    expect(bot.stats()).toMatchObject({ accepted: 1, rejected: 1, queued: 0 });
    expect(problems).toEqual(['Lumi refused a feedback event: type: Invalid input']);
    await advance(60_000);
    expect(lumi.batches()).toHaveLength(1);
  });
});

describe('while Lumi is down', () => {
  it('keeps the newest maxQueuedEvents, counts the dropped ones, and sends the rest once Lumi is back', async () => {
    lumi.offline = true;
    const bot = connect({ queue: { maxQueuedEvents: 100 } });
    for (let n = 1; n <= 150; n += 1) expect(bot.llmCall(call(n))).toBeUndefined();
    expect(bot.stats()).toMatchObject({ queued: 100, dropped: 50 });
    await advance(5000);
    await until(() => bot.stats().retries === 1, 'the failed try');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/Lumi could not be reached.*events are kept and sent again/);
    lumi.offline = false;
    await advance(1000);
    await until(() => lumi.stored.length === 100, 'the events kept');
    expect(lumi.stored.map((e) => e.id)).toEqual(Array.from({ length: 100 }, (_, i) => `call-${i + 51}`));
    expect(bot.stats()).toMatchObject({ queued: 0, accepted: 100, dropped: 50 });
  });

  it('never blocks the bot: a method returns at once while a request hangs', async () => {
    lumi.reply('/api/ingest/events', 'hang');
    const bot = connect({ queue: { maxBatchEvents: 1 } });
    bot.llmCall(call(1));
    await until(() => lumi.batches().length === 1, 'the hanging request');
    const started = performance.now();
    for (let n = 2; n <= 1000; n += 1) bot.llmCall(call(n));
    expect(performance.now() - started).toBeLessThan(500);
    expect(bot.stats().queued).toBe(1000);
  });

  it('flush() resolves after its time limit with what is still waiting; close() drops later events', async () => {
    lumi.reply('/api/ingest/events', { status: 503 }, { status: 503 });
    const bot = connect();
    bot.llmCall(call(1));
    expect(await withClock(bot.flush(3000))).toBe(1);
    expect(lumi.batches()).toHaveLength(2);
    expect(await withClock(bot.close(10_000))).toBe(0);
    expect(lumi.stored).toHaveLength(1);
    bot.llmCall(call(2));
    expect(bot.stats().dropped).toBe(1);
  });
});

/** Moves the fake clock on in steps until `promise` settles. */
async function withClock<T>(promise: Promise<T>, stepMs = 250): Promise<T> {
  let settled = false;
  void promise.finally(() => (settled = true));
  for (let step = 0; !settled; step += 1) {
    if (step > 400) throw new Error('Still waiting after 100 s on the fake clock');
    await advance(stepMs);
  }
  return promise;
}
